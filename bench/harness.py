"""Side-by-side HTTP benchmarks: every figure as a ratio against a reference.

This machine is small, shared and noisy: an absolute req/s figure moves by
tens of percent from one minute to the next.  So a figure with a target is
measured next to a reference served the same way, in the same run, and
reported as the ratio target/reference.  The default reference is
``bench/empty_app.py``: a bare falcon endpoint (``POST /empty``) that parses
the same JSON bodies with the service's orjson handlers and answers
``{"ok": true}``; the ratio then says how much the work behind the service's
endpoint costs on top of falcon + gunicorn + the loopback.

API::

    proc, port = start_gunicorn("service.app:app", env=None)   # gunicorn.conf.py, 127.0.0.1:<free>
    stop(proc)                                                  # SIGTERM the master, kill after 10 s
    with running("service.app:app", EMPTY_APP) as (a, b): ...   # several servers, always stopped
    load(port, [(method, path, body), ...], seconds, connections, tool=None) -> dict
    empty_reference(requests) -> the same bodies sent to POST /empty
    side_by_side(label, target_requests, reference_requests=None,
                 seconds=5, connections=8, rounds=3, ...) -> dict   # prints one line

Servers: both sides are started by :func:`start_gunicorn` with the
repository's own ``gunicorn.conf.py`` (``-c gunicorn.conf.py`` from the
repository root; ``HOST``/``PORT`` in the environment give the bind), so
workers, threads, keep-alive and logging are the same on both sides.  The
conf has no switch for its access log (``accesslog = "-"``), so both sides
log every request to stdout, which goes to /dev/null; that cost is in both
figures.  The error log goes to a temporary file, shown if a server fails to
start.

Load: :func:`load` uses ``wrk`` when ``shutil.which("wrk")`` finds it
(``apt-get install wrk``; this module never installs anything).  A generated
Lua script cycles through the request list, every thread starting at its own
offset; the requests, bodies of any size and bytes included, are read from a
length-prefixed file in the script's ``init``.  Without wrk, a Python client
runs: one thread per connection, raw sockets, keep-alive, pre-built
requests.  The Python client is the bottleneck (it needs about as much CPU
per request as a cheap endpoint and holds the GIL while it parses), so it
compresses every ratio toward 1 and its req/s are lower bounds; prefer wrk.

Every loop is bounded in count and in time, and traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Iterable, Iterator

ROOT = Path(__file__).resolve().parent.parent
SERVICE_APP = "service.app:app"
EMPTY_APP = "bench.empty_app:app"
HOST = "127.0.0.1"

START_TIMEOUT = 20.0  # seconds until /healthz must answer
STOP_TIMEOUT = 10.0  # seconds between SIGTERM and SIGKILL

Request = tuple[str, str, bytes]  # (method, path, body); an empty body is sent without one


# ---------------------------------------------------------------- servers



def percentile(xs: Iterable[float], p: float) -> float:
    """The ``p``-th percentile (0 to 100) of ``xs``, the sample nearest to it (no interpolation): the
    in-process benches' p50 and p99."""
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]

