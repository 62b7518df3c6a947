"""Benchmarks: `make bench`.  Prints figures; never fails on time.

1. The rules core in-process: show_total (plain ints) and score_show (full
   breakdown) over a fixed random set of (hand, starter) deals.
2. Whole random 2-player games through the engine, side by side with
   OpenSpiel's C++ cribbage (PyPI open_spiel, in a cached temporary venv),
   and the state's size at deals 1, 7 and 13 (bench/games.py).
3. distribution(): every hand counted.
4. HTTP in-process: POST /v1/hands/score and GET /healthz through
   falcon.testing and as raw WSGI calls (no server, no sockets).
5. HTTP side by side (ratios): the service and bench/empty_app.py (a bare
   falcon endpoint that parses the same JSON bodies with the same orjson
   handlers), both under gunicorn.conf.py on 127.0.0.1, measured alternately
   (ABAB) with the same load; each line is target req/s / reference req/s,
   because absolute figures on this shared 2-core machine drift by tens of
   percent.  Lines: GET /healthz against the empty app's /healthz (what the
   service's middleware costs; a sanity line), POST /v1/hands/score with 200
   distinct random hands, POST /v1/games/advance with the bodies of a few
   seeded random games recorded in-process first.  The load is wrk when it
   is on PATH (`apt-get install wrk`), else a Python client that is itself
   the bottleneck and pulls ratios toward 1.  See bench/harness.py.

A section that fails (the engine or the API mid-change) prints its error
and the others still run.  Every loop is bounded in count and in time;
traffic goes to 127.0.0.1 only.

Environment: BENCH_SECONDS (per side-by-side measurement, default 5),
BENCH_ROUNDS (ABAB rounds, default 3), BENCH_CONNECTIONS (concurrent
keep-alive connections, default 8), BENCH_N (in-process HTTP requests per
measurement, default 2000), BENCH_DEALS (core deals, default 200000),
BENCH_SKIP_DISTRIBUTION=1.
"""

from __future__ import annotations

import os
import random
import shutil
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import falcon.testing  # noqa: E402
import orjson  # noqa: E402

from bench import harness  # noqa: E402

N_HTTP = int(os.environ.get("BENCH_N", "2000"))
N_DEALS = int(os.environ.get("BENCH_DEALS", "200000"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "8"))
TIME_CAP = 20.0  # seconds, per in-process HTTP measurement
BODY = orjson.dumps({"cards": ["5H", "5C", "5S", "JD"], "starter": "5D"})
HEADERS = {"Content-Type": "application/json"}


