"""The playground: a scorer, a scorekeeper and a table, as static pages on the service's own API.

The files are in the package (``service/web/static/``), read once when the
app is built and answered from memory: no build step, no CDN, nothing from
outside, so the pages work without internet access.  Every answer carries a
strong ``ETag`` (a hash of the bytes; ``If-None-Match`` gets a 304), a
``Cache-Control`` (pages: revalidate every time, so a new release shows at
once; scripts and styles: an hour, then revalidate) and a strict
Content-Security-Policy: only this origin's scripts, styles and API, no
inline script or style, no frames, no plug-ins.

Routes: ``GET /`` (the index), ``GET /play/{page}`` for each page, and
``GET /play/static/{name}`` for the scripts and the style sheet.  Names are
looked up in a dict of the files read at start, so no path from a request
ever reaches the file system.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass
from pathlib import Path

import falcon

from ..compression import DEFAULT_MIN_SIZE, accepts_gzip

STATIC_DIR = Path(__file__).resolve().parents[2] / "web" / "static"

PAGES = {"scorer": "scorer.html", "scorekeeper": "scorekeeper.html", "table": "table.html"}
"""``/play/<key>`` -> the HTML file answering it (``/`` answers ``index.html``)."""

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}

PAGE_CACHE = "no-cache"  # revalidate each time (a 304 when unchanged)
ASSET_CACHE = "public, max-age=3600"


@dataclass(frozen=True)
class StaticFile:
    """A file's bytes and, when large enough to gain from it, its gzip form (made once at
    level 9, so the app's per-answer compression leaves it alone); each form has its own
    strong ETag, as RFC 9110 8.8.3 asks of two representations."""

    data: bytes
    content_type: str
    etag: str  # quoted, strong
    gzipped: bytes | None
    gzip_etag: str

    @classmethod
    def of(cls, data: bytes, content_type: str, gzip_min_bytes: int = DEFAULT_MIN_SIZE) -> "StaticFile":
        """``data`` as an answer, gzipped too when at least ``gzip_min_bytes`` (0: never)."""
        digest = hashlib.sha256(data).hexdigest()[:32]
        gz = zlib.compress(data, 9, wbits=31) if gzip_min_bytes and len(data) >= gzip_min_bytes else None
        return cls(data, content_type, f'"{digest}"', gz, f'"{digest}-gzip"')

    @classmethod
    def read(cls, path: Path) -> "StaticFile":
        return cls.of(path.read_bytes(), _TYPES[path.suffix])


def load_static(folder: Path = STATIC_DIR) -> dict[str, StaticFile]:
    """Every servable file of ``folder`` (flat) by name."""
    files = {p.name: StaticFile.read(p) for p in sorted(folder.iterdir())
             if p.is_file() and p.suffix in _TYPES}
    missing = {"index.html", *PAGES.values()} - set(files)
    if missing:
        raise RuntimeError(f"the playground's files are missing from {folder}: {sorted(missing)}")
    return files


def _answer(req: falcon.Request, resp: falcon.Response, file: StaticFile, cache: str) -> None:
    resp.set_header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    resp.set_header("X-Content-Type-Options", "nosniff")
    resp.set_header("Referrer-Policy", "no-referrer")
    answer_file(req, resp, file, cache)


def answer_file(req: falcon.Request, resp: falcon.Response, file: StaticFile, cache: str) -> None:
    """``file`` as the answer, gzipped when the client accepts it, with its ETag and ``cache``;
    a 304 when ``If-None-Match`` names that ETag (or is ``*``).  Also the bot catalogue's answer."""
    gzip = file.gzipped is not None and accepts_gzip(req.get_header("Accept-Encoding") or "")
    etag = file.gzip_etag if gzip else file.etag
    resp.set_header("ETag", etag)
    resp.cache_control = [cache]
    resp.set_header("Vary", "Accept-Encoding")
    given = req.get_header("If-None-Match")
    if given and (given.strip() == "*" or etag in [t.strip().removeprefix("W/") for t in given.split(",")]):
        resp.status = falcon.HTTP_304
        return
    resp.content_type = file.content_type
    if gzip:
        resp.set_header("Content-Encoding", "gzip")
        resp.data = file.gzipped
    else:
        resp.data = file.data


class Page:
    """``GET /`` and ``GET /play/{page}``: one of the playground's HTML pages."""

    def __init__(self, files: dict[str, StaticFile]) -> None:
        self.files = files

    def on_get(self, req: falcon.Request, resp: falcon.Response, page: str | None = None) -> None:
        name = "index.html" if page is None else PAGES.get(page)
        if name is None:
            raise falcon.HTTPNotFound()
        _answer(req, resp, self.files[name], PAGE_CACHE)


class Asset:
    """``GET /play/static/{name}``: a script, the style sheet or an image of the pages."""

    def __init__(self, files: dict[str, StaticFile]) -> None:
        self.files = {k: v for k, v in files.items() if not k.endswith(".html")}

    def on_get(self, req: falcon.Request, resp: falcon.Response, name: str) -> None:
        file = self.files.get(name)
        if file is None:
            raise falcon.HTTPNotFound()
        _answer(req, resp, file, ASSET_CACHE)
