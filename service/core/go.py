"""Go: may a seat say it, and what a go said while able costs (ACC 7.3).

The go rule itself is :meth:`service.core.play.Play.may_go` (with
:meth:`~service.core.play.Play.playable_now`, the cards that fit); this module
asks it about one seat's cards at one count, for a caller outside a whole play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .cards import VALUE, Card, ensure_distinct
from .errors import MalformedError
from .peg import MAX_COUNT
from .play import CARDS_FOR_THE_PLAY, Play, renege_points


@dataclass(frozen=True, slots=True)
class GoRuling:
    """Whether a seat may say go, and what a renege would cost (ACC 7.3)."""

    legal: bool
    count: int
    playable: tuple[Card, ...]
    """The cards that could singly have been played instead."""
    penalty: int
    """Under tournament rules, points to the opponent for an illegal go; else 0."""


def count_of(count_cards: Sequence[Card]) -> int:
    """The count of a count in progress, from its cards (at most 30: at 31 it is over)."""
    count = sum(VALUE[c] for c in count_cards)
    if count >= MAX_COUNT:
        raise MalformedError(f"the cards of a count in progress add up to 30 at most, not {count}",
                             field="count_cards")
    return count


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
    play = Play(2, 0, count, (), held=(tuple(held), ()), tournament=tournament)
    cards, n = play.playable_now(0)
    # A renege is a go the rules let stand while able (never at the lead: docs/rules.md).
    penalty = renege_points(n) if n and play.may_go(0) else 0
    return GoRuling(legal=not n, count=count, playable=tuple(cards), penalty=penalty)
