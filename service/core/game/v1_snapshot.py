"""Reading a game state of format version 1: every field type-checked and bounded.

:func:`read` turns the JSON object into a :class:`Snapshot` or raises
:class:`MalformedError` naming the field (``state/hands/1``); the conversion
to version 2 is :mod:`.state_v1`.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from ..cards import CARDS, Card
from ..errors import MalformedError
from ..options import GameOptions
from .position import PHASES
from .state import MAX_DEALS

VERSION = 1
MAX_LOG = 5000
"""Log entries a version 1 state may hold (a whole game logs well under 1,500)."""

_STATE_KEYS = ("version", "options", "phase", "hand", "dealer", "first_dealer", "to_act", "scores",
               "hands", "crib", "starter", "deck", "play", "shown", "result", "log")
_PLAY_KEYS = ("turn", "count", "count_cards", "passed", "last_player", "played")
_RESULT_KEYS = ("winner", "losers", "next_first_dealer")
_LOSER_KEYS = ("side", "score", "result", "games")
_LOG_KEYS = frozenset({"type", "hand", "seat", "cards", "count", "what", "reset", "scores", "points"})
_SCORE_KEYS = ("seat", "side", "kind", "points")
LOGGED_ACTIONS = ("deal", "discard", "starter", "play", "go", "count")
_LOG_TYPES = ("cut_for_deal", *LOGGED_ACTIONS, "game_over")
BY_CODE = {str(c): c for c in CARDS}
_MAX_POINTS = 29
"""The most one score in an event pegs (a 29 hand, or a muggins of it)."""


# ---------------------------------------------------------------------------
# Reading the fields: every access type-checked, every size bounded.


def canonical(value: Any) -> bytes:
    """The canonical JSON of checked data (only JSON types, shallow)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def _object(value: Any, where: str, known: tuple[str, ...] | frozenset[str], *, all_required: bool = True
            ) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise MalformedError(f"{where} is a JSON object", field=where)
    for key in value:
        if not isinstance(key, str):
            raise MalformedError(f"{where} has a key that is not a string", field=where)
        if key not in known:
            raise MalformedError(f"unknown field {key[:40]!r}", field=f"{where}/{key[:40]}")
    if all_required:
        for key in known:
            if key not in value:
                raise MalformedError(f"{where} has no {key!r}", field=f"{where}/{key}")
    return value


