"""A game state as JSON, and back, checking that it is one a game could reach.

The format is versioned (``"version": 1``).  Reading a state checks its shape
field by field and then its consistency: no card in two places, 52 cards when
the service holds the deck, hand and crib sizes that fit the phase, a count
that matches the cards in it, and pegs that add up to the points in the log.
"""

from __future__ import annotations

from typing import Any

from .cards import Card, ensure_distinct
from .errors import CribbageError, DuplicateCardError, MalformedError
from .game import PHASES, GameState
from .options import GameOptions
from .play import MAX_COUNT, Play

VERSION = 1


def to_json(state: GameState) -> dict[str, Any]:
    """The full state (every hidden card included) as JSON-ready data."""
    peg = state.pegging
    return {
        "version": VERSION,
        "options": state.options.to_json(),
        "phase": state.phase,
        "hand": state.hand,
        "dealer": state.dealer,
        "first_dealer": state.first_dealer,
        "to_act": state.to_act(),
        "scores": [{"front": f, "back": b} for f, b in state.scores],
        "hands": [[str(c) for c in h] for h in state.hands],
        "crib": [str(c) for c in state.crib],
        "starter": str(state.starter) if state.starter is not None else None,
        "deck": [str(c) for c in state.deck] if state.deck is not None else None,
        "play": None if peg is None else {
            "turn": peg.turn,
            "count": peg.count,
            "count_cards": [str(c) for c in peg.count_cards],
            "passed": sorted(peg.passed),
            "last_player": peg.last_player,
            "played": [str(c) for c in peg.played],
        },
        "shown": state.shown,
        "result": state.result,
        "log": list(state.log),
    }


class _Reader:
    """Reads one field at a time, naming the field in every error."""

    def __init__(self, data: Any, where: str = "state") -> None:
        if not isinstance(data, dict):
            raise MalformedError(f"{where} is a JSON object", field=where)
        self.data = data
        self.where = where

    def get(self, key: str, kind: type | tuple[type, ...], *, nullable: bool = False) -> Any:
        if key not in self.data:
            raise MalformedError(f"the state has no {key!r}", field=f"{self.where}/{key}")
        value = self.data[key]
        if value is None and nullable:
            return None
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise MalformedError(f"{key!r} has the wrong type", field=f"{self.where}/{key}")
        if not isinstance(value, kind):
            raise MalformedError(f"{key!r} has the wrong type", field=f"{self.where}/{key}")
        return value

    def seat(self, key: str, players: int, *, nullable: bool = False) -> int | None:
        value = self.get(key, int, nullable=nullable)
        if value is not None and not 0 <= value < players:
            raise MalformedError(f"{key!r} is not a seat at a {players}-player table",
                                 field=f"{self.where}/{key}")
        return value


def _card(text: Any, field: str) -> Card:
    try:
        return Card.parse(text)
    except MalformedError as exc:
        exc.field = field
        raise


