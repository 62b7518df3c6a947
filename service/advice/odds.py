"""The chance of winning the game from a board position at the start of a deal.

Shipped as data (``data/odds.json``), computed offline by
:mod:`tools.tables.odds_build` (outside the package) from the computer opponent's self-play: a
seeded sample of whole deals per table shape (``two``: 2 players, 6 cards;
``five_and_two``; ``three``; ``four``), each deal kept as what every seat
pegged *in the order it was pegged* (each play's points, the go or last
card, then the show: the pone's hand first, round the table, the dealer's,
the crib), so a game that ends mid-deal is decided as the rules decide it:
the first side to reach the target wins.

* 2 players and 4-player partnerships: a table per target (121, 61) of the
  dealer's side's chance at every pair of scores below the target (dynamic
  programming over the sampled deals; see :mod:`tools.tables.odds_build`), read here
  without numpy: :func:`board_odds` is a lookup.
* 3 players: no table (121 cubed positions); :func:`simulate` plays whole
  games from the position by drawing sampled deals, and states its standard
  error (:func:`estimate`).

Positions are relative to the dealer: a deal's sample is the same whoever
deals, so the table needs only the dealer's side's score and the other's.
"""

from __future__ import annotations

import base64
import json
import math
import random
import zlib
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from service.core.options import next_seat, side_of, sides_of

DATA = resources.files("service.advice") / "data" / "odds.json"
"""The shipped tables and deal samples: package data, like the tuned crib table."""

TARGETS = (121, 61)
SCALE = 65535
"""Table entries are probabilities times this, rounded, as unsigned 16-bit integers."""
SIMULATED_GAMES = 2000
"""Games :func:`board_odds` plays for a 3-player position (standard error at most 1.1 points in 100)."""

Deal = tuple[tuple[int, int], ...]
"""One sampled deal: (role, points) in the order pegged; role 0 is the dealer, 1 the pone (the seat on the
dealer's left), and so round the table.  Consecutive scores of one seat are one entry (it cannot change
who reaches the target first)."""


def mode_of(players: int, five_and_two: bool = False) -> str:
    """The sample and table a game of this shape reads: ``two``, ``five_and_two``, ``three``, ``four``."""
    if five_and_two:
        if players != 2:
            raise ValueError("the five-and-two deal is for 2 players")
        return "five_and_two"
    try:
        return {2: "two", 3: "three", 4: "four"}[players]
    except KeyError:
        raise ValueError(f"a game is for 2, 3 or 4 players, not {players}") from None


def encode_deals(deals: Sequence[Deal]) -> bytes:
    """Deals as bytes: ``role << 6 | points`` an entry (points 1..63), a 0 byte after each deal."""
    out = bytearray()
    for deal in deals:
        for role, points in deal:
            while points > 0:
                step = min(points, 63)
                out.append(role << 6 | step)
                points -= step
        out.append(0)
    return bytes(out)


def decode_deals(raw: bytes) -> list[Deal]:
    deals: list[Deal] = []
    current: list[tuple[int, int]] = []
    for b in raw:
        if b == 0:
            deals.append(tuple(current))
            current = []
        elif current and current[-1][0] == b >> 6:  # an entry split at 63 points
            current[-1] = (b >> 6, current[-1][1] + (b & 63))
        else:
            current.append((b >> 6, b & 63))
    return deals


def pack(raw: bytes) -> str:
    return base64.b64encode(zlib.compress(raw, 9)).decode()


def unpack(text: str) -> bytes:
    return zlib.decompress(base64.b64decode(text))


@lru_cache(maxsize=1)
def document() -> dict[str, Any]:
    """The shipped document: ``tables``, ``samples`` (packed) and how they were made."""
    doc: dict[str, Any] = json.loads(DATA.read_text())
    return doc


@lru_cache(maxsize=None)
def table(mode: str, target: int) -> array[int]:
    """The dealer's side's chance (times :data:`SCALE`) at ``[dealer_side * target + other]``."""
    values = array("H")
    values.frombytes(unpack(document()["tables"][f"{mode}/{target}"]))
    if values.itemsize != 2 or len(values) != target * target:
        raise ValueError(f"the odds table {mode}/{target} is damaged")
    return values


def policy() -> dict[str, str]:
    """The policy the shipped tables were built from, as the table records it: the bot level of each
    decision (``{"discard": "strong", "play": "strong"}``, :mod:`tools.tables.selfplay`)."""
    got: dict[str, str] = document()["policy"]
    return got


