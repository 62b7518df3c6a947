"""Compute the ``tuned`` crib tables by iterating best responses (offline).

``python -m tools.tables.tune [--hands N] [--seed S] [--out PATH]`` writes
``data/tuned_crib.json`` and prints each iteration's largest change.

The method, for each deal (``two``, ``five_and_two``, ``three``, ``four``):

1. A fixed pool of seeded random deals of one seat (``--hands``), each with
   every discard's exact hand mean over the starter (:func:`service.advice.discards.hand_outlook`).
2. The crib value of two throws' classes together, ``X[p][q]``: fifteens,
   pairs and runs exact over the starter's rank (each rank weighted by the
   cards of it left in a 48-card pack); the flush and nobs exact over the
   starter's suit, averaged over every way the classes' suits can be
   realised by distinct cards (the throws' suits independent of each other).
   With one card a seat, the other seats' ranks come from their side's
   policy and a card dealt straight to the crib is any rank (1/13 each); the
   suits are taken independent, which gives the flush and nobs a closed form.
3. Start from both tables equal to the crib against random throws; then, in
   turn: every pool deal picks, as the crib's side (maximising hand + own
   crib) and as an opponent (hand - opponent's crib), its best discard under
   the current tables; the thrown classes' frequencies are each side's
   best response; each table moves 1/t of the way (iteration t) to the
   crib's value against the other seats' best responses -- fictitious play,
   since pure best responses cycle here.  Stop when no value moves by more
   than :data:`TOLERANCE`; the answer records the iterations, the last
   change and the best-response gap (how far the tables are from the crib
   against a best response to them).

Everything is deterministic (seeded pool, fixed order of summation), so the
shipped file also holds the checksum of a reduced regeneration (a small
pool, :data:`REDUCED_HANDS`), which the test recomputes: a change to the
method or to anything it uses that is not regenerated fails it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Callable, Mapping
from itertools import combinations, combinations_with_replacement, product
from operator import mul
from pathlib import Path
from typing import Any

from service.core.cards import CARDS, JACK, RANK_SYMBOLS
from service.core.engine import kernel

from service.advice.crib_table import DATA, throw_class
from service.advice.discards import hand_outlook

MAX_ITERATIONS = 2000
REDUCED_HANDS = 120
TOLERANCE = 2e-4
"""Stop when no table value moves by more than this in an iteration."""


def pair_classes() -> list[str]:
    out = []
    for a in range(1, 14):
        for b in range(a, 14):
            ra, rb = RANK_SYMBOLS[a - 1], RANK_SYMBOLS[b - 1]
            out += [f"{ra}-{rb}"] if a == b else [f"{ra}-{rb}s", f"{ra}-{rb}o"]
    return out


SINGLE_CLASSES = list(RANK_SYMBOLS)


def _class_cards(cls: str) -> list[tuple[tuple[int, int], ...]]:
    """Every realisation of a class up to the suits' names: (rank, suit) per card."""
    if "-" not in cls:
        r = RANK_SYMBOLS.index(cls) + 1
        return [((r, s),) for s in range(4)]
    a, b = RANK_SYMBOLS.index(cls[0]) + 1, RANK_SYMBOLS.index(cls[2]) + 1
    suited = cls.endswith("s")
    return [((a, s), (b, t)) for s in range(4) for t in range(4)
            if (s == t) == suited and (a, s) != (b, t) and (a != b or s < t)]


def _rank_part(ranks: tuple[int, ...]) -> float:
    """Fifteens, pairs, runs of four crib ranks, the starter's rank weighted by its cards left in 48."""
    key = sum(kernel.RANK_BIT[r] for r in ranks)
    return sum((4 - ranks.count(r)) * kernel.RANK_POINTS[key + kernel.RANK_BIT[r]] for r in range(1, 14) if ranks.count(r) < 4) / 48


def _suit_part(cards: tuple[tuple[int, int], ...]) -> float:
    """Flush (5, all five one suit) and nobs (1) of four concrete crib cards, over the 48 starters."""
    value = 0.0
    for s in range(4):
        starters = 13 - sum(1 for _, t in cards if t == s)
        pts = (5 if all(t == s for _, t in cards) else 0) + sum(1 for r, t in cards if r == JACK and t == s)
        value += starters * pts / 48
    return value


def pair_matrix() -> tuple[list[str], list[list[float]]]:
    """``X[p][q]``: the crib of throws of classes p and q (see the module's docstring)."""
    classes = pair_classes()
    real = {c: _class_cards(c) for c in classes}
    x = []
    for p in classes:
        row = []
        for q in classes:
            ranks = tuple(sorted(r for r, _ in real[p][0] + real[q][0]))
            if max(ranks.count(r) for r in ranks) > 4:
                row.append(0.0)
                continue
            # p fixed at its first realisation (suits are symmetric); q over its realisations
            # by cards distinct from p's
            mine = real[p][0]
            suits = [_suit_part(mine + other) for other in real[q] if not set(mine) & set(other)]
            row.append(_rank_part(ranks) + (sum(suits) / len(suits) if suits else 0.0))
        x.append(row)
    return classes, x


