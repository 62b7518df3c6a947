"""HEAD on every GET route, against a real gunicorn (RFC 9110 9.3.2; uptime checkers use HEAD).

Every GET route of the app (falcon's own inspection of its routes, its path
parameters filled in with every value openapi.yaml documents, and the static
files under them) is asked with GET, and with HEAD on a raw socket: the same
status and the same headers (but ``Date`` and ``X-Request-ID``, which change
with every answer, and the metrics' length, which grows with the requests
counted), and no body at all after HEAD's head: no byte follows it on the
connection, and the next request on it is answered normally.  Each once plainly and once accepting gzip (the compressed
representation's ``Content-Length``).  openapi.yaml documents HEAD beside
each GET.
"""

from __future__ import annotations

import http.client
import socket
from urllib.parse import urlsplit

import falcon.inspect
import pytest
import yaml
from gunicorn_server import ROOT, gunicorn

from service.app import create_app
from service.http.resources.meta import swagger_ui_dir
from service.http.resources.pages import STATIC_DIR

pytestmark = pytest.mark.slow

DOC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
CHANGING = {"date", "x-request-id"}
"""Headers that differ between any two answers."""


def _enum(path: str, name: str) -> list[str]:
    (param,) = [p for p in DOC["paths"][path]["get"]["parameters"] if p["name"] == name]
    return param["schema"]["enum"]


def get_routes() -> list[str]:
    """Every GET route of the app, with each of its path parameters' documented values
    (``/docs/static`` by one of its files); fails on a route it cannot fill in."""
    app = create_app(sealer=None, collect_metrics=False)
    fill = {
        "/problems/{slug}": [f"/problems/{s}" for s in _enum("/problems/{slug}", "slug")] + ["/problems/no-such"],
        "/play/{page}": [f"/play/{p}" for p in _enum("/play/{page}", "page")] + ["/play/no-such"],
        "/play/static/{name}": sorted(f"/play/static/{f.name}" for f in STATIC_DIR.iterdir() if f.is_file()),
    }
    paths = []
    for route in falcon.inspect.inspect_routes(app):
        if not any(m.method == "GET" and not m.internal for m in route.methods):
            continue
        if "{" in route.path:
            assert route.path in fill, f"a GET route with parameters this test does not fill in: {route.path}"
            paths += fill[route.path]
        else:
            paths.append(route.path)
    for static in falcon.inspect.inspect_static_routes(app):
        assert static.prefix == "/docs/static/", static.prefix
        paths += ["/docs/static/swagger-ui.css", "/docs/static/swagger-ui-bundle.js"]
        assert (swagger_ui_dir() / "swagger-ui.css").is_file()
    return paths


ROUTES = get_routes()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with gunicorn(tmp_path_factory.mktemp("gunicorn") / "gunicorn.log") as base:
        yield urlsplit(base).port


def test_every_get_route_is_covered():
    for path in ("/healthz", "/readyz", "/version", "/openapi.yaml", "/", "/play/scorer", "/play/scorekeeper",
                 "/play/table", "/metrics", "/problems/rule-violation", "/docs", "/docs/static/swagger-ui.css"):
        assert path in ROUTES, path


def _get(port: int, path: str, headers: dict) -> tuple[int, list, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers)
        r = conn.getresponse()
        return r.status, [(k.lower(), v) for k, v in r.getheaders()], r.read()
    finally:
        conn.close()


def _read_head(sock: socket.socket) -> tuple[bytes, bytes]:
    """An answer's head, read byte-exactly from the socket, and whatever came after it."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed inside the head: {data!r}"
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def _head(port: int, path: str, headers: dict) -> tuple[int, list, bytes, bytes]:
    """HEAD on a raw socket (no client library to read ahead and drop bytes): the status,
    the headers, the bytes that followed the head (none, for an answer without a body) and
    the status line of a GET /healthz sent next on the same connection."""
    lines = [f"HEAD {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in headers.items())]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head, after = _read_head(sock)
        sock.settimeout(0.3)
        try:
            after += sock.recv(65536)  # a body sent after the head would be here
        except TimeoutError:
            pass
        sock.settimeout(10)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        next_head, _ = _read_head(sock)
    status_line, *fields = head.decode("latin-1").split("\r\n")
    pairs = [(k.strip().lower(), v.strip()) for k, _, v in (f.partition(":") for f in fields)]
    return int(status_line.split()[1]), pairs, after, next_head.split(b"\r\n")[0]


@pytest.mark.parametrize("encoding", ["identity", "gzip"])
@pytest.mark.parametrize("path", ROUTES)
def test_head_answers_as_get_without_the_body(server, path, encoding):
    headers = {"Accept-Encoding": encoding}
    get_status, get_headers, get_body = _get(server, path, headers)
    head_status, head_headers, after, next_status = _head(server, path, headers)
    assert after == b"", f"HEAD {path} sent bytes after its head: {after[:200]!r}"
    assert next_status == b"HTTP/1.1 200 OK", "the connection did not carry on after HEAD"
    assert head_status == get_status, (path, get_status, head_status)
    assert CHANGING <= {k for k, _ in head_headers} and CHANGING <= {k for k, _ in get_headers}
    same = sorted((k, v) for k, v in get_headers if k not in CHANGING)
    told = sorted((k, v) for k, v in head_headers if k not in CHANGING)
    if path == "/metrics":  # the counts grew by the GET itself
        (length,) = [v for k, v in told if k == "content-length"]
        assert int(length) > 0
        same = [(k, v) for k, v in same if k != "content-length"]
        told = [(k, v) for k, v in told if k != "content-length"]
    assert told == same, path
    if path != "/metrics":
        assert ("content-length", str(len(get_body))) in same, path


def test_head_is_documented_beside_every_get():
    for path, item in DOC["paths"].items():
        if "get" not in item:
            continue
        head = item.get("head")
        assert head is not None, f"HEAD {path} is not documented"
        assert head["operationId"] == "head" + item["get"]["operationId"].removeprefix("get"), path
        assert set(head["responses"]) == set(item["get"]["responses"]), path
        for status, response in head["responses"].items():
            response = _resolve(response)
            assert "content" not in response, f"HEAD {path} {status} documents a body"


def _resolve(node: dict) -> dict:
    while "$ref" in node:
        target = DOC
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node