def run_parts(parts: Iterable[Callable[[], None]]) -> None:
    """Run each part of a bench section; one failing is reported and does not hide the others."""
    for part in parts:
        try:
            part()
        except Exception as exc:
            print(f"  !! {part.__name__}: {type(exc).__name__}: {exc}", flush=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _healthz(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=1) as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
            return s.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def start_gunicorn(app_path: str, env: dict | None = None,
                   gunicorn: Path | str | None = None) -> tuple[subprocess.Popen, int]:
    """Start gunicorn for ``app_path`` with the repository's ``gunicorn.conf.py``.

    ``gunicorn`` is the executable, by default the one beside this Python
    (another venv's, for a peer service such as bench/peer_flask.py).

    Binds 127.0.0.1 on a free port (through ``HOST``/``PORT``, which the conf
    reads), with the caller's environment plus ``env``.  Each server gets its
    own ``PROMETHEUS_MULTIPROC_DIR`` (the conf makes one when it is unset), so
    two servers never wipe each other's metrics.  Returns once ``/healthz``
    answers 200; raises ``RuntimeError`` (with the error log's tail) if it
    does not within 20 s or the master exits.
    """
    gunicorn = Path(gunicorn) if gunicorn else Path(sys.executable).with_name("gunicorn")
    for attempt in range(3):  # a free port can be taken before gunicorn binds it
        port = _free_port()
        full_env = {**os.environ}
        full_env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        full_env.update(env or {})
        full_env.update(HOST=HOST, PORT=str(port))
        full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), full_env.get("PYTHONPATH")]))
        log = tempfile.NamedTemporaryFile(prefix="bench-gunicorn-", suffix=".log", delete=False)
        proc = subprocess.Popen(
            [str(gunicorn), "-c", "gunicorn.conf.py", app_path],
            cwd=ROOT, env=full_env, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=log,  # stdout: the access log
        )
        log.close()
        proc.bench_log = log.name  # type: ignore[attr-defined]
        deadline = time.monotonic() + START_TIMEOUT
        while proc.poll() is None and time.monotonic() < deadline:
            if _healthz(port):
                _SERVERS[port] = proc.pid
                return proc, port
            time.sleep(0.05)
        tail = Path(log.name).read_text(errors="replace")[-2000:]
        exited = proc.poll() is not None
        stop(proc)
        if not (exited and "Address already in use" in tail and attempt < 2):
            why = "exited" if exited else f"did not answer /healthz in {START_TIMEOUT:.0f} s"
            raise RuntimeError(f"gunicorn {app_path} {why}:\n{tail}")
    raise AssertionError("unreachable")


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM the gunicorn master and wait for it; SIGKILL after 10 s."""
    for port, pid in list(_SERVERS.items()):
        if pid == proc.pid:
            del _SERVERS[port]
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=STOP_TIMEOUT)
    log = getattr(proc, "bench_log", None)
    if log:
        with contextlib.suppress(OSError):
            os.unlink(log)


@contextlib.contextmanager
def running(*app_paths: str | tuple[str, Path], env: dict | None = None) -> Iterator[list[int]]:
    """Start one gunicorn per app path; yield their ports; always stop them all.

    An app path may be ``(app_path, gunicorn executable)`` for an app of another venv.
    """
    procs: list[subprocess.Popen] = []
    try:
        ports = []
        for app_path in app_paths:
            exe = None
            if isinstance(app_path, tuple):
                app_path, exe = app_path
            proc, port = start_gunicorn(app_path, env, exe)
            procs.append(proc)
            ports.append(port)
        yield ports
    finally:
        for proc in procs:
            stop(proc)


# ---------------------------------------------------------------- CPU time

_SERVERS: dict[int, int] = {}
"""port -> gunicorn master pid, for the servers started here."""
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds used) of a process, from /proc; None if gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / _TICK


def server_cpu(port: int) -> float | None:
    """CPU seconds used so far by the gunicorn started here on ``port``: its
    master and its workers (None without /proc or for a server not ours).
    Unlike req/s, CPU per request hardly moves when other processes share
    the cores: it is what the server spends, not what it is given."""
    master = _SERVERS.get(port)
    if master is None or not os.path.isdir("/proc"):
        return None
    total = 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st is not None and (int(entry) == master or st[0] == master):
                total += st[1]
    return total


# ---------------------------------------------------------------- load


def _tool(tool: str | None) -> str:
    if tool is None:
        return "wrk" if shutil.which("wrk") else "python"
    if tool not in ("wrk", "python"):
        raise ValueError(f"tool must be 'wrk' or 'python', not {tool!r}")
    return tool


def load(port: int, requests: list[Request], seconds: float, connections: int,
         tool: str | None = None) -> dict:
    """Cycle ``requests`` over ``connections`` keep-alive connections for ``seconds``.

    ``tool``: ``"wrk"``, ``"python"``, or ``None`` for wrk when it is on PATH.
    Returns ``{"tool", "connections", "seconds", "requests", "rps", "mean_ms",
    "p50_ms", "p99_ms", "statuses": {status: count}, "non_2xx", "errors",
    "cpu_us"}`` (``errors``: connection, read, write and timeout errors;
    ``cpu_us``: the server's CPU microseconds a request, see
    :func:`server_cpu`, NaN when unknown).
    """
    if not requests:
        raise ValueError("no requests to send")
    if connections < 1 or seconds <= 0:
        raise ValueError("connections must be >= 1 and seconds > 0")
    cpu = server_cpu(port)
    if _tool(tool) == "wrk":
        out = _load_wrk(port, requests, seconds, connections)
    else:
        out = _load_python(port, requests, seconds, connections)
    after = server_cpu(port)
    out["cpu_us"] = ((after - cpu) / out["requests"] * 1e6
                     if cpu is not None and after is not None and out["requests"] else math.nan)
    return out


_WRK_SCRIPT = r"""
-- generated by bench/harness.py: cycle through the requests in DATA
local DATA = %(data)s
local reqs, n, i = {}, 0, 0
statuses = {}
offset = 0

