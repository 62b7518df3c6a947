"""Prometheus metrics, safe under several gunicorn workers, a microsecond a request.

Two metrics, labels bounded (the route *template* such as
``/v1/hands/score``, never the raw path; ``route="unmatched"`` for no route)::

    cribbage_http_requests_total{method,route,status}            counter
    cribbage_http_request_duration_seconds{method,route}         histogram

Cost by design.  Under gunicorn, prometheus-client runs in multiprocess mode
(``PROMETHEUS_MULTIPROC_DIR``, set by ``gunicorn.conf.py`` before any worker
imports this module): every ``inc``/``observe`` takes a lock and writes an
mmap'd file, and ``labels()`` builds and looks up a key -- measured here, the
counter and the histogram of one request cost about 12 us, more than the
falcon endpoint itself.  So a request only adds one row to a per-process
buffer (:meth:`Recorder.observe`: a bisect and three list updates under a
lock, about 1 us), and the buffer is written into prometheus-client's values
in bulk -- one ``inc`` per label set and bucket, however many requests --

* every ``FLUSH_SECONDS`` (1 s) by a daemon thread in each worker,
* by the worker answering ``GET /metrics`` just before it collects,
* when a worker exits (``worker_exit`` in ``gunicorn.conf.py``).

``GET /metrics`` aggregates every worker with ``MultiProcessCollector``; what
other workers served in the last second may not be in it yet.  Without
``PROMETHEUS_MULTIPROC_DIR`` (tests, one process) the default registry is
used and the scrape's own flush makes it exact.
"""

from __future__ import annotations

import os
import threading
import time
from bisect import bisect_left

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)

BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
FLUSH_SECONDS = 1.0

REQUESTS = Counter(
    "cribbage_http_requests",
    "HTTP requests answered, by method, route template and status code.",
    ("method", "route", "status"),
)
LATENCY = Histogram(
    "cribbage_http_request_duration_seconds",
    "Time spent in the application per request, by method and route template.",
    ("method", "route"),
    buckets=BUCKETS,
)

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class Recorder:
    """A per-process buffer of request observations, flushed into prometheus-client.

    A row per (method, route, status): the count per histogram bucket (the
    last one +Inf), then the sum of seconds.
    """

    def __init__(self, flush_seconds: float = FLUSH_SECONDS) -> None:
        self.flush_seconds = flush_seconds
        self._lock = threading.Lock()
        self._rows: dict[tuple[str, str, int], list[float]] = {}
        self._width = len(BUCKETS) + 1
        self._thread: threading.Thread | None = None
        self._background = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))

    def observe(self, method: str, route: str | None, status: int, seconds: float) -> None:
        """Count one answered request (thread-safe; never writes a file)."""
        key = (method if method in METHODS else "OTHER", route or "unmatched", status)
        bucket = bisect_left(BUCKETS, seconds)  # first bound >= seconds: Prometheus' "le"
        with self._lock:
            row = self._rows.get(key)
            if row is None:
                row = self._rows[key] = [0] * self._width + [0.0]
            row[bucket] += 1
            row[-1] += seconds
        if self._thread is None and self._background:
            self._start()

    def flush(self) -> None:
        """Write what was buffered into prometheus-client's values, and empty the buffer."""
        with self._lock:
            rows, self._rows = self._rows, {}
        latency: dict[tuple[str, str], list[float]] = {}
        for (method, route, status), row in rows.items():
            REQUESTS.labels(method, route, str(status)).inc(sum(row[:-1]))
            into = latency.setdefault((method, route), [0] * self._width + [0.0])
            for i, value in enumerate(row):
                into[i] += value
        for (method, route), row in latency.items():
            child = LATENCY.labels(method, route)
            # prometheus-client has no bulk observe: add to the bucket and sum
            # values as observe() does (tests/http/test_http_common.py compares).
            for i, count in enumerate(row[:-1]):
                if count:
                    child._buckets[i].inc(count)
            child._sum.inc(row[-1])

    def _start(self) -> None:
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._run, name="metrics-flush", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            time.sleep(self.flush_seconds)
            self.flush()

    def _after_fork(self) -> None:
        # A forked worker starts with nothing to report and no flush thread.
        self._lock = threading.Lock()
        self._rows = {}
        self._thread = None


RECORDER = Recorder()
os.register_at_fork(after_in_child=RECORDER._after_fork)

observe = RECORDER.observe
flush = RECORDER.flush


def exposition() -> tuple[bytes, str]:
    """The current metrics in the Prometheus text format, and its content type."""
    flush()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        # prometheus-client leaves its constructor unannotated:
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
