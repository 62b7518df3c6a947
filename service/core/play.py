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
from typing import NamedTuple, Sequence, Union

from .cards import CARDS, RANK, VALUE, Card, ensure_distinct
from .errors import IllegalError, MalformedError

CARDS_FOR_THE_PLAY = 4
MAX_COUNT = 31
PAIR_POINTS = {2: ("pair", 2), 3: ("pair_royal", 6), 4: ("double_pair_royal", 12)}
RENEGE_POINTS_PER_CARD = 2


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
_PLAYS = tuple(tuple(PlayCard(seat, c) for c in CARDS) for seat in range(4))
_GOS = tuple(Go(seat) for seat in range(4))


class Score(NamedTuple):
    """Points pegged by one seat for one reason; ``cards`` are those that made it.
    A renege gives the number of cards that could have been played, never the cards."""

    seat: int
    kind: str
    points: int
    cards: tuple[Card, ...] = ()


class PegEvent(NamedTuple):
    """What one action caused, in the order a table would peg it."""

    action: Action
    count: int
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
    return RENEGE_POINTS_PER_CARD * playable


def next_opponent(players: int, seat: int) -> int:
    """The next seat on the other side: who pegs a penalty or calls muggins.

    With four players that is the next seat (always the other partnership);
    with two the opponent; with three the player to the left.

    >>> next_opponent(2, 1), next_opponent(3, 2), next_opponent(4, 3)
    (0, 0, 0)
    """
    return (seat + 1) % players


def peg_scores(count_cards: Sequence[Card], seat: int, count: int | None = None) -> list[Score]:
    """What the last card of ``count_cards`` scores for ``seat`` (no go point).

    >>> [(s.kind, s.points) for s in peg_scores([Card.parse(c) for c in "3H 4D 3C 5S".split()], 0)]
    [('fifteen', 2), ('run', 3)]
    >>> [(s.kind, s.points) for s in peg_scores([Card.parse(c) for c in "6H 7D 7C 8S".split()], 0)]
    []
    """
    out: list[Score] = []
    if count is None:
        count = sum(VALUE[c] for c in count_cards)
    n = len(count_cards)
    if count == 15:
        out.append(Score(seat, "fifteen", 2, tuple(count_cards)))
    elif count == MAX_COUNT:
        out.append(Score(seat, "thirty_one", 2, tuple(count_cards)))
    if n < 2:
        return out
    last = RANK[count_cards[-1]]
    same = 1
    while same < n and RANK[count_cards[-1 - same]] == last:
        same += 1
    if same > 1:
        kind, pts = PAIR_POINTS[same]
        out.append(Score(seat, kind, pts, tuple(count_cards[-same:])))
    elif n >= 3:
        # A run needs distinct ranks, so a pair on the last card rules it out.
        for k in range(n, 2, -1):
            ranks = {RANK[c] for c in count_cards[-k:]}
            if len(ranks) == k and max(ranks) - min(ranks) == k - 1:
                out.append(Score(seat, "run", k, tuple(count_cards[-k:])))
                break
    return out


