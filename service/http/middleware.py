"""Middleware: request id, request body size limit, metrics and error logging.

Order matters: :class:`RequestContext` comes first so that the request id is
set before anything else can raise, and is sent on every response, errors
included.
"""

from __future__ import annotations

import io
import re
import time
import uuid

import falcon
import structlog

from . import metrics
from .problems import ProblemError

REQUEST_ID_HEADER = "X-Request-ID"
_SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@+=/-]{0,127}")

log = structlog.get_logger("service.http")


class RequestContext:
    """Request id (echoed when sane, else a new one), timing, metrics, logs."""

    def __init__(
        self, *, collect_metrics: bool = True, static_prefixes: tuple[str, ...] = ("/docs/static",)
    ) -> None:
        self.collect_metrics = collect_metrics
        # Static routes have no uri_template; label them by prefix, not by file.
        self.static_prefixes = tuple(p.rstrip("/") + "/" for p in static_prefixes)

    def process_request(self, req: falcon.Request, resp: falcon.Response) -> None:
        req.context.started = time.perf_counter()
        given = req.get_header(REQUEST_ID_HEADER)
        if given is not None and _SANE_REQUEST_ID.fullmatch(given):
            request_id = given
        else:
            request_id = uuid.uuid4().hex
        req.context.request_id = request_id
        resp.set_header(REQUEST_ID_HEADER, request_id)

    def process_response(
        self, req: falcon.Request, resp: falcon.Response, resource: object, req_succeeded: bool
    ) -> None:
        request_id = getattr(req.context, "request_id", None)
        if request_id is None:  # process_request did not run
            request_id = req.context.request_id = uuid.uuid4().hex
        resp.set_header(REQUEST_ID_HEADER, request_id)
        started = getattr(req.context, "started", None)
        elapsed = time.perf_counter() - started if started is not None else 0.0
        status = resp.status_code
        if self.collect_metrics:
            route = req.uri_template
            if route is None:
                route = next((p + "{file}" for p in self.static_prefixes if req.path.startswith(p)), None)
            metrics.observe(req.method, route, status, elapsed)
        if status >= 500:
            log.error(
                "request failed",
                request_id=request_id,
                method=req.method,
                path=req.path,
                status=status,
                ms=round(elapsed * 1000, 3),
            )


class BodyLimit:
    """413 for a body over ``limit`` bytes, with or without Content-Length.

    With ``Content-Length`` the header is checked before anything is read.  A
    body sent without a length (``Transfer-Encoding: chunked``) is read here,
    at most ``limit + 1`` bytes, and handed on as if it had had a length (falcon
    would otherwise read such a body as empty).
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def _too_large(self) -> ProblemError:
        reason = f"the body may be at most {self.limit} bytes"
        return ProblemError(
            413,
            "content-too-large",
            "Content too large",
            reason,
            errors=[{"field": "", "reason": reason}],
        )

    def process_request(self, req: falcon.Request, resp: falcon.Response) -> None:
        length = req.content_length  # a bad header is falcon's 400
        if length is not None:
            if length > self.limit:
                raise self._too_large()
            return
        if not req.get_header("Transfer-Encoding"):
            return  # no length and no transfer coding: no body
        chunks = []
        size = 0
        while size <= self.limit:
            chunk = req.stream.read(self.limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > self.limit:
            raise self._too_large()
        data = b"".join(chunks)
        req.stream = req.env["wsgi.input"] = io.BytesIO(data)
        req.env["CONTENT_LENGTH"] = str(len(data))
