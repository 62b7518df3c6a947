"""A whole game of cribbage as a state machine: state + action -> state + events.

The order of a hand (RULES.md): the dealer deals; every seat discards to the
crib; the pone (left of the dealer, ``dealer + 1``) cuts and the starter is
turned (a jack is *his heels*, 2 to the dealer at once); the play, pone first;
the show, pone first, clockwise, the dealer last, then the crib; the deal
passes to the left.  The game ends the instant a side reaches the target and
nothing after that is scored.

With four players the partnerships are seats 0+2 and 1+3 and share a score:
``scores`` are kept per *side* (a side is a player, or a partnership).

OpenSpiel-style API: :func:`new_game`, :func:`legal_actions`, :func:`check`,
:func:`can`, :func:`apply_action` (returns the next state and the events).
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, Sequence

from .cards import CARDS, JACK, Card, ensure_distinct
from .errors import IllegalError, MalformedError
from .options import GameOptions, outcome
from .play import Go, Play, PlayCard, Score, next_opponent
from .show import score_show

PHASES = ("deal", "discard", "cut", "play", "show", "over")
ACTION_TYPES = ("deal", "discard", "cut", "play", "go", "count")
HEELS_POINTS = 2


@dataclass(frozen=True, slots=True)
class GameAction:
    """One thing a seat does.  Only the fields its ``type`` needs are set.

    ``deal`` (dealer): with a client deck, ``hands`` (each seat's cards, from
    the pone round to the dealer) and ``crib`` (cards dealt straight to it);
    ``discard``: ``cards``; ``cut`` (pone): with a client deck, ``starter``;
    ``play``: ``card``; ``go``; ``count``: the next hand (or the crib) in the
    show.  ``claim`` is the points claimed, used by muggins.
    """

    type: str
    seat: int
    card: Card | None = None
    cards: tuple[Card, ...] | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    crib: tuple[Card, ...] | None = None
    starter: Card | None = None
    claim: int | None = None

    def __str__(self) -> str:
        extra = ""
        if self.card is not None:
            extra = f" {self.card}"
        elif self.cards is not None:
            extra = " " + " ".join(map(str, self.cards))
        elif self.starter is not None:
            extra = f" {self.starter}"
        return f"seat {self.seat} {self.type}{extra}"


@dataclass(frozen=True, slots=True)
class GameEvent:
    """Something that happened, with the points it pegged, in table order."""

    type: str
    """cut_for_deal, deal, discard, starter, play, go, count, game_over"""
    hand: int
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    count: int | None = None
    what: str | None = None
    """For a count: 'hand' or 'crib'."""
    scores: tuple[Score, ...] = ()
    reset: bool = False

    @property
    def points(self) -> int:
        return sum(s.points for s in self.scores)


@dataclass(frozen=True, slots=True)
class GameState:
    options: GameOptions
    dealer: int
    first_dealer: int
    hand: int
    """Deals made so far (1 during the first hand)."""
    phase: str
    scores: tuple[tuple[int, int], ...]
    """(front peg, back peg) per side: the front is the total, the gap the last score."""
    hands: tuple[tuple[Card, ...], ...] = ()
    """Each seat's cards: as dealt, then the four kept (played cards stay for the show)."""
    crib: tuple[Card, ...] = ()
    starter: Card | None = None
    deck: tuple[Card, ...] | None = None
    """Undealt cards in order; None when the client supplies the cards."""
    pegging: Play | None = None
    shown: int = 0
    """Hands counted so far in the show (players + 1 with the crib)."""
    log: tuple[dict[str, Any], ...] = ()
    """What happened, as compact JSON-ready records (see :func:`event_record`)."""
    result: dict[str, Any] | None = None

    # -- who acts ---------------------------------------------------------

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def pone(self) -> int:
        return (self.dealer + 1) % self.players

    def show_order(self) -> list[int]:
        """Left of the dealer first, clockwise, the dealer last, then the crib (dealer)."""
        n = self.players
        return [(self.dealer + 1 + i) % n for i in range(n)] + [self.dealer]

    def to_act(self) -> list[int]:
        """Seats that may act now (several only while discarding)."""
        if self.phase == "deal":
            return [self.dealer]
        if self.phase == "discard":
            return [s for s in range(self.players) if len(self.hands[s]) > 4]
        if self.phase == "cut":
            return [self.pone]
        if self.phase == "play":
            assert self.pegging is not None and self.pegging.turn is not None
            return [self.pegging.turn]
        if self.phase == "show":
            return [self.show_order()[self.shown]]
        return []

    @property
    def front(self) -> list[int]:
        return [f for f, _ in self.scores]


