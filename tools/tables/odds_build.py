"""Build the win-probability tables (offline): ``python -m tools.tables.odds_build [--deals N]``.

Writes ``service/advice/data/odds.json`` (:mod:`service.advice.odds` reads it) and prints figures.  Needs
numpy (the ``odds`` extra; the service reads the result without it).

**The deals.**  For each table shape (``two``, ``five_and_two``, ``three``,
``four``) :data:`DEALS` whole deals (or ``--deals`` each) are played through
the rules engine (:mod:`service.core.game`) by the computer opponent at
every seat, each from a seeded pack, by the policy of :mod:`.selfplay`: the
shipped strong level, its discards and its pegging.  Each deal is kept as
what each seat pegged in the order it was pegged (:data:`service.advice.odds.Deal`).  The
bots score for points and never look at the board, so one sample of deals
serves every score.  The deals are played on every local core
(:class:`concurrent.futures.ProcessPoolExecutor`); each is seeded by its
place in the sample, so the sample is the same however they are shared out.

**The tables** (2 players, 4-player partnerships; targets 121 and 61):
``V[a][b]``, the chance that the dealer's side wins from the start of a deal
with the dealer's side at ``a`` and the other at ``b``, is the average over
the sampled deals, each played in order: the first side to reach the target
wins; otherwise the next deal starts with the other side dealing, worth
``1 - V[b + P][a + D]`` (the deal's points ``D``, ``P``).  Every deal pegs at
least the last card's point, so the positions are solved by descending total
score, a diagonal at a time (vectorised).  This is the exact value of the game
in which deals are drawn from the sample; the pegging order is kept by the
first-reach table ``W[n][m]``: the share of deals in which the dealer's side
makes ``n`` points before the other side makes ``m``.

**Bit for bit on any CPU.**  The programme runs in fixed point: every value
is an integer count of :data:`FIXED` parts, every sum over deals is of
integers (numpy's integer products never call BLAS, whose kernel, and so
whose rounding, depends on the CPU) and every division is a floor division;
the checksummed bytes are the same under every ``OPENBLAS_CORETYPE``.

**The table's own error.**  The sample is a sample: the document records, for
each table, the bootstrap (:data:`BOOTSTRAP` tables solved from the deals
drawn again with replacement) standard deviation of the first dealer's
chance at 0-0 and the largest over a grid of positions.

Deterministic for given deals and ``--seed``; the file records the
checksum of a reduced regeneration (:data:`REDUCED_DEALS`) that the test
suite recomputes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from service.core.game import new_game
from service.core.options import GameOptions, side_of

from service.advice.odds import DATA, SCALE, TARGETS, Deal, encode_deals, pack, unpack
from .selfplay import POLICY, finish_deal

MODES = {"two": GameOptions(players=2), "five_and_two": GameOptions(players=2, five_and_two=True),
         "three": GameOptions(players=3), "four": GameOptions(players=4)}
TABLES = ("two", "five_and_two", "four")
"""The shapes with two sides, tabled; three players are simulated at request time."""
DEALS = {"two": 20_000, "five_and_two": 20_000, "three": 20_000, "four": 8_000}
"""Deals played a shape (4 players: the strong level's 4-player lead searches some 40,000 positions a
world, 0.6 s of CPU a deal here)."""
REDUCED_DEALS = 24
FIXED = 1 << 40
"""Values in fixed point: a chance is an integer count of 2**-40 (the largest sum, deals times this, stays
within 63 bits up to 4 million deals)."""
BOOTSTRAP = 30
"""Tables solved from resampled deals for the table's own standard error."""
GRID = 10
"""The bootstrap's positions: every ``GRID``-th score of each side."""


def play_deal(options: GameOptions, deck_seed: str) -> Deal:
    """One deal dealt by seat 0 from 0-0 played by the self-play policy: (seat, points) in the order pegged.
    The game id is the deck seed's: the strong level's worlds are seeded by it, so a deal is the same
    whenever it is played."""
    _, pegged = finish_deal(new_game(options, dealer=0, deck_seed=deck_seed, game_id=deck_seed)[0])
    return tuple(pegged)


def _play_deals(job: tuple[str, list[str]]) -> list[Deal]:
    mode, seeds = job
    return [play_deal(MODES[mode], s) for s in seeds]


