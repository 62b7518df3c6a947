"""Overload, slow clients and the worker's cost: service/http/worker.py against gthread.

Three measurements, each side by side in the same run (the machine is shared
and noisy; only the comparisons mean much):

* **Overload**: wrk with far more connections than the workers have threads
  (``OVERLOAD_CONNECTIONS``, default 1,000) on ``POST /v1/hands/score``,
  with the worker's shedding (``GUNICORN_MAX_PENDING`` default) and without
  (``-1``: gthread's unbounded queue), alternated.  Printed: p50 and p99 of
  every answer, req/s, 2xx/s and the share of 503s.
* **Slow clients**: 8 clients trickle a request head a byte every 0.2 s while
  a probe asks ``GET /healthz`` every 0.25 s: the longest the probe waited
  (10 s: it gave up), with this worker and with plain gthread.
* **Idle clients**: 16 connections that send nothing (gthread gives each a
  thread for up to 5 s, waiting for a first byte), the same probe.
* **Spread across workers**: 16 keep-alive connections opened at once on
  ``POST /v1/hands/score`` for 2 s, 6 rounds (new connections each round),
  each worker's requests (its prometheus-client counter file) and
  connections (from /proc), with each worker its own listening socket
  (``SO_REUSEPORT``, the default) and with one shared socket
  (``GUNICORN_REUSE_PORT=0``, as before).
* **Cost on the hot path**: the ``POST /v1/hands/score`` ÷ empty endpoint
  ratio with both apps under this worker and under plain gthread, four
  servers measured in turn within each round, and each server's CPU time a
  request (steadier than req/s on a shared machine): the worker's deadline
  socket and admission count must not cost the hot path more than 5 %.
"""

from __future__ import annotations

import glob
import os
import re
import socket
import statistics
import tempfile
import threading
import time

try:
    from bench import bodies, harness
except ImportError:  # run as bench/overload.py
    import bodies  # type: ignore[no-redef]
    import harness  # type: ignore[no-redef]

GTHREAD = {"GUNICORN_CMD_ARGS": "--worker-class gthread"}
NO_SHED = {"GUNICORN_MAX_PENDING": "-1"}
CONNECTIONS = int(os.environ.get("OVERLOAD_CONNECTIONS", "1000"))
SECONDS = float(os.environ.get("OVERLOAD_SECONDS", "5"))
ROUNDS = int(os.environ.get("OVERLOAD_ROUNDS", "2"))


def _scores() -> list[harness.Request]:
    return bodies.check(bodies.score_requests())


def bench_shedding() -> None:
    requests = _scores()
    with harness.running(harness.SERVICE_APP) as (shed,), harness.running(harness.SERVICE_APP, env=NO_SHED) as (queue,):
        runs: dict[str, list[dict]] = {"shed (GUNICORN_MAX_PENDING=32)": [], "no shedding (-1)": []}
        for _ in range(ROUNDS):
            for label, port in zip(runs, (shed, queue)):
                runs[label].append(harness.load(port, requests, SECONDS, CONNECTIONS))
    print(f"overload, POST /v1/hands/score, wrk -c{CONNECTIONS}, {ROUNDS} alternated rounds of {SECONDS:g} s "
          "(medians; latency of every answer, 503s included):", flush=True)
    for label, results in runs.items():
        n = sum(r["requests"] for r in results)
        s503 = sum(r["statuses"].get(503, 0) for r in results)
        ok = sum(sum(c for s, c in r["statuses"].items() if 200 <= s < 300) for r in results)
        secs = sum(r["seconds"] for r in results)
        other = {s: c for r in results for s, c in r["statuses"].items() if s not in (200, 503)}
        print(f"  {label:<32} p50 {statistics.median(r['p50_ms'] for r in results):7.1f} ms  "
              f"p99 {statistics.median(r['p99_ms'] for r in results):7.1f} ms  "
              f"{n / secs:7,.0f} req/s  {ok / secs:6,.0f} 2xx/s  503s {s503 / max(n, 1):5.1%}  "
              f"socket errors {sum(r['errors'] for r in results)}" + (f"  other {other}" if other else ""),
              flush=True)


