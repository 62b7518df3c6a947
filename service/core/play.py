"""The play (pegging): cards laid one at a time towards 31, scored as they fall.

A :class:`Play` is an immutable position within the play of one hand, for 2,
3 or 4 players.  Each action (:class:`PlayCard` or :class:`Go`) is checked by
:meth:`Play.check` (which raises :class:`IllegalError` with a sentence, the
rule and what would have been legal), :meth:`Play.can` derives from it, and
:meth:`Play.apply` returns the next position and a frozen :class:`PegEvent`.

The rules, in the order a table applies them (docs/rules.md, "The play"):

* The pone leads; play goes clockwise (seat + 1).  The count may never pass 31.
* A card scores for the count reaching 15 (2) or 31 (2), for pairing the
  previous cards (pair 2, pair royal 6, double pair royal 12) and for making the
  last k >= 3 cards of the count k consecutive ranks in any order (k).
* A seat that cannot play without passing 31 says go; the others play on while
  able.  When no seat holding cards can play, whoever laid the last card of the
  count scores 1 for the go (never on top of 31), and the count starts again
  with the next seat after that player who still holds cards.
* The last card of the hand scores 1 (the last-card point), unless it made 31.

Every seat holds four cards for the play in every variant (2 players keep 4 of
6 or of 5, 3 and 4 players keep 4 of 5).  When the seats' cards are not given,
the position still knows how many each holds, so turns and the end of the hand
are exact; only a go cannot be checked against the cards (except at a count of
21 or less, where every card fits).

>>> p = Play.start(players=2, pone=1)
>>> for a in ("4S", "6H", "5D"):
...     p, e = p.apply(PlayCard(p.turn, Card.parse(a)))
>>> e.count, [(s.kind, s.points) for s in e.scores]
(15, [('fifteen', 2), ('run', 3)])
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import NamedTuple, Sequence, Union

from .cards import CARDS, VALUE, Card, ensure_distinct
from .engine import kernel
from .errors import IllegalError, MalformedError
from .options import next_seat, side_totals
from .peg import Score, go_score, peg_scores

CARDS_FOR_THE_PLAY = kernel.CARDS_FOR_THE_PLAY


@dataclass(frozen=True, slots=True)
class PlayCard:
    """A seat lays a card on the count.  ``claim`` is what it pegs for it
    (muggins in the play); the pegging rules themselves ignore it."""

    seat: int
    card: Card
    claim: int | None = None

    def __str__(self) -> str:
        return f"seat {self.seat} plays {self.card}"


@dataclass(frozen=True, slots=True)
class Go:
    """A seat says go: it holds no card that keeps the count at 31 or under."""

    seat: int
    claim: int | None = None

    def __str__(self) -> str:
        return f"seat {self.seat} says go"


@dataclass(frozen=True, slots=True)
class AnyCard:
    """What is legal when the seat's cards are not known: any card worth at most ``max_value``."""

    seat: int
    max_value: int

    def __str__(self) -> str:
        return f"seat {self.seat} plays any card worth {self.max_value} or less"


Action = Union[PlayCard, Go]

# Actions are immutable, so legal_actions hands out shared instances.
PLAYS = tuple(tuple(PlayCard(seat, c) for c in CARDS) for seat in range(4))
"""``PLAYS[seat][card]``: the one instance of each card's play without a claim (what legal lists list)."""
GOS = tuple(Go(seat) for seat in range(4))
"""``GOS[seat]``: each seat's go without a claim."""
PLAY_CODES: tuple[tuple[PlayCard | Go, ...], ...] = tuple(
    tuple([PLAYS[seat][card] for card in range(kernel.GO_CODE)]) + (GOS[seat],) for seat in range(4))
"""``PLAY_CODES[seat][code]``: a card's or the go's code (:func:`~.kernel.play_codes`) as the seat's shared
action."""
_NOBODY: frozenset[int] = frozenset()
_NOTHING = (0, 1, 0)
"""The kernel's :func:`~service.core.kernel.pegs` for a card that pegs nothing: no 15 or 31, no pair, no run."""
# Seats as the kernel's bits (1 << seat): those holding cards by the cards each holds, and sets of seats.
_HOLDING = {left: sum(1 << s for s, n in enumerate(left) if n)
            for players in (2, 3, 4) for left in product(range(CARDS_FOR_THE_PLAY + 1), repeat=players)}
_SEATS = {frozenset(s for s in range(4) if bits >> s & 1): bits for bits in range(16)}
# NamedTuple's own __new__ is a Python function taking keywords; every field is
# given here, so the tuple's own is enough and much cheaper.
_new = tuple.__new__


class PegEvent(NamedTuple):
    """What one action caused, in the order a table would peg it."""

    action: Action
    count: int  # type: ignore[assignment]  # a field named like tuple.count
    """The count after the action, before any reset."""
    scores: tuple[Score, ...]
    reset: bool
    """The count ended with this action (31, or a go nobody could answer)."""
    hand_over: bool

    @property
    def points(self) -> int:
        return sum(s.points for s in self.scores)


