"""What every answer carries, the application's and the worker's alike: one writer of both.

The app (:mod:`.problems`, :class:`.middleware.Edge`) and the gunicorn worker
(:mod:`.wire`, for the answers it writes before any app sees the request: 408,
413, 414, 431, 503, its 400s) build their problem documents and their common
headers here, so that a browser reads every answer the same way:

* :func:`problem_document`: the RFC 9457 body (``type``, ``title``,
  ``status``, ``detail``, ``instance``, ``request_id``, ``errors``, then any
  extension members);
* :func:`bounded_message`: a server's own sentence about a request, what it
  quotes of it bounded as every echo of client input is;
* :func:`answer_headers`: ``X-Request-ID`` (the caller's when sane,
  :func:`request_id_of`) and, for a request with an ``Origin``, the CORS headers
  (:data:`CORS_HEADERS`: any origin, ``X-Request-ID`` exposed).  Without
  them a browser hides the answer, the 413 of a large upload included, from
  the page that sent it.

Standard library only: the worker serves bench's peers too, which have no falcon app.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from random import getrandbits
from typing import Any

PROBLEM_JSON = "application/problem+json"
PROBLEM_BASE = "https://cribbage.example/problems/"
REQUEST_ID_HEADER = "X-Request-ID"
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@+=/-]{0,127}")
"""A request id the service takes from its caller: 1-128 characters, none that needs escaping
in a header, a log line or JSON."""
CORS_HEADERS: tuple[tuple[str, str], ...] = (
    ("Access-Control-Allow-Origin", "*"),
    ("Access-Control-Expose-Headers", REQUEST_ID_HEADER),
)
"""What every answer to a request with an ``Origin`` carries (a preflight adds its own)."""
ECHO_LIMIT = 200
"""The most characters of a ``detail``, a ``field`` or a ``reason`` a problem carries: they may quote what
the client sent (a 40,000-character card was echoed whole, twice), so a longer one is cut to this prefix
with its length said."""


def bounded(text: str) -> str:
    """``text``, or its first :data:`ECHO_LIMIT` characters and how long it was."""
    if len(text) <= ECHO_LIMIT:
        return text
    return f"{text[:ECHO_LIMIT]}... (cut: {len(text)} characters)"


def new_request_id() -> str:
    """32 random hex digits, like ``uuid4().hex`` at a fifth of its cost: an id
    to find a request by, not a secret (``random`` reseeds in every forked worker)."""
    return "%032x" % getrandbits(128)


def request_id_of(given: str | None) -> str:
    """The caller's ``X-Request-ID`` when it is sane (:data:`SANE_REQUEST_ID`), else a new one."""
    if given is not None and SANE_REQUEST_ID.fullmatch(given):
        return given
    return new_request_id()


def answer_headers(rid: str, origin: bool) -> list[tuple[str, str]]:
    """The headers every answer carries: its request id, and CORS's when the request had an Origin."""
    headers = [(REQUEST_ID_HEADER, rid)]
    if origin:
        headers += CORS_HEADERS
    return headers


def problem_document(status: int, slug: str, title: str, detail: str | None, *, instance: str,
                     rid: str | None, errors: Iterable[Mapping[str, str]] = (),
                     extensions: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The RFC 9457 problem; ``detail`` defaults to the title, ``slug`` ``about:blank`` stays as it is."""
    body: dict[str, Any] = {
        "type": slug if slug == "about:blank" else PROBLEM_BASE + slug,
        "title": title,
        "status": status,
        "detail": bounded(detail or title),
        "instance": instance,
    }
    if rid:
        body["request_id"] = rid
    body["errors"] = [{k: bounded(v) if k in ("field", "reason") and isinstance(v, str) else v
                       for k, v in e.items()} for e in errors]
    if extensions:
        body.update(extensions)
    return body


def bounded_message(message: str) -> str:
    """A server's sentence about a request it could not read (gunicorn's ``"Invalid HTTP
    Header: '<what came>'"``), what it quotes cut as :func:`bounded` cuts it.

    >>> bounded_message("Invalid chunk size: " + repr("f" * 300)) == (
    ...     "Invalid chunk size: " + repr("f" * 300)[:ECHO_LIMIT] + "... (cut: 302 characters)")
    True
    """
    words, sep, quoted = message.partition(": ")
    if not sep:
        words, quoted = "", message
    return f"{words}{sep}{bounded(quoted)}"