def table_error(players: int, target: int, five_and_two: bool = False) -> dict[str, Any] | None:
    """The table's own sampling error (:func:`tools.tables.odds_build.bootstrap`: the standard deviation of the first
    dealer's chance at 0-0 over tables solved from resampled deals, and the largest over a grid of
    positions), or None with 3 players (no table)."""
    if players == 3:
        return None
    got: dict[str, Any] | None = document().get("table_errors", {}).get(f"{mode_of(players, five_and_two)}/{target}")
    return got


@lru_cache(maxsize=None)
def deals(mode: str) -> tuple[Deal, ...]:
    """The shipped sample of deals of ``mode`` (see :data:`Deal`)."""
    return tuple(decode_deals(unpack(document()["samples"][mode])))


def _check(players: int, target: int, scores: Sequence[int], dealer: int) -> None:
    if target not in TARGETS:
        raise ValueError(f"the target is 121 or 61, not {target}")
    if len(scores) != sides_of(players):
        raise ValueError(f"give one score per side ({sides_of(players)})")
    if any(s < 0 for s in scores):
        raise ValueError("a score is never below 0")
    if not 0 <= dealer < players:
        raise ValueError(f"seat {dealer} is not at a {players}-player table")


def _won(scores: Sequence[int], target: int) -> tuple[float, ...] | None:
    """1.0 for a side at or past the target (the first such if several), or None."""
    for side, score in enumerate(scores):
        if score >= target:
            return tuple(1.0 if s == side else 0.0 for s in range(len(scores)))
    return None


def board_odds(players: int, target: int, scores: Sequence[int], dealer: int,
               five_and_two: bool = False) -> tuple[float, ...]:
    """Each side's chance of winning from the start of a deal: ``scores`` per side (options.sides_of
    order), ``dealer`` the seat who deals it. Sums to 1. A side at or past the target has won (1.0).

    2 players and partnerships: a table lookup; 3 players: :func:`estimate` (seeded by the position).

    >>> p = board_odds(2, 121, [0, 0], 0)
    >>> 0.5 < p[0] < 0.6, abs(sum(p) - 1) < 1e-12
    (True, True)
    """
    mode = mode_of(players, five_and_two)
    _check(players, target, scores, dealer)
    won = _won(scores, target)
    if won is not None:
        return won
    if players == 3:
        return estimate(target, tuple(scores), dealer).chances
    mine = side_of(players, dealer)
    p = table(mode, target)[scores[mine] * target + scores[1 - mine]] / SCALE
    return (p, 1.0 - p) if mine == 0 else (1.0 - p, p)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A simulation's answer: each side's chance, its standard error, and the games it played."""

    chances: tuple[float, ...]
    standard_errors: tuple[float, ...]
    games: int


def play_out(players: int, target: int, scores: Sequence[int], dealer: int, sample: Sequence[Deal],
             rng: random.Random) -> int:
    """The side that wins one game played on from the start of a deal by drawing deals from ``sample``."""
    score = list(scores)
    sides = [[side_of(players, (d + r) % players) for r in range(players)] for d in range(players)]
    n = len(sample)
    while True:
        seat_side = sides[dealer]
        for role, points in sample[rng.randrange(n)]:
            side = seat_side[role]
            score[side] += points
            if score[side] >= target:
                return side
        dealer = next_seat(players, dealer)


def simulate(players: int, target: int, scores: Sequence[int], dealer: int, games: int, sample: Sequence[Deal],
             seed: int | str) -> Estimate:
    """Whole games played on from the position with deals drawn from ``sample``: each side's share of wins."""
    _check(players, target, scores, dealer)
    rng = random.Random(str(seed))
    wins = [0] * sides_of(players)
    for _ in range(games):
        wins[play_out(players, target, scores, dealer, sample, rng)] += 1
    chances = tuple(w / games for w in wins)
    return Estimate(chances, tuple(math.sqrt(p * (1 - p) / games) for p in chances), games)


@lru_cache(maxsize=4096)
def estimate(target: int, scores: tuple[int, ...], dealer: int, games: int = SIMULATED_GAMES) -> Estimate:
    """A 3-player position's chances by :func:`simulate` over the shipped 3-player deals, seeded by the position
    (the same question always gets the same answer)."""
    won = _won(scores, target)
    if won is not None:
        return Estimate(won, (0.0,) * len(scores), 0)
    return simulate(3, target, scores, dealer, games, deals("three"), f"odds/3/{target}/{scores}/{dealer}")