def deals(n: int, seed: int = 2026) -> list[tuple[tuple[int, int, int, int], int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        five = rng.sample(range(52), 5)
        out.append((tuple(five[:4]), five[4]))
    return out


def best_of(runs: int, fn) -> float:
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def bench_core() -> None:
    from service.core.cards import CARDS
    from service.core.show import score_show, show_total

    print("== rules core, in-process, one core ==")
    ints = deals(N_DEALS)

    def totals():
        f = show_total
        for hand, starter in ints:
            f(hand, starter)

    t = best_of(3, totals)
    print(f"show_total  (plain ints) : {N_DEALS / t:12,.0f} hands/s  ({t / N_DEALS * 1e9:6.0f} ns/hand, {N_DEALS:,} deals, best of 3)")

    n_full = min(N_DEALS, 20000)
    cards = [(tuple(CARDS[c] for c in hand), CARDS[starter]) for hand, starter in ints[:n_full]]

    def full():
        for hand, starter in cards:
            score_show(hand, starter)

    t = best_of(3, full)
    print(f"score_show  (breakdown)  : {n_full / t:12,.0f} hands/s  ({t / n_full * 1e6:6.1f} us/hand, {n_full:,} deals, best of 3)")

    # the two paths agree on these deals
    assert all(show_total(h, s) == score_show(h, s).total for h, s in cards[:2000])


def bench_distribution() -> None:
    if os.environ.get("BENCH_SKIP_DISTRIBUTION"):
        return
    from service.core.distribution import distribution

    print("== distribution() ==")
    t = time.perf_counter()
    d = distribution()
    t = time.perf_counter() - t
    print(f"distribution(hand)       : {t:8.2f} s for {d.deals:,} deals (mean {d.mean:.4f})")


def report(name: str, count: int, elapsed: float) -> None:
    print(f"{name:<42}: {count / elapsed:9,.0f} req/s, mean {elapsed / count * 1e3:7.3f} ms  ({count} requests)")


def bench_in_process() -> None:
    print("== HTTP in-process (falcon.testing, includes the test client's own overhead) ==")
    from service.app import create_app

    client = falcon.testing.TestClient(create_app())
    for label, call in [
        ("GET /healthz", lambda: client.simulate_get("/healthz")),
        ("POST /v1/hands/score", lambda: client.simulate_post("/v1/hands/score", body=BODY, headers=HEADERS)),
    ]:
        assert call().status_code == 200
        count, start = 0, time.perf_counter()
        while count < N_HTTP and time.perf_counter() - start < TIME_CAP:
            call()
            count += 1
        report(f"in-process {label}", count, time.perf_counter() - start)

    print("== HTTP in-process, raw WSGI call (falcon + this app only, no client) ==")
    import io

    app = create_app()
    base_env = {
        "healthz": falcon.testing.create_environ("/healthz"),
        "score": falcon.testing.create_environ("/v1/hands/score", method="POST", body=BODY, headers=HEADERS),
    }
    statuses = []

    def start_response(status, headers, exc_info=None):
        statuses.append(status)

    for label, key, body in [("GET /healthz", "healthz", b""), ("POST /v1/hands/score", "score", BODY)]:
        count, start = 0, time.perf_counter()
        while count < N_HTTP * 5 and time.perf_counter() - start < TIME_CAP:
            env = dict(base_env[key])
            env["wsgi.input"] = io.BytesIO(body)
            b"".join(app(env, start_response))
            count += 1
        report(f"wsgi {label}", count, time.perf_counter() - start)
    assert all(s.startswith("200") for s in statuses)


def bench_games() -> None:
    """Random games side by side with OpenSpiel, and the state's size (bench/games.py)."""
    import games

    games.bench_random_games()
    games.bench_state_sizes()


RANKS = "A23456789TJQK"
SUITS = "CDHS"
DECK = [r + s for r in RANKS for s in SUITS]  # "5H", "TD", ...
MAX_ACTIONS_PER_GAME = 2000
RECORD_TIME_CAP = 60.0  # seconds for recording all advance bodies


def score_requests(n: int = 200, seed: int = 2026) -> list[harness.Request]:
    """``n`` distinct random (4 cards, starter, crib) bodies for POST /v1/hands/score."""
    rng = random.Random(seed)
    seen: set = set()
    out = []
    for _ in range(n * 100):
        if len(out) == n:
            break
        five = rng.sample(DECK, 5)
        crib = rng.random() < 0.5
        key = (frozenset(five[:4]), five[4], crib)
        if key in seen:
            continue
        seen.add(key)
        out.append(("POST", "/v1/hands/score",
                    orjson.dumps({"cards": five[:4], "starter": five[4], "crib": crib})))
    return out


def _json_post(client: falcon.testing.TestClient, path: str, body: bytes) -> dict:
    resp = client.simulate_post(path, body=body, headers=HEADERS)
    if not 200 <= resp.status_code < 300:
        detail = resp.json.get("detail") if isinstance(resp.json, dict) else resp.text[:300]
        raise RuntimeError(f"{path} answered {resp.status_code}: {detail}")
    return resp.json


def advance_requests(games: int = 5, seed: int = 2026) -> tuple[list[harness.Request], int]:
    """The advance bodies of ``games`` seeded random 2-player games, played in-process.

    Only the response keys ``state``, ``legal_actions`` and ``phase`` are used,
    so any state format works.  The service is stateless: each recorded body is
    a valid request on its own.  Raises if any answer is not 2xx.
    """
    from service.app import create_app

    client = falcon.testing.TestClient(create_app())
    rng = random.Random(seed)
    bodies = []
    start = time.perf_counter()
    for i in range(games):
        resp = _json_post(client, "/v1/games",
                          orjson.dumps({"options": {"deck": "seeded", "seed": str(i)}, "dealer": 0}))
        for _ in range(MAX_ACTIONS_PER_GAME):
            if resp["phase"] == "over":
                break
            if time.perf_counter() - start > RECORD_TIME_CAP:
                raise RuntimeError(f"recording took over {RECORD_TIME_CAP:.0f} s")
            body = orjson.dumps({"state": resp["state"], "action": rng.choice(resp["legal_actions"])})
            bodies.append(("POST", "/v1/games/advance", body))
            resp = _json_post(client, "/v1/games/advance", body)
        else:
            raise RuntimeError(f"game {i} not over after {MAX_ACTIONS_PER_GAME} actions")
    return bodies, games


def _error(what: str, exc: BaseException) -> None:
    last = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f" ({Path(last.filename).name}:{last.lineno})" if last else ""
    print(f"{what}: skipped -- {type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}{where}",
          flush=True)


def bench_side_by_side() -> None:
    print("== HTTP side by side (ratios) ==")
    tool = "wrk" if shutil.which("wrk") else "python"
    print(f"(target / reference req/s, medians of {ROUNDS} ABAB round{'s' if ROUNDS != 1 else ''} of {SECONDS:g} s, "
          f"{CONNECTIONS} keep-alive "
          f"connections, both under gunicorn.conf.py on 127.0.0.1; load: {tool}"
          + ("" if tool == "wrk" else " -- no wrk on PATH: the Python client is the bottleneck and pulls "
             "ratios toward 1; `apt-get install wrk`") + ")", flush=True)
    lines: list[tuple[str, list[harness.Request] | None, list[harness.Request] | None, str, str]] = []
    advance_error: Exception | None = None
    lines.append(("GET /healthz", [("GET", "/healthz", b"")], None, "empty app's /healthz", ""))
    scores = score_requests()
    lines.append(("POST /v1/hands/score", scores, None, "empty endpoint", ""))
    try:
        t = time.perf_counter()
        advances, games = advance_requests()
        sizes = [len(b) for _, _, b in advances]
        lines.append(("POST /v1/games/advance", advances, None, "empty endpoint",
                      f"    ({len(advances):,} bodies recorded from {games} games in {time.perf_counter() - t:.1f} s, "
                      f"{min(sizes):,}-{max(sizes):,} bytes, mean {sum(sizes) / len(sizes):,.0f})"))
    except Exception as exc:  # the game API may be mid-change: skip this line only
        lines.append(("POST /v1/games/advance", None, None, "", ""))
        advance_error = exc
    width = max(len(label) for label, *_ in lines)
    try:
        with harness.running(harness.SERVICE_APP, harness.EMPTY_APP) as (service, empty):
            for label, target, reference, reference_label, note in lines:
                if target is None:
                    _error(f"{label:<{width}} (recording advance bodies in-process)", advance_error)
                    continue
                try:
                    harness.side_by_side(label, target, reference, seconds=SECONDS, connections=CONNECTIONS,
                                         rounds=ROUNDS, reference_label=reference_label,
                                         ports=(service, empty), width=width)
                    if note:
                        print(note, flush=True)
                except Exception as exc:
                    _error(label, exc)
    except Exception as exc:  # a server did not start
        _error("HTTP side by side", exc)
    if advance_error is None:
        # The line above keeps each worker's cache of the states it answered; without it
        # every request replays its deal from scratch (a client whose requests land on
        # another worker each time).
        label = "POST /v1/games/advance, no state cache"
        try:
            with harness.running(harness.SERVICE_APP, harness.EMPTY_APP,
                                 env={"CRIBBAGE_STATE_CACHE": "0"}) as (service, empty):
                harness.side_by_side(label, advances, None, seconds=SECONDS, connections=CONNECTIONS,
                                     rounds=ROUNDS, reference_label="empty endpoint", ports=(service, empty),
                                     width=width)
        except Exception as exc:
            _error(label, exc)


def main() -> None:
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs", flush=True)
    for section in (bench_core, bench_games, bench_distribution, bench_in_process, bench_side_by_side):
        try:
            section()
        except Exception as exc:  # one broken section (code mid-change) does not hide the others
            _error(section.__name__, exc)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
