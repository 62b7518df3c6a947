"""Advice and bots, for ``make bench`` (section ``advice``): the discard
advisor in-process (ms per 6-card and 5-card deal, each model), the pegging
advisor's CPU time a request in-process, the latency of both
over HTTP (p50 / p99, sequential keep-alive requests to gunicorn on
127.0.0.1), the pegging advisor's latency with its default budget, and the
strong bot against the greedy one over seeded 2-player games (win rate with
its 95 % Wilson interval, mean points a hand pegged and counted by each side).

The strong bot as it ships (``bot.STRONG``: in the play it reads the other
seat's cards from what a strong player keeps) against today's strong level
(the strong bot before issue 19: the tuned discards and
:data:`TODAY_BOT_NODE_BUDGET` positions a play over uniform deals,
:data:`STRONG_BEFORE`, :func:`today_strong`) over duplicate deals: each
seeded deal played twice, the seats swapped, so the cards favour neither; the
win rate with a 95 % interval over the pairs, and the points a hand each
pegged.  BENCH_CANDIDATE_BUDGET gives the shipped bot more positions a play
(30,000, ten times today's deals, measured level with today's: more deals
alone are not stronger).

Environment: BENCH_BOT_GAMES (games of the match, default 2000),
BENCH_DUPLICATE_PAIRS (pairs of games of the duplicate match, default 1000),
BENCH_CANDIDATE_BUDGET (the shipped strong bot's positions a play in it, default as shipped),
BENCH_ADVICE_DEALS (in-process deals per line, default 400).
"""

from __future__ import annotations

import dataclasses
import http.client
import inspect
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from service.advice import bot
from service.advice.discards import analyse_discards
from service.advice.pegging import advise, knowledge
from service.core.cards import CARDS
from service.core.game import Discard, apply_action, new_game
from service.core.game.hidden import UNIFORM
from service.core.options import GameOptions
from service.core.play import Play

from . import harness
from .harness import percentile

ROOT = Path(__file__).resolve().parent.parent
DEALS = int(os.environ.get("BENCH_ADVICE_DEALS", "400"))
BOT_GAMES = int(os.environ.get("BENCH_BOT_GAMES", "2000"))
DUPLICATE_PAIRS = int(os.environ.get("BENCH_DUPLICATE_PAIRS", "1000"))
TODAY_BOT_NODE_BUDGET = 3_000
"""The strong bot's positions a play before the kernel: today's strong level."""
CANDIDATE_BUDGET = int(os.environ.get("BENCH_CANDIDATE_BUDGET", str(bot.STRONG.node_budget)))


def _deals(n: int, dealt: int, seed: str) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(CARDS, dealt) for _ in range(n)]


def discards_in_process() -> None:
    print("-- discards in-process (CPU ms a deal, process time: the mean over the deals, best of 3 rounds) --",
          flush=True)
    for dealt, players in ((6, 2), (5, 2), (5, 3), (5, 4)):
        deals = _deals(DEALS, dealt, f"bench-discards-{dealt}-{players}")
        for model in ("random", "tuned"):
            best = math.inf
            for _ in range(3):
                t = time.process_time()
                for i, d in enumerate(deals):
                    analyse_discards(d, players, bool(i & 1), model=model)
                best = min(best, (time.process_time() - t) / len(deals))
            print(f"  {dealt}-card deal, {players} players, {model:<6}: {best * 1000:6.2f} ms"
                  f"{'   (target <= 10 ms a 6-card deal)' if dealt == 6 and model == 'random' else ''}", flush=True)


def pegging_in_process() -> None:
    print("-- pegging advice in-process, default budget (CPU ms a request, process time: steady under load) --",
          flush=True)
    for players, n in ((2, 100), (3, 40), (4, 20)):
        cpu, samples = [], []
        for body in _advise_positions(n, players, f"bench-advise-{players}"):
            from service.core.cards import Card
            from service.core.play import Go, PlayCard
            plays = [PlayCard(e["seat"], Card.parse(e["card"])) if "card" in e else Go(e["seat"]) for e in body["plays"]]
            t = time.process_time()
            k = knowledge(players, body["pone"], body["seat"], [Card.parse(c) for c in body["hand"]], plays,
                          (Card.parse(body["starter"]),))
            samples.append(advise(k).samples)
            cpu.append(time.process_time() - t)
        print(f"  {players} players: p50 {percentile(cpu, 50) * 1000:6.1f} ms  p99 {percentile(cpu, 99) * 1000:6.1f} ms CPU"
              f"  ({len(cpu)} positions, median {statistics.median(samples):.0f} deals)"
              + ("   (target <= 100 ms)" if players == 2 else ""), flush=True)