def _trickle(port: int, stop: threading.Event) -> None:
    data = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"s" * 200 + b"\r\n\r\n"
    while not stop.is_set():  # an attacker reconnects when cut off
        try:
            with socket.create_connection((harness.HOST, port), timeout=10) as s:
                for b in data:
                    if stop.is_set():
                        return
                    s.send(bytes([b]))
                    time.sleep(0.2)
        except OSError:
            time.sleep(0.05)


def _probe_waits(port: int, seconds: float) -> list[float]:
    waits = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.monotonic()
        try:
            with socket.create_connection((harness.HOST, port), timeout=10) as s:
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                s.recv(64)
            waits.append(time.monotonic() - t0)
        except OSError:
            waits.append(10.0)
        time.sleep(0.25)
    return waits


def bench_slow_clients(seconds: float = 12.0) -> None:
    print(f"slow clients: 8 trickling a head a byte every 0.2 s (reconnecting when cut), GET /healthz every "
          f"0.25 s for {seconds:g} s (10 s: no answer), 2 workers x 4 threads:", flush=True)
    for label, env in (("service/http/worker.py", {}), ("plain gthread", GTHREAD)):
        with harness.running(harness.SERVICE_APP, env=env) as (port,):
            stop = threading.Event()
            clients = [threading.Thread(target=_trickle, args=(port, stop), daemon=True) for _ in range(8)]
            for c in clients:
                c.start()
            time.sleep(0.5)
            waits = _probe_waits(port, seconds)
            stop.set()
        slow = sum(w >= 1.0 for w in waits)
        print(f"  {label:<24} longest /healthz wait {max(waits):5.2f} s, median {statistics.median(waits) * 1000:6.1f} ms, "
              f"{slow} of {len(waits)} probes waited 1 s or more, {sum(w >= 10 for w in waits)} unanswered", flush=True)


def bench_idle_clients(seconds: float = 8.0) -> None:
    print(f"idle clients: 16 connections that send nothing, GET /healthz every 0.25 s for {seconds:g} s:", flush=True)
    for label, env in (("service/http/worker.py", {}), ("plain gthread", GTHREAD)):
        with harness.running(harness.SERVICE_APP, env=env) as (port,):
            idle = [socket.create_connection((harness.HOST, port)) for _ in range(16)]
            try:
                time.sleep(0.3)
                waits = _probe_waits(port, seconds)
            finally:
                for s in idle:
                    s.close()
        print(f"  {label:<24} longest /healthz wait {max(waits):5.2f} s, median {statistics.median(waits) * 1000:6.1f} ms, "
              f"{sum(w >= 1.0 for w in waits)} of {len(waits)} probes waited 1 s or more", flush=True)


def _requests_per_worker(metrics_dir: str) -> dict[int, float]:
    """Requests each worker counted, from prometheus-client's per-process files."""
    from prometheus_client.mmap_dict import MmapedDict

    out: dict[int, float] = {}
    for path in glob.glob(os.path.join(metrics_dir, "counter_*.db")):
        pid = int(re.search(r"_(\d+)\.db$", path).group(1))
        for key, value, _ in MmapedDict(path, read_mode=True).read_all_values():
            if key.startswith('["cribbage_http_requests"'):
                out[pid] = out.get(pid, 0.0) + value
    return out


