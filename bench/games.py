"""Games in-process: random legal play through the engine, side by side with OpenSpiel.

``random_games(seconds)`` plays whole random 2-player games through the public
API (``new_game``, ``legal``, ``apply_action``) as fast as it can, and (a
diagnostic) the same games stepped on the kernel's deal state alone, which
says how much of the time is the typed engine above the kernel.  The
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

KERNEL_ALONE = r"""
import random, sys, time
from itertools import combinations
sys.path.insert(0, sys.argv[2])
from service.core.engine import kernel as K
from service.core.game.deck import pack_numbers
rng, SIDES = random.Random(7), (0, 1)
def game():
    # the deal state stepped by the kernel's own functions: no GameState, events, action objects, legal
    # list, record or history: what the typed engine above it costs is the rest
    seed = "%032x" % rng.getrandbits(128)
    flat, dealer, deal = (0, 0, 0, 0), rng.randrange(2), 1
    while True:
        k = K.deal_pack(K.deal_start(2, flat, pack_numbers(seed, deal)), 2, dealer, 6, 0)
        for seat in (0, 1):
            k = K.lay_away(k, seat, rng.choice(list(combinations(k[1][seat], 2))))
        pone = 1 - dealer
        k = K.turn_starter(k, pone, k[16][12], dealer, 121)
        if k is None:
            return
        while k[0] == K.PLAY_PHASE:
            seat = k[5]
            able = K.playable(k, seat)
            r = K.lay_card(k, 2, SIDES, 121, seat, rng.choice(able)) if able else K.say_go(k, 2, SIDES, 121, seat)
            if r is None:
                return
            k = r[0]
        for seat in (pone, dealer, dealer):
            r = K.count_hand(k, 2, SIDES, 121, seat)
            if r is None:
                return
            k = r[0]
        flat, dealer, deal = k[14], 1 - dealer, deal + 1
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
    ours_rates: dict[str, list[float]] = {k: [] for k in kernels()}
    alone_rates: dict[str, list[float]] = {k: [] for k in kernels()}
    their_rates = []
    for _ in range(rounds):
        for kernel, rates in ours_rates.items():
            rates.append(_rate(sys.executable, OURS, seconds, {"CRIBBAGE_KERNEL": kernel}))
            alone_rates[kernel].append(_rate(sys.executable, KERNEL_ALONE, seconds, {"CRIBBAGE_KERNEL": kernel}))
        if theirs is not None:
            their_rates.append(_rate(theirs, THEIRS, seconds))
    for kernel, rates in ours_rates.items():
        ours = statistics.median(rates)
        line = f"random 2-player games, {kernel} kernel: {ours:,.0f} games/s"
        if their_rates:
            ref = statistics.median(their_rates)
            target = "1.0" if kernel == "compiled" else "0.5"
            line += (f"; ÷ OpenSpiel C++ cribbage ({OPENSPIEL}): {ours / ref:.2f} (target {target};"
                     f" {ref:,.0f} games/s; {rounds} rounds, the kernels and OpenSpiel in turn, of {seconds:g} s)")
        print(line, flush=True)
    for kernel, rates in alone_rates.items():
        alone = statistics.median(rates)
        line = (f"  the {kernel} kernel alone (its deal state stepped directly: no typed state, events, actions,"
                f" legal list or record; a floor, not a target): {alone:,.0f} games/s")
        if their_rates:
            line += f"; ÷ OpenSpiel {alone / statistics.median(their_rates):.2f}"
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
