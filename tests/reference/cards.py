"""Concrete cards for the references' exhaustive checks, which range over ranks."""

from __future__ import annotations

from collections import Counter

from service.core.cards import Card


def cards_for(ranks) -> list[Card]:
    """Concrete distinct cards for a rank multiset (suit = occurrence index)."""
    seen: Counter = Counter()
    out = []
    for r in ranks:
        out.append(Card.from_rank_suit(r, seen[r]))
        seen[r] += 1
    return out