local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("offset", #threads - 1)
end

function init(args)
  local f = assert(io.open(DATA, "rb"))
  while true do
    local line = f:read("*l")
    if not line then break end
    local method, path, len = line:match("^(%%S+) (%%S+) (%%d+)$")
    assert(method, "bad request line in " .. DATA)
    len = tonumber(len)
    local body = nil
    local headers = {}
    if len > 0 then
      body = f:read(len)
      assert(body and #body == len, "short body in " .. DATA)
      headers["Content-Type"] = "application/json"
    end
    f:read(1)  -- the newline after each body
    n = n + 1
    reqs[n] = wrk.format(method, path, headers, body)
  end
  f:close()
  assert(n > 0, "no requests in " .. DATA)
  i = offset %% n
end

function request()
  i = i %% n + 1
  return reqs[i]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local parts = {}
  for _, thread in ipairs(threads) do
    local s = thread:get("statuses")
    for code, count in pairs(s) do
      local key = tostring(code)
      parts[key] = (parts[key] or 0) + count
    end
  end
  local hist = {}
  for code, count in pairs(parts) do
    table.insert(hist, string.format('"%%s": %%d', code, count))
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH-JSON {"requests": %%d, "duration_us": %%d, "mean_us": %%f, "p50_us": %%d, "p99_us": %%d, ' ..
    '"errors": %%d, "statuses": {%%s}}\n',
    summary.requests, summary.duration, latency.mean, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, table.concat(hist, ", ")))
end
"""


def _load_wrk(port: int, requests: list[Request], seconds: float, connections: int) -> dict:
    wrk = shutil.which("wrk")
    if not wrk:
        raise RuntimeError("wrk is not installed (apt-get install wrk)")
    duration = max(1, math.ceil(seconds))  # wrk takes whole seconds
    threads = min(2, connections)
    with tempfile.TemporaryDirectory(prefix="bench-wrk-") as tmp:
        data = Path(tmp, "requests.bin")
        with data.open("wb") as f:
            for method, path, body in requests:
                if " " in method or " " in path or "\n" in path:
                    raise ValueError(f"bad method or path: {method!r} {path!r}")
                f.write(f"{method} {path} {len(body)}\n".encode() + body + b"\n")
        script = Path(tmp, "cycle.lua")
        script.write_text(_WRK_SCRIPT % {"data": json.dumps(str(data))})
        out = subprocess.run(
            [wrk, f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--timeout", "10s",
             "-s", str(script), f"http://{HOST}:{port}/"],
            capture_output=True, text=True, timeout=duration + 60,
        )
    line = next((l for l in out.stdout.splitlines() if l.startswith("BENCH-JSON ")), None)
    if out.returncode != 0 or line is None:
        raise RuntimeError(f"wrk failed ({out.returncode}):\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    raw = json.loads(line.removeprefix("BENCH-JSON "))
    statuses = {int(k): v for k, v in sorted(raw["statuses"].items())}
    elapsed = raw["duration_us"] / 1e6
    return {
        "tool": "wrk", "connections": connections, "seconds": elapsed,
        "requests": raw["requests"], "rps": raw["requests"] / elapsed if elapsed else 0.0,
        "mean_ms": raw["mean_us"] / 1e3, "p50_ms": raw["p50_us"] / 1e3, "p99_ms": raw["p99_us"] / 1e3,
        "statuses": statuses, "non_2xx": sum(c for s, c in statuses.items() if not 200 <= s < 300),
        "errors": raw["errors"],
    }


def _prebuilt(requests: list[Request], port: int) -> list[bytes]:
    out = []
    for method, path, body in requests:
        head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        out.append(head.encode("latin-1") + b"\r\n" + body)
    return out


class _Conn:
    """One keep-alive connection: send a pre-built request, read one response."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock: socket.socket | None = None
        self.buf = b""

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buf = None, b""

    def _fill(self) -> None:
        chunk = self.sock.recv(65536)  # type: ignore[union-attr]
        if not chunk:
            raise ConnectionError("connection closed by the server")
        self.buf += chunk

    def exchange(self, raw: bytes) -> int:
        if self.sock is None:
            self.sock = socket.create_connection((HOST, self.port), timeout=10)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(raw)
        while (end := self.buf.find(b"\r\n\r\n")) < 0:
            self._fill()
        head, self.buf = self.buf[:end].decode("latin-1"), self.buf[end + 4:]
        lines = head.split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length, close = None, False
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "connection" and value.strip().lower() == "close":
                close = True
            elif name == "transfer-encoding":
                raise ConnectionError("chunked responses are not supported by the Python client")
        if length is None:  # no length: the body runs to the end of the connection
            with contextlib.suppress(ConnectionError):
                while True:
                    self._fill()
            close = True
            length = len(self.buf)
        while len(self.buf) < length:
            self._fill()
        self.buf = self.buf[length:]
        if close:
            self.close()
        return status


def _load_python(port: int, requests: list[Request], seconds: float, connections: int,
                 max_per_connection: int = 10_000_000) -> dict:
    raws = _prebuilt(requests, port)
    n = len(raws)
    latencies: list[list[float]] = [[] for _ in range(connections)]
    statuses: list[dict[int, int]] = [{} for _ in range(connections)]
    errors = [0] * connections
    gate = threading.Barrier(connections + 1)
    window: dict[str, float] = {}

    def work(k: int) -> None:
        conn, lat, hist = _Conn(port), latencies[k], statuses[k]
        i = (k * n) // connections
        gate.wait()
        deadline = window["deadline"]
        clock = time.perf_counter
        try:
            while len(lat) < max_per_connection:
                t = clock()
                if t >= deadline:
                    break
                try:
                    status = conn.exchange(raws[i])
                except OSError:  # includes ConnectionError and socket timeouts
                    errors[k] += 1
                    conn.close()
                    time.sleep(0.01)
                    continue
                lat.append(clock() - t)
                hist[status] = hist.get(status, 0) + 1
                i = (i + 1) % n
        finally:
            conn.close()

    pool = [threading.Thread(target=work, args=(k,), daemon=True) for k in range(connections)]
    for t in pool:
        t.start()
    window["deadline"] = time.perf_counter() + seconds
    start = time.perf_counter()
    gate.wait()
    for t in pool:
        t.join(timeout=seconds + 30)
    elapsed = time.perf_counter() - start
    every = sorted(x for lat in latencies for x in lat)
    hist: dict[int, int] = {}
    for h in statuses:
        for s, c in h.items():
            hist[s] = hist.get(s, 0) + c

    def pct(p: float) -> float:
        return every[min(len(every) - 1, max(0, math.ceil(p / 100 * len(every)) - 1))] * 1e3 if every else math.nan

    return {
        "tool": "python", "connections": connections, "seconds": elapsed,
        "requests": len(every), "rps": len(every) / elapsed if elapsed else 0.0,
        "mean_ms": statistics.fmean(every) * 1e3 if every else math.nan,
        "p50_ms": pct(50), "p99_ms": pct(99),
        "statuses": dict(sorted(hist.items())),
        "non_2xx": sum(c for s, c in hist.items() if not 200 <= s < 300),
        "errors": sum(errors),
    }


# ---------------------------------------------------------------- side by side


def empty_reference(requests: list[Request]) -> list[Request]:
    """The same bodies to the empty endpoint: ``POST /empty`` for a request with a
    body, ``GET /healthz`` of the empty app for one without."""
    return [("POST", "/empty", body) if body else ("GET", "/healthz", b"") for _, _, body in requests]


def _bad(results: list[dict]) -> str:
    statuses: dict[int, int] = {}
    for r in results:
        for s, c in r["statuses"].items():
            if not 200 <= s < 300:
                statuses[s] = statuses.get(s, 0) + c
    errors = sum(r["errors"] for r in results)
    parts = []
    if statuses:
        parts.append(f"{sum(statuses.values()):,} non-2xx {statuses}")
    if errors:
        parts.append(f"{errors:,} socket errors")
    return ", ".join(parts)


def side_by_side(label: str, target_requests: list[Request],
                 reference_requests: list[Request] | None = None,
                 seconds: float = 5, connections: int = 8, rounds: int = 3, *,
                 reference_label: str = "empty endpoint",
                 target_app: str = SERVICE_APP, reference_app: str = EMPTY_APP,
                 ports: tuple[int, int] | None = None, env: dict | None = None,
                 tool: str | None = None, warmup: float = 1.0, width: int = 0) -> dict:
    """Measure target and reference alternately (ABAB, ``rounds`` times) and print
    one line: the ratio of median req/s target/reference, both medians, both
    median p99s, the spread of the per-round ratios, and any non-2xx answer or
    socket error on either side (a benchmark of errors is meaningless).

    ``reference_requests`` defaults to :func:`empty_reference` (the same bodies
    to ``POST /empty``).  ``ports=(target, reference)`` uses servers already
    running (see :func:`running`); otherwise both apps are started with
    :func:`start_gunicorn` and stopped at the end.  Each side first gets
    ``warmup`` seconds of the same load (not counted), so that every worker
    has booted and warmed up.  Returns the figures as a dict.
    """
    if reference_requests is None:
        reference_requests = empty_reference(target_requests)
    rounds = max(1, int(rounds))
    with contextlib.ExitStack() as stack:
        if ports is None:
            ports = tuple(stack.enter_context(running(target_app, reference_app, env=env)))
        t_port, r_port = ports
        if warmup > 0:
            load(t_port, target_requests, warmup, connections, tool)
            load(r_port, reference_requests, warmup, connections, tool)
        targets, references = [], []
        for _ in range(rounds):
            targets.append(load(t_port, target_requests, seconds, connections, tool))
            references.append(load(r_port, reference_requests, seconds, connections, tool))

    t_rps = statistics.median(r["rps"] for r in targets)
    r_rps = statistics.median(r["rps"] for r in references)
    t_p99 = statistics.median(r["p99_ms"] for r in targets)
    r_p99 = statistics.median(r["p99_ms"] for r in references)
    ratio = t_rps / r_rps if r_rps else math.nan
    per_round = [t["rps"] / r["rps"] for t, r in zip(targets, references) if r["rps"]]
    used = targets[0]["tool"]
    spread = f"rounds {min(per_round):.2f}-{max(per_round):.2f}; " if len(per_round) > 1 else ""
    t_cpu = statistics.median(r["cpu_us"] for r in targets)
    r_cpu = statistics.median(r["cpu_us"] for r in references)
    cpu = (f"server CPU {t_cpu:,.0f} vs {r_cpu:,.0f} us/req; "
           if not (math.isnan(t_cpu) or math.isnan(r_cpu)) else "")
    line = (f"{label:<{width}} ÷ {reference_label}: {ratio:.2f} "
            f"({t_rps:,.0f} vs {r_rps:,.0f} req/s; {cpu}p99 {t_p99:.1f} vs {r_p99:.1f} ms; "
            f"{spread}{used} -c{connections}, {rounds} round{'s' if rounds != 1 else ''} of {targets[0]['seconds']:.0f} s, "
            f"{len(target_requests):,} distinct request{'s' if len(target_requests) != 1 else ''})")
    bad_t, bad_r = _bad(targets), _bad(references)
    if bad_t:
        line += f"\n    !! target: {bad_t}"
    if bad_r:
        line += f"\n    !! reference: {bad_r}"
    print(line, flush=True)
    return {
        "label": label, "ratio": ratio, "round_ratios": per_round,
        "target_cpu_us": t_cpu, "reference_cpu_us": r_cpu,
        "target_rps": t_rps, "reference_rps": r_rps, "target_p99_ms": t_p99, "reference_p99_ms": r_p99,
        "target_non_2xx": sum(r["non_2xx"] for r in targets),
        "reference_non_2xx": sum(r["non_2xx"] for r in references),
        "target_errors": sum(r["errors"] for r in targets),
        "reference_errors": sum(r["errors"] for r in references),
        "targets": targets, "references": references, "tool": used,
    }
