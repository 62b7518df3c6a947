"""A position in a game: everything true at one moment, and the rules that move it.

The order of a hand (docs/rules.md): the dealer deals; every seat discards to
the crib; the pone (left of the dealer, ``dealer + 1``) cuts and the starter is
turned (a jack is *his heels*, 2 to the dealer at once); the play, pone first;
the show, pone first, clockwise, the dealer last, then the crib; the deal
passes to the left.  The game ends the instant a side reaches the target and
nothing after that is scored.

With four players the partnerships are seats 0+2 and 1+3 and share a score:
``pegs`` are kept per *side* (a side is a player, or a partnership).  Each side
has two pegs, (front, back): the front is its score, the back the one before,
so the gap shows the whole last score.

A position is a view: the game keeps its deal as the kernel's deal state,
and the deal machine (:mod:`.compact`) applies every action to it; the
position is built from it (:func:`.compact.position_of`) when something
reads one.  What the position adds is the explanation: each action has its
check, which raises :class:`IllegalError` with a sentence (the rule, where in
the action, what would have been legal), and :func:`can` derives from it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Callable, NamedTuple

from ..cards import Card, ensure_distinct
from ..claims import check_claim
from ..errors import IllegalError, MalformedError, Step
from ..options import GameOptions, pone
from ..play import Go, Play, PlayCard
from ..cards import CARDS
from .actions import Count, Counted, Cut, Deal, Discard, GameAction, action_type
from .compact import (NOBODY, PLAIN, SEAT_SETS, SHOW_ORDER, DealState, legal_of, plain_cards, seat_bits,
                      typed_cards)



class Phase(StrEnum):
    """Where a deal stands (the value is the API's name for it): the dealer
    deals, every seat discards, the pone cuts, the play, the show; ``over``
    once a side reaches the target."""

    DEAL = "deal"
    DISCARD = "discard"
    CUT = "cut"
    PLAY = "play"
    SHOW = "show"
    OVER = "over"


PHASES = tuple(Phase)
_new = tuple.__new__  # every field given: NamedTuple's keyword-taking __new__ is not needed


class Position(NamedTuple):
    options: GameOptions
    deal: int
    """The number of the deal in progress (1 for the first)."""
    dealer: int
    first_dealer: int
    pegs: tuple[tuple[int, int], ...]
    """(front, back) per side."""
    phase: Phase
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's cards: as dealt, then the four kept (played cards stay for the show)."""
    discards: tuple[tuple[Card, ...], ...]
    """What each seat laid away to the crib this deal (it knows them)."""
    crib: tuple[Card, ...]
    starter: Card | None
    cards: tuple[Card, ...] | None
    """This deal's pack in order; None with a client deck."""
    play: Play | None
    shown: int
    """Hands counted so far in the show (players + 1 with the crib)."""
    winner: int | None
    """The side that reached the target, once the game is over."""

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def pone(self) -> int:
        return pone(self.options.players, self.dealer)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(f for f, _ in self.pegs)

    def show_order(self) -> list[int]:
        """Left of the dealer first, clockwise, the dealer last, then the crib (dealer)."""
        return list(SHOW_ORDER[self.options.players][self.dealer])

    def counting_crib(self) -> bool:
        """In the show, whether the next count is the crib's."""
        return self.phase is Phase.SHOW and self.shown == self.options.players

    @property
    def the_play(self) -> Play:
        """The play of this deal, from the cut on (asked for only then)."""
        play = self.play
        assert play is not None, "there is no play before the cut"
        return play

    def to_act(self) -> list[int]:
        """Seats that may act now (several only while discarding)."""
        phase = self.phase
        if phase is Phase.PLAY:
            turn = self.the_play.turn
            return [] if turn is None else [turn]
        if phase is Phase.DEAL:
            return [self.dealer]
        if phase is Phase.DISCARD:
            return [s for s, d in enumerate(self.discards) if not d]
        if phase is Phase.CUT:
            return [self.pone]
        if phase is Phase.SHOW:
            return [SHOW_ORDER[self.options.players][self.dealer][self.shown]]
        return []


# ---------------------------------------------------------------------------
# Legal actions and checks.


def legal_actions(pos: Position, seat: int | None = None) -> list[GameAction]:
    """Every legal action now (of ``seat`` only, when given): the one generator's,
    :func:`.compact.legal_of` on the position's deal state.  A client-deck deal or cut is listed once,
    without its cards (any cards of the right number are legal)."""
    return legal_of(deal_state_of(pos), pos.options, pos.dealer, seat)


def _illegal(pos: Position, message: str, rule: str, *at: Step) -> IllegalError:
    """An illegal action located at ``at`` inside the action (``"cards", 1``)."""
    return IllegalError(message, rule=rule, legal=legal_actions(pos), at=at)


_PHASE_ACTIONS: dict[Phase, tuple[type, ...]] = {
    Phase.DEAL: (Deal,), Phase.DISCARD: (Discard,), Phase.CUT: (Cut,), Phase.PLAY: (PlayCard, Go),
    Phase.SHOW: (Count,), Phase.OVER: ()}
_PHASE_VERB = {Phase.DEAL: "deal", Phase.DISCARD: "discard", Phase.CUT: "cut", Phase.PLAY: "play or say go",
               Phase.SHOW: "count"}


def check(pos: Position, action: GameAction) -> None:
    """Raise :class:`IllegalError` with a sentence if ``action`` is not legal now."""
    kind = type(action)
    if kind not in _CHECKS:
        raise MalformedError(f"{action!r} is not a game action")
    claim = getattr(action, "claim", None)
    if claim is not None:
        check_claim(claim)
    if pos.phase is Phase.PLAY and isinstance(action, (PlayCard, Go)) and action.seat == pos.the_play.turn:
        _check_peg(pos, action)  # the common case, first
        return
    n = pos.options.players
    if not 0 <= action.seat < n:
        raise _illegal(pos, f"seat {action.seat} is not at a {n}-player table", "no_such_seat", "seat")
    if pos.phase is Phase.OVER:
        raise _illegal(pos, "the game is over", "game_over")
    if kind not in _PHASE_ACTIONS[pos.phase]:
        expected = _PHASE_VERB[pos.phase]
        raise _illegal(pos, f"a {action_type(action)} is not possible now: it is time to {expected}",
                       "wrong_phase", "type")
    if action.seat not in pos.to_act():
        who = ", ".join(f"seat {s}" for s in pos.to_act())
        raise _illegal(pos, f"seat {action.seat} may not {action_type(action)} now; waiting for {who}",
                       "out_of_turn", "seat")
    _CHECKS[kind](pos, action)


def _check_deal(pos: Position, a: Deal) -> None:
    o = pos.options
    if pos.cards is not None:
        if a.hands is not None or a.crib:
            raise _illegal(pos, "the service deals this game: give no cards", "cards_not_expected", "hands")
        return
    if a.hands is None:
        raise _illegal(pos, "with a client deck the deal gives every seat's cards", "cards_required", "hands")
    if len(a.hands) != o.players:
        raise _illegal(pos, f"deal to each of {o.players} seats", "wrong_deal", "hands")
    for s, h in enumerate(a.hands):
        if len(h) != o.cards_dealt:
            raise _illegal(pos, f"deal {o.cards_dealt} cards to each seat", "wrong_deal", "hands", s)
    if len(a.crib) != o.dealt_to_crib:
        raise _illegal(pos, f"deal {o.dealt_to_crib} cards straight to the crib", "wrong_deal", "crib")
    ensure_distinct([c for h in a.hands for c in h] + list(a.crib))


def _check_discard(pos: Position, a: Discard) -> None:
    k = pos.options.discards
    if len(a.cards) != k:
        raise _illegal(pos, f"each seat discards {k} card{'s' if k > 1 else ''} to the crib",
                       "wrong_discard", "cards")
    ensure_distinct(a.cards)
    for i, c in enumerate(a.cards):
        if c not in pos.hands[a.seat]:
            raise _illegal(pos, f"seat {a.seat} does not hold {c}", "card_not_held", "cards", i)


def _check_cut(pos: Position, a: Cut) -> None:
    if pos.cards is not None:
        if a.starter is not None:
            raise _illegal(pos, "the service turns the starter in this game", "cards_not_expected", "starter")
        return
    if a.starter is None:
        raise _illegal(pos, "with a client deck the cut gives the starter", "cards_required", "starter")
    if a.starter in pos.crib or any(a.starter in h for h in pos.hands):
        raise _illegal(pos, f"{a.starter} is already dealt and cannot be the starter", "card_in_use", "starter")


def _check_peg(pos: Position, a: PlayCard | Go) -> None:
    try:
        pos.the_play.check(a)
    except IllegalError as exc:
        raise _illegal(pos, exc.message, exc.rule, *(("card",) if type(a) is PlayCard else ())) from None


def _check_count(pos: Position, a: Count) -> None:
    """The show order is the whole rule, checked with the turn; a count that
    names what it counts must name the right one."""
    counting = Counted.CRIB if pos.counting_crib() else Counted.HAND
    if a.what is not None and a.what != counting:
        raise _illegal(pos, f"seat {a.seat} counts the {counting} now, not the {a.what}", "wrong_count", "what")


_CHECKS: dict[type, Callable[[Position, Any], None]] = {Deal: _check_deal, Discard: _check_discard, Cut: _check_cut, PlayCard: _check_peg,
           Go: _check_peg, Count: _check_count}


def can(pos: Position, action: GameAction) -> bool:
    try:
        check(pos, action)
    except ValueError:
        return False
    return True


# ---------------------------------------------------------------------------
# The view of a deal state.


def position_of(options: GameOptions, deal: int, dealer: int, first_dealer: int, k: DealState) -> Position:
    """The typed position of a deal state."""
    (phase, hands, discards, crib, starter, turn, count, count_cards, passed, last, held, played, play_scores,
     shown, pegs, winner, pack) = k
    play = None
    if starter != NOBODY:  # the play exists from the cut on
        play = Play(options.players, None if turn == NOBODY else turn, count, typed_cards(count_cards),
                    SEAT_SETS[passed], None if last == NOBODY else last, tuple([typed_cards(h) for h in held]),
                    tuple([len(h) for h in held]), typed_cards(played), play_scores, options.tournament)
    return Position(options, deal, dealer, first_dealer,
                    tuple([(pegs[i], pegs[i + 1]) for i in range(0, len(pegs), 2)]), PHASES[phase],
                    tuple([typed_cards(h) for h in hands]), tuple([typed_cards(d) for d in discards]), typed_cards(crib),
                    None if starter == NOBODY else CARDS[starter], typed_cards(pack) if pack else None, play, shown,
                    None if winner == NOBODY else winner)


def deal_state_of(pos: Position) -> DealState:
    """The deal state of a typed position (:func:`position_of` undone)."""
    n = pos.options.players
    flat = tuple([p for peg in pos.pegs for p in peg])
    no_cards: tuple[tuple[int, ...], ...] = tuple([() for _ in range(n)])
    play = pos.play
    count_cards: tuple[int, ...]
    played: tuple[int, ...]
    if play is None:
        turn, count, count_cards, passed, last, held, played, play_scores = (
            NOBODY, 0, (), 0, NOBODY, no_cards, (), (0,) * n)
    else:
        turn = NOBODY if play.turn is None else play.turn
        count, count_cards, passed = play.count, plain_cards(play.count_cards), seat_bits(play.passed)
        last = NOBODY if play.last_player is None else play.last_player
        held = no_cards if play.held is None else tuple([plain_cards(h) for h in play.held])
        played, play_scores = plain_cards(play.played), tuple(play.scores)
    return (PHASES.index(pos.phase), tuple([plain_cards(h) for h in pos.hands]), tuple([plain_cards(d) for d in pos.discards]),
            plain_cards(pos.crib), NOBODY if pos.starter is None else PLAIN[pos.starter], turn, count, count_cards, passed,
            last, held, played, play_scores, pos.shown, flat, NOBODY if pos.winner is None else pos.winner,
            plain_cards(pos.cards) if pos.cards is not None else ())