# ---------------------------------------------------------------------------
# Starting a game: the cut for deal.


def _shuffled(options: GameOptions, salt: str) -> list[Card]:
    deck = list(CARDS)
    if options.deck == "seeded":
        random.Random(f"{options.seed}/{salt}").shuffle(deck)
    else:
        secrets.SystemRandom().shuffle(deck)
    return deck


def cut_for_deal(options: GameOptions, cuts: Sequence[Card]) -> int | None:
    """The seat that deals first: the lowest card; None when the lowest ranks tie.

    >>> cut_for_deal(GameOptions(), [Card.parse("9H"), Card.parse("4C")])
    1
    >>> cut_for_deal(GameOptions(ten_value_ties=True), [Card.parse("JH"), Card.parse("KC")]) is None
    True
    """
    def key(c: Card) -> int:
        return min(c.rank, 10) if options.ten_value_ties else c.rank

    low = min(key(c) for c in cuts)
    lowest = [s for s, c in enumerate(cuts) if key(c) == low]
    return lowest[0] if len(lowest) == 1 else None


def new_game(
    options: GameOptions,
    dealer: int | None = None,
    cuts: Sequence[Card] | None = None,
) -> GameState:
    """A game before its first deal.  The first dealer is ``dealer`` if given,
    else decided by ``cuts`` (one card per seat, client deck) or by cutting a
    shuffled deck until the low card is not tied.
    """
    n = options.players
    events: list[GameEvent] = []
    if dealer is not None:
        if not 0 <= dealer < n:
            raise MalformedError(f"seat {dealer} is not at a {n}-player table", field="dealer")
        if cuts is not None:
            raise MalformedError("give either the dealer or the cuts for deal, not both", field="cuts")
    elif cuts is not None:
        if len(cuts) != n:
            raise MalformedError(f"give one cut card per seat ({n})", field="cuts")
        ensure_distinct(cuts)
        dealer = cut_for_deal(options, cuts)
        if dealer is None:
            raise MalformedError("the lowest cuts tie: cut again", field="cuts")
        events.append(GameEvent("cut_for_deal", 0, dealer, tuple(cuts)))
    else:
        if options.deck == "client":
            raise MalformedError("with a client deck give the dealer or the cuts for deal", field="dealer")
        for attempt in range(1000):
            deck = _shuffled(options, f"cut/{attempt}")
            cuts = deck[:n]
            dealer = cut_for_deal(options, cuts)
            events.append(GameEvent("cut_for_deal", 0, dealer, tuple(cuts)))
            if dealer is not None:
                break
    assert dealer is not None
    return GameState(
        options=options, dealer=dealer, first_dealer=dealer, hand=0, phase="deal",
        scores=((0, 0),) * options.sides, hands=((),) * n,
        log=tuple(event_record(e, options) for e in events),
    )


# ---------------------------------------------------------------------------
# Legal actions and checks.


def legal_actions(state: GameState) -> list[GameAction]:
    """Every legal action now.  A client-deck deal or cut is listed once,
    without its cards (any cards of the right number are legal)."""
    phase = state.phase
    if phase == "deal":
        return [GameAction("deal", state.dealer)]
    if phase == "discard":
        k = state.options.discards
        return [
            GameAction("discard", seat, cards=combo)
            for seat in state.to_act()
            for combo in combinations(state.hands[seat], k)
        ]
    if phase == "cut":
        return [GameAction("cut", state.pone)]
    if phase == "play":
        assert state.pegging is not None
        out = []
        for a in state.pegging.legal_actions():
            if isinstance(a, PlayCard):
                out.append(GameAction("play", a.seat, card=a.card))
            else:
                out.append(GameAction("go", a.seat))
        return out
    if phase == "show":
        return [GameAction("count", state.to_act()[0])]
    return []


