"""gunicorn settings for the cribbage service (read automatically from the working directory).

Environment:
  HOST (default 0.0.0.0), PORT (default 8000)
  WEB_CONCURRENCY     worker processes (default: one a CPU, at least 2, at most 8)
  GUNICORN_THREADS    threads per worker (default 4)
  GUNICORN_TIMEOUT    seconds before a silent worker is restarted (default 30)
  GUNICORN_READ_TIMEOUT  seconds a request's head and body may take to arrive (default 5; then 408)
  GUNICORN_MAX_PENDING   connections a worker holds waiting for a thread before it answers
                      further ones 503 + Retry-After at once (default 32; -1: never shed)
  GUNICORN_WORKER_CONNECTIONS  open connections a worker keeps at most (default 1000); at the
                      cap it closes its longest-idle ones first to make room for new ones
  GUNICORN_KEEPALIVE  seconds an idle connection waits for its next (or first) request
                      before it is closed (default 5)
  GUNICORN_REUSE_PORT "0": the workers share one listening socket (default: each its own,
                      SO_REUSEPORT, so that the kernel spreads connections across them)
  GUNICORN_ACCESS_LOG where the access log goes (default "-", stdout; "off": none)
  GUNICORN_GC_FREEZE  "0" leaves the garbage collector as it is (see post_worker_init)
  PROMETHEUS_MULTIPROC_DIR  where workers write metrics (default: a fresh temp dir)

Measured (bench/run.py's harness, wrk -c8 on loopback, hands/score bodies,
2 shared cores; req/s and the server's CPU time a request, master and
workers, medians of 5-11 alternated rounds; the machine was busy with other
work, so only differences beyond about 15% mean much):

* The access log was the largest cost: gunicorn's own Logger.access builds a
  dict of every atom, header and environ variable and a LogRecord, 87-113 us
  a line in isolation; AccessLogger below writes the same line in about
  5 us.  Server CPU a request 573 -> 442 us, req/s +29%; with no access log
  at all 400 us (+52%): GUNICORN_ACCESS_LOG=off behind a proxy that logs.
* gc.freeze() once the app is loaded (post_worker_init): the long-lived heap
  (tables, schemas, modules; ~16,000 objects more than a bare falcon app)
  left the collector's full passes -- 3-4 us a request in-process.
* Workers x threads, gthread: 2 x 4 used the least CPU a request in 5 of 6
  runs (308 vs 336 us for the former 3 x 2 in the longest, 11 rounds; 2 x 8
  369, 2 x 1 and 3 x 1 more); its req/s was the best or within noise.  One
  worker a core, and a thread for each of the 8 connections.  More workers
  than cores cost more CPU a request (4 x 2: 538 vs 498 us for 3 x 2).
  More threads also keep a few slow clients from holding every thread.
* sync (2 workers) was as cheap a request as gthread 2 x 4 (316 us), but it
  closes every connection, which costs every real client a new connection.
* keepalive only matters for idle connections, which gthread parks in its
  poller, not in a thread: 5 s.
* The worker is service/http/worker.py's (gthread with problem+json for
  gunicorn's own errors, requests gathered in the poller before a thread
  sees them, a request deadline, load shedding; plain gthread when it
  cannot be imported, e.g. bench's peers).  Slow clients, measured (bench,
  "overload"): 8 heads trickled a byte every 0.2 s, reconnecting when cut,
  held every thread of plain gthread (2 x 4) and /healthz went unanswered
  for the 12 s measured; under this worker the longest /healthz wait was
  under 10 ms (the tricklers wait in the poller and are cut at
  GUNICORN_READ_TIMEOUT with a 408).  16 connections that send nothing:
  the same.  Uploads too: a body is gathered whole in the poller however it
  is framed (Content-Length, chunked, after Expect: 100-continue), up to its
  path's limit (service/http/limits.py): 8 stalled uploads of each framing
  to the batch, standings and bracket operations, reconnecting when cut,
  kept /healthz waiting a median 9.7 s (longest 19.5 s) when only short
  Content-Length bodies were gathered; now 5 ms (longest 0.3 s).  So the direct setup is protected too; nginx in front
  (deploy/kubernetes) stays the production answer (it also buffers large
  bodies and terminates TLS).  gunicorn's ``timeout`` is no help here
  (gthread's main loop keeps notifying while its threads are stuck).  The
  hot path under this worker: server CPU a request within 1 % of gthread's
  and the same ratio to the empty endpoint within the machine's noise.
* Overload (wrk -c1000 on hands/score): shedding beyond
  GUNICORN_MAX_PENDING (32 a worker) halved p99 (137 vs 285 ms, while
  wrk, ignoring Retry-After, got 60 % 503s and 85 % of the unshed 2xx/s).
"""

