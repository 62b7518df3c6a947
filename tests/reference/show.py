"""The show's reference scorer: written from docs/rules.md ("The show"), not from
service/core/show.py, and working differently on purpose: fifteens by walking
the 32 subsets as bit masks, pairs as n*(n-1)/2 per rank, runs as the one
streak of 3+ consecutive ranks present, scored length x (product of the
multiplicities), with one run item per choice of one card from each rank.

A reference written independently of service/: it must never import service's
implementation of the show (service.core.show, the kernel, service.boundary.show);
it reads a card's rank and suit from its printed name, and uses only the card type
(service.core.cards) as its vocabulary.  tests/core/test_show_properties.py,
tests/core/test_kernel.py and tests/core/game/test_game_properties.py hold the service to it.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import product
from math import prod

from service.core.cards import CARDS, Card

RANKS = "A23456789TJQK"
SUITS = "CDHS"


# rank 1..13 and suit letter read from the printed card, not from Card.rank/suit
RANK_OF = {c: RANKS.index(str(c)[0]) + 1 for c in CARDS}
SUIT_OF = {c: str(c)[1] for c in CARDS}


def rank(card: Card) -> int:
    return RANK_OF[card]


def suit(card: Card) -> str:
    return SUIT_OF[card]


def value(card: Card) -> int:
    return min(rank(card), 10)


def reference(hand: tuple[Card, ...], starter: Card, crib: bool) -> list[tuple[str, frozenset, int]]:
    """Every scoring item as (kind, frozenset of cards, points)."""
    five = list(hand) + [starter]
    items: list[tuple[str, frozenset, int]] = []

    # each distinct set of 2-5 cards summing to 15: 2
    for mask in range(1, 32):
        chosen = [five[i] for i in range(5) if mask >> i & 1]
        if len(chosen) >= 2 and sum(value(c) for c in chosen) == 15:
            items.append(("fifteen", frozenset(chosen), 2))

    # each pair (same rank): 2
    by_rank: dict[int, list[Card]] = {}
    for c in five:
        by_rank.setdefault(rank(c), []).append(c)
    for same in by_rank.values():
        for i in range(len(same)):
            for j in range(i + 1, len(same)):
                items.append(("pair", frozenset((same[i], same[j])), 2))

    # runs: the longest streak of consecutive ranks present (A low, K high, no
    # wrap); with five cards at most one streak can reach length 3.
    present = sorted(by_rank)
    best: list[int] = []
    streak: list[int] = []
    for r in present:
        streak = streak + [r] if streak and r == streak[-1] + 1 else [r]
        if len(streak) > len(best):
            best = streak
    if len(best) >= 3:
        for choice in product(*(by_rank[r] for r in best)):
            items.append(("run", frozenset(choice), len(best)))

    # flush
    if len({suit(c) for c in hand}) == 1:
        if suit(starter) == suit(hand[0]):
            items.append(("flush", frozenset(five), 5))
        elif not crib:
            items.append(("flush", frozenset(hand), 4))

    # nobs: a jack among the four cards with the starter's suit
    for c in hand:
        if rank(c) == 11 and suit(c) == suit(starter):
            items.append(("nobs", frozenset((c,)), 1))
    return items


def reference_total(hand: tuple[Card, ...], starter: Card, crib: bool) -> int:
    return sum(p for _, _, p in reference(hand, starter, crib))


@lru_cache(maxsize=None)
def reference_rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens + pairs + runs of five ranks (sorted), by formula (no cards needed)."""
    values = [min(r, 10) for r in ranks]
    fifteens = sum(
        1 for mask in range(1, 32)
        if sum(values[i] for i in range(5) if mask >> i & 1) == 15
    )
    counts = Counter(ranks)
    pairs = sum(n * (n - 1) // 2 for n in counts.values())
    run = 0
    for length in (5, 4, 3):
        for lo in range(1, 15 - length):
            streak = range(lo, lo + length)
            if all(r in counts for r in streak):
                run = length * prod(counts[r] for r in streak)
                break
        if run:
            break
    return 2 * fifteens + 2 * pairs + run


def reference_total_fast(hand: tuple[Card, ...], starter: Card, crib: bool) -> int:
    """reference_total via the rank-multiset formula plus flush and nobs."""
    five = (*hand, starter)
    pts = reference_rank_points(tuple(sorted(rank(c) for c in five)))
    suits = {suit(c) for c in hand}
    if len(suits) == 1:
        if suit(starter) in suits:
            pts += 5
        elif not crib:
            pts += 4
    pts += sum(1 for c in hand if rank(c) == 11 and suit(c) == suit(starter))
    return pts
