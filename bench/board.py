"""The board-aware bot (level ``board``) over duplicate deals, for ``make bench`` (section ``board``).

Each pair of games is one seeded pack sequence played twice with the seats
swapped (the same game id, so the advisors are seeded alike too): the cards
favour neither level, and a pair scores 0, 1/2 or 1 for the board level.
The win rate is the mean over the pairs, with its 95 % normal interval (the
pairs are independent; the two games of a pair are not).

* against today's strong level from late positions: each pair starts from a
  board with both sides at 90 or more (scores drawn uniformly from 90-120,
  the dealer alternating) -- where playing to the board matters most;
* against the strong level over whole games to 121;
* against the greedy level over whole games to 121;
* the board level now against as it shipped before (:data:`BOARD_BEFORE`),
  each against strong on the same late pairs (the first run reused),
  compared pair by pair
  (:func:`paired`): the strong level plays each pack alike in both runs, so
  only the pairs where the board level chose differently can move, and the
  change a pair has a far tighter interval than two win rates side by side;

and the CPU cost of a board decision (mean, p99) where it plays for the game.

Run time, measured on 2 shared cores: about 2 s a late pair (as with the
settings before) and 10-35 s a whole-game pair (the board level plays for the
game from 61 on), so the defaults (BENCH_BOARD_LATE_PAIRS=600,
BENCH_BOARD_PAIRED_PAIRS as many, BENCH_BOARD_PAIRS=40, BENCH_BOARD_GREEDY_PAIRS=30)
take 50-70 minutes.  Fewer will not do: 85-90 % of the late pairs split (the
cards decide both games alike), so an edge of 2 % needs some 600 late pairs
for its 95 % interval to clear 50 % (measured: 52.3 % [50.9, 53.6] over the
600, where the settings before made 50.4 % [49.1, 51.8]).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from typing import Any

from service.advice import bot
from service.advice.reasons import ForTheGame
from service.core.game import apply_action, new_game
from service.core.game.hidden import UNIFORM
from service.core.game.state import GameState, restore
from service.core.options import GameOptions

from .advice import _mean_interval
from .harness import percentile

LATE_PAIRS = int(os.environ.get("BENCH_BOARD_LATE_PAIRS", "600"))
PAIRS = int(os.environ.get("BENCH_BOARD_PAIRS", "40"))
GREEDY_PAIRS = int(os.environ.get("BENCH_BOARD_GREEDY_PAIRS", "30"))
PAIRED_PAIRS = int(os.environ.get("BENCH_BOARD_PAIRED_PAIRS", str(LATE_PAIRS)))
LATE_SEED = "bench-board-late"
_LATE: dict[str, dict[str, Any]] = {}
"""The late run against strong, which the paired comparison reuses (the same pairs, played alike)."""
LATE = (90, 120)
"""Both sides' scores at the start of a late pair, drawn uniformly in this range."""


def late_start(seed: str, dealer: int, scores: tuple[int, int], game_id: str) -> GameState:
    """A seeded 2-player game restored at the start of a deal with ``scores`` (its second deal, as if one
    deal had been played: the history is a placeholder, which nothing here reads)."""
    options = GameOptions(deck="seeded", seed=seed)
    first, _ = new_game(options, dealer=0, game_id=game_id)
    return restore(game_id, options, (dealer + 1) % 2, first.deck_seed, 2, dealer,
                   tuple((s, s) for s in scores), 6 * 2 + 3, "0" * 64, ())