def renege_points(playable: int) -> int:
    """The renege (ACC 7.3): a go said while able costs 2 for each card that
    could singly have been played; the next seat of the other side pegs them.

    >>> renege_points(3)
    6
    """
    return kernel.renege_points(playable)


def next_opponent(players: int, seat: int) -> int:
    """The next seat on the other side: who pegs a penalty or calls muggins.

    With four players that is the next seat (always the other partnership);
    with two the opponent; with three the player to the left.

    >>> next_opponent(2, 1), next_opponent(3, 2), next_opponent(4, 3)
    (0, 0, 0)
    """
    return next_seat(players, seat)


def _pegged(totals: tuple[int, ...], scores: Sequence[Score]) -> tuple[int, ...]:
    """``totals`` with ``scores`` pegged."""
    out = list(totals)
    for s in scores:
        out[s.seat] += s.points
    return tuple(out)


class Play(NamedTuple):
    """A position in the play of one hand (immutable: every action makes a new one)."""

    players: int
    turn: int | None
    """Seat to act next; None once every card is played."""
    count: int = 0  # type: ignore[assignment]  # a field named like tuple.count
    count_cards: tuple[Card, ...] = ()
    passed: frozenset[int] = frozenset()
    """Seats that said go in the current count."""
    last_player: int | None = None
    """Seat that laid the last card of the current count."""
    held: tuple[tuple[Card, ...], ...] | None = None
    """Each seat's cards not yet played, when known."""
    left: tuple[int, ...] = ()
    """How many cards each seat still holds."""
    played: tuple[Card, ...] = ()
    """Every card laid this hand, in order."""
    scores: tuple[int, ...] = ()
    """Points pegged in this play, per seat."""
    tournament: bool = False
    """ACC tournament rules: a renege (go while able) costs 2 a playable card."""

    # -- construction ------------------------------------------------------

    @classmethod
    def start(
        cls,
        players: int,
        pone: int,
        hands: Sequence[Sequence[Card]] | None = None,
        tournament: bool = False,
    ) -> Play:
        """The position before the pone leads; ``hands`` are each seat's four cards."""
        if players not in (2, 3, 4):
            raise MalformedError(f"the play is for 2, 3 or 4 players, not {players}", field="players")
        if not 0 <= pone < players:
            raise MalformedError(f"seat {pone} is not at a {players}-player table", field="pone")
        held = None
        if hands is not None:
            if len(hands) != players:
                raise MalformedError(
                    f"give the cards of all {players} seats, not {len(hands)}", field="hands"
                )
            for seat, hand in enumerate(hands):
                if len(hand) != CARDS_FOR_THE_PLAY:
                    raise MalformedError(
                        f"seat {seat} must hold {CARDS_FOR_THE_PLAY} cards for the play, not {len(hand)}",
                        field=f"hands/{seat}",
                    )
            ensure_distinct(c for hand in hands for c in hand)
            held = tuple(tuple(h) for h in hands)
        return cls(players, pone, 0, (), frozenset(), None, held,
                   (CARDS_FOR_THE_PLAY,) * players, (), (0,) * players, tournament)

    # -- derived -----------------------------------------------------------

    @property
    def hand_over(self) -> bool:
        return self.turn is None

    def playable(self, seat: int) -> list[Card] | None:
        """Cards ``seat`` could lay now, or None when its cards are not known."""
        if self.held is None:
            return None
        # the cards of the one generator's codes (kernel.play_codes), the go left out
        return [CARDS[c] for c in kernel.play_codes(self.held[seat], self.count, True) if c != kernel.GO_CODE]

    def playable_now(self, seat: int) -> tuple[list[Card], int]:
        """The cards ``seat`` could lay and how many.  With unknown cards the
        number is known only where every card fits (a count of 21 or less)."""
        cards = self.playable(seat)
        if cards is not None:
            return cards, len(cards)
        return [], kernel.playable_unseen(self.count, self.left[seat])

    def may_go(self, seat: int) -> bool:
        """The go rule: a seat may say go only when no card it holds fits
        under 31, and never as the leader of a count (every card fits at 0).
        Under tournament rules a go while able is allowed but is a renege."""
        return kernel.may_go(self.count, self.playable_now(seat)[1], self.tournament)

    def legal_actions(self) -> list[Action | AnyCard]:
        """Every legal action for the seat to act.

        With unknown cards, an :class:`AnyCard` stands for the cards that fit.
        """
        seat = self.turn
        if seat is None:
            return []
        count = self.count
        if self.held is None:
            actions: list[Action | AnyCard] = [AnyCard(seat, min(kernel.room(count), 10))]
            able = kernel.playable_unseen(count, self.left[seat])
            if kernel.may_go(count, able, self.tournament):
                actions.append(GOS[seat])
            return actions
        # the one generator of the play's legal actions (the game's are named from it the same way)
        return list(map(PLAY_CODES[seat].__getitem__, kernel.play_codes(self.held[seat], count, self.tournament)))

    # -- checks ------------------------------------------------------------

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalError` with a sentence when ``action`` breaks a rule."""
        if self.turn is None:
            raise IllegalError("the play is over: every card has been laid", rule="hand_over")
        seat = action.seat
        if not 0 <= seat < self.players:
            raise IllegalError(
                f"seat {seat} is not at a {self.players}-player table",
                rule="no_such_seat", legal=self.legal_actions(),
            )
        if seat != self.turn:
            raise IllegalError(
                f"it is seat {self.turn}'s turn, not seat {seat}'s",
                rule="out_of_turn", legal=self.legal_actions(),
            )
        if type(action) is PlayCard:
            card = action.card
            if card in self.played:
                raise IllegalError(f"{card} has already been played this hand",
                                   rule="card_already_played", legal=self.legal_actions())
            if self.held is not None and card not in self.held[seat]:
                raise IllegalError(f"seat {seat} does not hold {card}",
                                   rule="card_not_held", legal=self.legal_actions())
            if not kernel.FITS[self.count][card]:
                raise IllegalError(
                    f"{card} would take the count from {self.count} to {self.count + VALUE[card]}, past 31",
                    rule="count_over_31", legal=self.legal_actions(),
                )
        elif type(action) is Go:
            if not self.may_go(seat):
                raise IllegalError(self._why_no_go(seat), rule="go_while_able", legal=self.legal_actions())
        else:
            # AnyCard describes legal cards; it is not itself a move.
            raise MalformedError(f"{action!r} is not a play: lay a card or say go")

    def _why_no_go(self, seat: int) -> str:
        if not self.count_cards:
            return f"seat {seat} leads the count and must lay a card: every card fits at 0"
        cards, _ = self.playable_now(seat)
        reason = (f"it can play {', '.join(map(str, cards))}" if cards
                  else "every card fits at a count of 21 or less")
        return f"seat {seat} may not say go at {self.count}: {reason}"

    def can(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalError:
            return False
        return True

    # -- the action --------------------------------------------------------

    def apply(self, action: Action) -> tuple[Play, PegEvent]:
        """Check ``action`` and return the next position and what it scored."""
        self.check(action)
        return self.advance(action)

    def advance(self, action: Action) -> tuple[Play, PegEvent]:
        """:meth:`apply` for an action already checked."""
        seat = action.seat
        players, held, left, passed, last = self.players, self.held, self.left, self.passed, self.last_player
        if type(action) is PlayCard:
            card = action.card
            count = self.count + VALUE[card]
            count_cards = self.count_cards + (card,)
            # most cards peg nothing: the scores are named only when the kernel finds points
            pegged = kernel.pegs(count_cards, count)
            scores = peg_scores(count_cards, seat, count, pegged) if pegged != _NOTHING else []
            if held is not None:
                mine = held[seat]
                i = mine.index(card)
                held = held[:seat] + (mine[:i] + mine[i + 1:],) + held[seat + 1:]
            left = left[:seat] + (left[seat] - 1,) + left[seat + 1:]
            played = self.played + (card,)
            last = seat
        else:
            count, count_cards, played = self.count, self.count_cards, self.played
            n = self.playable_now(seat)[1]
            scores = []
            if n:  # a renege: only possible under tournament rules
                scores.append(Score(next_opponent(players, seat), "renege", kernel.renege_points(n)))
            passed = passed | {seat}
        holding = _HOLDING[left]
        turn, reset, go_to = kernel.after(players, seat, count, holding, _SEATS[passed], -1 if last is None else last)
        totals = self.scores
        if not reset:
            if scores:
                totals = _pegged(totals, scores)
            return (_new(Play, (players, turn, count, count_cards, passed, last, held, left, played, totals,
                                self.tournament)),
                    _new(PegEvent, (action, count, tuple(scores), False, False)))
        # The count is over: 31, or nobody holding cards can play on.
        assert last is not None  # the leader can always play at 0
        if go_to >= 0:
            scores.append(go_score(go_to, bool(holding)))
        totals = _pegged(totals, scores)
        nxt = None if turn < 0 else turn
        return (_new(Play, (players, nxt, 0, (), _NOBODY, None, held, left, played, totals, self.tournament)),
                _new(PegEvent, (action, count, tuple(scores), True, nxt is None)))

    def check_complete(self) -> None:
        """Raise :class:`IllegalError` unless every card has been laid: for
        plays a caller says are the whole hand."""
        if self.turn is not None:
            raise IllegalError(
                "the plays are said to be the whole hand, but "
                + ", ".join(f"seat {s} still holds {n}" for s, n in enumerate(self.left) if n),
                rule="hand_not_complete", legal=self.legal_actions(), field="plays",
            )

    def team_scores(self) -> tuple[int, int] | None:
        """Points per partnership (seats 0+2, 1+3) with four players."""
        if self.players != 4:
            return None
        zero, one = side_totals(4, self.scores)  # the partnerships' sums have one home
        return zero, one


def replay(play: Play, actions: Sequence[Action]) -> tuple[Play, list[PegEvent]]:
    """Apply ``actions`` in order; an illegal one raises with ``field`` = its index."""
    events: list[PegEvent] = []
    for i, action in enumerate(actions):
        try:
            play, event = play.apply(action)
        except IllegalError as exc:
            exc.at = ("plays", i)
            exc.extra["index"] = i
            raise
        events.append(event)
    return play, events
