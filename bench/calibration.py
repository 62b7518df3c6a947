"""Calibration of the chance of winning (``make bench``, section ``calibration``).

Two checks, side by side in one run, of the chances the service answers (``/v1/odds``:
:func:`service.advice.odds_deal.estimate_now` within a deal, the table at a deal's start):

1. **The martingale check.**  Averaged over deals played the same way, a seat's estimate at any
   moment must equal the chance before it saw its cards (the law of total probability).  Seeded
   first deals from 0-0 (seat 0 dealing) are played by the strong level at every seat, 2, 3 and 4
   players; at six moments of each deal (after the deal, after the throws, after the cut, after two
   plays, at the last card of the play, before the show) every seat asks for the dealer's side's
   chance from its own view.  Printed: each mean with its standard error beside the chance before
   the deal (the table's at 0-0; 3 players: 40,000 games played on), and the largest gap.  Goal: every
   mean within 0.01 of it.
2. **Outcome calibration.**  Whole seeded games of the strong level against itself; each deal's
   start is predicted by the table (seat 0's side's chance) and, within the deal, by the dealer
   after the cut (seat 0's side's chance from the dealer's view); the predictions are binned by
   tenths of the range and set against the share of those games seat 0's side won, with the Brier
   score and the log loss.

The script only uses the service's public Python API (new_game, apply_action, the bot, the odds),
so it measures an earlier checkout the same way: ``PYTHONPATH=<checkout> python bench/calibration.py``.
Environment: BENCH_CALIBRATION_GAMES (martingale games a player count, default 200),
BENCH_CALIBRATION_SAMPLES (worlds an estimate, default 16), BENCH_CALIBRATION_WHOLE (whole
2-player games, default 100; 3 and 4 players a quarter of it), BENCH_CALIBRATION_PLAYERS (default
"2,3,4"), BENCH_CALIBRATION_WORKERS (processes, default every core).
"""

from __future__ import annotations

import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, os.environ.get("PYTHONPATH", "").split(":")[0] or str(Path(__file__).resolve().parent.parent))

MOMENTS = ("after the deal", "after the throws", "after the cut", "after two plays", "at the last card",
           "before the show")


def _env(name: str, default: int) -> int:
    return int(os.environ.get(name, "").strip() or default)


def _dealer_side_chance(state, seat: int, samples: int, seed: int) -> float:
    from service.advice.odds_deal import estimate_now

    e = estimate_now(state, seat, samples, seed, budget=1e9)
    side = state.options.side_of(state.position.dealer)
    return e.chances[side]


def _moments(state) -> str | None:
    """Which of :data:`MOMENTS` the state is at (None: none of them)."""
    from service.core.game import Phase

    pos = state.position
    if pos.phase is Phase.DISCARD and not any(pos.discards):
        return MOMENTS[0]
    if pos.phase is Phase.CUT:
        return MOMENTS[1]
    if pos.phase is Phase.PLAY:
        played = len(pos.play.played)
        left = sum(pos.play.left)
        if played == 0:
            return MOMENTS[2]
        if played == 2:
            return MOMENTS[3]
        if left == 1:
            return MOMENTS[4]
    if pos.phase is Phase.SHOW and pos.shown == 0:
        return MOMENTS[5]
    return None


def martingale_game(job: tuple[int, int, int]) -> list[tuple[str, int, float]]:
    """One seeded first deal from 0-0 played by the strong level: (moment, asking seat, its estimate of the
    dealer's side's chance) at each moment."""
    from service.advice.bot import seat_view, suggest
    from service.core.game import Phase, apply_action, new_game
    from service.core.options import GameOptions

    players, g, samples = job
    o = GameOptions(players=players)
    state, _ = new_game(o, dealer=0, deck_seed="%032x" % random.Random(f"calibration/{players}/{g}").getrandbits(128),
                        game_id="%032x" % random.Random(f"calibration-id/{players}/{g}").getrandbits(128))
    out = []
    seen: set[str] = set()
    while state.deal == 1 and state.phase is not Phase.OVER:
        m = _moments(state)
        if m is not None and m not in seen:
            seen.add(m)
            for seat in range(players):
                out.append((m, seat, _dealer_side_chance(state, seat, samples, g)))
        seat = state.to_act()[0]
        state, _ = apply_action(state, suggest(seat_view(state, seat), "strong").action)
    return out


PRIOR_GAMES = 40_000
"""Games played on for the 3-player chance before the deal."""


def before_the_deal(players: int) -> float:
    from service.advice import odds

    if players == 3:
        # no table: 40,000 games played on (standard error 0.0025, where the service's 2,000 give 0.011,
        # too coarse for a goal of 0.01)
        return odds.estimate(121, (0, 0, 0), 0, games=PRIOR_GAMES).chances[0]
    return odds.board_odds(players, 121, [0, 0], 0)[0]


