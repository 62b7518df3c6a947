"""The ACC playoff bracket (docs/rules.md, "Tournament scoring").

* One entrant in four qualifies, rounded up: 121 to 124 entrants, 31 qualifiers.
* The bracket is the next power of two at or above the qualifiers; the
  missing places are byes in the first round, given to the top seeds, so
  the second round is a full bracket (108 entrants: 27 qualifiers, 32 places,
  5 byes; 132: 33, 64, 31 byes; 60: 15, 16, 1 bye).
* First-round pairs sum to the bracket size + 1 (1 v 32, 2 v 31, ...), laid
  out so that seeds 1 and 2 can meet only in the final, 1-4 only in the
  semi-finals, and so on (the usual seeding order).

>>> b = bracket(108)
>>> b.qualifiers, b.size, b.byes
(27, 32, 5)
>>> b.rounds[0][:2]
(Pairing(seeds=(1, 32), bye=True, feeds=None), Pairing(seeds=(16, 17), bye=False, feeds=None))
"""

from __future__ import annotations

from typing import NamedTuple

from service.core.errors import MalformedError

QUALIFY_ONE_IN = 4
MAX_ENTRANTS = 4096


def qualifiers(entrants: int) -> int:
    """One in four qualifies, rounded up (ACC).

    >>> [qualifiers(n) for n in (4, 5, 120, 121, 124, 125)]
    [1, 2, 30, 31, 31, 32]
    """
    return -(-entrants // QUALIFY_ONE_IN)


def bracket_size(n: int) -> int:
    """The smallest power of two at or above ``n`` (1 for 1)."""
    return 1 << (n - 1).bit_length()


def seeding_order(size: int) -> list[int]:
    """The top seed of each first-round pair, in bracket order: 1 and 2 in
    opposite halves, 1-4 in opposite quarters, and so on.

    >>> seeding_order(8)
    [1, 4, 2, 3]
    """
    order = [1]
    while len(order) < size // 2:
        k = len(order)  # each slot splits into its seed and the seed it meets, summing to 2k + 1
        order = [seed for top in order for seed in (top, 2 * k + 1 - top)]
    return order


class Pairing(NamedTuple):
    """One match of a round: two seeds (the first-round pair, or the top
    seeds that can reach it) -- ``bye`` when the second seed did not qualify."""

    seeds: tuple[int, int]
    bye: bool
    feeds: tuple[int, int] | None
    """In later rounds, the two matches (0-based, of the round before) whose winners meet."""


class Bracket(NamedTuple):
    entrants: int
    qualifiers: int
    size: int
    byes: int
    rounds: tuple[tuple[Pairing, ...], ...]


def bracket(entrants: int) -> Bracket:
    """The playoff for ``entrants`` players (1 to :data:`MAX_ENTRANTS`)."""
    if type(entrants) is not int or not 1 <= entrants <= MAX_ENTRANTS:
        raise MalformedError(f"a tournament has 1 to {MAX_ENTRANTS} entrants", field="entrants")
    q = qualifiers(entrants)
    size = bracket_size(q)
    rounds: list[tuple[Pairing, ...]] = []
    if size > 1:
        first = tuple(Pairing((top, size + 1 - top), size + 1 - top > q, None) for top in seeding_order(size))
        rounds.append(first)
        prev = first
        while len(prev) > 1:
            nxt = []
            for m in range(0, len(prev), 2):
                a, b = prev[m].seeds[0], prev[m + 1].seeds[0]  # the favourite of each match below
                nxt.append(Pairing((min(a, b), max(a, b)), False, (m, m + 1)))
            prev = tuple(nxt)
            rounds.append(prev)
    return Bracket(entrants, q, size, size - q, tuple(rounds))