def sample(mode: str, n: int, seed: str, workers: int | None = None) -> list[Deal]:
    """``n`` deals of ``mode``, each from its own seeded pack, played on ``workers`` processes (None: every
    core; 1: in this process)."""
    rng = random.Random(f"{seed}/{mode}")
    seeds = ["%032x" % rng.getrandbits(128) for _ in range(n)]
    workers = workers or os.cpu_count() or 1
    if workers == 1 or n < 2:
        return _play_deals((mode, seeds))
    size = max(1, -(-n // (workers * 8)))  # chunks in order: the sample is the seeds' order whoever plays them
    jobs = [(mode, seeds[i:i + size]) for i in range(0, n, size)]
    with ProcessPoolExecutor(workers) as pool:
        return [d for chunk in pool.map(_play_deals, jobs) for d in chunk]


def two_sides(deals: Sequence[Deal], players: int) -> list[Deal]:
    """Each deal as the dealer's side (0) and the other (1), consecutive entries of one side merged."""
    out = []
    for deal in deals:
        merged: list[tuple[int, int]] = []
        for role, points in deal:
            side = side_of(players, role)
            if merged and merged[-1][0] == side:
                merged[-1] = (side, merged[-1][1] + points)
            else:
                merged.append((side, points))
        out.append(tuple(merged))
    return out


def first_reach(deals: Sequence[Deal], reach: int) -> tuple[np.ndarray, np.ndarray]:
    """Per deal and side, the entry at which the side's points first reach ``k`` (``[deal, k]``, k < ``reach``;
    ``reach`` past the largest deal: never)."""
    never = np.iinfo(np.int32).max
    at = [np.full((len(deals), reach + 1), never, dtype=np.int32) for _ in range(2)]
    for i, deal in enumerate(deals):
        total = [0, 0]
        for j, (side, points) in enumerate(deal):
            at[side][i, total[side] + 1:total[side] + points + 1] = j
            total[side] += points
    at[0][:, 0] = at[1][:, 0] = -1
    return at[0], at[1]


def solve_fixed(deals: Sequence[Deal], target: int) -> np.ndarray:
    """``V[a][b]`` (see the module's docstring) from two-sided deals, in fixed point (:data:`FIXED`), by
    integer arithmetic alone: the same bits on any CPU."""
    n = len(deals)
    if n * FIXED * 2 >= 1 << 63:
        raise ValueError(f"{n} deals overflow the fixed point")
    totals = np.array([[sum(p for s, p in d if s == side) for side in (0, 1)] for d in deals], dtype=np.int64)
    reach = int(totals.max()) + 1  # points no deal makes
    fd, fp = first_reach(deals, reach)
    # win[x][y]: how many deals the dealer's side makes x in before the other makes y
    win = np.stack([(fd[:, x, None] < fp[:, 1:]).sum(0) for x in range(1, reach + 1)]).astype(np.int64)
    hist = np.zeros((reach, reach), dtype=np.int64)
    np.add.at(hist, (totals[:, 0], totals[:, 1]), 1)
    if hist[0, 0]:
        raise ValueError("a deal pegged nothing: the positions cannot be ordered by total score")
    dd, pp = np.nonzero(hist)
    weight = hist[dd, pp]
    value = np.zeros((target, target), dtype=np.int64)
    # cont[x][y]: the old dealer's side's chance after a deal ending at x (its side) and y, both below the target
    cont = np.zeros((target + reach, target + reach), dtype=np.int64)
    for total in range(2 * target - 2, -1, -1):
        a = np.arange(max(0, total - target + 1), min(total, target - 1) + 1)
        b = total - a
        now = win[np.minimum(target - a, reach) - 1, np.minimum(target - b, reach) - 1] * FIXED
        later = weight @ cont[a[None, :] + dd[:, None], b[None, :] + pp[:, None]]  # integers: exact, no BLAS
        value[a, b] = (now + later) // n
        cont[b, a] = FIXED - value[a, b]
    return value


def solve(deals: Sequence[Deal], target: int) -> np.ndarray:
    """:func:`solve_fixed` as chances (floats)."""
    return solve_fixed(deals, target).astype(np.float64) / FIXED


def quantise(value: np.ndarray) -> bytes:
    """A fixed-point table as :data:`SCALE` parts, rounded half up (integers: exact)."""
    raw: bytes = ((value * SCALE + FIXED // 2) // FIXED).astype("<u2").tobytes()
    return raw


def bootstrap(deals: Sequence[Deal], target: int, seed: str, replicates: int = BOOTSTRAP) -> dict[str, float]:
    """The table's own sampling error: the standard deviation over ``replicates`` tables solved from the deals
    drawn again with replacement, of the first dealer's chance at 0-0 and the largest over the grid."""
    rng = random.Random(seed)
    grid = [(a, b) for a in range(0, target, GRID) for b in range(0, target, GRID)]
    runs = []
    for _ in range(replicates):
        drawn = [deals[rng.randrange(len(deals))] for _ in deals]
        v = solve_fixed(drawn, target)
        runs.append([int(v[a, b]) / FIXED for a, b in grid])
    means = [sum(r[i] for r in runs) / replicates for i in range(len(grid))]
    sds = [(sum((r[i] - means[i]) ** 2 for r in runs) / (replicates - 1)) ** 0.5 for i in range(len(grid))]
    return {"replicates": replicates, "sd_at_0_0": round(sds[0], 5), "max_sd": round(max(sds), 5),
            "max_sd_at": list(grid[sds.index(max(sds))])}


def build(deals: int | dict[str, int] | None = None, seed: str = "odds", log: Callable[[str], None] = lambda s: None,
          workers: int | None = None, replicates: int = BOOTSTRAP) -> dict[str, Any]:
    """The whole document (deterministic for given ``deals`` and ``seed``): ``deals`` a shape (None:
    :data:`DEALS`; an int: that many each)."""
    counts = dict(DEALS) if deals is None else (
        {m: deals for m in MODES} if isinstance(deals, int) else dict(deals))
    samples: dict[str, list[Deal]] = {}
    for mode in MODES:
        start = time.perf_counter()
        samples[mode] = sample(mode, counts[mode], seed, workers)
        log(f"{mode}: {counts[mode]} deals in {time.perf_counter() - start:.1f} s")
    tables = {}
    errors = {}
    for mode in TABLES:
        sided = two_sides(samples[mode], MODES[mode].players)
        for target in TARGETS:
            start = time.perf_counter()
            tables[f"{mode}/{target}"] = pack(quantise(solve_fixed(sided, target)))
            if replicates:
                errors[f"{mode}/{target}"] = bootstrap(sided, target, f"{seed}/{mode}/{target}/bootstrap", replicates)
            log(f"{mode}/{target}: solved in {time.perf_counter() - start:.1f} s {errors.get(f'{mode}/{target}', '')}")
    packed = {mode: pack(encode_deals(d)) for mode, d in samples.items()}
    return {"about": "win-probability tables and the self-play deals they come from; see tools/tables/odds_build.py",
            "deals": counts, "seed": seed, "policy": POLICY,
            "checksum": checksum(packed, tables), "samples": packed, "tables": tables,
            "table_errors": errors, "figures": figures(samples, tables)}


def checksum(samples: dict[str, str], tables: dict[str, str]) -> str:
    """SHA-256 of the unpacked samples and tables (compression's bytes may differ between zlib builds)."""
    h = hashlib.sha256()
    for name, text in sorted(samples.items()) + sorted(tables.items()):
        h.update(name.encode() + b"\0" + hashlib.sha256(unpack(text)).digest())
    return h.hexdigest()


def figures(samples: dict[str, list[Deal]], tables: dict[str, str]) -> dict[str, Any]:
    """Mean points a deal by role, and the first dealer's chance from 0-0."""
    out: dict[str, Any] = {}
    for mode, deals in samples.items():
        players = MODES[mode].players
        per_role = [sum(p for d in deals for r, p in d if r == role) / len(deals) for role in range(players)]
        out[mode] = {"mean_points_by_role": [round(x, 3) for x in per_role],
                     "roles": "dealer, pone (dealer's left), and on round the table"}
    for name, text in sorted(tables.items()):
        v = np.frombuffer(unpack(text), dtype="<u2")
        out[name.split("/")[0]][f"first_dealer_at_0_0/{name.split('/')[1]}"] = round(float(v[0]) / SCALE, 4)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=None, help="deals each shape (default: DEALS)")
    ap.add_argument("--seed", default="odds")
    ap.add_argument("--out", type=Path, default=DATA)
    ap.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    doc = build(args.deals, args.seed, log=lambda s: print(s, flush=True), workers=args.workers)
    doc["build_seconds"] = round(time.perf_counter() - start, 1)
    doc["build_cpu_cores"] = args.workers or os.cpu_count()
    reduced = build(REDUCED_DEALS, args.seed, workers=args.workers, replicates=0)
    doc["reduced_check"] = {"deals": REDUCED_DEALS, "checksum": reduced["checksum"]}
    args.out.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(json.dumps(doc["figures"], indent=1))
    print(f"wrote {args.out} in {doc['build_seconds']} s (checksum {doc['checksum']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