def _illegal(state: GameState, message: str, rule: str, **extra: Any) -> IllegalError:
    return IllegalError(message, rule=rule, legal=legal_actions(state), **extra)


def check(state: GameState, action: GameAction) -> None:
    """Raise :class:`IllegalError` with a sentence if ``action`` is not legal now."""
    if action.type not in ACTION_TYPES:
        raise MalformedError(f"unknown action type {action.type!r}", field="action/type")
    if action.claim is not None and not 0 <= action.claim <= 29:
        raise MalformedError("a claim is 0 to 29 points", field="action/claim")
    if not 0 <= action.seat < state.players:
        raise _illegal(state, f"seat {action.seat} is not at a {state.players}-player table", "no_such_seat")
    if state.phase == "over":
        raise _illegal(state, "the game is over", "game_over")
    expected = {"deal": ("deal",), "discard": ("discard",), "cut": ("cut",),
                "play": ("play", "go"), "show": ("count",)}[state.phase]
    if action.type not in expected:
        raise _illegal(state, f"a {action.type} is not possible now: it is time to {expected[0]}", "wrong_phase")
    if action.seat not in state.to_act():
        who = ", ".join(f"seat {s}" for s in state.to_act())
        raise _illegal(state, f"seat {action.seat} may not {action.type} now; waiting for {who}", "out_of_turn")
    getattr(_Checks, action.type)(state, action)


class _Checks:
    """One check per action type, after phase and turn are known to be right."""

    @staticmethod
    def deal(state: GameState, a: GameAction) -> None:
        o = state.options
        if o.deck != "client":
            if a.hands is not None or a.crib is not None:
                raise _illegal(state, "the service deals this game: give no cards", "cards_not_expected")
            return
        if a.hands is None:
            raise _illegal(state, "with a client deck the deal gives every seat's cards", "cards_required")
        if len(a.hands) != o.players or any(len(h) != o.cards_dealt for h in a.hands):
            raise _illegal(
                state, f"deal {o.cards_dealt} cards to each of {o.players} seats", "wrong_deal",
            )
        if len(a.crib or ()) != o.dealt_to_crib:
            raise _illegal(state, f"deal {o.dealt_to_crib} cards straight to the crib", "wrong_deal")
        ensure_distinct([c for h in a.hands for c in h] + list(a.crib or ()))

    @staticmethod
    def discard(state: GameState, a: GameAction) -> None:
        k = state.options.discards
        cards = a.cards or ()
        if len(cards) != k:
            raise _illegal(state, f"each seat discards {k} card{'s' if k > 1 else ''} to the crib", "wrong_discard")
        ensure_distinct(cards)
        missing = [str(c) for c in cards if c not in state.hands[a.seat]]
        if missing:
            raise _illegal(state, f"seat {a.seat} does not hold {', '.join(missing)}", "card_not_held")

    @staticmethod
    def cut(state: GameState, a: GameAction) -> None:
        if state.options.deck != "client":
            if a.starter is not None:
                raise _illegal(state, "the service turns the starter in this game", "cards_not_expected")
            return
        if a.starter is None:
            raise _illegal(state, "with a client deck the cut gives the starter", "cards_required")
        if a.starter in _known_cards(state):
            raise _illegal(state, f"{a.starter} is already dealt and cannot be the starter", "card_in_use")

    @staticmethod
    def play(state: GameState, a: GameAction) -> None:
        if a.card is None:
            raise MalformedError("a play names its card", field="action/card")
        _check_pegging(state, PlayCard(a.seat, a.card))

    @staticmethod
    def go(state: GameState, a: GameAction) -> None:
        _check_pegging(state, Go(a.seat))

    @staticmethod
    def count(state: GameState, a: GameAction) -> None:
        pass  # the show order is the whole rule, checked by to_act()


def _check_pegging(state: GameState, action: PlayCard | Go) -> None:
    assert state.pegging is not None
    try:
        state.pegging.check(action)
    except IllegalError as exc:
        raise _illegal(state, exc.message, exc.rule) from None


def _known_cards(state: GameState) -> list[Card]:
    cards = [c for h in state.hands for c in h] + list(state.crib)
    if state.starter is not None:
        cards.append(state.starter)
    return cards


