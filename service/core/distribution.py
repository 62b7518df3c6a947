"""Every show counted: how many of the 12,994,800 (4 cards, starter) deals score each total.

Fifteens, pairs and runs depend only on the five ranks, so the enumeration
walks the 270,725 four-card hands and, for each, the 13 starter ranks; the
starter's suit matters only for a flush or nobs, so the starters of one rank
are counted together unless the hand is one suit or holds a jack.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from .show import _JACK_OF_SUIT, _RANK_KEY, RANK_POINTS

MAX_SHOW = 29
DEALS = 52 * 51 * 50 * 49 // 24 * 48  # C(52, 4) hands x 48 starters


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


def distribution(crib: bool = False) -> Distribution:
    """Count every (4 cards, starter) deal; a few seconds on one core."""
    counts = [0] * (MAX_SHOW + 1)
    key = _RANK_KEY
    rank_points = RANK_POINTS
    rank_bits = [1 << (3 * r) for r in range(13)]
    jack_of_suit = _JACK_OF_SUIT
    for hand in combinations(range(52), 4):
        a, b, c, d = hand
        hk = key[a] + key[b] + key[c] + key[d]
        suit = a & 3
        flush = suit == b & 3 == c & 3 == d & 3
        jacks = [s for s in range(4) if jack_of_suit[s] in hand]
        held = [0] * 13
        for x in hand:
            held[x >> 2] += 1
        for r in range(13):
            if held[r] == 4:
                continue  # all four of this rank are in the hand
            base = rank_points[hk + rank_bits[r]]
            if not flush and not jacks:
                counts[base] += 4 - held[r]
                continue
            for s in range(4):
                starter = r * 4 + s
                if starter in hand:
                    continue
                pts = base
                if flush:
                    if s == suit:
                        pts += 5
                    elif not crib:
                        pts += 4
                if s in jacks:
                    pts += 1
                counts[pts] += 1
    return Distribution(crib=crib, counts=tuple(counts))
