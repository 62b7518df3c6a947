"""Helpers of the advice tests (tests/advice/test_advice_*.py)."""

from __future__ import annotations

from service.core.cards import CARDS
from service.core.game import Deal, Discard, apply_action


def twin_deals(rng, start):
    """Two deals from ``start()`` alike in all seat 1 sees (its six cards; the starter, returned) but not
    in seat 0's cards and discards, seat 0 having thrown: (starter, [state, state])."""
    cards = [CARDS[c] for c in rng.sample(range(52), 52)]
    mine, starter = tuple(cards[6:12]), cards[40]
    states = []
    for theirs in (tuple(cards[0:6]), tuple(cards[20:26])):
        s, _ = apply_action(start(), Deal(0, (theirs, mine), ()))
        s, _ = apply_action(s, Discard(0, theirs[:2]))
        states.append(s)
    return starter, states
