"""A stand-in for :func:`service.advice.odds.board_odds` until the table lands (issue 20, helper 20o):
a normal approximation of the race, the dealer's side ahead by its mean edge of a deal.  Removed with
the merge of the table."""

from __future__ import annotations

import math
from collections.abc import Sequence

DEAL_POINTS = (16.0, 10.5)
"""Mean points of the dealer's side and the pone's in a 2-player deal (hand, crib, pegging)."""


def board_odds(players: int, target: int, scores: Sequence[int], dealer: int,
               five_and_two: bool = False) -> tuple[float, ...]:
    if max(scores) >= target:
        return tuple(1.0 if s >= target else 0.0 for s in scores)
    sides = len(scores)
    d = dealer % sides
    # each side's deals to go, at the mean of a pair of deals; the dealer's side gains its edge first
    need = [target - s - (DEAL_POINTS[0] - DEAL_POINTS[1]) / 2 * (1 if i == d else -1) for i, s in enumerate(scores)]
    rate = sum(DEAL_POINTS) / 2
    left = [n / rate for n in need]
    if sides != 2:
        w = [math.exp(-x) for x in left]
        return tuple(x / sum(w) for x in w)
    diff = left[1] - left[0]
    sd = 0.45 * math.sqrt(max(left[0] + left[1], 0.5))
    p0 = 0.5 * (1 + math.erf(diff / (sd * math.sqrt(2))))
    return (p0, 1 - p0)