from __future__ import annotations

import datetime
import logging
import os
import shutil
import tempfile
import time
from typing import TYPE_CHECKING, Any

from gunicorn.glogging import Logger

if TYPE_CHECKING:  # gunicorn has no types (pyproject.toml): these names are Any to mypy
    from gunicorn.arbiter import Arbiter
    from gunicorn.http.message import Request
    from gunicorn.http.wsgi import Response
    from gunicorn.workers.base import Worker


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _int_env(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw else default


wsgi_app = "service.app:app"
bind = [f"{os.environ.get('HOST', '0.0.0.0')}:{_int_env('PORT', 8000)}"]

try:  # gthread with problem+json errors, a request deadline and load shedding
    from service.http import limits as _limits
    from service.http import worker as _worker

    _worker.Worker.read_timeout = float(os.environ.get("GUNICORN_READ_TIMEOUT", "").strip() or 5)
    _worker.Worker.max_pending = _int_env("GUNICORN_MAX_PENDING", 32)
    # The app's body limits (service/http/limits.py): each body is gathered up to its path's.
    _worker.Worker.body_limit = _limits.max_body_bytes()
    _worker.Worker.path_limits = _limits.body_limits(_worker.Worker.body_limit)
    worker_class = "service.http.worker.Worker"
except ImportError:  # an app served from elsewhere (bench's peers in their own venvs)
    worker_class = "gthread"
workers = _int_env("WEB_CONCURRENCY", min(max(_cpus(), 2), 8))
threads = _int_env("GUNICORN_THREADS", 4)
timeout = _int_env("GUNICORN_TIMEOUT", 30)
graceful_timeout = 20
keepalive = _int_env("GUNICORN_KEEPALIVE", 5)
worker_connections = _int_env("GUNICORN_WORKER_CONNECTIONS", 1000)
# Each worker its own listening socket (SO_REUSEPORT): the kernel spreads new connections
# across the workers.  On one shared socket the first worker to wake took every pending
# connection (up to 64 a wake-up): 16 keep-alive connections all on one worker at times.
reuse_port = os.environ.get("GUNICORN_REUSE_PORT", "1").strip() != "0"
max_requests = 0  # no periodic worker recycling: nothing leaks

# Request line and header limits (the body limits are service/http/limits.py's: CRIBBAGE_MAX_BODY_BYTES).
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190

_ACCESS_LOG = os.environ.get("GUNICORN_ACCESS_LOG", "-")
accesslog = None if _ACCESS_LOG == "off" else _ACCESS_LOG
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
ACCESS_LOG_FORMAT = '%(t)s %(h)s "%(r)s" %(s)s %(B)s %(M)sms rid=%({x-request-id}o)s "%(a)s"'
access_log_format = ACCESS_LOG_FORMAT


def _quoted(text: str) -> str:
    return text.replace('"', '\\"') if '"' in text else text  # as gunicorn's SafeAtoms


class AccessLogger(Logger):
    """gunicorn's logger, with the access line of ``ACCESS_LOG_FORMAT`` written directly.

    gunicorn's own ``access()`` builds a dict of every atom, request header,
    response header and environ variable, copies it into ``SafeAtoms`` and
    logs it through a ``LogRecord``: measured here, 87-113 us a request
    (the endpoints themselves cost 10-50 us).  This writes the same line
    (the same atoms, quotes escaped the same way) to the same handlers in
    a few microseconds.  Any other format, handler or filter takes
    gunicorn's path.
    """

    _second = -1
    _stamp = ""

    def _direct(self) -> list[logging.StreamHandler[Any]] | None:
        log = self.access_log
        handlers: list[logging.StreamHandler[Any]] = log.handlers  # checked below, else None
        if (self.cfg.access_log_format != ACCESS_LOG_FORMAT or log.filters or not handlers
                or not log.isEnabledFor(logging.INFO)):
            return None
        for h in handlers:
            if type(h) not in (logging.StreamHandler, logging.FileHandler) or h.filters or h.stream is None:
                return None
        return handlers

    def access(self, resp: Response, req: Request, environ: dict[str, Any],
               request_time: datetime.timedelta) -> None:
        if not self.access_log_enabled:
            return
        handlers = self._direct()
        if handlers is None:
            super().access(resp, req, environ, request_time)
            return
        second = int(time.time())
        if second != self._second:
            self._second, self._stamp = second, self.now()
        status = resp.status
        if isinstance(status, str):
            status = status.split(None, 1)[0]
        rid = "-"
        for name, value in resp.headers:
            if name.lower() == "x-request-id":
                rid = value
                break
        request = f'{environ["REQUEST_METHOD"]} {environ["RAW_URI"]} {environ["SERVER_PROTOCOL"]}'
        agent = environ.get("HTTP_USER_AGENT", "-")
        ms = request_time.seconds * 1000 + int(request_time.microseconds / 1000)
        line = (f'{self._stamp} {environ.get("REMOTE_ADDR", "-")} "{_quoted(request)}" {status} '
                f'{getattr(resp, "sent", None)} {ms}ms rid={_quoted(rid)} "{_quoted(agent)}"')
        for h in handlers:
            h.acquire()
            try:
                h.stream.write(line + h.terminator)
                h.flush()
            finally:
                h.release()


logger_class = AccessLogger

# gunicorn >= 25.1 opens a control socket under $HOME by default; not wanted here.
control_socket_disable = True

# Metrics: every worker writes its samples under PROMETHEUS_MULTIPROC_DIR, and
# GET /metrics aggregates them.  Must be set before a worker imports the app.
_OWN_METRICS_DIR = "PROMETHEUS_MULTIPROC_DIR" not in os.environ
if _OWN_METRICS_DIR:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="cribbage-metrics-")


