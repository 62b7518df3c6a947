"""The bots against their previous versions, over duplicate deals (``make bench``, section ``previous``).

The previous version is an earlier checkout of this repository, run as it was: a process of its own
with that checkout first on its path, answering "what does level L play for seat S in this state"
(the state as ``state_to_json`` writes it, which both versions read; the action in the record's
notation).  Each seeded pack sequence is played twice with the seats swapped (the same game id, so
the advisors' seeds are alike too); the pairs are the independent units of the 95 % interval.

* ``strong``: whole 2-player games to 121, the shipped strong level against the previous one.
* ``board``: from late boards (both sides at 90 or more, as bench/board.py sets them), the shipped
  board level against the previous board level, each seat's other opponent being the level itself.

Environment: BENCH_PREVIOUS (the earlier checkout, e.g. ``git worktree add /tmp/previous <commit>``;
unset, the section says so and stops),
BENCH_PREVIOUS_STRONG_PAIRS (default 400), BENCH_PREVIOUS_BOARD_PAIRS (default 300),
BENCH_PREVIOUS_WORKERS (processes, default every core).
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

_SERVE = r"""
import sys, json
sys.path.insert(0, sys.argv[1])
from service.advice import bot
from service.boundary.state import state_from_json
from service.core.game import notation
for line in sys.stdin:
    ask = json.loads(line)
    state = state_from_json(ask["state"])
    s = bot.suggest(bot.seat_view(state, ask["seat"]), ask["level"])
    print(notation(s.action), flush=True)
"""


class Previous:
    """The bot of an earlier checkout, in a process of its own."""

    def __init__(self, checkout: str) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.proc = subprocess.Popen([sys.executable, "-c", _SERVE, checkout], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=checkout,
                                     env=env)

    def action(self, state: Any, seat: int, level: str) -> Any:
        import orjson

        from service.boundary.state import state_to_json
        from service.core.game import parse_action

        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(orjson.dumps({"state": state_to_json(state), "seat": seat, "level": level}).decode()
                              + "\n")
        self.proc.stdin.flush()
        return parse_action(self.proc.stdout.readline().strip())

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


_previous: Previous | None = None


def _late_start(g: int):  # type: ignore[no-untyped-def]
    """The ``g``-th late board: a seeded 2-player game at the start of a deal, both sides at 90 to 120."""
    import random

    from bench import board

    rng = random.Random(f"previous-late/{g}")
    scores = (rng.randint(*board.LATE), rng.randint(*board.LATE))
    return board.late_start(f"previous-late-{g}", g % 2, scores, f"{g:032x}")


def pair(job: tuple[str, str, int]) -> float:
    """One duplicate pair: the shipped level's share of its two games (0, 0.5 or 1)."""
    global _previous
    checkout, level, g = job
    if _previous is None:
        _previous = Previous(checkout)
    from service.advice import bot
    from service.core.game import apply_action, new_game
    from service.core.options import GameOptions

    score = 0.0
    for new_seat in (0, 1):
        if level == "board":
            state = _late_start(g)
        else:
            state, _ = new_game(GameOptions(deck="seeded", seed=f"previous-{g}"), dealer=g % 2, game_id=f"{g:032x}")
        while state.phase != "over":
            seat = state.to_act()[0]
            if seat == new_seat:
                action = bot.suggest(bot.seat_view(state, seat), level).action
            else:
                action = _previous.action(state, seat, level)
            state, _ = apply_action(state, action)
        score += (state.position.winner == new_seat) / 2
    return score


def match(checkout: str, level: str, pairs: int, workers: int) -> None:
    start = time.perf_counter()
    jobs = [(checkout, level, g) for g in range(pairs)]
    if workers <= 1:
        scores = [pair(j) for j in jobs]
    else:
        with ProcessPoolExecutor(workers) as pool:
            scores = list(pool.map(pair, jobs, chunksize=4))
    mean = sum(scores) / len(scores)
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / max(1, len(scores) - 1))
    half = 1.96 * sd / math.sqrt(len(scores))
    split = sum(x == 0.5 for x in scores) / len(scores)
    where = "from late boards (both at 90 or more)" if level == "board" else "whole 2-player games to 121"
    print(f"-- {level}: the shipped level against the previous one ({checkout}), {pairs} duplicate pairs, {where}"
          f" ({time.perf_counter() - start:.0f} s) --")
    print(f"   the shipped level won {mean * 100:.1f} % of the games, 95 % interval [{(mean - half) * 100:.1f} %,"
          f" {(mean + half) * 100:.1f} %] ({split * 100:.0f} % of the pairs split); goal: not behind", flush=True)


def run() -> None:
    print("== the bots against their previous versions (bench/previous.py) ==")
    checkout = os.environ.get("BENCH_PREVIOUS", "").strip()
    if not checkout:
        print("   BENCH_PREVIOUS is not set: give an earlier checkout (git worktree add /tmp/previous <commit>)")
        return
    workers = int(os.environ.get("BENCH_PREVIOUS_WORKERS", "").strip() or (os.cpu_count() or 1))
    match(checkout, "strong", int(os.environ.get("BENCH_PREVIOUS_STRONG_PAIRS", "").strip() or 400), workers)
    match(checkout, "board", int(os.environ.get("BENCH_PREVIOUS_BOARD_PAIRS", "").strip() or 300), workers)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    run()
