"""Readiness (``GET /readyz``): whether this process should be sent requests now.

``/healthz`` says the process answers at all (liveness: restart it if not);
``/readyz`` says it should be *sent traffic* (readiness: take it out of the
load balancer if not).  A process is ready when

* its app is built: ``create_app`` has read ``openapi.yaml`` and set up the
  sealer (both raise at start rather than serve wrongly, so an app that
  exists has them);
* its request path is warm: one ``POST /v1/hands/score`` has gone through
  the whole app (routing, middleware, schema, the core, orjson), so the
  first client does not pay for first-time imports and caches
  (:func:`warm_up`; gunicorn.conf.py runs it in each worker before it
  serves, and ``/readyz`` runs it itself in a process nobody warmed);
* it is not shutting down.

Shutting down: on SIGTERM a gunicorn worker stops accepting connections
and lets the requests it already has finish (``graceful_timeout``).  Those
requests may include a readiness probe, through nginx's kept-alive upstream
connection or one that arrived just before: from the moment the signal
arrives, ``/readyz`` answers 503 (problem ``not-ready``) so that nothing
takes the worker for a ready one.  :func:`drain_on_stop_signals` puts
:func:`drain` in front of the handlers gunicorn installed for SIGTERM,
SIGINT and SIGQUIT (gunicorn has a hook for SIGINT and SIGQUIT,
``worker_int``, but none for SIGTERM, the graceful stop).
"""

from __future__ import annotations

import io
import signal
import sys
import threading
from typing import Any, Callable

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Any]
"""A WSGI callable (PEP 3333)."""

WARM_UP_PATH = "/v1/hands/score"
WARM_UP_BODY = b'{"cards":["5H","5C","5S","JD"],"starter":"5D","crib":false}'
WARM_UP_REQUEST_ID = "warm-up"
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT)


class Lifecycle:
    """This process's readiness facts: warmed up, draining (set once, never unset)."""

    def __init__(self) -> None:
        self._warm = threading.Event()
        self._draining = threading.Event()
        self._lock = threading.Lock()

    @property
    def warm(self) -> bool:
        return self._warm.is_set()

    @property
    def draining(self) -> bool:
        return self._draining.is_set()

    def drain(self) -> None:
        """The process is shutting down: never ready again."""
        self._draining.set()

    def warm_up(self, app: WSGIApp) -> bool:
        """Send one score request through the WSGI ``app``; warm if it was answered 200.

        The request is counted in ``/metrics`` like any other (one per worker
        start, request id ``warm-up``).
        """
        with self._lock:
            if self._warm.is_set():
                return True
            if _call(app, WARM_UP_PATH, WARM_UP_BODY).startswith("200"):
                self._warm.set()
            return self._warm.is_set()


def _call(app: WSGIApp, path: str, body: bytes) -> str:
    """A POST with a JSON body straight into the WSGI callable; its status line."""
    environ: dict[str, Any] = {
        "REQUEST_METHOD": "POST", "PATH_INFO": path, "SCRIPT_NAME": "", "QUERY_STRING": "",
        "SERVER_NAME": "localhost", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1", "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)), "HTTP_X_REQUEST_ID": WARM_UP_REQUEST_ID,
        "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr, "wsgi.url_scheme": "http",
        "wsgi.version": (1, 0), "wsgi.multithread": True, "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    status: list[str] = []

    def start_response(line: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], None]:
        status.append(line)
        return lambda data: None

    chunks = app(environ, start_response)
    try:
        for _ in chunks:
            pass
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()
    return status[0] if status else ""


LIFECYCLE = Lifecycle()
"""The process's own (a forked worker starts with the master's, never warmed nor draining)."""


def drain_on_stop_signals(lifecycle: Lifecycle = LIFECYCLE) -> None:
    """Call ``lifecycle.drain()`` on SIGTERM, SIGINT and SIGQUIT, then the handler
    installed before (gunicorn's: stop accepting, finish what is in flight)."""
    for signum in STOP_SIGNALS:
        previous = signal.getsignal(signum)

        def handler(sig: int, frame: Any, previous: Any = previous) -> None:
            lifecycle.drain()
            if callable(previous):
                previous(sig, frame)
            elif previous == signal.SIG_DFL:
                signal.signal(sig, signal.SIG_DFL)
                signal.raise_signal(sig)

        signal.signal(signum, handler)