def duplicate(pairs: int, opponent: str, late: bool, seed: str, progress: bool = True,
              first: int = 0, board: bot.BoardPlay | None = None) -> dict[str, Any]:
    """``board`` against ``opponent`` over ``pairs`` duplicate pairs (from late boards when ``late``), the
    pairs ``first`` on of the seed's sequence (runs of consecutive pairs combine into one); ``board``: the
    board level's settings (None: the shipped ones)."""
    rng = random.Random(seed)
    for _ in range(2 * first):
        rng.randint(*LATE)
    scores, cost = [], []
    t0 = time.perf_counter()
    for g in range(first, first + pairs):
        board_scores = (rng.randint(*LATE), rng.randint(*LATE))
        pair = 0.0
        for board_seat in (0, 1):
            game_id = f"{g:032x}"
            if late:
                state = late_start(f"{seed}-{g}", g % 2, board_scores, game_id)
            else:
                state, _ = new_game(GameOptions(deck="seeded", seed=f"{seed}-{g}"), dealer=g % 2, game_id=game_id)
            while state.phase != "over":
                seat = state.to_act()[0]
                view = bot.seat_view(state, seat)
                if seat == board_seat:
                    t = time.process_time()
                    s = bot.suggest(view, "board", board=board)
                    if isinstance(s.reason, ForTheGame):  # played for the game (not forced, not as strong)
                        cost.append(time.process_time() - t)
                else:
                    s = bot.suggest(view, opponent)
                state, _ = apply_action(state, s.action)
            pair += (state.position.winner == board_seat) / 2
        scores.append(pair)
        if progress and len(scores) % max(1, pairs // 5) == 0:
            lo, hi = _mean_interval(scores)
            print(f"    {len(scores)} pairs: board wins {statistics.mean(scores):.3f} [{lo:.3f}, {hi:.3f}]"
                  f" ({time.perf_counter() - t0:.0f} s)", flush=True)
    return {"pairs": pairs, "scores": scores, "rate": statistics.mean(scores), "interval": _mean_interval(scores),
            "split": sum(s == 0.5 for s in scores) / pairs, "cost": cost, "seconds": time.perf_counter() - t0}


def paired(before: list[float], after: list[float]) -> dict[str, Any]:
    """Two runs of :func:`duplicate` on the same pairs (same seed and ``first``), compared pair by pair:
    the mean change of the board level's score a pair with its 95 % interval, and how many pairs changed.
    The opponent plays each pack alike in both runs, so only the pairs where the board level chose
    differently can change: far more sensitive than two win rates side by side."""
    assert len(before) == len(after)
    diff = [b - a for a, b in zip(before, after)]
    return {"pairs": len(diff), "change": statistics.mean(diff), "interval": _mean_interval(diff),
            "changed": sum(d != 0 for d in diff), "better": sum(d > 0 for d in diff), "worse": sum(d < 0 for d in diff)}


def _report(label: str, r: dict[str, Any], target: str) -> None:
    lo, hi = r["interval"]
    cost = r["cost"]
    print(f"  {label}: board wins {r['rate']:.3f} of the games, 95 % interval [{lo:.3f}, {hi:.3f}]   ({target})")
    print(f"    {r['split'] * 100:.0f} % of the pairs split (the cards decided); {len(cost)} decisions played"
          f" for the game, CPU mean {statistics.mean(cost) * 1000 if cost else 0:.0f} ms, p99"
          f" {percentile(cost, 99) * 1000 if cost else 0:.0f} ms a decision ({r['seconds']:.0f} s)", flush=True)


def late_against_strong() -> None:
    print(f"-- board against strong from late positions (both sides at {LATE[0]}-{LATE[1]}): {LATE_PAIRS} duplicate"
          " pairs (BENCH_BOARD_LATE_PAIRS) --", flush=True)
    _LATE["now"] = r = duplicate(LATE_PAIRS, "strong", True, LATE_SEED)
    _report("late, against strong", r, "target: ahead, the interval above 0.5")


BOARD_BEFORE = bot.BoardPlay(samples=24, refine=72, play_samples=48, model=UNIFORM, points_reply=False,
                             exact_points=True)
"""The board level's settings as it shipped before (fewer worlds, the other seat's cards in the play drawn
uniformly and its replies a minimax for the game, the points searched in every world), for a paired
comparison on the same packs."""


def late_before_after() -> None:
    print(f"-- the board level now against as it shipped before (BOARD_BEFORE), each against strong on the"
          f" same {PAIRED_PAIRS} late pairs (BENCH_BOARD_PAIRED_PAIRS) --", flush=True)
    before = duplicate(PAIRED_PAIRS, "strong", True, LATE_SEED, board=BOARD_BEFORE)
    _report("late, against strong, before", before, "the same packs")
    now = _LATE.get("now")
    if now is None or now["pairs"] < PAIRED_PAIRS:  # the late section did not run, or ran fewer pairs
        now = duplicate(PAIRED_PAIRS, "strong", True, LATE_SEED)
    p = paired(before["scores"], now["scores"][:PAIRED_PAIRS])
    lo, hi = p["interval"]
    print(f"  now less before, a pair: {p['change']:+.4f} [{lo:+.4f}, {hi:+.4f}] over {p['pairs']} pairs;"
          f" {p['changed']} changed ({p['better']} better, {p['worse']} worse)", flush=True)


def whole_against_strong() -> None:
    print(f"-- board against strong, whole games to 121: {PAIRS} duplicate pairs (BENCH_BOARD_PAIRS) --", flush=True)
    _report("whole games, against strong", duplicate(PAIRS, "strong", False, "bench-board"),
            "target: not behind, the interval reaching 0.5 or above it")


def whole_against_greedy() -> None:
    print(f"-- board against greedy, whole games to 121: {GREEDY_PAIRS} duplicate pairs (BENCH_BOARD_GREEDY_PAIRS)"
          " --", flush=True)
    _report("whole games, against greedy", duplicate(GREEDY_PAIRS, "greedy", False, "bench-board-greedy"),
            "strong beat greedy 60.8 % over single games")


def run() -> None:
    from . import harness

    print("== the board-aware bot (duplicate deals) ==", flush=True)
    harness.run_parts((late_against_strong, late_before_after, whole_against_strong, whole_against_greedy))
