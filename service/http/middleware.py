"""The one middleware: request id, body size limit, CORS, metrics, error log.

:class:`Edge` does all four in one ``process_request`` and one
``process_response``, reading the WSGI environ directly, because every
middleware method is a call falcon makes on every request.  Measured
in-process on ``GET /healthz`` (2 cores, shared), the three middlewares it
replaces cost about 20 us a request, the metrics' mmap writes and
``uuid4`` most of it; :class:`Edge` costs about 2 us (``bench/run.py``
prints the figure: "middleware").

* Request id: the request's own ``X-Request-ID`` when sane, else 32 random
  hex digits; set first, before anything can raise, and sent on every
  response, errors included.
* Body: 413 for a body over ``limit`` bytes (or the path's own in
  ``limits``, e.g. the hands batch), with or without Content-Length.  With
  ``Content-Length`` the header is checked before anything is read.  Every
  body is then read here, whole, and handed on in memory: one with a length
  exactly (a body shorter than its Content-Length is 400, not a shorter
  document read as if complete), one without (``Transfer-Encoding:
  chunked``) at most ``limit + 1`` bytes, handed on as if it had had a
  length (falcon would otherwise read it as empty).  A body that cannot be
  read (a bad chunk, cut short) is 400 and one that does not arrive in time
  408 (the worker's deadline, :mod:`.worker`): problems, not the 500 the
  server's read error would be inside the app.
* Content coding: a body with a ``Content-Encoding`` other than ``identity``
  (``gzip``, ``br``, anything) is 415 ``unsupported-content-encoding``,
  naming the header and :data:`READ_CODINGS`, with ``Accept-Encoding:
  identity`` (RFC 9110 15.5.16, RFC 7694): the service reads no compressed
  body, and read as it came such a body was a 400 (not JSON) or, worse, a
  200 when the header lied.  Checked on the header alone, before the body is
  read; a request without a body is not refused for it.
* Static files: only ``GET``, ``HEAD`` and ``OPTIONS`` (falcon's static
  route serves a file to any method): anything else is 405 with ``Allow``.
* Request id and CORS headers: :func:`.answers.answer_headers`, which
  the worker's own answers carry too (any origin, ``X-Request-ID``
  exposed, when the request has an ``Origin``); a preflight's headers are
  falcon's :class:`falcon.CORSMiddleware`'s, called only for one.
* Metrics: one :func:`metrics.observe` (a buffer, see :mod:`.metrics`).
"""

from __future__ import annotations

import io
import time
from typing import TYPE_CHECKING

import falcon
import structlog

from service.core.errors import echo

from . import metrics
from .answers import CORS_HEADERS, REQUEST_ID_HEADER, answer_headers, bounded_message, new_request_id
from .answers import request_id_of
from .problems import ProblemError

if TYPE_CHECKING:
    import falcon.asgi

log = structlog.get_logger("service.http")


