"""Every show counted: the distribution of the 12,994,800 (4 cards, starter) deals.

The expected hand counts are the published table of cribbage hand totals
(e.g. Wikipedia, "Cribbage statistics"); the crib counts are checked against
the hand counts through the one rule that separates them (docs/rules.md): a
four-card flush with an off-suit starter scores 4 in a hand and nothing in the
crib.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import pytest

from service.core.distribution import MAX_SHOW, Distribution, distribution

IMPOSSIBLE = [19, 25, 26, 27]
DEALS = comb(52, 4) * 48  # four hand cards, then any of the other 48 as the starter

# Published: number of (hand, starter) deals scoring each total 0..29.
HAND_COUNTS = (
    1009008, 99792, 2813796, 505008, 2855676, 697508, 1800268, 751324, 1137236, 361224,
    388740, 51680, 317340, 19656, 90100, 9168, 58248, 11196, 2708, 0,
    8068, 2496, 444, 356, 3680, 0, 0, 0, 76, 4,
)


@pytest.fixture(scope="module")
def hand() -> Distribution:
    return distribution(crib=False)


@pytest.fixture(scope="module")
def crib() -> Distribution:
    return distribution(crib=True)


def test_deal_count_and_the_maximum() -> None:
    assert DEALS == 12_994_800
    assert MAX_SHOW == 29  # docs/rules.md: the maximum is 29 (5 5 5 J + 5 of the jack's suit)


def test_hand_totals(hand: Distribution) -> None:
    assert hand.crib is False
    assert len(hand.counts) == 30
    assert hand.deals == sum(hand.counts) == 12_994_800
    assert hand.counts[29] == 4
    assert all(hand.counts[t] == 0 for t in IMPOSSIBLE)
    assert hand.impossible == IMPOSSIBLE
    assert all(hand.counts[t] > 0 for t in range(30) if t not in IMPOSSIBLE)
    assert round(hand.mean, 4) == 4.7692


def test_hand_counts_match_the_published_table(hand: Distribution) -> None:
    assert hand.counts == HAND_COUNTS


def test_crib_totals(crib: Distribution) -> None:
    assert crib.crib is True
    assert crib.deals == 12_994_800
    assert crib.counts[29] == 4
    assert crib.impossible == IMPOSSIBLE
    assert round(crib.mean, 4) == 4.7348


def _rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs of five ranks (an independent little scorer)."""
    values = [min(r, 10) for r in ranks]
    pts = 2 * sum(
        1 for mask in range(1, 32) if sum(values[i] for i in range(5) if mask >> i & 1) == 15
    )
    counts = Counter(ranks)
    pts += sum(n * (n - 1) for n in counts.values())  # 2 per pair
    for length in (5, 4, 3):
        for lo in range(1, 15 - length):
            if all(r in counts for r in range(lo, lo + length)):
                k = length
                for r in range(lo, lo + length):
                    k *= counts[r]
                return pts + k
    return pts


def _off_suit_four_flush_crib_totals() -> list[int]:
    """F[t]: deals whose four cards are one suit, the starter another suit,
    counted as a crib (no flush; and no nobs, as the jack in the hand is not of
    the starter's suit).  Per rank set: 13 starter ranks x 3 suits x 4 suits."""
    f = [0] * 30
    for ranks in combinations(range(1, 14), 4):
        for r in range(1, 14):
            f[_rank_points(tuple(sorted((*ranks, r))))] += 4 * 3
    return f


def test_crib_differs_from_hand_only_by_four_card_flushes(hand: Distribution, crib: Distribution) -> None:
    f = _off_suit_four_flush_crib_totals()
    assert sum(f) == 4 * comb(13, 4) * 39 == 111_540
    for t in range(30):
        moved_in = f[t - 4] if t >= 4 else 0
        assert hand.counts[t] == crib.counts[t] - f[t] + moved_in, t
    # and so the means differ by exactly 4 points on those deals
    diff = sum(t * n for t, n in enumerate(hand.counts)) - sum(t * n for t, n in enumerate(crib.counts))
    assert diff == 4 * 111_540
    assert hand.mean - crib.mean == pytest.approx(4 * 111_540 / DEALS)


def test_totals_above_flush_range_are_the_same(hand: Distribution, crib: Distribution) -> None:
    # Four-card flushes never reach the top totals (the 28s and 29s are built
    # on four fives), so hand and crib agree on 25..29: 28 in 76 deals, 29 in 4.
    assert hand.counts[25:] == crib.counts[25:] == (0, 0, 0, 76, 4)
