"""Games in-process: random legal play through the engine, side by side with OpenSpiel.

``random_games(seconds)`` plays whole random 2-player games as fast as it can
two ways: as playouts (:class:`service.core.game.playout.Playout`, the
interface for simulations: actions as kernel codes, no events), which carries
the target (issue 19: the kernel is the engine for everything that
simulates), and through the typed API clients' games take (``new_game``,
``legal``, ``apply_action``: checks, events, the record and history).  The
reference is OpenSpiel's C++ cribbage (PyPI ``open_spiel``), driven the same
way from Python, installed into a cached temporary venv -- never into the
project's dependencies.  Both run in their own subprocess, alternated ABAB,
and the ratio of the medians is printed: the machine is shared and noisy, so
only the ratio means much.

Also the sizes of the state (compact JSON) and of the sealed token at the
start of deals 1, 7 and 13, and the largest over whole games, per player count.
"""

from __future__ import annotations

import dataclasses
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

try:
    from bench import venvs
except ImportError:  # run as bench/games.py
    import venvs  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent
OPENSPIEL = "open_spiel==2.0.2"

OURS = r"""
import random, sys, time
sys.path.insert(0, sys.argv[2])
from service.core.game import apply_action, legal, new_game
from service.core.options import GameOptions
rng, opts = random.Random(7), GameOptions()
def game():
    state, _ = new_game(opts, deck_seed="%032x" % rng.getrandbits(128))
    while state.phase != "over":
        state, _ = apply_action(state, rng.choice(legal(state)))
for _ in range(50):
    game()  # warm the per-rank-multiset caches
seconds, n, start = float(sys.argv[1]), 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    game(); n += 1
print(n / (time.perf_counter() - start))
"""

PLAYOUT = r"""
import random, sys, time
sys.path.insert(0, sys.argv[2])
from service.core.game import new_game
from service.core.game.playout import Playout
from service.core.options import GameOptions
rng, opts = random.Random(7), GameOptions()
def game():
    state, _ = new_game(opts, deck_seed="%032x" % rng.getrandbits(128))
    p = Playout(state)
    codes = p.legal_actions()
    while codes:  # none once a side has won
        p.apply_action(rng.choice(codes))
        codes = p.legal_actions()
for _ in range(50):
    game()
seconds, n, start = float(sys.argv[1]), 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    game(); n += 1
print(n / (time.perf_counter() - start))
"""

THEIRS = r"""
import random, sys, time
import pyspiel
game, rng = pyspiel.load_game("cribbage"), random.Random(7)
def play():
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            # cribbage's chance outcomes (cards) are equally likely
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
for _ in range(50):
    play()
seconds, n, start = float(sys.argv[1]), 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    play(); n += 1
print(n / (time.perf_counter() - start))
"""


def openspiel_python() -> Path | None:
    """The cached venv's python with open_spiel installed, or None if it cannot be had."""
    return venvs.python("openspiel", [OPENSPIEL], "import pyspiel")


def _rate(python: Path | str, script: str, seconds: float, env: dict[str, str] | None = None) -> float:
    out = subprocess.run([python, "-c", script, str(seconds), str(ROOT)], check=True, capture_output=True,
                         text=True, timeout=seconds * 10 + 120, env={**os.environ, **(env or {})})
    return float(out.stdout.strip().splitlines()[-1])


def kernels() -> list[str]:
    """The rules kernels to measure: the one this install runs and, when that is the compiled one, the
    interpreted reference too (``CRIBBAGE_KERNEL=interpreted``)."""
    sys.path.insert(0, str(ROOT))
    from service.core import engine

    return [engine.KERNEL] + (["interpreted"] if engine.KERNEL == "compiled" else [])


def bench_random_games(seconds: float = 3.0, rounds: int = 3) -> None:
    print("== games, in-process (random legal play, 2 players) ==")
    theirs = openspiel_python()
    harnesses = {"playouts (service.core.game.playout: simulations)": PLAYOUT,
                 "the typed game API (apply_action: clients' games, with events and the record)": OURS}
    rates: dict[tuple[str, str], list[float]] = {(h, k): [] for h in harnesses for k in kernels()}
    their_rates = []
    for _ in range(rounds):
        for (harness, kernel), got in rates.items():
            got.append(_rate(sys.executable, harnesses[harness], seconds, {"CRIBBAGE_KERNEL": kernel}))
        if theirs is not None:
            their_rates.append(_rate(theirs, THEIRS, seconds))
    for (harness, kernel), got in rates.items():
        ours = statistics.median(got)
        line = f"random 2-player games, {harness}, {kernel} kernel: {ours:,.0f} games/s"
        if their_rates:
            ref = statistics.median(their_rates)
            target = ("1.0" if kernel == "compiled" else "0.5") if harness.startswith("playouts") else "none"
            line += (f"; ÷ OpenSpiel C++ cribbage ({OPENSPIEL}): {ours / ref:.2f} (target {target};"
                     f" {ref:,.0f} games/s; {rounds} rounds, each harness and kernel and OpenSpiel in turn,"
                     f" of {seconds:g} s)")
        print(line, flush=True)


def bench_state_sizes() -> None:
    """Compact JSON bytes and sealed token chars at the start of deals 1, 7, 13, and the largest."""
    sys.path.insert(0, str(ROOT))
    import orjson

    from service.core.game import apply_action, legal, new_game
    from service.boundary.state import state_to_json
    from service.core.options import GameOptions
    from service.seal import Sealer

    sealer = Sealer("bench-secret-0123456789abcdef")
    print("== game state size (compact JSON bytes / sealed token chars) ==")
    for opts in (GameOptions(), GameOptions(players=3), GameOptions(players=4),
                 GameOptions(muggins=True, muggins_in_play=True, tournament=True, five_and_two=True)):
        rng = random.Random(13)
        at: dict[int, tuple[int, int]] = {}
        largest = (0, 0)
        for g in range(20):
            state, _ = new_game(opts, deck_seed="%032x" % rng.getrandbits(128))
            data = state_to_json(state)
            at.setdefault(1, (len(orjson.dumps(data)), len(sealer.seal(data, state.game_id, state.seq))))
            while state.phase != "over":
                action = rng.choice(legal(state))
                if opts.muggins and hasattr(action, "claim") and rng.random() < 0.3:
                    action = dataclasses.replace(action, claim=rng.randrange(30))
                state, _ = apply_action(state, action)
                data = state_to_json(state)
                size = (len(orjson.dumps(data)), len(sealer.seal(data, state.game_id, state.seq)))
                largest = max(largest, size)
                if not state.actions and state.deal in (1, 7, 13) and state.deal not in at:
                    at[state.deal] = size
        shown = ", ".join(f"deal {d}: {p} / {s}" for d, (p, s) in sorted(at.items()))
        name = f"{opts.players} players" + (", muggins+tournament+5&2" if opts.muggins else "")
        print(f"{name:38}: {shown}; largest over 20 games {largest[0]} / {largest[1]}")


if __name__ == "__main__":
    bench_random_games()
    bench_state_sizes()
