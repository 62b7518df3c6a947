"""What happened in a game, in the order a table pegs it: one frozen type per kind.

Each event names its kind (:class:`EventKind`, the API's name for it) in
``type``; those that peg points carry their ``scores`` (in the order they
fall) and add them up in ``points``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, Callable, ClassVar, Sequence, TypeVar, Union

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


@dataclass(frozen=True, slots=True)
class CutForDeal(_PegsNothing):
    """One round of the cut for first deal: a card per seat; ``seat`` is the
    low card's (who deals), None when the lowest ranks tie (cut again)."""

    type: ClassVar[EventKind] = EventKind.CUT_FOR_DEAL
    deal: int
    seat: int | None
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Dealt(_PegsNothing):
    type: ClassVar[EventKind] = EventKind.DEAL
    deal: int
    seat: int


@dataclass(frozen=True, slots=True)
class Discarded(_PegsNothing):
    """A seat laid ``cards`` away to the crib (only that seat may see which)."""

    type: ClassVar[EventKind] = EventKind.DISCARD
    deal: int
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class StarterTurned:
    """The pone cut and the starter was turned (a jack: his heels to the dealer)."""

    type: ClassVar[EventKind] = EventKind.STARTER
    deal: int
    seat: int
    starter: Card
    scores: tuple[Score, ...] = ()

    @property
    def cards(self) -> tuple[Card, ...]:
        return (self.starter,)

    @property
    def points(self) -> int:
        return points_of(self.scores)


@dataclass(frozen=True, slots=True)
class Played:
    """A card laid on the count, what it pegged, and whether the count then started again."""

    type: ClassVar[EventKind] = EventKind.PLAY
    deal: int
    seat: int
    card: Card
    count: int
    scores: Sequence[Score] = ()
    reset: bool = False

    @property
    def cards(self) -> tuple[Card, ...]:
        return (self.card,)

    @property
    def points(self) -> int:
        return points_of(self.scores)


@dataclass(frozen=True, slots=True)
class Went:
    """A seat said go (perhaps pegging the go, or a renege's penalty falling to another)."""

    type: ClassVar[EventKind] = EventKind.GO
    deal: int
    seat: int
    count: int
    scores: Sequence[Score] = ()
    reset: bool = False

    @property
    def points(self) -> int:
        return points_of(self.scores)


@dataclass(frozen=True, slots=True)
class HandCounted:
    """A hand, or the crib, counted in the show: its cards and what was pegged."""

    type: ClassVar[EventKind] = EventKind.COUNT
    deal: int
    seat: int
    cards: tuple[Card, ...]
    what: Counted
    scores: Sequence[Score] = ()
    """What was pegged, item by item (a game's are made when first read: :class:`~service.core.show.CountedScores`)."""

    @property
    def points(self) -> int:
        return points_of(self.scores)


@dataclass(frozen=True, slots=True)
class GameOver(_PegsNothing):
    """A side reached the target: nothing after this is scored."""

    type: ClassVar[EventKind] = EventKind.GAME_OVER
    deal: int


@dataclass(frozen=True, slots=True)
class DealRecorded(_PegsNothing):
    """A deal is over: its actions in notation, cards included (a trusted platform's only)."""

    type: ClassVar[EventKind] = EventKind.DEAL_RECORD
    deal: int
    record: tuple[str, ...]


GameEvent = Union[CutForDeal, Dealt, Discarded, StarterTurned, Played, Went, HandCounted, GameOver, DealRecorded]
ScoringEvent = Union[StarterTurned, Played, Went, HandCounted]


E = TypeVar("E")


def builder(cls: type[E]) -> Callable[..., E]:
    """A constructor of the event type ``cls`` taking every field in order, for the game's fast path:
    it fills the slots directly, where a frozen dataclass's own ``__init__`` goes through
    ``object.__setattr__`` once a field (twice the cost, on every action of every game).  Nothing is
    defaulted: every field is given."""
    setters = tuple(getattr(cls, f.name).__set__ for f in fields(cls))  # type: ignore[arg-type]
    new = object.__new__

    def build(*values: Any) -> E:
        event = new(cls)
        for put, value in zip(setters, values):
            put(event, value)
        return event

    return build


new_played = builder(Played)
new_went = builder(Went)
new_hand_counted = builder(HandCounted)
new_discarded = builder(Discarded)
new_dealt = builder(Dealt)
new_starter_turned = builder(StarterTurned)