def can(state: GameState, action: GameAction) -> bool:
    try:
        check(state, action)
    except ValueError:
        return False
    return True


# ---------------------------------------------------------------------------
# Applying an action.


class _Board:
    """Pegs points side by side; stops scoring the instant a side reaches the target."""

    def __init__(self, state: GameState) -> None:
        self.options = state.options
        self.scores = [list(s) for s in state.scores]
        self.winner: int | None = None

    def peg(self, scores: Sequence[Score]) -> tuple[Score, ...]:
        """Peg ``scores`` in order; returns those pegged before the game ended."""
        pegged = []
        moved: set[int] = set()
        for s in scores:
            if self.winner is not None:
                break
            if s.points <= 0:
                continue
            side = self.options.side_of(s.seat)
            front, back = self.scores[side]
            # One peg move per side per event: the gap shows the whole last score.
            self.scores[side] = [front + s.points, back if side in moved else front]
            moved.add(side)
            pegged.append(s)
            if front + s.points >= self.options.target:
                self.winner = side
        return tuple(pegged)

    def finish(self, state: GameState, events: list[GameEvent]) -> GameState:
        scores = tuple((f, b) for f, b in self.scores)
        log = state.log + tuple(event_record(e, self.options) for e in events)
        if self.winner is None:
            return replace(state, scores=scores, log=log)
        result = outcome(self.options, self.winner, [f for f, _ in scores])
        if self.options.loser_deals_first:
            loser = min(result["losers"], key=lambda entry: entry["score"])["side"]
            result["next_first_dealer"] = loser
        else:
            result["next_first_dealer"] = (state.first_dealer + 1) % state.players
        events.append(GameEvent("game_over", state.hand, None))
        log += (event_record(events[-1], self.options),)
        return replace(state, scores=scores, phase="over", result=result, log=log)


def _with_claim(state: GameState, seat: int, scores: Sequence[Score], claim: int | None,
                applies: bool) -> list[Score]:
    """Muggins: a seat pegs what it claims (never more than it made); the
    opponent who calls muggins pegs what it missed."""
    if not applies or claim is None:
        return list(scores)
    own = sum(s.points for s in scores if s.seat == seat)
    if claim >= own:
        return list(scores)
    out, left = [], claim
    for s in scores:
        if s.seat != seat:
            out.append(s)
            continue
        take = min(left, s.points)
        left -= take
        if take:
            out.append(replace(s, points=take))
    out.append(Score(next_opponent(state.players, seat), "muggins", own - claim))
    return out


def apply_action(state: GameState, action: GameAction) -> tuple[GameState, list[GameEvent]]:
    """Check ``action`` and return the next state and the events it caused."""
    check(state, action)
    board = _Board(state)
    events: list[GameEvent] = []
    state = getattr(_Apply, action.type)(state, action, board, events)
    return board.finish(state, events), events


