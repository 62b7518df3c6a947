"""Every show counted: how many of the 12,994,800 (4 cards, starter) deals score each total.

A show's points are the ranks' points (fifteens, pairs and runs:
:data:`~service.core.kernel.RANK_POINTS`) plus the suits' (the flush and his
nobs: :func:`~service.core.show.suit_points`), and the suits' points depend
only on which cards share a suit and which cards are jacks.  So the
enumeration walks the 1,820 multisets of four hand ranks and the 13 starter
ranks, and for each asks how the deals of those ranks spread over the suits'
points.  That spread is the same for every (hand ranks, starter rank) that
look alike to the suits' rules -- the same multiplicities, the jacks in the
same places -- so it is counted once per look, over every suit assignment of
real cards, by the show's own rules (a few dozen looks; well under a second
in all, where scoring all 12,994,800 deals one by one takes a C program a
third of a second).  The published table of hand totals checks the result
(tests/core/test_distribution.py).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, product

from .cards import JACK, Card
from .engine import kernel
from .show import suit_points

MAX_SHOW = 29
"""The most a show can score: 5 5 5 J and the 5 of the jack's suit."""


@dataclass(frozen=True, slots=True)
class Distribution:
    """How many deals score each total 0..29."""

    crib: bool
    counts: tuple[int, ...]

    @property
    def deals(self) -> int:
        return sum(self.counts)

    @property
    def mean(self) -> float:
        return sum(t * n for t, n in enumerate(self.counts)) / self.deals

    @property
    def impossible(self) -> list[int]:
        """Totals no deal reaches (19, 25, 26 and 27 for hands)."""
        return [t for t, n in enumerate(self.counts) if n == 0]


def _suit_spread(held: dict[int, int], starter: int, crib: bool) -> Counter[int]:
    """How many deals of these ranks (``held``: rank -> cards of it in the
    hand; the starter's rank) score each number of suit points."""
    ranks = list(held)
    spread: Counter[int] = Counter()
    for suits in product(*(combinations(range(4), held[r]) for r in ranks)):
        hand = [Card.from_rank_suit(r, s) for r, ss in zip(ranks, suits) for s in ss]
        taken = suits[ranks.index(starter)] if starter in held else ()
        for s in range(4):
            if s not in taken:
                spread[suit_points(hand, Card.from_rank_suit(starter, s), crib)] += 1
    return spread


def _look(held: dict[int, int], starter: int) -> tuple[object, ...]:
    """What the suits' rules can tell apart of (hand ranks, starter rank): each
    rank's multiplicity and whether it is the jacks, and the starter's."""
    return (tuple(sorted((n, r == JACK) for r, n in held.items())), held.get(starter, 0), starter == JACK)


def distribution(crib: bool = False) -> Distribution:
    """Count every (4 cards, starter) deal, as hands or as cribs."""
    counts = [0] * (MAX_SHOW + 1)
    spreads: dict[tuple[object, ...], tuple[tuple[int, int], ...]] = {}
    rank_key = kernel.RANK_BIT  # by rank 1..13
    for ranks in combinations_with_replacement(range(1, 14), 4):
        held = dict(Counter(ranks))
        hand_key = sum(rank_key[r] for r in ranks)
        for starter in range(1, 14):
            if held.get(starter) == 4:
                continue  # all four of this rank are in the hand
            look = _look(held, starter)
            spread = spreads.get(look)
            if spread is None:
                spread = spreads[look] = tuple(_suit_spread(held, starter, crib).items())
            base = kernel.RANK_POINTS[hand_key + rank_key[starter]]
            for points, deals in spread:
                counts[base + points] += deals
    return Distribution(crib=crib, counts=tuple(counts))