def _connections_per_worker(port: int) -> list[int]:
    """Established connections to ``port`` each worker of the server holds (from /proc)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.read().splitlines()[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                    inodes.add(fields[9])
    master = harness._SERVERS[port]
    counts = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/stat") as f:
                if not pid.isdigit() or int(f.read().rsplit(")", 1)[1].split()[1]) != master:
                    continue
            fds = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
        except (OSError, ValueError):
            continue
        counts.append(sum(1 for t in fds if t.startswith("socket:[") and t[8:-1] in inodes))
    return sorted(counts)


def bench_spread(rounds: int = 6, seconds: float = 2.0, connections: int = 16) -> None:
    requests = _scores()
    print(f"spread across workers: {connections} keep-alive connections opened at once, POST /v1/hands/score "
          f"for {seconds:g} s, {rounds} rounds of new connections, 2 workers (per worker, fewest first):",
          flush=True)
    for label, env in (("a listening socket each (SO_REUSEPORT)", {}),
                       ("one shared socket (GUNICORN_REUSE_PORT=0)", {"GUNICORN_REUSE_PORT": "0"})):
        metrics = tempfile.mkdtemp(prefix="bench-spread-")
        with harness.running(harness.SERVICE_APP, env={**env, "PROMETHEUS_MULTIPROC_DIR": metrics,
                                                       "GUNICORN_ACCESS_LOG": "off"}) as (port,):
            shares, spreads = [], []
            for _ in range(rounds):
                time.sleep(1.2)  # each worker's counts are written within a second
                before = _requests_per_worker(metrics)
                seen: list[list[int]] = []
                probe = threading.Timer(seconds / 2, lambda: seen.append(_connections_per_worker(port)))
                probe.start()
                harness.load(port, requests, seconds, connections, tool="python")
                probe.join()
                time.sleep(1.2)
                after = _requests_per_worker(metrics)
                per = sorted(after[p] - before.get(p, 0.0) for p in after)
                if seen and sum(seen[0]):
                    shares.append(seen[0][0] / sum(seen[0]))
                spreads.append(f"{'/'.join(f'{n:,.0f}' for n in per)} requests, "
                               f"{'/'.join(map(str, seen[0])) if seen else '?'} connections")
        print(f"  {label:<42} the fewer-connection worker's share of them: median "
              f"{statistics.median(shares) if shares else float('nan'):.0%}, least {min(shares, default=0):.0%} "
              f"(rounds: {'; '.join(spreads)})", flush=True)


def bench_hot_path_cost(seconds: float = 3, rounds: int = 7) -> None:
    """Four servers at once (the service and the empty app, under each worker), measured in
    turn within every round, so that each round's two ratios see the same machine."""
    requests = _scores()
    empty = harness.empty_reference(requests)
    print(f"the worker's cost on the hot path: POST /v1/hands/score ÷ empty endpoint under each worker "
          f"(4 servers, measured in turn, {rounds} rounds of {seconds:g} s, wrk -c8; medians):", flush=True)
    with harness.running(harness.SERVICE_APP, harness.EMPTY_APP) as ours, \
            harness.running(harness.SERVICE_APP, harness.EMPTY_APP, env=GTHREAD) as theirs:
        for port, reqs in ((ours[0], requests), (ours[1], empty), (theirs[0], requests), (theirs[1], empty)):
            harness.load(port, reqs, 1.0, 8)  # warm up
        ratios: dict[str, list[float]] = {"worker.py": [], "gthread": []}
        cpu: dict[str, list[float]] = {"worker.py": [], "gthread": []}
        cpu_empty: dict[str, list[float]] = {"worker.py": [], "gthread": []}
        for r in range(rounds):
            sides = [("worker.py", ours), ("gthread", theirs)]
            for label, (svc, emp) in sides if r % 2 == 0 else sides[::-1]:
                a = harness.load(svc, requests, seconds, 8)
                b = harness.load(emp, empty, seconds, 8)
                ratios[label].append(a["rps"] / b["rps"])
                cpu[label].append(a["cpu_us"])
                cpu_empty[label].append(b["cpu_us"])
    for label in ratios:
        print(f"  {label:<10} ratio {statistics.median(ratios[label]):.2f} "
              f"(rounds {min(ratios[label]):.2f}-{max(ratios[label]):.2f}), "
              f"server CPU a request: service {statistics.median(cpu[label]):,.0f} us, "
              f"empty app {statistics.median(cpu_empty[label]):,.0f} us", flush=True)
    per_round = [a / b for a, b in zip(ratios["worker.py"], ratios["gthread"])]
    print(f"  worker.py ÷ gthread, per round: median {statistics.median(per_round):.3f} "
          f"({', '.join(f'{x:.2f}' for x in per_round)}); CPU a request, service: "
          f"{statistics.median(cpu['worker.py']) / statistics.median(cpu['gthread']):.3f}", flush=True)


def bench_all() -> None:
    print("== overload, slow clients, the worker ==", flush=True)
    harness.run_parts((bench_hot_path_cost, bench_shedding, bench_slow_clients, bench_idle_clients, bench_spread))


if __name__ == "__main__":
    bench_all()