def _lead_positions(n: int, players: int, seed: str) -> list[tuple[int, int, list[Any], tuple[Any, ...]]]:
    """``n`` leads: (pone, seat, its four cards, the cards it has seen: two discards and the starter)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = rng.sample(CARDS, 7)
        pone = rng.randrange(players)
        out.append((pone, pone, cards[:4], tuple(cards[4:])))
    return out


def deals_at_a_lead() -> None:
    """The pegging advisor at the lead of a 2-player play (the widest search of a hand): deals solved a
    CPU second with a fixed number of deals, and deals a request with the default budgets (the
    endpoint's and the strong bot's), with the CPU time of a request; on the kernel this install runs,
    then on the interpreted one in a process of its own when that is another."""
    from service.core import engine

    print(f"-- pegging advice at a 2-player lead, {engine.KERNEL} kernel (process time; the sampler and solver"
          " only; target: 10 times the deals of the kernel-less advisor, about 140-200 a CPU second here) --",
          flush=True)
    _deals_at_a_lead()
    if engine.KERNEL == "compiled":
        print("-- the same, interpreted kernel --", flush=True)
        out = subprocess.run([sys.executable, "-c", "from bench import advice; advice._deals_at_a_lead()"],
                             cwd=ROOT, env={**os.environ, "CRIBBAGE_KERNEL": "interpreted"}, capture_output=True,
                             text=True, timeout=1800)
        print(out.stdout + (f"  !! {out.stderr.strip().splitlines()[-1]}" if out.returncode else ""), end="",
              flush=True)


def _deals_at_a_lead() -> None:
    leads = _lead_positions(60, 2, "bench-lead")
    ks = [knowledge(2, pone, seat, hand, [], seen) for pone, seat, hand, seen in leads]
    for k in ks[:5]:
        advise(k, 2, seed=0)  # warm the caches
    t = time.process_time()
    solved = 0
    for i, k in enumerate(ks):
        solved += advise(k, 32, seed=i).samples
    rate = solved / (time.process_time() - t)
    print(f"  32 deals a request: {rate:8,.0f} deals a CPU second  ({len(ks)} leads)", flush=True)
    budgets = [("the endpoint's default budget", {})]
    budget = getattr(bot, "BOT_NODE_BUDGET", None)
    if budget is not None:
        budgets.append((f"the strong bot's budget ({budget:,} positions)", {"node_budget": budget}))
        if "model" in inspect.signature(advise).parameters:  # the strong bot's worlds as it ships
            budgets.append(("the same, the other's cards read from its throw",
                            {"node_budget": budget, "model": bot.STRONG.model}))
    for label, kwargs in budgets:
        cpu, samples = [], []
        for i, k in enumerate(ks):
            t = time.process_time()
            samples.append(advise(k, None, seed=i, **kwargs).samples)
            cpu.append(time.process_time() - t)
        print(f"  {label:<48}: median {statistics.median(samples):5.0f} deals a request, p50"
              f" {percentile(cpu, 50) * 1000:6.1f} ms  p99 {percentile(cpu, 99) * 1000:6.1f} ms CPU;"
              f" {sum(samples) / sum(cpu):8,.0f} deals a CPU second", flush=True)


def _timed_posts(port: int, path: str, bodies: list[dict[str, Any]]) -> list[float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    out = []
    try:
        for body in bodies:
            raw = json.dumps(body).encode()
            t = time.perf_counter()
            conn.request("POST", path, raw, {"Content-Type": "application/json"})
            resp = conn.getresponse()
            resp.read()
            out.append(time.perf_counter() - t)
            if resp.status != 200:
                raise RuntimeError(f"{path}: {resp.status}")
    finally:
        conn.close()
    return out


def _advise_positions(n: int, players: int, seed: str) -> list[dict[str, Any]]:
    """Random positions of the play (a few plays in) for the seat to act, as request bodies."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        deck = rng.sample(CARDS, 4 * players + 1)
        hands = [deck[4 * s:4 * s + 4] for s in range(players)]
        pone = rng.randrange(players)
        play = Play.start(players, pone, hands)
        plays = []
        for _ in range(rng.randrange(0, 2 * players)):
            a = rng.choice(play.legal_actions())
            play, _ = play.apply(a)
            plays.append({"seat": a.seat, "card": str(a.card)} if hasattr(a, "card") else {"seat": a.seat, "go": True})
            if play.hand_over:
                break
        if play.hand_over:
            continue
        out.append({"players": players, "pone": pone, "seat": play.turn, "hand": [str(c) for c in hands[play.turn]],
                    "plays": plays, "starter": str(deck[-1])})
    return out


