"""Whether a request has come in, judged in the worker's poller before a thread sees it.

An :class:`Arrival` is fed a connection's bytes as they come
(:meth:`Arrival.feed`) and says what the worker does next:

* :data:`MORE`: wait for more bytes (in the poller, under the request's deadline);
* :data:`CONTINUE`: the head asks ``Expect: 100-continue`` and its body may
  come: answer ``100 Continue`` from the poller, then wait for the body;
* :data:`IN`: hand the bytes to gunicorn's parser and a thread: the head and
  the whole body are in (a ``Content-Length`` body, or chunks up to the last
  one and the trailers), or what came is already enough for the parser to
  refuse (a framing it rejects, a head past its limits), so that a thread
  never waits on the client;
* :data:`REFUSE`: answer at once, from the poller, without reading on
  (:attr:`Arrival.refusal`): 413 for a body past its path's limit however it
  is framed (a Content-Length over it, chunks adding up past it, or chunk
  framing past twice the limit); 431 for a head that goes on past gunicorn's
  limits without ending (gunicorn's parser would wait for its end before
  judging it, a thread held), and the same for trailers, 400 for a chunk-size
  line; 400 at once for a TLS handshake on the plain port (it has no end of
  head: it waited for the read deadline's 408).

The limit of a body is its path's (:mod:`.limits`), so that the batch,
standings and bracket operations' large bodies are gathered whole too.  Only a
test of arrival: gunicorn's parser judges the request, and it is handed
anything unusual with the bytes it needs to refuse it (the rules below mirror
its own: its chunk-size line, its trailer section, a Transfer-Encoding only
on HTTP/1.1 and ending in ``chunked``).  Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import unquote_to_bytes, urlsplit

MORE, CONTINUE, IN, REFUSE = "more", "continue", "in", "refuse"
TLS_HANDSHAKE = b"\x16\x03"
"""The first bytes of a TLS record carrying a handshake (a ClientHello): no HTTP method."""
FRAMING_SLACK = 64 * 1024
"""Chunk framing allowed past the limit: chunked bytes may total twice the body's limit and this."""
_HEX = frozenset(b"0123456789abcdefABCDEF")