def _pool(n_cards: int, hands: int, seed: str) -> list[list[tuple[int, float]]]:
    """Each pool deal's discards as (class index, hand mean)."""
    classes = pair_classes() if n_cards == 6 else SINGLE_CLASSES
    index = {c: i for i, c in enumerate(classes)}
    rng = random.Random(seed)
    out = []
    for _ in range(hands):
        dealt = rng.sample(CARDS, n_cards)
        unseen = [c for c in CARDS if c not in dealt]
        row = []
        for throw in combinations(dealt, n_cards - 4):
            keep = [c for c in dealt if c not in throw]
            row.append((index[throw_class(throw)], hand_outlook(keep, unseen).mean))
        out.append(row)
    return out


def _policy(pool: list[list[tuple[int, float]]], values: list[float], sign: float, n: int) -> tuple[list[float], tuple[int, ...]]:
    """Each pool deal's best throw (hand + sign * crib value): the classes' frequencies and the choices."""
    freq = [0.0] * n
    picks = []
    for row in pool:
        best = max(range(len(row)), key=lambda i: row[i][1] + sign * values[row[i][0]])
        picks.append(best)
        freq[row[best][0]] += 1
    total = len(pool)
    return [f / total for f in freq], tuple(picks)


def _random_pairs() -> list[float]:
    """How often a random two cards fall in each class."""
    classes = pair_classes()
    index = {c: i for i, c in enumerate(classes)}
    freq = [0.0] * len(classes)
    for a, b in combinations(CARDS, 2):
        freq[index[throw_class((a, b))]] += 1
    return [f / 1326 for f in freq]


# Flush and nobs of four single throws with independent uniform suits, over 48 starters:
# all four one suit (4/256) and the starter of it (9/48); a jack and the starter of its suit
# (12 of the other three crib cards' expected 3/4 of that suit removed: (12 - 3/4) / 48).
_SINGLE_FLUSH = 5 * (4 / 256) * (9 / 48)
_SINGLE_NOBS = (12 - 3 / 4) / 48


def _single_value(mine: int, sources: list[list[float]], r4: list[float]) -> float:
    """The crib of a thrown rank ``mine`` (0..12) with the other three ranks from ``sources``."""
    s1, s2, s3 = sources
    value = 0.0
    base_a = mine * 2197
    for b in range(13):
        w1 = s1[b]
        if not w1:
            continue
        for c in range(13):
            w12 = w1 * s2[c]
            if w12:
                at = base_a + b * 169 + c * 13
                value += w12 * sum(map(mul, s3, r4[at:at + 13]))
    jacks = (mine + 1 == JACK) + sum(src[JACK - 1] for src in sources)
    return value + _SINGLE_FLUSH + _SINGLE_NOBS * jacks


def _four(ranks: list[int]) -> tuple[int, int, int, int]:
    a, b, c, d = ranks
    return a, b, c, d


def _r4_table() -> list[float]:
    """:func:`_rank_part` of every ordered four ranks (0..12 each), flat, 0 where five would be one rank."""
    cache = {ranks: _rank_part(ranks) for ranks in combinations_with_replacement(range(1, 14), 4)
             if max(ranks.count(r) for r in ranks) <= 4}
    return [cache.get(_four(sorted(r + 1 for r in ranks)), 0.0) for ranks in product(range(13), repeat=4)]


# The other seats' sources by deal and table: "own" (the crib's side's policy), "opp" (an
# opponent's) or "any" (a card dealt straight to the crib).
SINGLE_SOURCES = {
    "five_and_two": {"own": ("opp", "any", "any"), "opponent": ("own", "any", "any")},
    "three": {"own": ("opp", "opp", "any"), "opponent": ("own", "opp", "any")},
    "four": {"own": ("own", "opp", "opp"), "opponent": ("own", "own", "opp")},
}