class Play(NamedTuple):
    """A position in the play of one hand (immutable: every action makes a new one)."""

    players: int
    turn: int | None
    """Seat to act next; None once every card is played."""
    count: int = 0
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
        room = MAX_COUNT - self.count
        return [c for c in self.held[seat] if VALUE[c] <= room]

    def playable_now(self, seat: int) -> tuple[list[Card], int]:
        """The cards ``seat`` could lay and how many.  With unknown cards the
        number is known only where every card fits (a count of 21 or less)."""
        cards = self.playable(seat)
        if cards is not None:
            return cards, len(cards)
        return [], self.left[seat] if self.count <= MAX_COUNT - 10 else 0

    def may_go(self, seat: int) -> bool:
        """The go rule: a seat may say go only when no card it holds fits
        under 31, and never as the leader of a count (every card fits at 0).
        Under tournament rules a go while able is allowed but is a renege."""
        if not self.count_cards:
            return False
        if self.tournament:
            return True
        if self.held is None:
            return self.count > MAX_COUNT - 10
        return not self.playable_now(seat)[1]

    def legal_actions(self) -> list[Action | AnyCard]:
        """Every legal action for the seat to act.

        With unknown cards, an :class:`AnyCard` stands for the cards that fit.
        """
        seat = self.turn
        if seat is None:
            return []
        room = MAX_COUNT - self.count
        if self.held is None:
            actions: list[Action | AnyCard] = [AnyCard(seat, min(room, 10))]
        else:
            plays = _PLAYS[seat]
            actions = [plays[c] for c in self.held[seat] if VALUE[c] <= room]
        if self.may_go(seat):
            actions.append(_GOS[seat])
        return actions

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
            if self.count + VALUE[card] > MAX_COUNT:
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
        held, left, played = self.held, self.left, self.played
        passed, last = self.passed, self.last_player
        if type(action) is PlayCard:
            card = action.card
            count = self.count + VALUE[card]
            count_cards = self.count_cards + (card,)
            scores = peg_scores(count_cards, seat, count)
            if held is not None:
                mine = held[seat]
                i = mine.index(card)
                held = held[:seat] + (mine[:i] + mine[i + 1:],) + held[seat + 1:]
            left = left[:seat] + (left[seat] - 1,) + left[seat + 1:]
            played = played + (card,)
            last = seat
        else:
            count, count_cards = self.count, self.count_cards
            n = self.playable_now(seat)[1]
            scores = []
            if n:  # a renege: only possible under tournament rules
                scores.append(Score(next_opponent(self.players, seat), "renege", renege_points(n)))
            passed = passed | {seat}
        # Whose turn: the next seat holding cards that has not said go.
        players = self.players
        turn = None
        reset = False
        if count < MAX_COUNT:
            for i in range(1, players + 1):
                s = (seat + i) % players
                if left[s] and s not in passed:
                    turn = s
                    break
        if turn is None:
            # The count is over: 31, or nobody holding cards can play on.
            reset = True
            assert last is not None  # the leader can always play at 0
            if count != MAX_COUNT:
                scores.append(Score(last, "last_card" if not any(left) else "go", 1))
            for i in range(1, players + 1):
                s = (last + i) % players
                if left[s]:
                    turn = s
                    break
        totals = self.scores
        if scores:
            totals = list(totals)
            for s in scores:
                totals[s.seat] += s.points
            totals = tuple(totals)
        if reset:
            nxt = Play(players, turn, 0, (), frozenset(), None, held, left, played, totals, self.tournament)
        else:
            nxt = Play(players, turn, count, count_cards, passed, last, held, left, played, totals,
                       self.tournament)
        return nxt, PegEvent(action, count, tuple(scores), reset, turn is None)

    def team_scores(self) -> tuple[int, int] | None:
        """Points per partnership (seats 0+2, 1+3) with four players."""
        if self.players != 4:
            return None
        return (self.scores[0] + self.scores[2], self.scores[1] + self.scores[3])


def replay(play: Play, actions: Sequence[Action]) -> tuple[Play, list[PegEvent]]:
    """Apply ``actions`` in order; an illegal one raises with ``field`` = its index."""
    events: list[PegEvent] = []
    for i, action in enumerate(actions):
        try:
            play, event = play.apply(action)
        except IllegalError as exc:
            exc.field = f"plays/{i}"
            exc.extra["index"] = i
            raise
        events.append(event)
    return play, events


@dataclass(frozen=True, slots=True)
class GoRuling:
    """Whether a seat may say go, and what a renege would cost (ACC 7.3)."""

    legal: bool
    count: int
    playable: tuple[Card, ...]
    """The cards that could singly have been played instead."""
    penalty: int
    """Under tournament rules, points to the opponent for an illegal go; else 0."""


def rule_on_go(count: int, held: Sequence[Card], tournament: bool = False) -> GoRuling:
    """May a seat holding ``held`` say go at ``count``?

    Go is legal only when every card held would take the count past 31.  Under
    tournament rules an illegal go is a renege: 2 points to the opponent for each
    card that could have been played.

    >>> rule_on_go(25, [Card.parse("7H"), Card.parse("KS")])
    GoRuling(legal=True, count=25, playable=(), penalty=0)
    >>> r = rule_on_go(25, [Card.parse("6H"), Card.parse("AS")], tournament=True)
    >>> r.legal, [str(c) for c in r.playable], r.penalty
    (False, ['6H', 'AS'], 4)
    """
    if not 0 <= count < MAX_COUNT:
        raise MalformedError(f"a count in progress is 0 to 30, not {count}", field="count")
    if not 1 <= len(held) <= CARDS_FOR_THE_PLAY:
        raise MalformedError(
            "a seat asking about go holds 1 to 4 cards (a seat with none is skipped)",
            field="hand",
        )
    ensure_distinct(held)
    cards, n = Play(2, 0, count, (), held=(tuple(held), ()), tournament=tournament).playable_now(0)
    # A go at the lead is refused outright, never a renege (docs/rules.md).
    penalty = renege_points(n) if tournament and count else 0
    return GoRuling(legal=not n, count=count, playable=tuple(cards), penalty=penalty)