class Arrival:
    """One request's bytes so far, and what they say (module docstring)."""

    __slots__ = ("data", "limits", "default", "head_max", "line_max", "head_end", "path", "limit",
                 "need", "chunked", "pos", "chunk_end", "body", "trailers", "refusal", "_continue")

    def __init__(self, limits: Mapping[str, int], default: int, head_max: int, line_max: int) -> None:
        self.data = bytearray()
        self.limits, self.default = limits, default
        self.head_max, self.line_max = head_max, line_max
        self.head_end = -1  # where the head's blank line starts, once found
        self.path = ""
        self.limit = default
        self.need = -1  # the bytes of the head and a Content-Length body, once known
        self.chunked = False
        self.pos = 0  # chunked: the next chunk-size line (or the trailers)
        self.chunk_end = -1  # chunked: inside a chunk, where its data ends
        self.body = 0  # chunked: the body's bytes so far
        self.trailers = False
        self.refusal: tuple[int, str, str, str] | None = None
        self._continue = False

    def feed(self, data: bytes) -> str:
        """Add ``data``; what to do now (:data:`MORE`, :data:`CONTINUE`, :data:`IN` or :data:`REFUSE`)."""
        before = len(self.data)
        self.data += data
        if before < 2 <= len(self.data) and self.data[:2] == TLS_HANDSHAKE:
            self.refusal = (400, "bad-request", "Bad request",
                            "a TLS handshake on a plain HTTP port: this server speaks http://, not https://")
            return REFUSE
        if self.head_end < 0:
            verdict = self._head(max(0, before - 3))
            if verdict is not None:
                return verdict
        if self.need >= 0:
            verdict = IN if len(self.data) >= self.need else MORE
        elif self.chunked:
            verdict = self._chunks()
        else:
            return IN
        if verdict is MORE and self._continue:
            self._continue = False
            return CONTINUE
        return verdict

    # -- the head ------------------------------------------------------------------

    def _head(self, start: int) -> str | None:
        data = self.data
        end = data.find(b"\r\n\r\n", start)
        if end < 0:
            if data.find(b"\n\n", max(0, start - 1)) >= 0:
                return IN  # bare LFs: the parser refuses them
            return self._too_long("head") if len(data) > self.head_max else MORE
        self.head_end = end
        lines = bytes(data[:end]).split(b"\r\n")
        parts = lines[0].split(b" ")
        if len(parts) != 3:
            return IN
        self.path = _path(parts[1])
        self.limit = self.limits.get(self.path, self.default)
        http11 = parts[2] == b"HTTP/1.1"
        lengths, codings, expects = [], [], []
        for line in lines[1:]:
            name, sep, value = line.partition(b":")
            name = name.lower()
            if name == b"content-length":
                lengths.append(value.strip())
            elif name == b"transfer-encoding":
                codings.append(value.strip().lower())
            elif name == b"expect":
                expects.append(value.strip().lower())
        if expects and http11:
            if expects != [b"100-continue"]:
                return IN  # the parser's 417
            self._continue = True
        if codings:
            if lengths or not http11 or not b",".join(codings).endswith(b"chunked"):
                return IN  # the parser's 400
            self.chunked = True
            self.pos = end + 4
            return None
        if not lengths:
            return IN  # no body
        if len(lengths) != 1 or not lengths[0].isdigit():
            return IN  # the parser's 400
        size = int(lengths[0])
        if size > self.limit:
            return self._too_large()
        self.need = end + 4 + size
        return None

    # -- chunks --------------------------------------------------------------------

    def _chunks(self) -> str:
        data = self.data
        if len(data) - self.head_end > 2 * self.limit + FRAMING_SLACK:
            return self._too_large(framing=True)
        while True:
            if self.chunk_end >= 0:  # a chunk's data, then its CRLF
                if len(data) < self.chunk_end + 2:
                    return MORE
                if data[self.chunk_end:self.chunk_end + 2] != b"\r\n":
                    return IN  # the parser's 400
                self.pos, self.chunk_end = self.chunk_end + 2, -1
            if self.trailers:
                if data[self.pos:self.pos + 2] == b"\r\n" or data.find(b"\r\n\r\n", self.pos) >= 0:
                    return IN
                return self._too_long("trailers") if len(data) - self.pos > self.head_max else MORE
            eol = data.find(b"\r\n", self.pos)
            if eol < 0:
                return self._too_long("chunk-size line") if len(data) - self.pos > self.line_max else MORE
            size, sep, _ = bytes(data[self.pos:eol]).partition(b";")
            if sep:
                size = size.rstrip(b" \t")
            if not size or not _HEX.issuperset(size):
                return IN  # the parser's 400
            n = int(size, 16)
            if n == 0:
                self.trailers, self.pos = True, eol + 2
                continue
            self.body += n
            if self.body > self.limit:
                return self._too_large()
            self.chunk_end = eol + 2 + n

    def _too_large(self, framing: bool = False) -> str:
        reason = (f"the body's chunks, framing included, may be at most {2 * self.limit + FRAMING_SLACK} bytes"
                  if framing else f"the body may be at most {self.limit} bytes")
        self.refusal = (413, "content-too-large", "Content too large", reason)
        return REFUSE

    def _too_long(self, what: str) -> str:
        most = self.line_max if what == "chunk-size line" else self.head_max
        reason = f"the request's {what} did not end within {most} bytes"
        self.refusal = ((400, "bad-request", "Bad request", reason) if what == "chunk-size line"
                        else (431, "header-fields-too-large", "Request header fields too large", reason))
        return REFUSE


def request_path(data: bytes | bytearray) -> str:
    """The path of the request line that ``data`` begins with; "" while it has not all come, or
    when it is not one."""
    eol = data.find(b"\r\n")
    parts = bytes(data[:eol]).split(b" ") if eol >= 0 else ()
    return _path(parts[1]) if len(parts) == 3 else ""


def _path(target: bytes) -> str:
    """The path of a request target (origin or absolute form), percent-decoded as the app sees
    it; "" for any other (``*``, an authority)."""
    if not target.startswith(b"/"):
        if not target.lower().startswith((b"http://", b"https://")):
            return ""
        try:
            target = urlsplit(target).path or b"/"
        except ValueError:
            return ""
    return unquote_to_bytes(target.split(b"?", 1)[0]).decode("latin-1")
