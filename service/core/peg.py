"""What a card pegs in the play: fifteen, thirty-one, pairs and runs on the count.

The go and the last card are pegged by the play itself
(:meth:`service.core.play.Play.advance`), which knows whether anyone can play on.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from .cards import RANK, VALUE, Card

MAX_COUNT = 31
PAIR_POINTS = {2: ("pair", 2), 3: ("pair_royal", 6), 4: ("double_pair_royal", 12)}
_new = tuple.__new__  # every field given: NamedTuple's keyword-taking __new__ is not needed


class Score(NamedTuple):
    """Points pegged by one seat for one reason; ``cards`` are those that made it.
    A renege gives the number of cards that could have been played, never the cards."""

    seat: int
    kind: str
    points: int
    cards: tuple[Card, ...] = ()


def peg_scores(count_cards: Sequence[Card], seat: int, count: int | None = None) -> list[Score]:
    """What the last card of ``count_cards`` scores for ``seat`` (no go point).

    >>> [(s.kind, s.points) for s in peg_scores([Card.parse(c) for c in "3H 4D 3C 5S".split()], 0)]
    [('fifteen', 2), ('run', 3)]
    >>> [(s.kind, s.points) for s in peg_scores([Card.parse(c) for c in "6H 7D 7C 8S".split()], 0)]
    []
    """
    out: list[Score] = []
    if count is None:
        count = sum(VALUE[c] for c in count_cards)
    if count == 15:
        out.append(_new(Score, (seat, "fifteen", 2, tuple(count_cards))))
    elif count == MAX_COUNT:
        out.append(_new(Score, (seat, "thirty_one", 2, tuple(count_cards))))
    n = len(count_cards)
    if n < 2:
        return out
    last = RANK[count_cards[-1]]
    if RANK[count_cards[-2]] == last:
        same = 2
        while same < n and RANK[count_cards[-1 - same]] == last:
            same += 1
        kind, pts = PAIR_POINTS[same]
        out.append(_new(Score, (seat, kind, pts, tuple(count_cards[-same:]))))
    elif n >= 3:
        # A run is the longest tail of distinct ranks that are consecutive;
        # a tail with a repeated rank, and every longer one, is no run.
        low = high = last
        seen = 1 << last
        run = 0
        for j in range(2, n + 1):
            rank = RANK[count_cards[-j]]
            bit = 1 << rank
            if seen & bit:
                break
            seen |= bit
            if rank < low:
                low = rank
            elif rank > high:
                high = rank
            if j >= 3 and high - low == j - 1:
                run = j
        if run:
            out.append(_new(Score, (seat, "run", run, tuple(count_cards[-run:]))))
    return out
