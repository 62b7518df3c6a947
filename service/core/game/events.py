"""What happened in a game, in the order a table pegs it: one immutable type per kind.

Each event names its kind (:class:`EventKind`, the API's name for it) in
``type``; those that peg points carry their ``scores`` (in the order they
fall) and add them up in ``points``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, NamedTuple, Sequence, Union

from ..cards import Card
from ..peg import Score
from .actions import Counted


class EventKind(StrEnum):
    CUT_FOR_DEAL = "cut_for_deal"
    DEAL = "deal"
    DISCARD = "discard"
    STARTER = "starter"
    PLAY = "play"
    GO = "go"
    COUNT = "count"
    GAME_OVER = "game_over"
    DEAL_RECORD = "deal_record"


EVENT_TYPES = tuple(EventKind)


def points_of(scores: Sequence[Score]) -> int:
    """What scores add up to; a set back (ACC 8.4.b) counts minus."""
    return sum(-s.points if s.kind == "set_back" else s.points for s in scores)


class _PegsNothing:
    """Every event answers what it pegged; these peg nothing."""

    __slots__ = ()

    @property
    def scores(self) -> tuple[Score, ...]:
        return ()

    @property
    def points(self) -> int:
        return 0


# Each event is a named tuple of its fields (a game makes one an action, and a
# tuple is the cheapest immutable record to make) with its kind and what it
# derives on a subclass: a named tuple's own body may hold only its fields.


class _CutForDeal(NamedTuple):
    deal: int
    seat: int | None
    cards: tuple[Card, ...]


class CutForDeal(_CutForDeal, _PegsNothing):
    """One round of the cut for first deal: a card per seat; ``seat`` is the
    low card's (who deals), None when the lowest ranks tie (cut again)."""

    __slots__ = ()
    type: ClassVar[EventKind] = EventKind.CUT_FOR_DEAL


class _Dealt(NamedTuple):
    deal: int
    seat: int


class Dealt(_Dealt, _PegsNothing):
    __slots__ = ()
    type: ClassVar[EventKind] = EventKind.DEAL


class _Discarded(NamedTuple):
    deal: int
    seat: int
    cards: tuple[Card, ...]


class Discarded(_Discarded, _PegsNothing):
    """A seat laid ``cards`` away to the crib (only that seat may see which)."""

    __slots__ = ()
    type: ClassVar[EventKind] = EventKind.DISCARD


class _StarterTurned(NamedTuple):
    deal: int
    seat: int
    starter: Card
    scores: tuple[Score, ...] = ()


class StarterTurned(_StarterTurned):
    """The pone cut and the starter was turned (a jack: his heels to the dealer)."""

    __slots__ = ()
    type: ClassVar[EventKind] = EventKind.STARTER

    @property
    def cards(self) -> tuple[Card, ...]:
        return (self.starter,)

    @property
    def points(self) -> int:
        return points_of(self.scores)


class _Played(NamedTuple):
    deal: int
    seat: int
    card: Card
    count: int  # type: ignore[assignment]  # a field named like tuple.count
    scores: Sequence[Score] = ()
    reset: bool = False


class Played(_Played):
    """A card laid on the count, what it pegged, and whether the count then started again."""

    __slots__ = ()
    type: ClassVar[EventKind] = EventKind.PLAY

    @property
    def cards(self) -> tuple[Card, ...]:
        return (self.card,)

    @property
    def points(self) -> int:
        return points_of(self.scores)


class _Went(NamedTuple):
    deal: int
    seat: int
    count: int  # type: ignore[assignment]  # a field named like tuple.count
    scores: Sequence[Score] = ()
    reset: bool = False


class Went(_Went):
    """A seat said go (perhaps pegging the go, or a renege's penalty falling to another)."""

    __slots__ = ()
    type: ClassVar[EventKind] = EventKind.GO

    @property
    def points(self) -> int:
        return points_of(self.scores)


class _HandCounted(NamedTuple):
    deal: int
    seat: int
    cards: tuple[Card, ...]
    what: Counted
    scores: Sequence[Score] = ()
    """What was pegged, item by item (a game's are made when first read: :class:`~service.core.show.CountedScores`)."""


class HandCounted(_HandCounted):
    """A hand, or the crib, counted in the show: its cards and what was pegged."""

    __slots__ = ()
    type: ClassVar[EventKind] = EventKind.COUNT

    @property
    def points(self) -> int:
        return points_of(self.scores)


class _GameOver(NamedTuple):
    deal: int


class GameOver(_GameOver, _PegsNothing):
    """A side reached the target: nothing after this is scored."""

    __slots__ = ()
    type: ClassVar[EventKind] = EventKind.GAME_OVER


class _DealRecorded(NamedTuple):
    deal: int
    record: tuple[str, ...]


class DealRecorded(_DealRecorded, _PegsNothing):
    """A deal is over: its actions in notation, cards included (a trusted platform's only)."""

    __slots__ = ()
    type: ClassVar[EventKind] = EventKind.DEAL_RECORD


GameEvent = Union[CutForDeal, Dealt, Discarded, StarterTurned, Played, Went, HandCounted, GameOver, DealRecorded]
ScoringEvent = Union[StarterTurned, Played, Went, HandCounted]
