"""What the gunicorn worker (:mod:`.worker`) reads and writes on the wire itself.

* :class:`DeadlineSocket`: a client socket whose reads have a deadline per
  request, raising :class:`HeadTooSlow` (answered 408 by the worker) or
  :class:`BodyTooSlow` (answered 408 by the app's middleware);
* the answers the worker writes before any app sees the request, RFC 9457
  problems (:func:`problem_answer`, with :mod:`.answers`' document and
  headers, the app's: the caller's request id, CORS for an Origin, read from
  the request's bytes by :func:`request_facts`): :func:`problem_for`
  gunicorn's parse errors, the 503 of a shed request (:func:`overloaded_answer`);
* :func:`one_whole_request`: whether a shed connection can be kept.

Imports nothing of the app's but :mod:`.answers` and :mod:`.gather` (the standard
library and gunicorn), so that any app served under gunicorn.conf.py (bench's peers)
can use the worker.
"""

from __future__ import annotations

import json
import re
import socket
import struct
import time
from typing import NamedTuple

from gunicorn.http import errors as gerrors

from .answers import PROBLEM_BASE as PROBLEM_BASE  # as the app's: they are the app's
from .answers import PROBLEM_JSON as PROBLEM_JSON
from .answers import answer_headers, problem_document, request_id_of
from .answers import bounded_message as bounded_message  # the worker's, for gunicorn's sentences
from .answers import new_request_id as new_request_id  # bench/inprocess.py times it from here
from .gather import request_path

READ_TIMEOUT = 5.0
"""Default seconds for a request to arrive (gunicorn.conf.py: GUNICORN_READ_TIMEOUT)."""
RETRY_AFTER = 1


class HeadTooSlow(gerrors.ParseException):
    """The request's head did not arrive by its deadline (gunicorn answers it through handle_error)."""

    def __init__(self, seconds: float = READ_TIMEOUT) -> None:
        super().__init__(seconds)
        self.seconds = seconds

    def __str__(self) -> str:
        return f"the request did not arrive within {self.seconds:g} s"


class BodyTooSlow(TimeoutError):
    """The request's body did not arrive by its deadline; the app answers it (``http_status``).

    A :class:`TimeoutError`, so that gunicorn's drain of an unread body
    (``finish_body``) takes it as the timeout it is and closes the connection."""

    http_status = 408

    def __init__(self, seconds: float = READ_TIMEOUT) -> None:
        super().__init__(seconds)
        self.seconds = seconds

    def __str__(self) -> str:
        return f"the request body did not arrive within {self.seconds:g} s"


class DeadlineSocket(socket.socket):
    """A client socket whose reads have a deadline per request (see the module docstring).

    gthread makes a socket blocking (``setblocking(True)``) whenever a thread
    takes the connection up for a request: that is when the deadline starts.
    Reads past it raise :class:`HeadTooSlow` while the head is read, then
    :class:`BodyTooSlow` (:meth:`Worker.handle_request` marks the change).
    A read or write that waits :attr:`timeout_s` fails in the kernel
    (``SO_RCVTIMEO``/``SO_SNDTIMEO``, set once by :meth:`arm`): a socket
    timeout in Python would poll before every read and write (measured
    6 us a request more than plain blocking reads; this, about 1 us)."""

    timeout_s = READ_TIMEOUT
    request_bytes = b""  # the request being read, for the problems answered on it (request_facts)
    _deadline = 0.0
    _blocking = False
    in_head = True

    def arm(self, seconds: float) -> None:
        self.timeout_s = seconds
        tv = struct.pack("ll", int(seconds), int((seconds % 1) * 1e6))
        self.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, tv)
        self.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, tv)

    def setblocking(self, flag: bool) -> None:
        super().setblocking(flag)
        self._blocking = flag
        if flag:
            self._deadline = time.monotonic() + self.timeout_s
            self.in_head = True

    def settimeout(self, value: float | None) -> None:
        super().settimeout(value)
        self._blocking = value is None

    def _slow(self) -> Exception:
        return HeadTooSlow(self.timeout_s) if self.in_head else BodyTooSlow(self.timeout_s)

    def recv(self, size: int, flags: int = 0) -> bytes:
        if not self._blocking:
            return super().recv(size, flags)  # non-blocking, or a timeout set by someone else
        if time.monotonic() > self._deadline:
            raise self._slow()
        try:
            return super().recv(size, flags)
        except BlockingIOError:  # SO_RCVTIMEO ran out
            raise self._slow() from None


