"""``POST /v1/hands/score-batch`` throughput: items/s, and the ratio to scoring in-process.

The target (issue 10): at least 100,000 items/s through the endpoint with
1,000-item batches, at little more per item than scoring in-process.  Three
figures, over the same random items (the answer cache off, every pattern's
JSON pieces made before timing, so neither side is helped):

1. in-process scoring: :func:`service.http.resources.hands.show_body` per
   item (the core's ``score_show``, the boundary's ``show_json_text``), minimum of
   interleaved rounds -- the reference;
2. the endpoint in-process: raw WSGI calls of the batch, the same rounds --
   its cost per item over (1) is what the HTTP layer adds;
3. through gunicorn (gunicorn.conf.py, 127.0.0.1, ``BATCH_CONNECTIONS``
   keep-alive connections): items/s = requests/s x 1,000, and the server's
   CPU time an item beside (1)'s.

Environment: BENCH_SECONDS (default 3), BENCH_ROUNDS (default 5),
BATCH_CONNECTIONS (default 4), BATCH_BODIES (distinct batches, default 8).
"""

from __future__ import annotations

import os
import random
import statistics
import time

import orjson

ITEMS = 1000
SECONDS = float(os.environ.get("BENCH_SECONDS", "3"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
CONNECTIONS = int(os.environ.get("BATCH_CONNECTIONS", "4"))
BODIES = int(os.environ.get("BATCH_BODIES", "8"))


def batches(n: int = BODIES, seed: int = 2610) -> tuple[list[bytes], list[list[tuple]]]:
    """``n`` batch bodies of random hands and cribs, and the same items as core arguments."""
    from service.core.cards import CARDS

    rng = random.Random(seed)
    bodies, items = [], []
    for _ in range(n):
        body, args = [], []
        for _ in range(ITEMS):
            five = rng.sample(range(52), 5)
            crib = rng.random() < 0.2
            hand = tuple(CARDS[c] for c in five[:4])
            body.append({"cards": [str(c) for c in hand], "starter": str(CARDS[five[4]]), "crib": crib})
            args.append((hand, CARDS[five[4]], crib))
        bodies.append(orjson.dumps({"items": body}))
        items.append(args)
    return bodies, items


def _warm_patterns() -> None:
    from service.boundary.show import breakdown_template
    from service.core.show import PATTERNS

    for p in PATTERNS.values():
        breakdown_template(p)


def bench() -> None:
    from bench import harness
    from bench.inprocess import _wsgi
    from service.app import create_app
    from service.http.resources.hands import show_body

    print(f"== hands batch: {ITEMS:,}-item batches of random hands, no answer cache ==", flush=True)
    os.environ["CRIBBAGE_HAND_CACHE"] = "0"
    try:
        app = create_app(collect_metrics=False)
    finally:
        del os.environ["CRIBBAGE_HAND_CACHE"]
    bodies, items = batches()
    _warm_patterns()
    call = _wsgi(app, [("POST", "/v1/hands/score-batch", b) for b in bodies])
    call(1)
    inproc = endpoint = float("inf")
    for r in range(ROUNDS * 2):
        args = items[r % len(items)]
        t = time.perf_counter()
        for a in args:
            show_body(*a)
        inproc = min(inproc, (time.perf_counter() - t) / ITEMS)
        t = time.perf_counter()
        call(1)
        endpoint = min(endpoint, (time.perf_counter() - t) / ITEMS)
    print(f"  in-process scoring (show_body)       {1 / inproc:12,.0f} items/s  ({inproc * 1e6:5.2f} us/item)")
    print(f"  the endpoint in-process (raw WSGI)   {1 / endpoint:12,.0f} items/s  ({endpoint * 1e6:5.2f} us/item; "
          f"{endpoint / inproc:.2f} x in-process scoring)", flush=True)
    requests = [("POST", "/v1/hands/score-batch", b) for b in bodies]
    with harness.running(harness.SERVICE_APP, env={"CRIBBAGE_HAND_CACHE": "0"}) as (port,):
        harness.load(port, requests, 1.0, CONNECTIONS)  # warm every worker
        runs = [harness.load(port, requests, SECONDS, CONNECTIONS) for _ in range(ROUNDS)]
    bad = sum(r["non_2xx"] + r["errors"] for r in runs)
    rps = statistics.median(r["rps"] for r in runs)
    cpu = statistics.median(r["cpu_us"] for r in runs) / ITEMS
    label = f"through gunicorn (-c{CONNECTIONS}, {runs[0]['tool']})"
    print(f"  {label:<36} {rps * ITEMS:12,.0f} items/s  "
          f"(median of {ROUNDS} x {SECONDS:g} s, {rps:,.1f} batches/s; server CPU {cpu:5.2f} us/item = "
          f"{cpu / (inproc * 1e6):.2f} x in-process scoring; target >= 100,000 items/s)"
          + (f"\n    !! {bad} non-2xx answers or socket errors" if bad else ""), flush=True)


def bench_standings(rounds: int = 9, players: int = 100) -> None:
    """Standings of 1,000 result lines in-process (target: under 50 ms for a live
    event), and the bracket of 4,096 entrants; the minimum over ``ROUNDS`` runs."""
    from service.tournament.bracket import bracket
    from service.tournament.standings import Result, standings

    rng = random.Random(2611)
    names = [f"player {i}" for i in range(players)]
    results = []
    for rnd in range(1, rounds + 1):
        rng.shuffle(names)
        for a, b in zip(names[::2], names[1::2]):
            spread = rng.randint(1, 60)
            results += [Result(a, b, 3 if spread > 30 else 2, 1, spread, rnd), Result(b, a, 0, 0, -spread, rnd)]
    results = (results * 2)[:1000]
    best = best_bracket = float("inf")
    for _ in range(ROUNDS * 2):
        t = time.perf_counter()
        standings(results)
        best = min(best, time.perf_counter() - t)
        t = time.perf_counter()
        bracket(4096)
        best_bracket = min(best_bracket, time.perf_counter() - t)
    print("== tournaments, in-process ==")
    print(f"  standings of {len(results):,} result lines ({players} players)  {best * 1e3:7.2f} ms  (target < 50 ms)")
    print(f"  the bracket of 4,096 entrants (1,024 qualifiers)    {best_bracket * 1e3:7.2f} ms", flush=True)