def _cards(value: Any, field: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise MalformedError("expected a list of cards", field=field)
    return tuple(_card(text, f"{field}/{i}") for i, text in enumerate(value))


def from_json(data: Any) -> GameState:
    """Read and check a full state; a bad one raises :class:`MalformedError` naming the field."""
    try:
        return _from_json(data)
    except CribbageError:
        raise
    except (TypeError, KeyError, IndexError, AttributeError, ValueError) as exc:
        raise MalformedError(f"the state is not a game state: {exc}", field="state") from None


_STATE_KEYS = {"version", "options", "phase", "hand", "dealer", "first_dealer", "to_act", "scores",
               "hands", "crib", "starter", "deck", "play", "shown", "result", "log"}
_PLAY_KEYS = {"turn", "count", "count_cards", "passed", "last_player", "played"}


def _no_unknown_keys(data: dict[str, Any], known: set[str], where: str) -> None:
    for key in data:
        if key not in known:
            raise MalformedError(f"unknown field {key!r}", field=f"{where}/{key}")


def _from_json(data: Any) -> GameState:
    r = _Reader(data)
    _no_unknown_keys(data, _STATE_KEYS, "state")
    version = r.get("version", int)
    if version != VERSION:
        raise MalformedError(f"unknown state version {version}; this service reads version {VERSION}",
                             field="state/version")
    raw_options = r.get("options", dict)
    try:
        options = GameOptions.from_json(raw_options)
    except MalformedError as exc:
        exc.field = f"state/{exc.field}"
        raise
    n = options.players
    phase = r.get("phase", str)
    if phase not in PHASES:
        raise MalformedError(f"unknown phase {phase!r}", field="state/phase")
    hand_no = r.get("hand", int)
    dealer = r.seat("dealer", n)
    first_dealer = r.seat("first_dealer", n)
    shown = r.get("shown", int)

    raw_scores = r.get("scores", list)
    if len(raw_scores) != options.sides:
        raise MalformedError(f"{options.sides} scores are kept in this game", field="state/scores")
    scores = []
    for i, s in enumerate(raw_scores):
        if not (isinstance(s, dict) and set(s) == {"front", "back"}
                and all(type(v) is int for v in s.values()) and 0 <= s["back"] <= s["front"]):
            raise MalformedError("a score is {front, back} with 0 <= back <= front",
                                 field=f"state/scores/{i}")
        scores.append((s["front"], s["back"]))

    raw_hands = r.get("hands", list)
    if len(raw_hands) != n:
        raise MalformedError(f"{n} hands are held in this game", field="state/hands")
    hands = tuple(_cards(h, f"state/hands/{i}") for i, h in enumerate(raw_hands))
    crib = _cards(r.get("crib", list), "state/crib")
    starter_text = r.get("starter", str, nullable=True)
    starter = _card(starter_text, "state/starter") if starter_text is not None else None
    raw_deck = r.get("deck", list, nullable=True)
    deck = _cards(raw_deck, "state/deck") if raw_deck is not None else None

    everything = [c for h in hands for c in h] + list(crib) + list(deck or ())
    if starter is not None:
        everything.append(starter)
    try:
        ensure_distinct(everything)
    except DuplicateCardError as exc:
        raise MalformedError(f"{exc.card} is in two places in the state", field="state") from None

    _check_sizes(options, phase, hands, crib, starter, deck, everything)

    pegging = None
    raw_play = r.get("play", dict, nullable=True)
    if phase in ("play", "show") or (phase == "over" and raw_play is not None):
        if raw_play is None:
            raise MalformedError("the play is missing", field="state/play")
        pegging = _read_play(raw_play, options, hands, phase)
    elif raw_play is not None:
        raise MalformedError(f"no play is in progress in phase {phase!r}", field="state/play")

    if phase == "show" and not 0 <= shown <= n:
        raise MalformedError(f"shown is 0 to {n} in the show", field="state/shown")
    if phase not in ("show", "over") and shown != 0:
        raise MalformedError("shown is 0 outside the show", field="state/shown")

    log = r.get("log", list)
    totals = [0] * options.sides
    for i, entry in enumerate(log):
        _check_log_entry(entry, f"state/log/{i}")
        for s in entry.get("scores", ()):
            if not (isinstance(s, dict) and type(s.get("points")) is int and type(s.get("side")) is int
                    and 0 <= s["side"] < options.sides):
                raise MalformedError("a score in the log has a side and points", field=f"state/log/{i}")
            totals[s["side"]] += s["points"]
    if totals != [f for f, _ in scores]:
        raise MalformedError(
            f"the scores {[f for f, _ in scores]} do not add up to the points in the log {totals}",
            field="state/scores",
        )

    result = r.get("result", dict, nullable=True)
    reached = [side for side, (f, _) in enumerate(scores) if f >= options.target]
    if phase == "over":
        if len(reached) != 1 or result is None or result.get("winner") != reached[0]:
            raise MalformedError("a finished game has exactly one side at the target, its winner",
                                 field="state/result")
    elif reached or result is not None:
        raise MalformedError("a side has reached the target but the game is not over", field="state/scores")

    state = GameState(
        options=options, dealer=dealer, first_dealer=first_dealer, hand=hand_no, phase=phase,
        scores=tuple(scores), hands=hands, crib=crib, starter=starter, deck=deck,
        pegging=pegging, shown=shown, log=tuple(log), result=result,
    )
    if phase == "over":
        return state
    to_act = r.get("to_act", list)
    if to_act != state.to_act():
        raise MalformedError(f"to_act should be {state.to_act()}", field="state/to_act")
    return state


_LOG_KEYS = {"type", "hand", "seat", "cards", "count", "what", "reset", "scores", "points"}
_LOG_TYPES = {"cut_for_deal", "deal", "discard", "starter", "play", "go", "count", "game_over"}


def _check_log_entry(entry: Any, where: str) -> None:
    if not isinstance(entry, dict):
        raise MalformedError("a log entry is an object", field=where)
    _no_unknown_keys(entry, _LOG_KEYS, where)
    if entry.get("type") not in _LOG_TYPES or type(entry.get("hand")) is not int:
        raise MalformedError("a log entry has a known type and a hand number", field=where)
    seat = entry.get("seat")
    if seat is not None and type(seat) is not int:
        raise MalformedError("a log entry's seat is a seat", field=f"{where}/seat")
    _cards(entry.get("cards", []), f"{where}/cards")
    if not isinstance(entry.get("scores", []), list):
        raise MalformedError("scores is a list", field=f"{where}/scores")


def _check_sizes(options: GameOptions, phase: str, hands: tuple[tuple[Card, ...], ...],
                 crib: tuple[Card, ...], starter: Card | None, deck: tuple[Card, ...] | None,
                 everything: list[Card]) -> None:
    sizes = [len(h) for h in hands]
    if phase == "deal":
        if any(sizes) or crib or starter is not None or deck is not None:
            raise MalformedError("before the deal no cards are out", field="state/hands")
        return
    if phase == "over":
        return
    if phase == "discard":
        if any(s not in (4, options.cards_dealt) for s in sizes) or all(s == 4 for s in sizes):
            raise MalformedError("hand sizes do not fit the discard", field="state/hands")
        want_crib = options.dealt_to_crib + options.discards * sizes.count(4)
    else:
        if any(s != 4 for s in sizes):
            raise MalformedError("each seat holds 4 cards after the discard", field="state/hands")
        want_crib = 4
    if len(crib) != want_crib:
        raise MalformedError(f"the crib should hold {want_crib} cards", field="state/crib")
    if (starter is None) != (phase in ("discard", "cut")):
        raise MalformedError("the starter is turned at the cut, not before", field="state/starter")
    if (deck is None) != (options.deck == "client"):
        raise MalformedError("the deck is kept exactly when the service deals", field="state/deck")
    if deck is not None and len(everything) != 52:
        raise MalformedError(f"the state holds {len(everything)} cards, not 52", field="state/deck")


def _read_play(raw: dict[str, Any], options: GameOptions, hands: tuple[tuple[Card, ...], ...],
               phase: str) -> Play:
    r = _Reader(raw, "state/play")
    _no_unknown_keys(raw, _PLAY_KEYS, "state/play")
    n = options.players
    turn = r.seat("turn", n, nullable=True)
    played = _cards(r.get("played", list), "state/play/played")
    count_cards = _cards(r.get("count_cards", list), "state/play/count_cards")
    last_player = r.seat("last_player", n, nullable=True)
    passed = r.get("passed", list)
    if not all(type(p) is int and 0 <= p < n for p in passed):
        raise MalformedError("passed lists seats", field="state/play/passed")
    try:
        ensure_distinct(played)
    except DuplicateCardError as exc:
        exc.field = "state/play/played"
        raise
    owner = {c: s for s, h in enumerate(hands) for c in h}
    if any(c not in owner for c in played):
        raise MalformedError("a played card is in no hand", field="state/play/played")
    if tuple(played[len(played) - len(count_cards):]) != count_cards or len(count_cards) > len(played):
        raise MalformedError("the count's cards are the last cards played", field="state/play/count_cards")
    count = sum(c.value for c in count_cards)
    if count >= MAX_COUNT or r.get("count", int) != count:
        raise MalformedError(f"the count of {count_cards and ' '.join(map(str, count_cards))} is wrong",
                             field="state/play/count")
    if (last_player is None) != (not count_cards) or (
            count_cards and owner[count_cards[-1]] != last_player):
        raise MalformedError("last_player laid the last card of the count", field="state/play/last_player")
    held = tuple(tuple(c for c in h if c not in played) for h in hands)
    left = tuple(len(h) for h in held)
    over = not any(left)
    if phase == "play" and (over or turn is None or not left[turn] or turn in passed):
        raise MalformedError("the play's turn is not a seat that can act", field="state/play/turn")
    if phase == "show" and (not over or turn is not None):
        raise MalformedError("the show starts after every card is played", field="state/play")
    # Play.scores counts the play's own points; the game keeps its score on the pegs.
    return Play(players=n, turn=turn, count_cards=count_cards, passed=frozenset(passed),
                last_player=last_player, held=held, left=left, played=played,
                scores=(0,) * n, tournament=options.tournament)