def _int(value: Any, where: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise MalformedError(f"a whole number from {low} to {high} is expected here", field=where)
    return value


def _seat(value: Any, where: str, players: int, *, nullable: bool = False) -> int | None:
    if value is None and nullable:
        return None
    if type(value) is not int or not 0 <= value < players:
        raise MalformedError(f"a seat at this {players}-player table is expected here", field=where)
    return value


def _card(value: Any, where: str) -> Card:
    card = BY_CODE.get(value) if type(value) is str else None
    if card is None:
        raise MalformedError("a card is written as in 5H or TD", field=where)
    return card


def _cards(value: Any, where: str, most: int) -> tuple[Card, ...]:
    if not isinstance(value, list) or len(value) > most:
        raise MalformedError(f"a list of at most {most} cards is expected here", field=where)
    return tuple(_card(v, f"{where}/{i}") for i, v in enumerate(value))


class Snapshot(NamedTuple):
    """The facts of a version 1 state, read and type-checked."""

    options: GameOptions
    phase: str
    hand: int
    dealer: int
    first_dealer: int
    to_act: list[int]
    scores: tuple[tuple[int, int], ...]
    hands: tuple[tuple[Card, ...], ...]
    crib: tuple[Card, ...]
    starter: Card | None
    deck: tuple[Card, ...] | None
    play: dict[str, Any] | None
    shown: int
    result: dict[str, Any] | None
    log: list[dict[str, Any]]


def read(data: Any) -> Snapshot:
    d = _object(data, "state", _STATE_KEYS)
    if type(d["version"]) is not int or d["version"] != VERSION:
        raise MalformedError("this reads version 1 states", field="state/version")
    try:
        options = GameOptions.from_json(d["options"])
    except MalformedError as exc:
        exc.field = f"state/{exc.field}" if exc.field else "state/options"
        raise
    seed = d["options"].get("seed")
    if isinstance(seed, str) and len(seed) > 1000:
        raise MalformedError("the seed is at most 1,000 characters", field="state/options/seed")
    n, sides = options.players, options.sides
    phase = d["phase"]
    if not isinstance(phase, str) or phase not in PHASES:
        raise MalformedError(f"phase is one of {', '.join(PHASES)}", field="state/phase")
    hand = _int(d["hand"], "state/hand", 0, MAX_DEALS)
    dealer = _seat(d["dealer"], "state/dealer", n)
    first_dealer = _seat(d["first_dealer"], "state/first_dealer", n)
    raw = d["to_act"]
    if not isinstance(raw, list) or len(raw) > n:
        raise MalformedError("to_act lists seats", field="state/to_act")
    to_act = [_seat(s, f"state/to_act/{i}", n) for i, s in enumerate(raw)]
    raw = d["scores"]
    if not isinstance(raw, list) or len(raw) != sides:
        raise MalformedError(f"scores has one {{front, back}} per side ({sides})", field="state/scores")
    scores = []
    for i, s in enumerate(raw):
        s = _object(s, f"state/scores/{i}", ("front", "back"))
        front = _int(s["front"], f"state/scores/{i}/front", 0, options.target + _MAX_POINTS)
        back = _int(s["back"], f"state/scores/{i}/back", 0, front)
        scores.append((front, back))
    raw = d["hands"]
    if not isinstance(raw, list) or len(raw) != n:
        raise MalformedError(f"hands has one hand per seat ({n})", field="state/hands")
    hands = tuple(_cards(h, f"state/hands/{i}", options.cards_dealt) for i, h in enumerate(raw))
    crib = _cards(d["crib"], "state/crib", 4)
    starter = None if d["starter"] is None else _card(d["starter"], "state/starter")
    deck = None if d["deck"] is None else _cards(d["deck"], "state/deck", 52)
    play = None if d["play"] is None else _read_play(d["play"], n)
    shown = _int(d["shown"], "state/shown", 0, n + 1)
    res = None if d["result"] is None else _read_result(d["result"], sides, n, options.target)
    raw = d["log"]
    if not isinstance(raw, list) or len(raw) > MAX_LOG:
        raise MalformedError(f"the log is a list of at most {MAX_LOG:,} entries", field="state/log")
    log = [_read_entry(e, f"state/log/{i}", options) for i, e in enumerate(raw)]
    return Snapshot(options, phase, hand, dealer, first_dealer, to_act, tuple(scores), hands, crib,
                     starter, deck, play, shown, res, log)


def _read_play(raw: Any, n: int) -> dict[str, Any]:
    p = _object(raw, "state/play", _PLAY_KEYS)
    passed = p["passed"]
    if not isinstance(passed, list) or len(passed) > n:
        raise MalformedError("passed lists seats", field="state/play/passed")
    return {
        "turn": _seat(p["turn"], "state/play/turn", n, nullable=True),
        "count": _int(p["count"], "state/play/count", 0, 31),
        "count_cards": list(_cards(p["count_cards"], "state/play/count_cards", 16)),
        "passed": [_seat(s, f"state/play/passed/{i}", n) for i, s in enumerate(passed)],
        "last_player": _seat(p["last_player"], "state/play/last_player", n, nullable=True),
        "played": list(_cards(p["played"], "state/play/played", 16)),
    }


def _read_result(raw: Any, sides: int, n: int, target: int) -> dict[str, Any]:
    r = _object(raw, "state/result", _RESULT_KEYS)
    _int(r["winner"], "state/result/winner", 0, sides - 1)
    _seat(r["next_first_dealer"], "state/result/next_first_dealer", n)
    losers = r["losers"]
    if not isinstance(losers, list) or len(losers) >= sides:
        raise MalformedError("losers lists the other sides", field="state/result/losers")
    for i, entry in enumerate(losers):
        where = f"state/result/losers/{i}"
        entry = _object(entry, where, _LOSER_KEYS)
        _int(entry["side"], f"{where}/side", 0, sides - 1)
        _int(entry["score"], f"{where}/score", 0, target)
        _int(entry["games"], f"{where}/games", 1, 4)
        if entry["result"] not in (None, "skunk", "double_skunk", "lurch"):  # None or a str: hashable
            raise MalformedError("result is null, skunk, double_skunk or lurch", field=f"{where}/result")
    return r


def _read_entry(raw: Any, where: str, options: GameOptions) -> dict[str, Any]:
    """One log entry: its shape.  What it says is checked by the replay."""
    e = _object(raw, where, _LOG_KEYS, all_required=False)
    kind = e.get("type")
    if not isinstance(kind, str) or kind not in _LOG_TYPES:
        raise MalformedError(f"a log entry's type is one of {', '.join(_LOG_TYPES)}", field=f"{where}/type")
    _int(e.get("hand"), f"{where}/hand", 0, MAX_DEALS)
    if "seat" in e:
        _seat(e["seat"], f"{where}/seat", options.players)
    elif kind in LOGGED_ACTIONS:
        raise MalformedError(f"a {kind} is made by a seat", field=f"{where}/seat")
    if "cards" in e:
        _cards(e["cards"], f"{where}/cards", 4)
    elif kind in ("discard", "starter", "play", "count", "cut_for_deal"):
        raise MalformedError(f"a {kind} names its cards", field=f"{where}/cards")
    if "count" in e:
        _int(e["count"], f"{where}/count", 0, 31)
    if "what" in e and e["what"] not in ("hand", "crib"):  # a str or not: `in` on a tuple never raises
        raise MalformedError("what is 'hand' or 'crib'", field=f"{where}/what")
    if "reset" in e and e["reset"] is not True:
        raise MalformedError("reset is given only as true", field=f"{where}/reset")
    if "scores" in e:
        scores = e["scores"]
        if not isinstance(scores, list) or not 1 <= len(scores) <= 16:
            raise MalformedError("scores is a list of 1 to 16 scores", field=f"{where}/scores")
        for j, s in enumerate(scores):
            at = f"{where}/scores/{j}"
            s = _object(s, at, _SCORE_KEYS)
            _seat(s["seat"], f"{at}/seat", options.players)
            _int(s["side"], f"{at}/side", 0, options.sides - 1)
            _int(s["points"], f"{at}/points", 1, _MAX_POINTS)
            if not isinstance(s["kind"], str) or len(s["kind"]) > 20:
                raise MalformedError("a score's kind is a short name", field=f"{at}/kind")
    if "points" in e:
        _int(e["points"], f"{where}/points", 1, 16 * _MAX_POINTS)
    return e
