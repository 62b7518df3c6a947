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
from typing import Any, NamedTuple

from service.core.errors import MalformedError, NewerVersionError, echo, located
from service.core.game import GameState, notation, restore
from service.core.game.state import MAX_DEALS, chain, genesis

from .actions import parse_actions
from .options import options_from_json, options_to_json

VERSION = 2
"""The format this release writes unless its deployment says otherwise (``CRIBBAGE_STATE_FORMAT``)."""
NEXT = 3
"""The format this release reads and writes only when told to (``CRIBBAGE_STATE_FORMAT=3``, once
every replica reads it; the next release writes it by default): format 2 and ``records``, each
finished deal's record (a sealed game's, null in a plain one: there every seat receives them), and
``contributions``, the seats' entropy mixed into a committed game's deck seed (docs/deals.md)."""
READS = (2, 3)
"""The formats this release reads.  The rollout rule (README, "Compatibility policy"): a new
state field or option is a new format, read first (added here, still writing the old one) and
written one release later, so that every replica of a rolling upgrade reads what any other
writes; tests/system/test_state_versions.py holds the releases' states (tests/states/) to it."""
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
_KEYS_3 = _KEYS | {"records", "contributions"}
MAX_RECORD_LINE = 120
"""The longest action in notation (a record's line)."""
_HEX32 = re.compile(r"[0-9a-f]{32}")
_HEX64 = re.compile(r"[0-9a-f]{64}")


class Carried(NamedTuple):
    """What a format-3 state carries besides the position (the game's, not the deal's)."""

    records: tuple[tuple[str, ...], ...] | None = None
    """Each finished deal's record (its actions in notation), deal 1 first; None: not kept."""
    contributions: tuple[str | None, ...] | None = None
    """A committed game's (a random-deck sealed one's): each seat's contribution to the deck seed
    (64 hex digits, None where it gave none), in seat order; None: the game takes none."""


NOTHING = Carried()


def state_to_json(state: GameState, carried: Carried = NOTHING, version: int = VERSION) -> dict[str, Any]:
    """The state in format ``version`` (2: ``carried`` is not written; 3: it is)."""
    out = {
        "version": version, "game_id": state.game_id, "seq": state.seq,
        "options": options_to_json(state.options), "first_dealer": state.first_dealer,
        "deal": state.deal, "dealer": state.dealer, "pegs": [list(p) for p in state.pegs],
        "deck_seed": state.deck_seed, "history": state.history,
        "actions": [notation(a) for a in state.actions],
    }
    if version >= 3:
        out["records"] = None if carried.records is None else [list(r) for r in carried.records]
        out["contributions"] = None if carried.contributions is None else list(carried.contributions)
    return out


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
    return held_from_json(data)[0]


def held_from_json(data: Any) -> tuple[GameState, Carried]:
    """Read and verify a state with what it carries (format 2: nothing)."""
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
    keys = _KEYS_3 if version == 3 else _KEYS
    for key in data:
        if key not in keys:
            raise MalformedError(f"unknown field {echo(key)}", at=(key,))
    for key in keys:
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
    state = restore(game_id, options, first_dealer, deck_seed, deal, dealer,
                    tuple((f, b) for f, b in pegs), seq - len(actions), history, actions)
    if version == 2:
        return state, NOTHING
    return state, Carried(_records(data["records"], state), _contributions(data["contributions"], n))


def _contributions(raw: Any, players: int) -> tuple[str | None, ...] | None:
    if raw is None:
        return None
    if not (isinstance(raw, list) and len(raw) == players
            and all(c is None or isinstance(c, str) and _HEX64.fullmatch(c) for c in raw)):
        raise MalformedError(f"contributions holds one per seat ({players}): 64 lowercase hex digits or null",
                             at=("contributions",))
    return tuple(raw)


def _records(raw: Any, state: GameState) -> tuple[tuple[str, ...], ...] | None:
    """The finished deals' records, held to the state's history: they must chain from the
    game's genesis to it (SHA-256), one per finished deal."""
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != state.deal - 1:
        raise MalformedError(f"records holds one record per finished deal ({state.deal - 1})", at=("records",))
    history = genesis(state.game_id, state.options, state.first_dealer)
    out = []
    for i, record in enumerate(raw):
        if not (isinstance(record, list) and 0 < len(record) <= MAX_ACTIONS
                and all(isinstance(line, str) and 0 < len(line) <= MAX_RECORD_LINE for line in record)):
            raise MalformedError(f"a deal's record is a list of 1 to {MAX_ACTIONS} actions in notation",
                                 at=("records", i))
        history = chain(history, record)
        out.append(tuple(record))
    if history != state.history:
        raise MalformedError("the records are not this game's deals: they do not chain to its history",
                             at=("records",))
    return tuple(out)