def over_http() -> None:
    print("-- over HTTP: sequential keep-alive requests to gunicorn (gunicorn.conf.py) on 127.0.0.1 --", flush=True)
    discard_bodies = [{"cards": [str(c) for c in d], "dealer": bool(i & 1)}
                      for i, d in enumerate(_deals(300, 6, "bench-http-discards"))]
    five = [{"cards": [str(c) for c in d], "players": 3, "dealer": bool(i & 1)}
            for i, d in enumerate(_deals(200, 5, "bench-http-discards-5"))]
    with harness.running(harness.SERVICE_APP) as (port,):
        _timed_posts(port, "/v1/discards", discard_bodies[:30])  # warm both workers
        _timed_posts(port, "/v1/pegging/advise", _advise_positions(10, 2, "bench-advise-warm"))
        for label, path, bodies in (("POST /v1/discards, 6 cards (tuned)", "/v1/discards", discard_bodies),
                                    ("POST /v1/discards, 5 cards, 3 players", "/v1/discards", five),
                                    ("POST /v1/pegging/advise, 2 players, default budget", "/v1/pegging/advise",
                                     _advise_positions(100, 2, "bench-advise-2")),
                                    ("POST /v1/pegging/advise, 3 players, default budget", "/v1/pegging/advise",
                                     _advise_positions(40, 3, "bench-advise-3")),
                                    ("POST /v1/pegging/advise, 4 players, default budget", "/v1/pegging/advise",
                                     _advise_positions(20, 4, "bench-advise-4"))):
            times = _timed_posts(port, path, bodies)
            print(f"  {label:<52} p50 {percentile(times, 50) * 1000:7.1f} ms  p99 {percentile(times, 99) * 1000:7.1f} ms"
                  f"  ({len(times)} requests)"
                  + ("   (target p99 <= 25 ms)" if path == "/v1/discards" and "6 cards" in label else "")
                  + ("   (target <= 100 ms)" if "2 players" in label else ""), flush=True)


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if not n:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def play_match(games: int, seed: str = "bench-bot", progress: bool = True) -> dict[str, Any]:
    """``strong`` against ``greedy`` over ``games`` seeded 2-player games to 121, seats alternating."""
    wins = 0
    pegged = {"strong": 0, "greedy": 0}
    counted = {"strong": 0, "greedy": 0}
    hands = {"strong": 0, "greedy": 0}
    t0 = time.perf_counter()
    for g in range(games):
        strong_seat = g % 2
        level = {strong_seat: "strong", 1 - strong_seat: "greedy"}
        state, _ = new_game(GameOptions(deck="seeded", seed=f"{seed}-{g}"), dealer=(g // 2) % 2)
        while state.phase != "over":
            seat = state.to_act()[0]
            s = bot.suggest(bot.seat_view(state, seat), level[seat])
            if state.phase == "deal":
                for side in (0, 1):
                    hands[level[side]] += 1
            state, events = apply_action(state, s.action)
            for e in events:
                for sc in e.scores:
                    if e.type in ("play", "go"):
                        pegged[level[sc.seat]] += sc.points
                    elif e.type == "count":
                        counted[level[sc.seat]] += sc.points
        wins += state.position.winner == strong_seat
        if progress and (g + 1) % max(1, games // 10) == 0:
            lo, hi = wilson(wins, g + 1)
            print(f"    {g + 1} games: strong wins {wins / (g + 1):.3f} [{lo:.3f}, {hi:.3f}]"
                  f" ({time.perf_counter() - t0:.0f} s)", flush=True)
    lo, hi = wilson(wins, games)
    return {"games": games, "wins": wins, "rate": wins / games, "interval": (lo, hi),
            "pegged": {k: pegged[k] / max(1, hands[k]) for k in pegged},
            "counted": {k: counted[k] / max(1, hands[k]) for k in counted},
            "seconds": time.perf_counter() - t0}


def bot_match() -> None:
    print(f"-- the strong bot against the greedy one: {BOT_GAMES} seeded 2-player games to 121, seats and first"
          " dealer alternating (BENCH_BOT_GAMES) --", flush=True)
    r = play_match(BOT_GAMES)
    lo, hi = r["interval"]
    print(f"  strong wins {r['wins']} of {r['games']}: {r['rate']:.3f}, 95 % interval [{lo:.3f}, {hi:.3f}]"
          f"   (target >= 0.55, the interval above 0.5)")
    for side in ("strong", "greedy"):
        print(f"  {side:<6}: pegged {r['pegged'][side]:.2f} and counted {r['counted'][side]:.2f} points a hand"
              " (counted: its hand, and its crib when it deals)")
    print(f"  ({r['seconds']:.0f} s)", flush=True)


STRONG_BEFORE = bot.StrongPlay(model=UNIFORM, min_worlds=1)
"""The strong level with the other seats' cards drawn uniformly and as few as one world a play (its
settings before it read throws): the baseline of the duplicate match (a bench's, not the service's)."""


def today_strong(v: bot.SeatView) -> Any:
    """Today's strong level (before issue 19): the tuned discard advisor's first choice, and the pegging
    advisor at :data:`TODAY_BOT_NODE_BUDGET` positions a play over uniform deals (:data:`STRONG_BEFORE`);
    the rest as the strong bot does it."""
    if v.phase == "discard":
        own = v.seat == v.dealer  # 2 players
        return Discard(v.seat, analyse_discards(v.hand, v.players, own, model="tuned").choices[0].discard)
    return bot.suggest(v, "strong", dataclasses.replace(STRONG_BEFORE, node_budget=TODAY_BOT_NODE_BUDGET)).action


def duplicate_match(pairs: int, budget: int, seed: str = "bench-duplicate", progress: bool = True) -> dict[str, Any]:
    """The shipped strong bot at ``budget`` positions a play (``new``) against today's strong level
    (:func:`today_strong`, ``today``) over ``pairs`` seeded 2-player deals to 121, each played twice
    with the seats swapped."""
    new = dataclasses.replace(bot.STRONG, node_budget=budget)
    play = {"new": lambda v: bot.suggest(v, "strong", new).action, "today": today_strong}
    pair_scores, pegged_diff = [], []
    pegged = {"new": 0, "today": 0}
    hands = 0
    t0 = time.perf_counter()
    for g in range(pairs):
        score = 0.0
        for new_seat in (0, 1):
            who = {new_seat: "new", 1 - new_seat: "today"}
            # the same game id for both games of a pair: the advisors are seeded alike too
            state, _ = new_game(GameOptions(deck="seeded", seed=f"{seed}-{g}"), dealer=g % 2, game_id=f"{g:032x}")
            game_pegged = {"new": 0, "today": 0}
            while state.phase != "over":
                seat = state.to_act()[0]
                action = play[who[seat]](bot.seat_view(state, seat))
                hands += state.phase == "deal"
                state, events = apply_action(state, action)
                for e in events:
                    if e.type in ("play", "go"):
                        for sc in e.scores:
                            game_pegged[who[sc.seat]] += sc.points
            score += (state.position.winner == new_seat) / 2
            for k in pegged:
                pegged[k] += game_pegged[k]
            pegged_diff.append(game_pegged["new"] - game_pegged["today"])
        pair_scores.append(score)
        if progress and (g + 1) % max(1, pairs // 10) == 0:
            lo, hi = _mean_interval(pair_scores)
            print(f"    {g + 1} pairs: the strong bot wins {statistics.mean(pair_scores):.3f} [{lo:.3f}, {hi:.3f}]"
                  f" ({time.perf_counter() - t0:.0f} s)", flush=True)
    return {"pairs": pairs, "rate": statistics.mean(pair_scores), "interval": _mean_interval(pair_scores),
            "pegged": {k: pegged[k] / max(1, hands) for k in pegged},
            "pegged_diff_interval": tuple(x / max(1, hands / len(pegged_diff)) for x in _mean_interval(pegged_diff)),
            "seconds": time.perf_counter() - t0}


def _mean_interval(xs: list[float], z: float = 1.959964) -> tuple[float, float]:
    """The 95 % normal interval of the mean of ``xs`` (independent pairs of games)."""
    if len(xs) < 2:
        return -math.inf, math.inf
    m = statistics.mean(xs)
    half = z * statistics.stdev(xs) / math.sqrt(len(xs))
    return m - half, m + half


def strong_against_today() -> None:
    print(f"-- the strong bot as it ships ({bot.STRONG}; positions a play: {CANDIDATE_BUDGET:,},"
          f" BENCH_CANDIDATE_BUDGET) against today's strong level ({TODAY_BOT_NODE_BUDGET:,} positions a play,"
          f" uniform deals): {DUPLICATE_PAIRS} duplicate pairs of seeded 2-player games to 121"
          " (BENCH_DUPLICATE_PAIRS) --", flush=True)
    r = duplicate_match(DUPLICATE_PAIRS, CANDIDATE_BUDGET)
    lo, hi = r["interval"]
    dlo, dhi = r["pegged_diff_interval"]
    print(f"  the strong bot wins {r['rate']:.3f} of the games, 95 % interval [{lo:.3f}, {hi:.3f}]"
          f"   (target: ahead, the interval above 0.5)")
    print(f"  pegged a hand: {r['pegged']['new']:.3f} against {r['pegged']['today']:.3f}"
          f" (the difference's 95 % interval [{dlo:+.3f}, {dhi:+.3f}])  ({r['seconds']:.0f} s)", flush=True)


def run() -> None:
    print("== advice and bots ==", flush=True)
    harness.run_parts((discards_in_process, pegging_in_process, deals_at_a_lead, over_http, bot_match,
                       strong_against_today))