def _iterate(log: Callable[[str], None], name: str, n: int, init: list[float],
             respond: Callable[[list[float], list[float]], tuple[list[float], list[float]]],
             pool: list[list[tuple[int, float]]]) -> tuple[list[float], list[float], dict[str, Any]]:
    """Fictitious play: each iteration the tables move 1/t of the way to the
    crib against both sides' best responses to them (so the policies are the
    average of the best responses so far, which settles where a pure best
    response would cycle).  Stops when the step is below :data:`TOLERANCE`;
    ``gap`` is how far the tables are from the crib against the current best
    responses (0 at a pure fixed point)."""
    own, opp = list(init), list(init)
    history = []
    gap = 0.0
    for it in range(1, MAX_ITERATIONS + 1):
        q_own, _ = _policy(pool, own, +1.0, n)
        q_opp, _ = _policy(pool, opp, -1.0, n)
        br_own, br_opp = respond(q_own, q_opp)
        gap = max(max(abs(a - b) for a, b in zip(br_own, own)), max(abs(a - b) for a, b in zip(br_opp, opp)))
        step = 1.0 / it
        own = [a + step * (b - a) for a, b in zip(own, br_own)]
        opp = [a + step * (b - a) for a, b in zip(opp, br_opp)]
        history.append((it, step * gap, gap))
        if it == 1 or it % 25 == 0 or step * gap < TOLERANCE:
            log(f"{name}: iteration {it}: largest change {step * gap:.6f}, best-response gap {gap:.6f}")
        if step * gap < TOLERANCE:
            break
    last = history[-1]
    return own, opp, {"iterations": last[0], "last_change": last[1], "best_response_gap": last[2],
                      "converged": last[1] < TOLERANCE,
                      "changes": [round(h[1], 6) for h in history[:: max(1, len(history) // 20)]]}


def build(hands: int = 4000, seed: str = "tuned-crib", log: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """The whole document (deterministic for given ``hands`` and ``seed``)."""
    tables: dict[str, Any] = {}
    meta: dict[str, Any] = {}
    # Two players, six cards: rank pairs with suit classes.
    classes, x = pair_matrix()
    n = len(classes)
    pool6 = _pool(6, hands, seed + "/6")
    rnd = _random_pairs()
    init = [sum(rnd[j] * x[i][j] for j in range(n)) for i in range(n)]

    def respond2(q_own: list[float], q_opp: list[float]) -> tuple[list[float], list[float]]:
        # own crib: the other throw is an opponent's (pone's); an opponent's crib: the dealer's
        return ([sum(q_opp[j] * x[i][j] for j in range(n)) for i in range(n)],
                [sum(q_own[j] * x[i][j] for j in range(n)) for i in range(n)])

    own, opp, meta["two"] = _iterate(log, "two", n, init, respond2, pool6)
    tables["two"] = {"own": dict(zip(classes, own)), "opponent": dict(zip(classes, opp)),
                     "random": dict(zip(classes, init))}
    # One card a seat.
    r4 = _r4_table()
    pool5 = _pool(5, hands, seed + "/5")
    any_rank = [1 / 13] * 13
    for mode, roles in SINGLE_SOURCES.items():
        def respond1(q_own: list[float], q_opp: list[float],
                     roles: Mapping[str, tuple[str, ...]] = roles) -> tuple[list[float], list[float]]:
            src = {"own": q_own, "opp": q_opp, "any": any_rank}
            own, opponent = ([_single_value(a, [src[s] for s in roles[table]], r4) for a in range(13)]
                             for table in ("own", "opponent"))
            return own, opponent

        init1 = [_single_value(a, [any_rank] * 3, r4) for a in range(13)]
        own, opp, meta[mode] = _iterate(log, mode, 13, init1, respond1, pool5)
        tables[mode] = {"own": dict(zip(SINGLE_CLASSES, own)), "opponent": dict(zip(SINGLE_CLASSES, opp)),
                        "random": dict(zip(SINGLE_CLASSES, init1))}
    return {"about": "expected crib values by thrown class; see tools/tables/tune.py",
            "hands": hands, "seed": seed, "checksum": checksum(tables), "convergence": meta, "tables": tables}


def checksum(tables: dict[str, Any]) -> str:
    """SHA-256 of the tables rounded to 12 places (what the regeneration test compares)."""
    rounded = {m: {t: {c: round(v, 12) for c, v in vals.items()} for t, vals in tab.items()}
               for m, tab in tables.items()}
    return hashlib.sha256(json.dumps(rounded, sort_keys=True).encode()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--seed", default="tuned-crib")
    ap.add_argument("--out", type=Path, default=DATA)
    args = ap.parse_args(argv)
    doc = build(args.hands, args.seed, log=lambda s: print(s, flush=True))
    doc["reduced_check"] = {"hands": REDUCED_HANDS, "checksum": build(REDUCED_HANDS, args.seed)["checksum"]}
    args.out.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    for mode in doc["tables"]:
        t = doc["tables"][mode]
        key = "5-5" if mode == "two" else "5"
        conv = doc["convergence"][mode]
        print(f"{mode}: {key} own crib {t['own'][key]:.3f}, opponent's {t['opponent'][key]:.3f}"
              f" (random {t['random'][key]:.3f}); converged {conv['converged']} in {conv['iterations']}"
              f" iterations (last change {conv['last_change']:.2e}, best-response gap {conv['best_response_gap']:.3f})")
    print(f"wrote {args.out} (checksum {doc['checksum']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
