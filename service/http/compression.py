"""gzip for answers large enough to gain from it (``Content-Encoding: gzip``).

:class:`Compression` is a falcon middleware with a ``process_response`` only.
It compresses a response body when

* the client accepts gzip (``Accept-Encoding``, RFC 9110 12.5.3: ``gzip`` or
  ``*`` with a q-value above 0; ``x-gzip`` too);
* the body is at least ``min_size`` bytes (1024 by default): the hot path,
  a hand's score (~500-900 bytes) or a health check, is left as it is --
  below about a kilobyte gzip saves a few hundred bytes on loopback or a
  LAN and costs more CPU than the endpoint itself;
* its type is text-like: JSON, problem+json, YAML, HTML, plain text
  (``/metrics``); nothing already encoded or streamed (the Swagger UI
  files under ``/docs/static`` are streams: sent as they are).

Every response of a compressible type says ``Vary: Accept-Encoding``,
compressed or not, so that a cache keeps the two representations apart.

Why not a library: ``falcon-compression`` (PyPI, last release 2022) needs
Brotli installed, compresses every content type, ignores ``q=0`` with
spaces and says ``Vary`` only when it compressed; the WSGI gzip middlewares
on PyPI are older still.  This is zlib (``wbits=31``: a gzip member, as
``gzip.compress`` writes it, mtime 0) at level 1, nginx's default
``gzip_comp_level``: on a 2.3 KB game answer level 6 took 29 us for 593
bytes, level 1 20 us for 633 (bench/compression.py measures sizes and
costs through the app).
"""

from __future__ import annotations

import zlib
from functools import lru_cache

import falcon

DEFAULT_MIN_SIZE = 1024
DEFAULT_LEVEL = 1
_COMPRESSIBLE = ("application/json", "application/problem+json", "application/yaml", "text/")


@lru_cache(maxsize=256)
def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` value accepts gzip.

    >>> [accepts_gzip(h) for h in ("gzip, deflate, br", "br", "gzip;q=0", "*", "*;q=0, gzip;q=0.5",
    ...                             "identity", "GZIP ; q=0.001", "gzip;q=0, *")]
    [True, False, False, True, True, False, True, False]
    """
    star = None
    for item in header.split(","):
        coding, _, params = item.partition(";")
        coding = coding.strip().lower()
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = 0.0
        if coding in ("gzip", "x-gzip"):
            return q > 0
        if coding == "*":
            star = q > 0
    return bool(star)


def compressible(content_type: str | None) -> bool:
    """A text-like media type (JSON, problem+json, YAML, HTML, plain text)."""
    return content_type is not None and content_type.startswith(_COMPRESSIBLE)


class Compression:
    """Falcon middleware: gzip a response body of a compressible type over ``min_size`` bytes."""

    def __init__(self, min_size: int = DEFAULT_MIN_SIZE, level: int = DEFAULT_LEVEL) -> None:
        self.min_size = min_size
        self.level = level

    def process_response(self, req: falcon.Request, resp: falcon.Response, resource: object,
                         req_succeeded: bool) -> None:
        if resp.stream is not None:
            return
        body = resp.render_body()  # sets the default type of a media body
        if body is None or not compressible(resp.content_type):
            return
        if "accept-encoding" not in (resp.get_header("Vary") or "").lower():  # said once
            resp.append_header("Vary", "Accept-Encoding")
        if len(body) < self.min_size:
            return
        header = req.env.get("HTTP_ACCEPT_ENCODING")
        if not header or not accepts_gzip(header) or resp.get_header("Content-Encoding"):
            return
        resp.text = None
        resp.data = zlib.compress(body, self.level, wbits=31)
        resp.set_header("Content-Encoding", "gzip")
