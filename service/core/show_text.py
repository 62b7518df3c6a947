"""A counted show said aloud: the call a player makes (docs/rules.md, "The show").

The call is built per :class:`~service.core.show.ShowPattern` (the fifteens,
pairs and runs of one rank multiset) and kept with it, for each flush and
nobs that can go with the pattern.  (The API's document of a show is the
JSON boundary's, :mod:`service.boundary.show`.)
"""

from __future__ import annotations

from typing import Protocol


class RankCount(Protocol):
    """What the call reads of a rank multiset's count (:class:`.show.ShowPattern`, which
    imports this module: the call depends on no type of the count's, so no circle)."""

    @property
    def ranks(self) -> tuple[int, ...]: ...

    @property
    def items(self) -> tuple[tuple[str, tuple[int, ...], int], ...]:
        """(kind, positions among the five sorted, points) a fifteen, pair or run."""

    @property
    def pair(self) -> int: ...

    @property
    def run(self) -> int: ...

    @property
    def points(self) -> int: ...


NUMBER_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
    "seventeen", "eighteen", "nineteen", "twenty", "twenty-one", "twenty-two",
    "twenty-three", "twenty-four", "twenty-five", "twenty-six", "twenty-seven",
    "twenty-eight", "twenty-nine", "thirty", "thirty-one",
)

# ---------------------------------------------------------------------------
# Saying the count aloud.

_RUN_MULTIPLES = {1: "a run of {n}", 2: "a double run of {n}", 3: "a triple run of {n}",
                  4: "a double double run of {n}"}
_PAIR_NAMES = {1: "a pair", 3: "a pair royal", 6: "a double pair royal"}


def _pairs_phrase(pattern: RankCount) -> str:
    by_rank: dict[int, int] = {}
    for kind, positions, _ in pattern.items:
        if kind == "pair":
            rank = pattern.ranks[positions[0]]
            by_rank[rank] = by_rank.get(rank, 0) + 1
    parts = sorted((_PAIR_NAMES[n] for n in by_rank.values()), key=lambda p: -len(p))
    if parts == ["a pair", "a pair"]:
        return "two pairs"
    return " and ".join(parts)


def _runs_phrase(pattern: RankCount) -> str:
    runs = [positions for kind, positions, _ in pattern.items if kind == "run"]
    phrase = _RUN_MULTIPLES[len(runs)].format(n=NUMBER_WORDS[len(runs[0])])
    # "a double run" means one of three in play; name the length only when longer
    return phrase.replace(" of three", "") if len(runs) > 1 else phrase


def say(pattern: RankCount, flush: int, nobs: int) -> str:
    """The count as a player says it: each fifteen counted up, then the pairs,
    the runs, the flush and his nobs, each with the running total."""
    if pattern.points + flush + nobs == 0:
        return "no points"  # not "nineteen": that table joke reads as a claim of 19
    parts = []
    running = 0
    for kind, _, points in pattern.items:
        if kind == "fifteen":
            running += points
            parts.append(f"fifteen {NUMBER_WORDS[running]}")
    groups = []
    if pattern.pair:
        groups.append((_pairs_phrase(pattern), pattern.pair))
    if pattern.run:
        groups.append((_runs_phrase(pattern), pattern.run))
    if flush:
        groups.append((f"a flush of {NUMBER_WORDS[flush]}", flush))
    if nobs:
        groups.append(("his nobs", nobs))
    for phrase, points in groups:
        running += points
        text = f"{phrase} is {NUMBER_WORDS[running]}"
        parts.append(f"and {text}" if parts else text)
    return ", ".join(parts)
