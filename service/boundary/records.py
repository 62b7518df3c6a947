"""A game's record as JSON, replayed: ``{"game_id", "options", "first_dealer", "actions"}``.

A record is every action of a game in the record notation, the cards of each
deal and cut included (``POST /v1/games/replay``, a match's game given by its
record).  Errors are located inside the record (``("actions", 40)``).
"""

from __future__ import annotations

from typing import Any

from service.core.errors import MalformedError, located
from service.core.game import Cut, Deal, DealRecorded, GameEvent, GameState, notation, replay_record
from service.core.game.deck import commitment, dealt, mixed_seed

from .actions import parse_actions
from .options import options_from_json, options_to_json
from .state import Carried

RECORD_HIDDEN_OPTIONS = frozenset({"deck", "seed"})
"""Options a whole record leaves out: a record gives every card outright (a replay deals from it),
and a seeded deck's seed would give another game's packs away."""


def carried_after(carried: Carried, before: GameState, after: GameState, events: list[GameEvent]) -> Carried:
    """What a state carries after an action: a finished deal's record added when it keeps them."""
    if carried.records is None or after.deal == before.deal:
        return carried
    record = next(e.record for e in events if type(e) is DealRecorded)
    return carried._replace(records=carried.records + (record,))


def whole_record(state: GameState, records: tuple[tuple[str, ...], ...]) -> dict[str, Any]:
    """A finished game's record as ``POST /v1/games/replay`` takes it: every finished deal's record,
    then the last deal's actions."""
    actions = [line for record in records for line in record] + [notation(a) for a in state.actions]
    return {"game_id": state.game_id, "options": options_to_json(state.options, hidden=RECORD_HIDDEN_OPTIONS),
            "first_dealer": state.first_dealer, "actions": actions}


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


def check_packs(record: dict[str, Any]) -> None:
    """A committed game's record (with its ``deck``, loaded by the schema and replayed already)
    against its commitment: the server seed must open it, and every deal's cards (each seat's, in
    any order, and the crib's) and starter must be what that deal's pack deals (docs/deals.md).
    Raises :class:`MalformedError` naming the deck's member or the first deal that differs."""
    deck = record["deck"]
    with located("options"):
        options = options_from_json(record["options"])
    game_id = record["game_id"]
    if commitment(game_id, deck["server_seed"]) != deck["commitment"]:
        raise MalformedError("the server seed does not open the commitment (SHA-256 of the tag, the game id "
                             "and the server seed)", at=("deck", "server_seed"))
    if len(deck["contributions"]) != options.players:
        raise MalformedError(f"contributions holds one per seat ({options.players})", at=("deck", "contributions"))
    seed = mixed_seed(game_id, deck["server_seed"], deck["contributions"])
    with located("actions"):
        actions = parse_actions(record["actions"])
    deal, starter = 0, None
    for i, action in enumerate(actions):
        if type(action) is Deal:
            deal += 1
            hands, crib, starter = dealt(seed, deal, options.players, action.seat, options.cards_dealt,
                                         options.dealt_to_crib)
            if (action.hands is None or [sorted(h) for h in action.hands] != [sorted(h) for h in hands]
                    or sorted(action.crib) != sorted(crib)):
                raise MalformedError(f"deal {deal}'s cards are not what the committed pack deals", at=("actions", i))
        elif type(action) is Cut and action.starter != starter:
            raise MalformedError(f"deal {deal}'s starter is not the committed pack's", at=("actions", i))
