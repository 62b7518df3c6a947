"""A game's record as JSON, replayed: ``{"game_id", "options", "first_dealer", "actions"}``.

A record is every action of a game in the record notation, the cards of each
deal and cut included (``POST /v1/games/replay``, a match's game given by its
record).  Errors are located inside the record (``("actions", 40)``).
"""

from __future__ import annotations

from typing import Any

from service.core.errors import MalformedError, located
from service.core.game import GameState, replay_record

from .actions import parse_actions
from .options import options_from_json


def replay_from_json(record: dict[str, Any]) -> tuple[GameState, list[tuple[int, ...]]]:
    """Replay a record as its schema loaded it: the final state and the
    scores after each deal.  An illegal action raises
    :class:`~service.core.errors.IllegalError` with the legal actions of that
    moment, located at ``("actions", index)``."""
    with located("options"):
        options = options_from_json(record["options"])
    if record["first_dealer"] >= options.players:
        raise MalformedError("the first dealer is a seat at the table", at=("first_dealer",))
    with located("actions"):
        actions = parse_actions(record["actions"])
    return replay_record(options, record["first_dealer"], record["game_id"], actions)