class Edge:
    """Request id, body limit, CORS and metrics; see the module docstring."""

    def __init__(self, limit: int, *, collect_metrics: bool = True,
                 static_prefixes: tuple[str, ...] = ("/docs/static",),
                 limits: dict[str, int] | None = None) -> None:
        self.limit = limit
        self.limits = dict(limits or {})
        self.collect_metrics = collect_metrics
        # falcon types its CORS middleware by the ASGI side it also serves; only the WSGI
        # process_response is called here.
        # Only for a preflight's headers; those of every answer are answer_headers' (CORS_HEADERS).
        self._cors: falcon.CORSMiddleware[falcon.asgi.Request, falcon.asgi.Response] = \
            falcon.CORSMiddleware(allow_origins=dict(CORS_HEADERS)["Access-Control-Allow-Origin"],
                                  expose_headers=[REQUEST_ID_HEADER])
        # Static routes have no uri_template; label them by prefix, not by file.
        self.static_prefixes = tuple(p.rstrip("/") + "/" for p in static_prefixes)

    def process_request(self, req: falcon.Request, resp: falcon.Response) -> None:
        env = req.env
        context = req.context
        context.started = time.perf_counter()
        context.request_id = request_id_of(env.get("HTTP_X_REQUEST_ID"))
        length = env.get("CONTENT_LENGTH")
        coding = env.get("HTTP_CONTENT_ENCODING")
        if coding is not None and (length not in (None, "", "0") or env.get("HTTP_TRANSFER_ENCODING")):
            _check_coding(coding)
        limit = self.limits.get(env.get("PATH_INFO", ""), self.limit) if self.limits else self.limit
        if length and length.isascii() and length.isdigit():
            size = int(length)
            if size > limit:
                raise self._too_large(limit)
            if size:
                self._read_body(req, size)
        elif length or env.get("HTTP_TRANSFER_ENCODING"):
            self._check_body(req, limit)
        if env["REQUEST_METHOD"] not in _STATIC_METHODS and env["PATH_INFO"].startswith(self.static_prefixes):
            raise falcon.HTTPMethodNotAllowed(_STATIC_ALLOW)

    def process_response(self, req: falcon.Request, resp: falcon.Response, resource: object,
                         req_succeeded: bool) -> None:
        context = req.context
        request_id = getattr(context, "request_id", None)
        if request_id is None:  # process_request did not run
            request_id = context.request_id = new_request_id()
        env = req.env
        for name, value in answer_headers(request_id, "HTTP_ORIGIN" in env):  # the worker's too
            resp.set_header(name, value)
        if "HTTP_ACCESS_CONTROL_REQUEST_METHOD" in env and req.method == "OPTIONS" and "HTTP_ORIGIN" in env:
            self._cors.process_response(req, resp, resource, req_succeeded)  # a preflight's own
        started = getattr(context, "started", None)
        elapsed = time.perf_counter() - started if started is not None else 0.0
        status = resp.status_code
        if self.collect_metrics:
            route = req.uri_template
            if route is None:
                route = next((p + "{file}" for p in self.static_prefixes if req.path.startswith(p)), None)
            metrics.observe(req.method, route, status, elapsed)
        if status >= 500:
            log.error("request failed", request_id=request_id, method=req.method, path=req.path,
                      status=status, ms=round(elapsed * 1000, 3))

    # -- the body limit, off the fast path ------------------------------------

    def _too_large(self, limit: int) -> ProblemError:
        reason = f"the body may be at most {limit} bytes"
        return ProblemError(413, "content-too-large", "Content too large", reason,
                            errors=[{"field": "", "reason": reason}])

    def _read_body(self, req: falcon.Request, size: int) -> None:
        """Read a body of ``size`` bytes (its Content-Length) whole, or answer why not."""
        try:
            data = req.env["wsgi.input"].read(size)
        except Exception as exc:  # the server's read error: the client's doing
            raise _unreadable(exc) from None
        if len(data) != size:
            reason = f"the body ended after {len(data)} of its Content-Length's {size} bytes"
            raise ProblemError(400, "body-unreadable", "The request body could not be read", reason,
                               errors=[{"field": "", "reason": reason}])
        req.stream = req.env["wsgi.input"] = io.BytesIO(data)

    def _check_body(self, req: falcon.Request, limit: int) -> None:
        """A Content-Length that is not plain digits, or a body without one."""
        length = req.content_length  # a bad header is falcon's 400
        if length is not None:
            if length > limit:
                raise self._too_large(limit)
            if length:
                self._read_body(req, length)
            return
        coding = req.get_header("Transfer-Encoding")
        if not coding:
            return  # no length and no transfer coding: no body
        if coding.strip().lower() != "chunked":
            # gunicorn unframes the chunks and leaves any other coding on the bytes.
            reason = f"the only transfer coding accepted is chunked, not {echo(coding)}"
            raise ProblemError(400, "body-unreadable", "The request body could not be read", reason,
                               errors=[{"field": "", "reason": reason}])
        chunks = []
        size = 0
        try:
            while size <= limit:
                chunk = req.stream.read(limit + 1 - size)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        except Exception as exc:
            raise _unreadable(exc) from None
        if size > limit:
            raise self._too_large(limit)
        data = b"".join(chunks)
        req.stream = req.env["wsgi.input"] = io.BytesIO(data)
        req.env["CONTENT_LENGTH"] = str(len(data))


READ_CODINGS = ("identity",)
"""The content codings of a request body the service reads: none but the body as it is."""


def _check_coding(header: str) -> None:
    """Every coding of a ``Content-Encoding`` (a comma-separated list, any case) is one the
    service reads, or a 415 problem names the header, what it said and what is read."""
    codings = [c.strip().lower() for c in header.split(",")]
    if all(c in READ_CODINGS or not c for c in codings):
        return
    read = ", ".join(READ_CODINGS)
    reason = (f"the body's Content-Encoding is {echo(header)}; the service reads only unencoded bodies "
              f"(Content-Encoding: {read}, or none): send the JSON as it is")
    raise ProblemError(415, "unsupported-content-encoding", "Unsupported content encoding", reason,
                       errors=[{"field": "", "reason": reason}], headers={"Accept-Encoding": read},
                       header="Content-Encoding", read_encodings=list(READ_CODINGS))


_STATIC_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_STATIC_ALLOW = ["GET", "HEAD", "OPTIONS"]


def _unreadable(exc: Exception) -> ProblemError:
    """A body the server could not read: 408 when it came too slowly (the worker's
    deadline says so by ``http_status``), else 400 naming what the server saw."""
    if getattr(exc, "http_status", None) == 408:
        reason = str(exc)
        return ProblemError(408, "request-timeout", "Request timeout", reason,
                            errors=[{"field": "", "reason": reason}])
    what = bounded_message(f"{type(exc).__name__}: {exc}") if str(exc) else type(exc).__name__
    reason = f"the body could not be read ({what}); it is cut short or badly chunked"
    return ProblemError(400, "body-unreadable", "The request body could not be read", reason,
                        errors=[{"field": "", "reason": reason}])