def whole_game(job: tuple[int, int, int]) -> list[tuple[str, float, int]]:
    """One seeded whole game of the strong level against itself: (kind, seat 0's side's predicted chance, 1 if
    it won) at each deal's start (the table) and after each cut (the dealer's view)."""
    from service.advice.bot import seat_view, suggest
    from service.advice.odds_deal import estimate_now
    from service.core.game import Phase, apply_action, new_game
    from service.core.options import GameOptions

    players, g, samples = job
    o = GameOptions(players=players)
    state, _ = new_game(o, dealer=g % players,
                        deck_seed="%032x" % random.Random(f"outcome/{players}/{g}").getrandbits(128),
                        game_id="%032x" % random.Random(f"outcome-id/{players}/{g}").getrandbits(128))
    preds: list[tuple[str, float]] = []
    deal, cut_seen = 0, 0
    while state.phase is not Phase.OVER:
        if state.deal != deal and state.phase is Phase.DEAL:
            deal = state.deal
            e = estimate_now(state, 0, 1, 0)
            preds.append(("deal start", e.chances[0]))
        if state.phase is Phase.PLAY and cut_seen != state.deal and not state.position.play.played:
            cut_seen = state.deal
            e = estimate_now(state, state.position.dealer, samples, g, budget=1e9)
            preds.append(("after the cut", e.chances[0]))
        seat = state.to_act()[0]
        state, _ = apply_action(state, suggest(seat_view(state, seat), "strong").action)
    won = 1 if state.position.winner == 0 else 0
    return [(k, p, won) for k, p in preds]


def _map(fn, jobs, workers: int):
    if workers <= 1:
        return [fn(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(fn, jobs, chunksize=1))


def martingale(players: int, games: int, samples: int, workers: int) -> None:
    start = time.perf_counter()
    rows: dict[tuple[str, int], list[float]] = {}
    for got in _map(martingale_game, [(players, g, samples) for g in range(games)], workers):
        for m, seat, x in got:
            rows.setdefault((m, seat), []).append(x)
    p0 = before_the_deal(players)
    print(f"-- {players} players: {games} first deals from 0-0, seat 0 dealing; the dealer's side's chance before "
          f"the deal {p0:.4f}; {samples} worlds an estimate ({time.perf_counter() - start:.0f} s) --")
    names = ["dealer" if s == 0 else ("pone" if s == 1 else f"seat {s}") for s in range(players)]
    print(f"   {'moment':<18}" + "".join(f"{'asked by the ' + n:>26}" for n in names))
    worst = 0.0
    for m in MOMENTS:
        cells = []
        for seat in range(players):
            xs = rows.get((m, seat), [])
            if len(xs) < 2:
                cells.append(f"{'-':>26}")
                continue
            mean = sum(xs) / len(xs)
            se = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1) / len(xs))
            worst = max(worst, abs(mean - p0))
            cells.append(f"{mean:>14.4f} ± {se:.4f} ({len(xs):>3})")
        print(f"   {m:<18}" + "".join(cells))
    print(f"   largest gap from {p0:.4f}: {worst:.4f} (goal: every mean within 0.01)")


def outcomes(games_by_players: dict[int, int], samples: int, workers: int) -> None:
    for players, games in games_by_players.items():
        if games <= 0:
            continue
        start = time.perf_counter()
        preds: list[tuple[str, float, int]] = []
        for got in _map(whole_game, [(players, g, samples) for g in range(games)], workers):
            preds += got
        print(f"-- outcome calibration, {players} players: {games} whole games of the strong level against itself "
              f"({time.perf_counter() - start:.0f} s); seat 0's side's chance against its wins --")
        for kind in ("deal start", "after the cut"):
            ps = [(p, y) for k, p, y in preds if k == kind]
            if not ps:
                continue
            brier = sum((p - y) ** 2 for p, y in ps) / len(ps)
            eps = 1e-6
            logloss = -sum(y * math.log(max(p, eps)) + (1 - y) * math.log(max(1 - p, eps)) for p, y in ps) / len(ps)
            print(f"   {kind}: {len(ps)} predictions, Brier {brier:.4f}, log loss {logloss:.4f}")
            print(f"      {'tenth':>9} {'n':>5} {'predicted':>10} {'won':>7} {'± se':>7}")
            for b in range(10):
                lo, hi = b / 10, (b + 1) / 10
                cell = [(p, y) for p, y in ps if lo <= p < hi or (b == 9 and p == 1.0)]
                if not cell:
                    continue
                mean_p = sum(p for p, _ in cell) / len(cell)
                won = sum(y for _, y in cell) / len(cell)
                se = math.sqrt(mean_p * (1 - mean_p) / len(cell))  # a calibrated prediction's binomial error
                flag = "" if abs(won - mean_p) <= 2 * se + 0.01 else "  <- off by more than 2 se"
                print(f"      {lo:.1f}-{hi:.1f} {len(cell):>5} {mean_p:>10.3f} {won:>7.3f} {se:>7.3f}{flag}")


def run() -> None:
    print("== calibration of the chance of winning (bench/calibration.py) ==")
    games = _env("BENCH_CALIBRATION_GAMES", 200)
    samples = _env("BENCH_CALIBRATION_SAMPLES", 16)
    whole = _env("BENCH_CALIBRATION_WHOLE", 100)
    workers = _env("BENCH_CALIBRATION_WORKERS", os.cpu_count() or 1)
    players = [int(p) for p in os.environ.get("BENCH_CALIBRATION_PLAYERS", "2,3,4").split(",") if p.strip()]
    for n in players:
        martingale(n, games, samples, workers)
    outcomes({n: (whole if n == 2 else whole // 4) for n in players}, samples, workers)


if __name__ == "__main__":
    run()
