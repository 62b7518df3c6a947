"""``GET /v1/bots``: the bot catalogue, each level with its measured strength and cost per decision.

Thin: :mod:`service.advice.catalogue` holds the figures, :mod:`service.boundary.bots` writes them.  The
answer is the same bytes for the life of a release, so it is made once when the app is built and
answered as the playground's files are (:mod:`.pages`): a strong ``ETag`` for each representation
(plain, and gzip made once when the app compresses answers of its size: ``gzip_min_bytes``, 0 none),
``If-None-Match`` a 304, ``Cache-Control: no-cache`` (revalidate every time, so a new release's
figures show at once).
"""

from __future__ import annotations

import falcon
import orjson

from service.advice.catalogue import about, catalogue
from service.boundary.bots import bots_json

from ..compression import DEFAULT_MIN_SIZE
from .pages import StaticFile, answer_file


def catalogue_file(gzip_min_bytes: int = DEFAULT_MIN_SIZE) -> StaticFile:
    """The catalogue's answer, plain and (when at least ``gzip_min_bytes``, not 0) gzipped, with its ETags."""
    return StaticFile.of(orjson.dumps(bots_json(catalogue(), about())), falcon.MEDIA_JSON, gzip_min_bytes)


class Bots:
    """``GET /v1/bots``: every bot level, what it is, its measured strength and its cost per decision."""

    def __init__(self, gzip_min_bytes: int = DEFAULT_MIN_SIZE) -> None:
        self.file = catalogue_file(gzip_min_bytes)

    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        answer_file(req, resp, self.file, "no-cache")
