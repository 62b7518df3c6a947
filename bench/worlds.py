"""Worlds and latency of the decisions that sample hidden cards (``make bench``, section ``worlds``).

For 2, 3 and 4 players, seeded games of the strong level at every seat: each play it decides (not
forced) is timed in CPU seconds and its worlds counted (the reason's ``samples``); then pegging advice
with the endpoint's default budget from the same positions; then the review of one whole game.
Printed per player count: p50 and p99 of a decision's CPU, the fewest and the median worlds.  Only
the public Python API is used, so an earlier checkout is measured the same way:
``PYTHONPATH=<checkout> python bench/worlds.py``.  Environment: BENCH_WORLDS_GAMES (games a player
count, default 4), BENCH_WORLDS_PLAYERS (default "2,3,4").
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, os.environ.get("PYTHONPATH", "").split(":")[0] or str(Path(__file__).resolve().parent.parent))


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def measure(players: int, games: int) -> None:
    from service.advice.bot import seat_view, suggest
    from service.advice.pegging import advise, knowledge
    from service.advice.review import review_record
    from service.core.game import Phase, apply_action, new_game, parse_action
    from service.core.options import GameOptions

    plays: list[tuple[float, int]] = []
    advice: list[tuple[float, int]] = []
    reviews: list[tuple[float, int]] = []
    for g in range(games):
        o = GameOptions(players=players)
        state, _ = new_game(o, dealer=0, deck_seed="%032x" % random.Random(f"worlds/{players}/{g}").getrandbits(128),
                            game_id="%032x" % random.Random(f"worlds-id/{players}/{g}").getrandbits(128))
        record: list[str] = []
        while state.phase is not Phase.OVER:
            seat = state.to_act()[0]
            v = seat_view(state, seat)
            t = time.process_time()
            s = suggest(v, "strong")
            dt = time.process_time() - t
            samples = getattr(s.reason, "samples", None)
            if state.phase is Phase.PLAY and samples is not None:
                plays.append((dt, samples))
                seen = (*v.discards, v.starter)
                k = knowledge(v.players, v.pone, seat, v.hand, v.plays, seen, v.tournament)
                t = time.process_time()
                a = advise(k, None, seed=g)
                advice.append((time.process_time() - t, a.samples))
            state, events = apply_action(state, s.action)
            record += [line for e in events if e.type == "deal_record" for line in e.record]
        t = time.process_time()
        r = review_record(o, 0, state.game_id, [parse_action(x) for x in record], state)
        worlds = [getattr(d, "worlds", 0) for d in r.decisions if not d.forced and d.kind in ("play", "go", "discard")]
        reviews.append((time.process_time() - t, min([w for w in worlds if w] or [0])))
    print(f"-- {players} players, {games} games of the strong level --")
    for label, rows in (("strong bot, a play", plays), ("pegging advice, default budget", advice)):
        cpu = [x for x, _ in rows]
        worlds = [w for _, w in rows]
        print(f"   {label:<32} {len(rows):>5} decisions: CPU p50 {_pct(cpu, .5) * 1000:7.1f} ms, "
              f"p99 {_pct(cpu, .99) * 1000:7.1f} ms; worlds fewest {min(worlds)}, median {_pct(worlds, .5)}")
    cpu = [x for x, _ in reviews]
    print(f"   {'review of a whole game':<32} {len(reviews):>5} games: CPU mean {sum(cpu) / len(cpu):6.2f} s, "
          f"max {max(cpu):6.2f} s; worlds fewest {min(w for _, w in reviews) or 'not reported'}")


def run() -> None:
    print("== worlds and latency of sampled decisions (bench/worlds.py) ==")
    games = int(os.environ.get("BENCH_WORLDS_GAMES", "").strip() or 4)
    for n in [int(p) for p in os.environ.get("BENCH_WORLDS_PLAYERS", "2,3,4").split(",") if p.strip()]:
        measure(n, games)


if __name__ == "__main__":
    run()