class _Apply:
    @staticmethod
    def deal(state: GameState, a: GameAction, board: _Board, events: list[GameEvent]) -> GameState:
        o = state.options
        n = o.players
        hand_no = state.hand + 1
        if o.deck == "client":
            assert a.hands is not None
            hands = tuple(tuple(h) for h in a.hands)
            crib = tuple(a.crib or ())
            deck = None
        else:
            cards = _shuffled(o, f"deal/{hand_no}")
            # One at a time, starting left of the dealer.
            order = [(state.dealer + 1 + i) % n for i in range(n)]
            dealt: list[list[Card]] = [[] for _ in range(n)]
            for i in range(n * o.cards_dealt):
                dealt[order[i % n]].append(cards[i])
            hands = tuple(tuple(h) for h in dealt)
            crib = tuple(cards[n * o.cards_dealt: n * o.cards_dealt + o.dealt_to_crib])
            deck = tuple(cards[n * o.cards_dealt + o.dealt_to_crib:])
        events.append(GameEvent("deal", hand_no, a.seat))
        return replace(state, hand=hand_no, phase="discard", hands=hands, crib=crib,
                       deck=deck, starter=None, pegging=None, shown=0)

    @staticmethod
    def discard(state: GameState, a: GameAction, board: _Board, events: list[GameEvent]) -> GameState:
        assert a.cards is not None
        hands = list(state.hands)
        hands[a.seat] = tuple(c for c in hands[a.seat] if c not in a.cards)
        events.append(GameEvent("discard", state.hand, a.seat, tuple(a.cards)))
        state = replace(state, hands=tuple(hands), crib=state.crib + tuple(a.cards))
        if all(len(h) == 4 for h in hands):
            state = replace(state, phase="cut")
        return state

    @staticmethod
    def cut(state: GameState, a: GameAction, board: _Board, events: list[GameEvent]) -> GameState:
        deck = state.deck
        if deck is None:
            assert a.starter is not None
            starter = a.starter
        else:
            starter, deck = deck[0], deck[1:]
        scores: tuple[Score, ...] = ()
        if starter.rank == JACK:
            scores = board.peg([Score(state.dealer, "his_heels", HEELS_POINTS, (starter,))])
        events.append(GameEvent("starter", state.hand, a.seat, (starter,), scores=scores))
        pegging = Play.start(state.players, state.pone, state.hands, state.options.tournament)
        return replace(state, starter=starter, deck=deck, phase="play", pegging=pegging)

    @staticmethod
    def play(state: GameState, a: GameAction, board: _Board, events: list[GameEvent]) -> GameState:
        assert a.card is not None
        return _peg(state, PlayCard(a.seat, a.card), a, board, events)

    @staticmethod
    def go(state: GameState, a: GameAction, board: _Board, events: list[GameEvent]) -> GameState:
        return _peg(state, Go(a.seat), a, board, events)

    @staticmethod
    def count(state: GameState, a: GameAction, board: _Board, events: list[GameEvent]) -> GameState:
        assert state.starter is not None
        is_crib = state.shown == state.players
        cards = state.crib if is_crib else state.hands[a.seat]
        show = score_show(cards, state.starter, crib=is_crib)
        scores = [Score(a.seat, i.kind, i.points, i.cards) for i in show.items]
        scores = _with_claim(state, a.seat, scores, a.claim, state.options.muggins)
        pegged = board.peg(scores)
        events.append(GameEvent("count", state.hand, a.seat, tuple(cards), what="crib" if is_crib else "hand",
                                scores=pegged))
        shown = state.shown + 1
        if shown <= state.players or board.winner is not None:
            return replace(state, shown=shown)  # a finished game keeps its cards on the table
        # The hand is over: the deal passes to the left.
        return replace(state, shown=0, phase="deal", dealer=(state.dealer + 1) % state.players,
                       hands=((),) * state.players, crib=(), starter=None, deck=None, pegging=None)


def _peg(state: GameState, action: PlayCard | Go, a: GameAction, board: _Board,
         events: list[GameEvent]) -> GameState:
    assert state.pegging is not None
    pegging, ev = state.pegging.apply(action)
    scores = _with_claim(state, a.seat, ev.scores, a.claim, state.options.muggins_in_play)
    pegged = board.peg(scores)
    events.append(GameEvent(a.type, state.hand, a.seat,
                            (a.card,) if a.card is not None else (), count=ev.count,
                            scores=pegged, reset=ev.reset))
    if ev.hand_over:
        return replace(state, pegging=pegging, phase="show", shown=0)
    return replace(state, pegging=pegging)


def event_record(event: GameEvent, options: GameOptions, with_cards: bool = False) -> dict[str, Any]:
    """An event as compact JSON: empty fields left out.  The log keeps each
    score's side, kind and points; responses add the cards of each score."""
    out: dict[str, Any] = {"type": event.type, "hand": event.hand}
    if event.seat is not None:
        out["seat"] = event.seat
    if event.cards:
        out["cards"] = [str(c) for c in event.cards]
    if event.count is not None:
        out["count"] = event.count
    if event.what is not None:
        out["what"] = event.what
    if event.reset:
        out["reset"] = True
    if event.scores:
        out["scores"] = [
            {"seat": s.seat, "side": options.side_of(s.seat), "kind": s.kind, "points": s.points,
             **({"cards": [str(c) for c in s.cards]} if with_cards and s.cards else {})}
            for s in event.scores
        ]
        out["points"] = event.points
    return out
