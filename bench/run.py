"""Benchmarks: `make bench`.  Prints figures; never fails on time.

1. The rules core in-process: show_total (plain ints) and score_show (full
   breakdown) over a fixed random set of (hand, starter) deals.
2. distribution(): every hand counted.
3. HTTP: POST /v1/hands/score against GET /healthz (an almost empty falcon
   endpoint), through falcon.testing in-process and against a real gunicorn
   on 127.0.0.1 (http.client with keep-alive, one connection and four
   threads; wrk too when it is installed).

Every loop is bounded in count and in time; traffic goes to 127.0.0.1 only.
Environment: BENCH_N (HTTP requests per measurement, default 2000),
BENCH_DEALS (core deals, default 200000), BENCH_SKIP_DISTRIBUTION=1.
"""

from __future__ import annotations

import http.client
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import falcon.testing  # noqa: E402
import httpx  # noqa: E402
import orjson  # noqa: E402

from service.core.cards import CARDS  # noqa: E402
from service.core.distribution import distribution  # noqa: E402
from service.core.show import score_show, show_total  # noqa: E402

N_HTTP = int(os.environ.get("BENCH_N", "2000"))
N_DEALS = int(os.environ.get("BENCH_DEALS", "200000"))
TIME_CAP = 20.0  # seconds, per HTTP measurement
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# The HTTP client is http.client with keep-alive: httpx costs ~2.5 ms of client
# CPU per request here, more than the server, and would measure itself.


def _request(conn: http.client.HTTPConnection, method: str, path: str) -> int:
    if method == "POST":
        conn.request("POST", path, body=BODY, headers=HEADERS)
    else:
        conn.request(method, path)
    r = conn.getresponse()
    r.read()
    return r.status


def _sequential(port: int, label: str, method: str, path: str) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        for _ in range(50):  # warm up
            _request(conn, method, path)
        count, start = 0, time.perf_counter()
        while count < N_HTTP and time.perf_counter() - start < TIME_CAP:
            assert _request(conn, method, path) == 200
            count += 1
        report(f"gunicorn 1 conn {label}", count, time.perf_counter() - start)
    finally:
        conn.close()


def _concurrent(port: int, label: str, method: str, path: str, threads: int = 4) -> None:
    per_thread = max(1, N_HTTP // threads)
    done = [0] * threads
    latencies = [0.0] * threads
    start = time.perf_counter()

    def work(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            while done[i] < per_thread and time.perf_counter() - start < TIME_CAP:
                t = time.perf_counter()
                _request(conn, method, path)
                latencies[i] += time.perf_counter() - t
                done[i] += 1
        finally:
            conn.close()

    pool = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    elapsed = time.perf_counter() - start
    total = sum(done)
    print(f"{'gunicorn ' + str(threads) + ' conns ' + label:<42}: {total / elapsed:9,.0f} req/s, "
          f"mean {sum(latencies) / total * 1e3:7.3f} ms  ({total} requests)")


def _wrk(base: str) -> None:
    wrk = shutil.which("wrk")
    if not wrk:
        print("(wrk not installed: skipped; `apt-get install wrk` adds a C load generator)")
        return
    script = ROOT / "bench" / "post_score.lua"
    for label, args in [("GET /healthz", [f"{base}/healthz"]),
                        ("POST /v1/hands/score", ["-s", str(script), f"{base}/v1/hands/score"])]:
        out = subprocess.run([wrk, "-t2", "-c8", "-d5s", "--latency", *args],
                             capture_output=True, text=True, timeout=30).stdout
        rps = next((l.split()[-1] for l in out.splitlines() if l.startswith("Requests/sec")), "?")
        avg = next((l.split()[1] for l in out.splitlines() if l.strip().startswith("Latency")), "?")
        print(f"{'wrk -t2 -c8 5s ' + label:<42}: {rps:>9} req/s, mean {avg}")


def bench_gunicorn() -> None:
    print("== HTTP against gunicorn on 127.0.0.1 (gunicorn.conf.py; client on the same machine) ==")
    port = _free_port()
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port)}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    gunicorn = Path(sys.executable).with_name("gunicorn")
    proc = subprocess.Popen([str(gunicorn), "-c", "gunicorn.conf.py", "--access-logfile", "/dev/null"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                print("gunicorn did not start; skipped")
                return
            time.sleep(0.1)
        for label, method, path in [("GET /healthz", "GET", "/healthz"),
                                    ("POST /v1/hands/score", "POST", "/v1/hands/score")]:
            _sequential(port, label, method, path)
            _concurrent(port, label, method, path)
        _wrk(base)
        _advance_over_http(base)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _random_game_core(rng: random.Random) -> int:
    from service.core.game import apply_action, legal_actions, new_game
    from service.core.options import GameOptions

    state, moves = new_game(GameOptions(deck="seeded", seed=str(rng.random()))), 0
    while state.phase != "over":
        state, _ = apply_action(state, rng.choice(legal_actions(state)))
        moves += 1
    return moves


def bench_games() -> None:
    """Whole random 2-player games through the core, and the size of a mid-game state."""
    from service.core.game import apply_action, legal_actions, new_game
    from service.core.options import GameOptions
    from service.core.state_json import to_json
    from service.seal import Sealer

    print("== games, in-process ==")
    rng = random.Random(7)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < 5.0:
        moves += _random_game_core(rng)
        games += 1
    t = time.perf_counter() - start
    print(f"random 2-player games    : {games / t:12,.1f} games/s  ({moves / t:,.0f} actions/s, {games} games)")
    state = new_game(GameOptions(deck="seeded", seed="size"))
    while state.hand < 6 or state.phase != "play":  # about the middle of a game
        state, _ = apply_action(state, rng.choice(legal_actions(state)))
        if state.phase == "over":
            break
    plain = orjson.dumps(to_json(state))
    sealed = Sealer("b" * 32).seal(to_json(state))
    print(f"mid-game state (hand {state.hand}) : {len(plain):,} bytes JSON, {len(sealed):,} bytes sealed")


def _advance_over_http(base: str) -> None:
    """POST /v1/games/advance requests/s: random games played over HTTP, one connection."""
    rng = random.Random(11)
    count, start = 0, time.perf_counter()
    with httpx.Client(base_url=base, timeout=10) as client:
        while count < N_HTTP and time.perf_counter() - start < TIME_CAP:
            body = client.post("/v1/games", json={"options": {"deck": "seeded", "seed": str(count)}}).json()
            while body["phase"] != "over" and count < N_HTTP:
                action = rng.choice(body["legal_actions"])
                body = client.post("/v1/games/advance", json={"state": body["state"], "action": action}).json()
                count += 1
    report("gunicorn 1 conn POST /v1/games/advance", count, time.perf_counter() - start)


def main() -> None:
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    bench_core()
    bench_games()
    bench_distribution()
    bench_in_process()
    bench_gunicorn()


if __name__ == "__main__":
    main()
