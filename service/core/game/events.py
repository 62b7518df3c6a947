"""What happened in a game, in the order a table pegs it."""

from __future__ import annotations

from typing import NamedTuple, Sequence

from ..cards import Card
from ..play import Score

EVENT_TYPES = ("cut_for_deal", "deal", "discard", "starter", "play", "go", "count", "game_over",
               "deal_record")


class GameEvent(NamedTuple):
    type: str
    """One of :data:`EVENT_TYPES`."""
    deal: int
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    count: int | None = None
    what: str | None = None
    """For a count: 'hand' or 'crib'."""
    scores: Sequence[Score] = ()
    """In the order pegged (a counted hand's are made when first read: :class:`~service.core.show.CountedScores`)."""
    reset: bool = False
    record: tuple[str, ...] = ()
    """For a deal_record: the deal's actions in notation, cards included."""

    @property
    def points(self) -> int:
        """What the event's scores add up to; a set back (ACC 8.4.b) counts minus."""
        return sum(-s.points if s.kind == "set_back" else s.points for s in self.scores)