def one_whole_request(data: bytes) -> bool:
    """Whether ``data`` is exactly one HTTP/1.1 request, head and Content-Length body, and
    nothing after it (so that the connection can serve the next one).  Cautious: anything
    unusual (chunked, Connection: close, two lengths, HTTP/1.0) is False."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return False
    lines = data[:end].split(b"\r\n")
    if not lines[0].endswith(b" HTTP/1.1"):
        return False
    length = None
    for line in lines[1:]:
        name, sep, value = line.partition(b":")
        name, value = name.strip().lower(), value.strip()
        if not sep or name == b"transfer-encoding" or (name == b"connection" and b"close" in value.lower()):
            return False
        if name == b"content-length":
            if length is not None or not value.isdigit():
                return False
            length = int(value)
    return len(data) == end + 4 + (length or 0)


class RequestFacts(NamedTuple):
    """What an answer written before the app needs of the request, read from its raw bytes."""

    path: str  # "" when no request line could be read
    rid: str | None  # the X-Request-ID it sent (several joined by ","), None for none
    origin: bool  # CORS headers are due: it sent an Origin, or its head never ended (unknown)


NO_FACTS = RequestFacts("", None, True)
_FACT_HEADERS = re.compile(rb"\r\n(x-request-id|origin)[ \t]*:[ \t]*([^\r\n]*)", re.IGNORECASE)


def request_facts(data: bytes | bytearray) -> RequestFacts:
    """The path, request id and whether an Origin came, from the bytes of a request so far: the
    worker's answers carry the same request id and CORS headers as the app's would."""
    end = data.find(b"\r\n\r\n")
    head = bytes(data[:end + 2] if end >= 0 else data)
    ids, origin = [], end < 0
    for m in _FACT_HEADERS.finditer(head):
        if m.group(1).lower() == b"origin":
            origin = True
        else:
            ids.append(m.group(2).rstrip(b" \t").decode("latin-1"))
    return RequestFacts(request_path(data), ",".join(ids) if ids else None, origin)


def problem_answer(status: int, slug: str, title: str, detail: str, *, facts: RequestFacts = NO_FACTS,
                   headers: tuple[tuple[str, str], ...] = (), keep_alive: bool = False,
                   rid: str | None = None) -> bytes:
    """A whole HTTP/1.1 answer carrying an RFC 9457 problem, with the headers of every answer
    (:func:`.answers.answer_headers`); the connection closes after it unless ``keep_alive``.
    Its ``instance`` is the request's path, or where none could be read (a request line
    gunicorn refused, a TLS handshake) ``#`` and the request id."""
    rid = rid or request_id_of(facts.rid)
    document = problem_document(status, slug, title, detail, instance=facts.path or "#" + rid, rid=rid,
                                errors=[{"field": "", "reason": detail}])
    body = json.dumps(document, separators=(",", ":")).encode()
    head = [f"HTTP/1.1 {status} {title}", f"Connection: {'keep-alive' if keep_alive else 'close'}",
            f"Content-Type: {PROBLEM_JSON}", f"Content-Length: {len(body)}"]
    head += [f"{k}: {v}" for k, v in (*answer_headers(rid, facts.origin), *headers)]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


_RID, _PATH = "r" * 32, "/\u2603instance"  # markers: no answer holds them


def _shed_template(keep_alive: bool, origin: bool) -> tuple[bytes, bytes]:
    """The 503 answer's head and body, ``%(r)b`` where the request id goes, ``%(i)b`` the
    instance (JSON-escaped), ``%(n)d`` the body's length: shed answers are the hot path of
    an overload, and formatting beats building a document."""
    raw = problem_answer(503, "overloaded", "Service unavailable",
                         "the server is answering as many requests as it can; retry shortly",
                         headers=(("Retry-After", str(RETRY_AFTER)),), keep_alive=keep_alive,
                         facts=RequestFacts(_PATH, None, origin), rid=_RID)
    head, body = raw.replace(b"%", b"%%").split(b"\r\n\r\n", 1)
    head = head.replace(b"Content-Length: %d" % len(body), b"Content-Length: %(n)d")
    instance = json.dumps(_PATH)[1:-1].encode()
    return (head.replace(_RID.encode(), b"%(r)b") + b"\r\n\r\n",
            body.replace(_RID.encode(), b"%(r)b").replace(instance, b"%(i)b"))


_SHED = {(keep, origin): _shed_template(keep, origin) for keep in (True, False) for origin in (True, False)}
_JSON_PLAIN = re.compile(r'[ !#-\[\]-~]*')
"""Printable ASCII but ``"`` and ``\\``: written in a JSON string as it is."""


def overloaded_answer(keep_alive: bool, facts: RequestFacts) -> bytes:
    """The 503 ``overloaded`` answer of a shed request, with ``Retry-After``, the caller's
    request id (a new one if it sent none that is sane) and, for an Origin, CORS's headers."""
    rid = request_id_of(facts.rid).encode()  # sane: nothing in it to escape, in a header or JSON
    head, body = _SHED[keep_alive, facts.origin]
    path = facts.path
    if not path:
        instance = b"#" + rid
    elif _JSON_PLAIN.fullmatch(path):
        instance = path.encode()
    else:
        instance = json.dumps(path)[1:-1].encode()
    body = body % {b"r": rid, b"i": instance}
    return head % {b"n": len(body), b"r": rid} + body


# gunicorn's parse errors: (status, slug, title).  Everything a client sends is a 4xx.
_PARSE_ERRORS: tuple[tuple[type[BaseException], int, str, str], ...] = (
    (HeadTooSlow, 408, "request-timeout", "Request timeout"),
    (gerrors.LimitRequestLine, 414, "uri-too-long", "URI too long"),
    (gerrors.LimitRequestHeaders, 431, "header-fields-too-large", "Request header fields too large"),
    (gerrors.ExpectationFailed, 417, "expectation-failed", "Expectation failed"),
    (gerrors.ParseException, 400, "bad-request", "Bad request"),
)


def problem_for(exc: BaseException) -> tuple[int, str, str] | None:
    """(status, slug, title) for one of gunicorn's request parse errors; None for anything else
    (a bad header the *app* tried to send is a parse error class too, but the server's fault)."""
    if isinstance(exc, (gerrors.InvalidResponseHeader, gerrors.InvalidResponseHeaderName)):
        return None
    for cls, status, slug, title in _PARSE_ERRORS:
        if isinstance(exc, cls):
            return status, slug, title
    return None
