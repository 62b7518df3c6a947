"""The game state as JSON (format version 2), and back.

A state is where the current deal began plus the actions taken since, in
the record notation (:mod:`service.core.game.actions`)::

    {"version": 2, "game_id": "...32 hex...", "seq": 57,
     "options": {...only those that differ from the defaults...},
     "first_dealer": 0, "deal": 4, "dealer": 1, "pegs": [[40, 38], [33, 29]],
     "deck_seed": "...32 hex...", "history": "...64 hex...",
     "actions": ["deal 1 ...", "discard 0 5H6C", ...]}

Reading one replays the actions (:func:`service.core.game.restore`), so
every derived fact is recomputed; nothing in it is taken on trust.  Format 1
(the states of the first release, which kept every derived fact) is no
longer read: a state of that format is refused, saying so.  A state of a
format newer than :data:`READS` (a later release wrote it) is refused as a
:class:`~service.core.errors.NewerVersionError` before anything else in it is
looked at, whatever fields it has: the edge answers it as its own problem, so
a client in a rolling upgrade can tell it from a bad state.  Errors are
located inside the state (``("actions", 3)``): the caller says where the
state sits in its request.
"""

from __future__ import annotations

import re
from typing import Any

from service.core.errors import MalformedError, NewerVersionError, echo, located
from service.core.game import GameState, notation, restore
from service.core.game.state import MAX_DEALS

from .actions import parse_actions
from .options import options_from_json, options_to_json

VERSION = 2
"""The format this release writes."""
READS = (2,)
"""The formats this release reads.  The rollout rule (README, "Compatibility policy"): a new
state field or option is a new format, read first (added here, still writing the old one) and
written one release later, so that every replica of a rolling upgrade reads what any other
writes; tests/test_state_versions.py holds the releases' states (tests/states/) to it."""
MAX_VERSION = 10**9 - 1
"""The largest format a state may say it is and be told apart as newer (a token's version has at
most 9 digits too); a larger number is no format at all."""
FORMAT_1_RETIRED = ("format 1 is no longer read: this service reads game states of format 2 only "
                    "(start a new game; see the changelog)")
MAX_ACTIONS = 100
"""More than any deal can take (4 players: 1 deal, 4 discards, 1 cut, 16 plays, the gos, 5 counts)."""
MAX_SEQ = 100_000
_KEYS = {"version", "game_id", "seq", "options", "first_dealer", "deal", "dealer", "pegs", "deck_seed",
         "history", "actions"}
_HEX32 = re.compile(r"[0-9a-f]{32}")
_HEX64 = re.compile(r"[0-9a-f]{64}")


def state_to_json(state: GameState) -> dict[str, Any]:
    return {
        "version": VERSION, "game_id": state.game_id, "seq": state.seq,
        "options": options_to_json(state.options), "first_dealer": state.first_dealer,
        "deal": state.deal, "dealer": state.dealer, "pegs": [list(p) for p in state.pegs],
        "deck_seed": state.deck_seed, "history": state.history,
        "actions": [notation(a) for a in state.actions],
    }


def _int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if type(value) is not int or not low <= value <= high:
        raise MalformedError(f"{key} is a whole number from {low} to {high}", at=(key,))
    return value


def _text(data: dict[str, Any], key: str, pattern: re.Pattern[str], what: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise MalformedError(f"{key} is {what}", at=(key,))
    return value


def state_from_json(data: Any) -> GameState:
    """Read and verify a state; a bad one raises :class:`MalformedError` located inside it."""
    if not isinstance(data, dict):
        raise MalformedError("a game state is a JSON object")
    version = data.get("version")
    if type(version) is int and version == 1:
        raise MalformedError(FORMAT_1_RETIRED, at=("version",))
    if type(version) is int and max(READS) < version <= MAX_VERSION:
        raise NewerVersionError(
            f"this state is of format {version}, written by a newer release; this replica reads "
            f"formats {', '.join(map(str, READS))}: send it to a replica of that release",
            version=version, reads=READS, at=("version",))
    for key in data:
        if key not in _KEYS:
            raise MalformedError(f"unknown field {echo(key)}", at=(key,))
    for key in _KEYS:
        if key not in data:
            raise MalformedError(f"the state has no {key!r}", at=(key,))
    if type(version) is not int or version not in READS:
        raise MalformedError(f"this service reads state format {VERSION} only", at=("version",))
    with located("options"):
        options = options_from_json(data["options"])
    n = options.players
    game_id = _text(data, "game_id", _HEX32, "32 lowercase hex digits")
    history = _text(data, "history", _HEX64, "64 lowercase hex digits")
    seq = _int(data, "seq", 0, MAX_SEQ)
    first_dealer = _int(data, "first_dealer", 0, n - 1)
    deal = _int(data, "deal", 1, MAX_DEALS)
    dealer = _int(data, "dealer", 0, n - 1)
    deck_seed = data["deck_seed"]
    if deck_seed is not None:
        deck_seed = _text(data, "deck_seed", _HEX32, "32 lowercase hex digits, or null with a client deck")
    pegs = data["pegs"]
    if not isinstance(pegs, list) or len(pegs) != options.sides:
        raise MalformedError(f"pegs has one [front, back] per side ({options.sides})", at=("pegs",))
    for i, p in enumerate(pegs):
        if not (isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p)):
            raise MalformedError("pegs are [front, back]", at=("pegs", i))
    raw_actions = data["actions"]
    if not isinstance(raw_actions, list) or len(raw_actions) > MAX_ACTIONS:
        raise MalformedError(f"actions is a list of at most {MAX_ACTIONS} actions", at=("actions",))
    if len(raw_actions) > seq:
        raise MalformedError("seq counts every action of the game, this deal's too", at=("seq",))
    with located("actions"):
        actions = parse_actions(raw_actions)
    return restore(game_id, options, first_dealer, deck_seed, deal, dealer,
                   tuple((f, b) for f, b in pegs), seq - len(actions), history, actions)
