"""Prometheus metrics, safe under several gunicorn workers.

With ``PROMETHEUS_MULTIPROC_DIR`` set (``gunicorn.conf.py`` sets it before any
worker imports this module, empties it at start and marks dead workers), each
worker writes its samples to files there and ``GET /metrics`` aggregates all
workers with :class:`MultiProcessCollector`.  Without it (tests, a single
process) the default in-process registry is used.

Labels are bounded: the route *template* (``/v1/hands/score``), never the raw
path; requests that match no route share ``route="unmatched"``.
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)

REQUESTS = Counter(
    "cribbage_http_requests",
    "HTTP requests answered, by method, route template and status code.",
    ("method", "route", "status"),
)
LATENCY = Histogram(
    "cribbage_http_request_duration_seconds",
    "Time spent in the application per request, by method and route template.",
    ("method", "route"),
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
)

_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def observe(method: str, route: str | None, status: int, seconds: float) -> None:
    method = method if method in _METHODS else "OTHER"
    route = route or "unmatched"
    REQUESTS.labels(method, route, str(status)).inc()
    LATENCY.labels(method, route).observe(seconds)


def exposition() -> tuple[bytes, str]:
    """The current metrics in the Prometheus text format, and its content type."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
