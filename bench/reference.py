"""The core side by side with references that are not the project's.

* :func:`bench_show_vs_peer` -- ``score_show`` and ``show_total`` hands/s
  against PyPI ``cribbage-scorer``'s ``show_calc_score`` (which builds a text
  breakdown) over the same deals, each side in its own interpreter (theirs
  in a cached temporary venv, bench/venvs.py), alternated ABAB.
* :func:`bench_distribution_vs_c` -- ``distribution()`` against
  bench/distribution.c (every deal scored from scratch), compiled with
  ``cc -O2`` into a temporary folder; both timed in CPU seconds of their own
  process (the machine is shared: wall-clock time counts the others' work).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    from bench import venvs
except ImportError:  # run as a script from bench/
    import venvs  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent
PEER = ["cribbage-scorer==0.2.5", "flask==3.1.3", "gunicorn==27.0.1"]
PEER_CHECK = "import cribbage_scorer, flask, gunicorn"
PASSES = 5  # best of, per round

# Each script reads the deals (JSON: [[hand ints], starter int], card = (rank - 1) * 4 + suit)
# from argv[1], converts them before timing, and prints "name hands/s" lines.
OURS = r"""
import json, sys, time
sys.path.insert(0, sys.argv[2])
from service.core.cards import CARDS
from service.boundary.show import show_json_text
from service.core.show import score_show, show_total
deals = [(tuple(CARDS[c] for c in h), CARDS[s]) for h, s in json.load(open(sys.argv[1]))]
def best(fn):
    out = float("inf")
    for _ in range(int(sys.argv[3])):
        t = time.perf_counter(); fn(); out = min(out, time.perf_counter() - t)
    return len(deals) / out
def lazy():
    for h, s in deals: score_show(h, s)
def items():
    for h, s in deals: score_show(h, s).items
def document():
    for h, s in deals: show_json_text(score_show(h, s))
def totals():
    for h, s in deals: show_total(h, s)
for name, fn in (("score_show", lazy), ("score_show.items", items), ("show_json_text(score_show)", document),
                 ("show_total", totals)):
    print(name, best(fn))
"""

THEIRS = r"""
import json, sys, time
from cribbage_scorer import cribbage_scorer
RANKS = "A23456789TJQK"
SUITS = "CDHS"
card = lambda c: (c // 4 + 1, SUITS[c % 4])
deals = [([card(c) for c in h], card(s)) for h, s in json.load(open(sys.argv[1]))]
f = cribbage_scorer.show_calc_score
def run():
    for h, s in deals: f(s, h, False)
out = float("inf")
for _ in range(int(sys.argv[3])):
    t = time.perf_counter(); run(); out = min(out, time.perf_counter() - t)
print("show_calc_score", len(deals) / out)
"""


def _rates(python: Path | str, script: str, deals_file: str) -> dict[str, float]:
    out = subprocess.run([str(python), "-c", script, deals_file, str(ROOT), str(PASSES)], check=True,
                         capture_output=True, text=True, timeout=600)
    return {name: float(rate) for name, rate in (line.split() for line in out.stdout.splitlines() if line)}


def peer_python() -> Path | None:
    """The cached venv with cribbage-scorer (and Flask + gunicorn for the HTTP peer)."""
    return venvs.python("cribbage-scorer", PEER, PEER_CHECK)


def bench_show_vs_peer(deals: list[tuple[tuple[int, ...], int]], rounds: int = 3) -> None:
    print(f"== the show in-process vs PyPI cribbage-scorer (same {len(deals):,} deals, each side "
          f"in its own interpreter, best of {PASSES} passes, {rounds} rounds ABAB) ==", flush=True)
    theirs = peer_python()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump([[list(h), s] for h, s in deals], f)
    try:
        ours_runs, their_runs = [], []
        for _ in range(rounds):
            ours_runs.append(_rates(sys.executable, OURS, f.name))
            if theirs is not None:
                their_runs.append(_rates(theirs, THEIRS, f.name))
    finally:
        os.unlink(f.name)
    ref = statistics.median(r["show_calc_score"] for r in their_runs) if their_runs else None
    notes = {
        "score_show": "as the core answers it: cards, total and the pattern; the breakdown on demand",
        "score_show.items": "and the breakdown materialised: one item per scoring combination",
        "show_json_text(score_show)": "and the API's whole document as JSON (breakdown, subtotals, call)",
        "show_total": "the total only",
    }
    for name, note in notes.items():
        runs = [r[name] for r in ours_runs]
        line = f"{name:<24}: {statistics.median(runs):12,.0f} hands/s"
        if ref:
            per_round = [o[name] / t["show_calc_score"] for o, t in zip(ours_runs, their_runs)]
            line += (f"  ÷ show_calc_score {statistics.median(runs) / ref:6.1f}"
                     f" (rounds {min(per_round):.1f}-{max(per_round):.1f})")
        print(f"{line}  -- {note}")
    if ref:
        print(f"{'show_calc_score':<24}: {ref:12,.0f} hands/s  (cribbage-scorer 0.2.5: total and a text breakdown)")
    else:
        print("  (no cribbage-scorer: the ratios are skipped)")


def bench_distribution_vs_c(crib: bool = False) -> None:
    from service.core.distribution import distribution

    print("== distribution() vs a plain C enumerator (bench/distribution.c), CPU seconds ==", flush=True)
    runs = []
    for _ in range(3):
        t = time.process_time()
        d = distribution(crib=crib)
        runs.append(time.process_time() - t)
    ours = statistics.median(runs)
    line = f"distribution(): {ours:.3f} s CPU for {d.deals:,} deals (median of 3; target <= 1.3 s)"
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        print(line + "; no C compiler on PATH: the C reference is skipped")
        return
    with tempfile.TemporaryDirectory(prefix="bench-distribution-") as tmp:
        exe = Path(tmp, "distribution")
        built = subprocess.run([cc, "-O2", "-o", str(exe), str(ROOT / "bench" / "distribution.c")],
                               capture_output=True, text=True)
        if built.returncode != 0:
            print(line + f"; the C reference did not build: {built.stderr.strip()[:300]}")
            return
        c_runs, counts = [], None
        for _ in range(3):
            out = subprocess.run([str(exe)] + (["crib"] if crib else []), check=True, capture_output=True,
                                 text=True, timeout=120).stdout.split("\n")
            counts = tuple(int(x) for x in out[0].split())
            c_runs.append(float(out[1]))
    c_time = statistics.median(c_runs)
    same = "the same counts" if counts == d.counts else "!! DIFFERENT COUNTS"
    print(f"{line}\n  ÷ C from scratch: {ours / c_time:.2f}x its time ({c_time:.3f} s CPU, median of 3, "
          f"cc -O2; {same}; target <= 4x)")
