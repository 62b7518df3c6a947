"""The CPU cost of a bot decision, for each level that has no other measure of it (``make bench``,
section ``decisions``; the bot catalogue, ``GET /v1/bots``, quotes its figures).

Seeded 2-player games to 121, in-process, the same level at both seats: every decision of the discard
and of the play (forced ones included: what a platform pays a decision) is timed with
``time.process_time`` around ``bot.suggest`` on the seat's view; the deal, the cut and the counts are
routine and left out.  Printed per level and phase: the decisions timed, p50, p99 and the mean in ms.
The board level's cost is measured by bench/board.py (a decision it plays for the game).  Only the
public Python API is used: ``PYTHONPATH=<checkout> python bench/decisions.py`` measures a checkout.
Environment: BENCH_DECISIONS_GAMES (games a level, default 6), BENCH_DECISIONS_LEVELS (default
"greedy,strong").
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, os.environ.get("PYTHONPATH", "").split(":")[0] or str(Path(__file__).resolve().parent.parent))

GAMES = int(os.environ.get("BENCH_DECISIONS_GAMES", "6"))
LEVELS = tuple(s.strip() for s in os.environ.get("BENCH_DECISIONS_LEVELS", "greedy,strong").split(",") if s.strip())
SEED = "bench-decisions"


def _pct(xs: list[float], p: float) -> float:
    # bench.harness.percentile's, written here: run as a script the path's first entry may be another
    # checkout (the one measured), whose bench/ may not have it
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def measure(level: str, games: int) -> dict[str, list[float]]:
    """CPU seconds of each discard and play decision of ``games`` seeded games of ``level`` against itself."""
    from service.advice.bot import seat_view, suggest
    from service.core.game import Phase, apply_action, new_game
    from service.core.options import GameOptions

    cost: dict[str, list[float]] = {"discard": [], "play": []}
    for g in range(games):
        state, _ = new_game(GameOptions(deck="seeded", seed=f"{SEED}-{g:04d}-a-seed-of-32-characters"),
                            dealer=g % 2, game_id=f"{g:032x}")
        while state.phase != "over":
            seat = state.to_act()[0]
            view = seat_view(state, seat)
            phase = {Phase.DISCARD: "discard", Phase.PLAY: "play"}.get(view.phase)
            t = time.process_time()
            s = suggest(view, level)
            if phase is not None:
                cost[phase].append(time.process_time() - t)
            state, _ = apply_action(state, s.action)
    return cost


def run() -> None:
    print(f"  bot decisions, CPU in-process, {GAMES} seeded 2-player games to 121 a level, self-play")
    for level in LEVELS:
        for phase, xs in measure(level, GAMES).items():
            ms = [x * 1000 for x in xs]
            print(f"    {level:7} {phase:7} {len(ms):5} decisions: p50 {_pct(ms, 50):.3f} ms, "
                  f"p99 {_pct(ms, 99):.3f} ms, mean {statistics.mean(ms):.3f} ms", flush=True)


if __name__ == "__main__":
    run()