def on_starting(server: Arbiter) -> None:
    """Start with no samples left over from an earlier run."""
    path = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        full = os.path.join(path, name)
        if os.path.isfile(full):
            os.unlink(full)


def post_worker_init(worker: Worker) -> None:
    """The app is loaded: move everything alive now out of the garbage
    collector's sight (gc.freeze), so that its full collections no longer
    walk the service's tens of thousands of long-lived objects (tables,
    schemas, modules)."""
    _warm_up_and_drain_on_stop(worker)
    if os.environ.get("GUNICORN_GC_FREEZE", "1") != "0":
        import gc

        gc.collect()
        gc.freeze()


def _warm_up_and_drain_on_stop(worker: Worker) -> None:
    """The service's readiness (service/http/readiness.py): one request through the
    app before the worker serves, and /readyz 503 from the moment a stop signal
    arrives (gunicorn has no hook for SIGTERM).  Other apps (bench/) are left alone."""
    import sys

    readiness = sys.modules.get("service.http.readiness")
    if readiness is not None:
        if not readiness.LIFECYCLE.warm_up(worker.wsgi):
            worker.log.warning("the warm-up request was not answered 200: /readyz says not ready")
        readiness.drain_on_stop_signals()


def worker_exit(server: Arbiter, worker: Worker) -> None:
    """In the worker: write the metrics it buffered (service/http/metrics.py)."""
    import sys

    metrics = sys.modules.get("service.http.metrics")
    if metrics is not None:
        metrics.flush()


def child_exit(server: Arbiter, worker: Worker) -> None:
    try:
        from prometheus_client import multiprocess
    except ImportError:  # an app without prometheus-client (bench/peer_flask.py)
        return
    # prometheus-client leaves this one function unannotated:
    multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]


def on_exit(server: Arbiter) -> None:
    if _OWN_METRICS_DIR:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
