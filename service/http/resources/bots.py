"""``GET /v1/bots``: the bot catalogue, each level with its measured strength and cost per decision.

Thin: :mod:`service.advice.catalogue` holds the figures, :mod:`service.boundary.bots` writes them.  The
answer is the same bytes for the life of a release, so it is made once when the app is built and
answered as the playground's files are (:mod:`.pages`): a strong ``ETag`` for each representation
(plain, and gzip made once when the app compresses answers of its size: ``gzip_min_bytes``, 0 none),
``If-None-Match`` a 304, ``Cache-Control: no-cache`` (revalidate every time, so a new release's
figures show at once).
"""

from __future__ import annotations

import hashlib
import zlib

import falcon
import orjson

from service.advice.catalogue import about, catalogue
from service.boundary.bots import bots_json

from ..compression import DEFAULT_MIN_SIZE
from .pages import StaticFile, _answer_bytes


def catalogue_file(gzip_min_bytes: int = DEFAULT_MIN_SIZE) -> StaticFile:
    """The catalogue's answer, plain and (when at least ``gzip_min_bytes``, not 0) gzipped, with its ETags."""
    data = orjson.dumps(bots_json(catalogue(), about()))
    digest = hashlib.sha256(data).hexdigest()[:32]
    gz = zlib.compress(data, 9, wbits=31) if gzip_min_bytes and len(data) >= gzip_min_bytes else None
    return StaticFile(data, falcon.MEDIA_JSON, f'"{digest}"', gz, f'"{digest}-gzip"')


class Bots:
    """``GET /v1/bots``: every bot level, what it is, its measured strength and its cost per decision."""

    def __init__(self, gzip_min_bytes: int = DEFAULT_MIN_SIZE) -> None:
        self.file = catalogue_file(gzip_min_bytes)

    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        _answer_bytes(req, resp, self.file, "no-cache")
