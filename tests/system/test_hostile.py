"""A catalogue of hostile requests, raw bytes on a socket to a real gunicorn.

Every kind is a named case (its pytest id).  Each one must be answered
quickly (the socket gives up after :data:`PATIENCE` seconds: a hang fails)
with a 4xx ``application/problem+json`` whose ``status`` is the answer's;
never a 5xx.  After the catalogue, the same worker processes answer normal
requests (their pids are compared).

Kinds come in three families:

* generic kinds over *every* operation in openapi.yaml (new operations are
  covered when they appear): bodies sent every way HTTP allows (length,
  chunked, both, neither, lying, cut short, too large), bodies that are not
  JSON, not objects, nested past any parser's patience, and every integer of
  every documented request example replaced by an integer out of any range,
  a fraction, an integral float, a boolean or a string;
* the request line and headers (gunicorn's own errors, which its worker
  answers as problem+json: :mod:`service.http.worker`);
* game states built to exhaust recursion, memory or integer ranges.

One server for the module (``GUNICORN_READ_TIMEOUT=2`` so that the slow
kinds take two seconds, not five).
"""

from __future__ import annotations

import copy
import json
import re
import socket
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from gunicorn_server import ROOT, gunicorn, worker_pids

from service.app import DEFAULT_MAX_BODY_BYTES, body_limits
from service.http import problems, wire

if str(ROOT) not in sys.path:  # bench/ is beside tests/
    sys.path.insert(0, str(ROOT))
from bench import worst  # noqa: E402

pytestmark = pytest.mark.slow

PATIENCE = 10.0
"""Seconds to wait for an answer before calling it a hang."""
READ_TIMEOUT = 2
OPENAPI = yaml.safe_load((ROOT / "openapi.yaml").read_text())
METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


def _operations() -> list[tuple[str, str, dict]]:
    return [(path, method.upper(), op) for path, item in OPENAPI["paths"].items()
            for method, op in item.items() if method in METHODS]


OPERATIONS = _operations()
POSTS = [(path, op) for path, method, op in OPERATIONS if method == "POST" and "requestBody" in op]
GETS = [path for path, method, op in OPERATIONS if method == "GET"]


def _examples(op: dict) -> list[tuple[str, Any]]:
    content = op["requestBody"]["content"]
    media = content.get("application/json") or next(iter(content.values()))
    return [(name, ex["value"]) for name, ex in (media.get("examples") or {}).items() if "value" in ex]


# ---------------------------------------------------------------- the wire


class Answer:
    def __init__(self, raw: bytes, elapsed: float) -> None:
        self.raw, self.elapsed = raw, elapsed
        head, _, self.body = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        self.status_line = lines[0]
        parts = lines[0].split(" ", 2)
        self.status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
        self.headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()

    def json(self) -> Any:
        return json.loads(self.body)

    def __repr__(self) -> str:
        return f"<Answer {self.status_line!r} after {self.elapsed:.2f}s: {self.raw[:600]!r}>"


def _complete(buf: bytes) -> bool:
    head, sep, body = buf.partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value)
    return False


def exchange(port: int, raw: bytes | list[bytes], *, half_close: bool = False, pause: float = 0.0) -> Answer:
    """Send ``raw`` (or its pieces, ``pause`` s apart), optionally half-close, and read one answer.

    Reading stops at the answer's end (Content-Length), when the server
    closes, or after :data:`PATIENCE` seconds (then the test fails)."""
    pieces = raw if isinstance(raw, list) else [raw]
    t0 = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) as s:
        try:
            for i, piece in enumerate(pieces):
                if i and pause:
                    time.sleep(pause)
                s.sendall(piece)
            if half_close:
                s.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before we were done: read its answer
        buf = b""
        deadline = time.monotonic() + PATIENCE
        while not _complete(buf):
            s.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                pytest.fail(f"no answer in {PATIENCE} s (a hang); had {buf[:300]!r}")
            except ConnectionResetError:
                break
            if not chunk:
                break
            buf += chunk
    return Answer(buf, time.monotonic() - t0)


def request(method: str, path: str, body: bytes | None = None, *, headers: dict[str, str] | None = None,
            content_type: str | None = "application/json") -> bytes:
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    if body is not None and content_type:
        head.append(f"Content-Type: {content_type}")
    if body is not None and not any(k.lower() in ("content-length", "transfer-encoding") for k in headers or {}):
        head.append(f"Content-Length: {len(body)}")
    head += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + (body or b"")


def chunked(method: str, path: str, *chunks: bytes, end: bytes = b"0\r\n\r\n") -> bytes:
    head = request(method, path, None, headers={"Content-Type": "application/json",
                                                "Transfer-Encoding": "chunked"}, content_type=None)
    return head + b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + end


def assert_problem(answer: Answer, *statuses: int) -> dict:
    """A quick 4xx problem+json whose body agrees with its status line."""
    assert answer.status, f"no answer at all: {answer!r}"
    assert 400 <= answer.status < 500, answer
    if statuses:
        assert answer.status in statuses, answer
    assert answer.headers.get("content-type") == "application/problem+json", answer
    body = answer.json()
    assert body["status"] == answer.status, answer
    assert body["type"].startswith(problems.PROBLEM_BASE), body
    assert body["title"] and body["detail"], body
    assert isinstance(body["errors"], list), body
    # every problem names its instance: the path, or "#" and the request id when none was read
    assert body["instance"].startswith("/") or body["instance"] == "#" + body["request_id"], body
    if answer.status == 405:
        assert answer.headers.get("allow"), answer
    return body


# ---------------------------------------------------------------- the server


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[tuple[int, str]]:
    log_path = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    with gunicorn(log_path, GUNICORN_READ_TIMEOUT=str(READ_TIMEOUT), GUNICORN_ACCESS_LOG="off") as base:
        port = int(base.rsplit(":", 1)[1])
        before = worker_pids(base)
        assert len(before) == 2
        yield port, base
        # The same workers are serving: nothing above crashed or restarted one.
        for _ in range(4):
            ok = exchange(port, request("POST", "/v1/hands/score",
                                        b'{"cards":["5H","5C","5S","JD"],"starter":"5D"}'))
            assert ok.status == 200 and ok.json()["total"] == 29, ok
        assert worker_pids(base) == before, "a worker process was replaced during the catalogue"
        assert "Traceback" not in log_path.read_text(errors="replace")


@pytest.fixture(scope="module")
def port(server) -> int:
    return server[0]


@pytest.fixture(scope="module")
def live_state(port) -> dict:
    """A plain game state the server just answered, after the deal."""
    r = exchange(port, request("POST", "/v1/games", json.dumps({"options": {"deck": "seeded", "seed": "hostile"}}).encode()))
    assert r.status == 201, r
    state = r.json()["state"]
    r = exchange(port, request("POST", "/v1/games/advance",
                               json.dumps({"state": state, "action": {"type": "deal", "seat": state["dealer"]}}).encode()))
    assert r.status == 200, r
    return r.json()["state"]


def _v1_state() -> dict:
    """A format-1 plain state (retired: refused on its version, whatever else it holds)."""
    return {"version": 1, "options": {"players": 2, "target": 121}, "phase": "discard", "hand": 1,
            "dealer": 0, "first_dealer": 0, "to_act": [0, 1], "scores": [{"front": 0, "back": 0}] * 2,
            "hands": [["AC", "2C", "3C", "4C", "5C", "6C"], ["AD", "2D", "3D", "4D", "5D", "6D"]], "crib": [],
            "starter": None, "deck": None, "play": None, "shown": 0, "result": None, "log": []}


# ---------------------------------------------------------------- generic kinds, every operation

BIG = 10 ** 6


def _generic_post_kinds(path: str) -> list[tuple[str, Any, tuple[int, ...]]]:
    """(kind, raw request or (raw, half_close), statuses allowed) for one POST operation."""
    ok = b'{}'
    # the batch, the standings and the bracket have body limits of their own (service.app.body_limits)
    limit = body_limits(DEFAULT_MAX_BODY_BYTES).get(path, DEFAULT_MAX_BODY_BYTES)
    return [
        ("text-plain", request("POST", path, b'{}', content_type="text/plain"), (415,)),
        ("form-encoded", request("POST", path, b"a=1&b=2", content_type="application/x-www-form-urlencoded"), (415,)),
        ("malformed-json", request("POST", path, b'{"cards": [}'), (400,)),
        ("truncated-json", request("POST", path, b'{"cards": ["5H"'), (400,)),
        ("trailing-garbage", request("POST", path, b'{} {}'), (400,)),
        ("array-body", request("POST", path, b'[1, 2, 3]'), (400,)),
        ("string-body", request("POST", path, b'"hello"'), (400,)),
        ("null-body", request("POST", path, b'null'), (400,)),
        ("empty-body", request("POST", path, b''), (400,)),
        ("no-length-no-chunks", request("POST", path, None), (400, 411)),
        ("nan-literal", request("POST", path, b'{"x": NaN}'), (400,)),
        ("integer-past-64-bits", request("POST", path, b'{"x": 123456789012345678901234567890}'), (400, 422)),
        ("float-overflow", request("POST", path, b'{"x": 1e999}'), (400, 422)),
        ("invalid-utf8", request("POST", path, b'{"x": "\xff\xfe"}'), (400,)),
        ("utf8-bom", request("POST", path, b'\xef\xbb\xbf{}'), (400, 422)),
        ("lone-surrogate", request("POST", path, b'{"x": "\\ud800"}'), (400, 422)),
        ("array-nested-5000", request("POST", path, b"[" * 5000 + b"]" * 5000), (400,)),
        ("object-nested-300", request("POST", path, b'{"a":' * 300 + b'1' + b'}' * 300), (400, 422)),
        ("unknown-field", request("POST", path, b'{"zz_unknown": 1}'), (400, 422)),
        ("duplicate-keys", request("POST", path, b'{"zz": 1, "zz": 2}'), (400, 422)),
        ("long-string", request("POST", path, b'{"zz": "' + b"x" * 60000 + b'"}'), (400, 422)),
        ("wide-array", request("POST", path, b'{"zz": [' + b"1," * 30000 + b'1]}'), (400, 422)),
        ("over-limit-length", request("POST", path, None, headers={"Content-Length": str(max(BIG, limit + 1))}),
         (413,)),
        ("over-limit-sent", request("POST", path, b'{"zz": "' + b"x" * (limit + 4464) + b'"}'), (413,)),
        ("over-limit-chunked", chunked("POST", path, *([b"x" * 8000] * (limit // 8000 + 2))), (413,)),
        ("length-non-digit", request("POST", path, ok, headers={"Content-Length": "2x"}), (400,)),
        ("length-negative", request("POST", path, ok, headers={"Content-Length": "-2"}), (400,)),
        ("length-twice-differing", request("POST", path, ok, headers={"Content-Length": "2", "Content-length": "3"}), (400,)),
        ("length-and-chunked", request("POST", path, b"2\r\n{}\r\n0\r\n\r\n",
                                       headers={"Content-Length": "2", "Transfer-Encoding": "chunked"}), (400,)),
        ("length-lies-short-cut", (request("POST", path, None, headers={"Content-Length": "100"}) + b'{}', True), (400,)),
        # the first 2 bytes are the body (not an object: 400), the rest a next "request"
        ("length-lies-long-body", request("POST", path, b'[]{"x": "the rest is a next request"}',
                                          headers={"Content-Length": "2"}), (400,)),
        ("chunk-size-not-hex", chunked("POST", path, end=b"zz\r\n{}\r\n0\r\n\r\n"), (400,)),
        ("chunk-size-negative", chunked("POST", path, end=b"-2\r\n{}\r\n0\r\n\r\n"), (400,)),
        ("chunk-no-terminator", chunked("POST", path, end=b"2\r\n{}XX0\r\n\r\n"), (400,)),
        ("chunk-bad-extension", chunked("POST", path, end=b"2;\x01\r\n{}\r\n0\r\n\r\n"), (400,)),
        ("chunked-cut-short", (chunked("POST", path, end=b"10\r\n{\"a\"") , True), (400,)),
        ("chunked-no-last-chunk", (chunked("POST", path, b"{}", end=b""), True), (400,)),
        ("chunked-then-gzip", request("POST", path, b"2\r\n{}\r\n0\r\n\r\n",
                                      headers={"Transfer-Encoding": "chunked, gzip"}), (400,)),
        ("gzip-then-chunked", request("POST", path, b"2\r\n{}\r\n0\r\n\r\n",
                                      headers={"Transfer-Encoding": "gzip, chunked"}), (400, 415)),
        ("transfer-encoding-identity", request("POST", path, ok, headers={"Transfer-Encoding": "identity"}), (400,)),
        ("content-encoding-gzip", request("POST", path, b"\x1f\x8b\x08\x00garbage",
                                          headers={"Content-Encoding": "gzip"}), (415,)),
        ("content-encoding-br", request("POST", path, ok, headers={"Content-Encoding": "br"}), (415,)),
        ("expect-unknown", request("POST", path, ok, headers={"Expect": "the-unexpected"}), (400, 417)),
        ("put-method", request("PUT", path, ok), (405,)),
        ("delete-method", request("DELETE", path), (405,)),
        ("made-up-method", request("BREW", path, ok), (400, 405)),
    ]


GENERIC_POST = [pytest.param(path, raw, statuses, id=f"{kind}:{path}")
                for path, _ in POSTS for kind, raw, statuses in _generic_post_kinds(path)]


@pytest.mark.parametrize(("path", "raw", "statuses"), GENERIC_POST)
def test_generic_kind_on_every_post_operation(port, path, raw, statuses):
    half = False
    if isinstance(raw, tuple):
        raw, half = raw
    assert_problem(exchange(port, raw, half_close=half), *statuses)


def _generic_get_kinds(path: str) -> list[tuple[str, bytes, tuple[int, ...]]]:
    return [
        ("post-to-get", request("POST", path, b"{}"), (405,)),
        ("propfind", request("PROPFIND", path), (400, 405)),
        ("query-past-line-limit", request("GET", path + "?q=" + "a" * 5000), (414,)),
        ("path-traversal", request("GET", path + "/../../../etc/passwd"), (400, 404)),
        ("percent-nul", request("GET", path + "%00"), (400, 404)),
    ]


GENERIC_GET = [pytest.param(raw, statuses, id=f"{kind}:{path}")
               for path in GETS for kind, raw, statuses in _generic_get_kinds(path)]


@pytest.mark.parametrize(("raw", "statuses"), GENERIC_GET)
def test_generic_kind_on_every_get_operation(port, raw, statuses):
    assert_problem(exchange(port, raw), *statuses)


# ---------------------------------------------------------------- every integer, out of range


def _integers(value: Any, pointer: tuple = ()) -> Iterator[tuple[tuple, int]]:
    if type(value) is int:
        yield pointer, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _integers(v, (*pointer, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _integers(v, (*pointer, i))


def _replaced(value: Any, pointer: tuple, new: Any) -> Any:
    out = copy.deepcopy(value)
    node = out
    for part in pointer[:-1]:
        node = node[part]
    node[pointer[-1]] = new
    return out


INT_MUTATIONS = {
    "int-2^64-1": lambda v: 2 ** 64 - 1,
    "int-2^63": lambda v: 2 ** 63,
    "int-minus-2^63": lambda v: -(2 ** 63),
    "int-minus-one": lambda v: -1,
    "int-integral-float": lambda v: float(v),
    "int-fraction": lambda v: v + 0.5,
    "int-true": lambda v: True,
    "int-as-string": lambda v: str(v),
}


NEGATIVE_ALLOWED = {("/v1/tournaments/standings", "spread")}
"""Integers documented with a negative minimum (a loser's spread is minus his margin)."""


def _integer_cases():
    seen = set()
    for path, op in POSTS:
        for name, example in _examples(op):
            for pointer, value in _integers(example):
                where = (path, tuple("#" if isinstance(p, int) else p for p in pointer))
                if where in seen:  # the same field in another example
                    continue
                seen.add(where)
                for kind, mutate in INT_MUTATIONS.items():
                    new = mutate(value)
                    if type(new) is type(value) and new == value:
                        continue
                    if kind == "int-minus-one" and (path, pointer[-1]) in NEGATIVE_ALLOWED:
                        continue  # -1 is in range there
                    yield pytest.param(path, example, pointer, new, kind,
                                       id=f"{kind}:{path}:/{'/'.join(map(str, pointer))}")


INTEGER_CASES = list(_integer_cases())


@pytest.mark.parametrize(("path", "example", "pointer", "new", "kind"), INTEGER_CASES)
def test_every_integer_out_of_range_or_not_an_integer(port, path, example, pointer, new, kind):
    """Every integer of every documented request: out of any range, a fraction, 2.0 for 2,
    a boolean, a string: a 4xx problem; when the example itself is answered 2xx, a 422
    naming the field (or the object holding it)."""
    base = exchange(port, request("POST", path, json.dumps(example).encode()))
    answer = exchange(port, request("POST", path, json.dumps(_replaced(example, pointer, new)).encode()))
    body = assert_problem(answer)
    if 200 <= base.status < 300 and not (kind == "int-minus-one" and answer.status == 403):
        assert answer.status == 422, answer
        target = problems.json_pointer(*pointer)
        fields = [e["field"] for e in body["errors"]]
        assert any(f and (target == f or target.startswith(f + "/")) for f in fields), (target, body)


def test_integers_are_bounded_in_openapi():
    """Every ``type: integer`` in openapi.yaml has a minimum and a maximum."""
    missing = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            kind = node.get("type")
            if kind == "integer" or (isinstance(kind, list) and "integer" in kind):
                if "minimum" not in node or "maximum" not in node:
                    missing.append(where)
            for k, v in node.items():
                walk(v, f"{where}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{where}/{i}")

    walk(OPENAPI, "")
    assert not missing, missing


# ---------------------------------------------------------------- request line and headers

HS = "/v1/hands/score"
HAND = b'{"cards":["5H","5C","5S","JD"],"starter":"5D"}'

CLIENT_HELLO = (b"\x16\x03\x01\x00\x5a\x01\x00\x00\x56\x03\x03" + bytes(range(32)) + b"\x00\x00\x04\x13\x01"
                b"\x13\x02\x01\x00\x00\x29\x00\x00\x00\x0e\x00\x0c\x00\x00\x09localhost\x00\x2b\x00\x03\x02"
                b"\x03\x04\x00\x0a\x00\x04\x00\x02\x00\x1d")


PROTOCOL = [
    ("garbage-line", b"GARBAGE\r\n\r\n", (400,)),
    ("binary-line", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 40 + b"\r\n\r\n", (400,)),
    # A TLS ClientHello (TLS 1.2 record, 1.3 hello with SNI): no CRLF anywhere, 400 at once, not 408
    ("tls-client-hello", CLIENT_HELLO, (400,)),
    ("http2-preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", (400, 405)),
    ("http-version-9", b"GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n", (400,)),
    ("http-version-garbage", b"GET /healthz HTTX/1.1\r\nHost: x\r\n\r\n", (400,)),
    ("lowercase-method", b"get /healthz HTTP/1.1\r\nHost: x\r\n\r\n", (400,)),
    ("method-too-long", b"A" * 100 + b" /healthz HTTP/1.1\r\nHost: x\r\n\r\n", (400, 405)),
    ("method-with-nul", b"GE\x00T /healthz HTTP/1.1\r\nHost: x\r\n\r\n", (400,)),
    ("url-5000", b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", (414,)),
    ("url-with-space", b"GET /heal thz HTTP/1.1\r\nHost: x\r\n\r\n", (400, 404)),
    ("url-control-char", b"GET /heal\x01thz HTTP/1.1\r\nHost: x\r\n\r\n", (400, 404)),
    ("url-percent-garbage", b"GET /%zz%%% HTTP/1.1\r\nHost: x\r\n\r\n", (400, 404)),
    ("header-9000", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 9000 + b"\r\n\r\n", (431,)),
    ("headers-60", b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(60)) + b"\r\n", (431,)),
    ("header-no-colon", b"GET /healthz HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n", (400,)),
    ("header-space-before-colon", b"GET /healthz HTTP/1.1\r\nHost : x\r\n\r\n", (400,)),
    ("header-nul-value", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n", (400,)),
    ("header-name-non-token", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX(A): 1\r\n\r\n", (400,)),
    ("header-obs-fold", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  folded\r\n\r\n", (400,)),
    ("header-bare-lf", b"GET /healthz HTTP/1.1\nHost: x\n\n", (400,)),
    ("header-bare-cr", b"GET /healthz HTTP/1.1\rHost: x\r\n\r\n", (400,)),
    ("trailer-too-large", b"POST " + HS.encode() + b" HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
     b"Content-Type: application/json\r\n\r\n2\r\n{}\r\n0\r\nX-T: " + b"t" * 9000 + b"\r\n\r\n", (400, 431)),
    # gunicorn takes the size and waits for the chunk: the deadline ends it.
    ("chunk-size-huge", chunked("POST", HS, end=b"ffffffffffffffffff\r\n{}\r\n0\r\n\r\n"), (400, 408, 413)),
    ("content-length-huge-number", request("POST", HS, None, headers={"Content-Length": "9" * 40}), (400, 413)),
    ("content-length-with-plus", request("POST", HS, b"{}", headers={"Content-Length": "+2"}), (400,)),
    ("content-length-hex", request("POST", HS, b"{}", headers={"Content-Length": "0x2"}), (400,)),
    ("transfer-encoding-twice", request("POST", HS, b"2\r\n{}\r\n0\r\n\r\n",
                                        headers={"Transfer-Encoding": "chunked", "Transfer-encoding": "chunked"}), (400,)),
    ("transfer-encoding-http10", b"POST " + HS.encode() + b" HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
     b"Content-Type: application/json\r\n\r\n2\r\n{}\r\n0\r\n\r\n", (400,)),
    ("head-cut-short-half-closed", (b"POST " + HS.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Le", True), (400,)),
]


@pytest.mark.parametrize(("raw", "statuses"), [pytest.param(r, s, id=k) for k, r, s in PROTOCOL])
def test_request_line_and_header_kinds(port, raw, statuses):
    half = False
    if isinstance(raw, tuple):
        raw, half = raw
    answer = exchange(port, raw, half_close=half)
    if not answer.raw and half:
        return  # the client hung up mid-head: there is no one to answer, and the server let go at once
    assert_problem(answer, *statuses)


STATIC = "/docs/static/swagger-ui.css"


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "PROPFIND", "BREW"])
def test_static_files_only_get(port, method):
    body = assert_problem(exchange(port, request(method, STATIC, b"{}")), 405)
    assert "GET" in body["detail"]
    assert exchange(port, request("GET", STATIC)).status == 200


def test_slow_head_is_cut_with_408(port):
    """A head trickled a byte at a time: 408 at the deadline, not a thread held for ever."""
    raw = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"s" * 40 + b"\r\n\r\n"
    answer = exchange(port, [raw[i:i + 1] for i in range(len(raw))], pause=0.1)
    assert_problem(answer, 408)


def test_slow_body_is_cut_with_408(port):
    head = request("POST", HS, None, headers={"Content-Length": str(len(HAND))})
    answer = exchange(port, [head] + [HAND[i:i + 1] for i in range(len(HAND))], pause=0.1)
    assert_problem(answer, 408)


def test_silent_body_is_cut_with_408(port):
    """A Content-Length promised and nothing sent: 408 after the deadline."""
    assert_problem(exchange(port, request("POST", HS, None, headers={"Content-Length": "20"})), 408)


# ---------------------------------------------------------------- game states built to hurt


def _nest(depth: int, leaf: Any = 1) -> Any:
    out = leaf
    for _ in range(depth):
        out = [out]
    return out


def _state_cases(state: dict, v1: dict) -> list[tuple[str, str, dict]]:
    adv = "/v1/games/advance"
    act = {"type": "discard", "seat": 0, "cards": ["5H"]}

    def s(**changes: Any) -> dict:
        return {**state, **changes}

    def v(**changes: Any) -> dict:
        return {**v1, **changes}

    return [
        ("state-actions-nested-300", adv, {"state": s(actions=[_nest(300)]), "action": act}),
        ("state-options-nested-250", adv, {"state": s(options={"a": _nest(250)}), "action": act}),
        ("state-nested-1000", adv, {"state": s(pegs="@NEST1000@"), "action": act}),
        ("state-seq-2^64-1", adv, {"state": s(seq=2 ** 64 - 1), "action": act}),
        ("state-seq-2.0", adv, {"state": s(seq=float(state["seq"])), "action": act}),
        ("state-deal-2^64-1", adv, {"state": s(deal=2 ** 64 - 1), "action": act}),
        ("state-deal-2^64-1-then-deal", adv, {"state": s(deal=2 ** 64 - 1, actions=[]),
                                              "action": {"type": "deal", "seat": state["dealer"]}}),
        ("state-deal-zero", adv, {"state": s(deal=0), "action": act}),
        ("state-dealer-2^63", adv, {"state": s(dealer=2 ** 63), "action": act}),
        ("state-pegs-2^64", adv, {"state": s(pegs=[[2 ** 64, 0], [0, 0]]), "action": act}),
        ("state-pegs-negative", adv, {"state": s(pegs=[[-1, -5], [0, 0]]), "action": act}),
        ("state-pegs-floats", adv, {"state": s(pegs=[[0.0, 0.0], [0, 0]]), "action": act}),
        ("state-pegs-10000-sides", adv, {"state": s(pegs=[[0, 0]] * 10000), "action": act}),
        ("state-actions-5000", adv, {"state": s(actions=["deal 0"] * 5000), "action": act}),
        ("state-action-text-60k", adv, {"state": s(actions=["x" * 60000]), "action": act}),
        ("state-game-id-long", adv, {"state": s(game_id="a" * 60000), "action": act}),
        ("state-history-not-hex", adv, {"state": s(history="z" * 64), "action": act}),
        ("state-version-2^64", adv, {"state": s(version=2 ** 64 - 1), "action": act}),
        ("state-version-true", adv, {"state": s(version=True), "action": act}),
        ("state-options-players-2^63", adv, {"state": s(options={**state["options"], "players": 2 ** 63}), "action": act}),
        ("state-options-target-2^63", adv, {"state": s(options={**state["options"], "target": 2 ** 63}), "action": act}),
        ("state-sealed-string-to-plain", adv, {"state": "v2." + "A" * 60000, "action": act}),
        ("action-seat-2^63", adv, {"state": state, "action": {**act, "seat": 2 ** 63}}),
        ("action-seat-2.0", adv, {"state": state, "action": {**act, "seat": 2.0}}),
        ("action-cards-10000", adv, {"state": state, "action": {**act, "cards": ["5H"] * 10000}}),
        ("action-claim-1e308", adv, {"state": state, "action": {"type": "go", "seat": 0, "claim": 1e308}}),
        ("action-nested-300", adv, {"state": state, "action": _nest(300, {})}),
        ("view-seat-2^64", "/v1/games/view", {"state": state, "seat": 2 ** 64 - 1}),
        ("view-seat-token-long", "/v1/games/view", {"state": state, "seat_token": "t" * 60000}),
        ("v1-log-nested-300", "/v1/games/view", {"state": v(log=[_nest(300, {})])}),
        ("v1-log-10000", "/v1/games/view", {"state": v(log=[{"type": "deal"}] * 10000)}),
        ("v1-hand-2^64-1-then-deal", adv, {"state": v(hand=2 ** 64 - 1, phase="deal"),
                                           "action": {"type": "deal", "seat": v1["dealer"]}}),
        ("v1-scores-2^64", "/v1/games/view", {"state": v(scores=[{"front": 2 ** 64, "back": 0}] * 2)}),
        ("v1-to-act-huge", "/v1/games/view", {"state": v(to_act=list(range(5000)))}),
        ("start-dealer-2^63", "/v1/games", {"dealer": 2 ** 63}),
        ("start-options-seed-60k", "/v1/games", {"options": {"deck": "seeded", "seed": "s" * 60000}}),
        ("start-options-players-1.5", "/v1/games", {"options": {"players": 1.5}}),
        ("start-cuts-10000", "/v1/games", {"cuts": ["5H"] * 10000}),
        ("replay-actions-6000", "/v1/games/replay", {"record": {"game_id": "0" * 32, "first_dealer": 0,
                                                                 "actions": ["deal 0"] * 6000}}),
        ("replay-first-dealer-2^63", "/v1/games/replay", {"record": {"game_id": "0" * 32, "first_dealer": 2 ** 63,
                                                                      "actions": []}}),
        ("replay-record-nested-300", "/v1/games/replay", {"record": _nest(300, {})}),
        ("pegging-played-10000", "/v1/pegging/score", {"played": [{"seat": 0, "card": "5H"}] * 10000}),
        ("pegging-count-2^64", "/v1/pegging/go", {"count": 2 ** 64, "hand": ["5H"]}),
        ("hands-cards-10000", HS, {"cards": ["5H"] * 10000, "starter": "5D"}),
        ("hands-crib-1", HS, {"cards": ["5H", "5C", "5S", "JD"], "starter": "5D", "crib": 1}),
    ]


STATE_KINDS = [kind for kind, _, _ in _state_cases({"dealer": 0, "seq": 0, "options": {}}, {"dealer": 0})]


@pytest.mark.parametrize("index", range(len(STATE_KINDS)), ids=STATE_KINDS)
def test_game_state_kinds(port, live_state, index):
    _, path, body = _state_cases(live_state, _v1_state())[index]
    raw = json.dumps(body).encode().replace(b'"@NEST1000@"', b"[" * 1000 + b"]" * 1000)
    answer = exchange(port, request("POST", path, raw))
    assert_problem(answer, 400, 403, 413, 422)


# ---------------------------------------------------------------- every operation's worst case


WORST = [pytest.param(i, id=f"{path}:{what}") for i, (path, what, _, _) in enumerate(worst.cases())]


@pytest.fixture(scope="module")
def worst_bodies() -> list[tuple[str, str, bytes]]:
    """bench/worst.py's bodies at the contract's limits (made and checked in-process once)."""
    return worst.bodies()


@pytest.mark.parametrize("index", WORST)
def test_every_operation_s_worst_case_is_answered_in_time(port, worst_bodies, index):
    """The costliest body each POST operation allows (bench/worst.py: the sizes, counts,
    ties and positions at the contract's limits) is answered 2xx within the usual
    deadline (a 2,000-line tie in the standings took minutes)."""
    path, what, body = worst_bodies[index]
    answer = exchange(port, request("POST", path, body))
    assert 200 <= answer.status < 300, answer


def test_the_worst_cases_cover_every_post_operation():
    """Every one but the sealed-only operations, which a plain server (this one) answers 422
    whatever the body (bench/worst.py says what theirs costs)."""
    from schemathesis_hooks import SEALED_ONLY

    assert {path for path, _, _, _ in worst.cases()} == {path for path, _ in POSTS} - SEALED_ONLY


# ---------------------------------------------------------------- the catalogue itself


def test_catalogue_size():
    """At least 60 distinct kinds, over every operation of openapi.yaml."""
    kinds = ({k for k, _, _ in _generic_post_kinds("/x")} | {k for k, _, _ in _generic_get_kinds("/x")}
             | set(INT_MUTATIONS) | {k for k, _, _ in PROTOCOL}
             | set(STATE_KINDS))
    assert len(kinds) >= 60, len(kinds)
    covered = {p.id.split(":", 1)[1] for p in GENERIC_POST + GENERIC_GET}
    assert covered == {path for path, _, _ in OPERATIONS}


def _documented(name: str) -> dict:
    return OPENAPI["components"]["responses"][name]["content"]["application/problem+json"]["example"]


def assert_documented(answer: Answer, name: str) -> None:
    """The answer has the documented example's shape: the same members, type, title and status,
    and the request id of its header."""
    body, example = answer.json(), _documented(name)
    assert set(body) == set(example), (body, example)
    assert [body[k] for k in ("type", "title", "status")] == [example[k] for k in ("type", "title", "status")]
    assert body["request_id"] == answer.headers["x-request-id"]
    for header in OPENAPI["components"]["responses"][name]["headers"]:
        assert header.lower() in answer.headers, (header, answer)


@pytest.mark.parametrize(("name", "raw"), [
    ("UriTooLong", b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("HeaderFieldsTooLarge", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 9000 + b"\r\n\r\n"),
    ("RequestTimeout", request("POST", HS, None, headers={"Content-Length": "20"})),
    ("RequestTimeout", b"GET /healthz HTTP/1.1\r\nHost: x\r\n"),
])
def test_the_worker_s_answers_are_as_documented(port, name, raw):
    answer = exchange(port, raw)
    assert answer.status == _documented(name)["status"], answer
    assert_documented(answer, name)
    if name == "UriTooLong":
        assert answer.json()["detail"] == _documented(name)["detail"]


def test_every_operation_documents_the_worker_s_answers():
    for path, method, op in OPERATIONS:
        for status in ("408", "414", "431", "503"):
            if (path, status) != ("/healthz", "503"):  # never shed (service.http.worker.NEVER_SHED)
                assert status in op["responses"], (path, method, status)


def test_worker_problem_constants_are_the_app_s():
    assert wire.PROBLEM_BASE == problems.PROBLEM_BASE and wire.PROBLEM_JSON == problems.PROBLEM_JSON


def test_the_worker_and_the_app_share_one_problem_writer():
    """Not two copies that could drift: the worker's answers are built by the app's writer."""
    from service.http import answers, middleware

    assert wire.problem_document is problems.problem_document is answers.problem_document
    assert wire.answer_headers is middleware.answer_headers is answers.answer_headers


@pytest.mark.parametrize(("data", "whole"), [
    (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", True),
    (b"POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}", True),
    (b"POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\n{", False),  # the body still coming
    (b"POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}GET", False),  # pipelined
    (b"POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}", False),
    (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", False),
    (b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n", False),
    (b"GET / HTTP/1.0\r\n\r\n", False),
    (b"GET / HTTP/1.1\r\nHost: x\r\n", False),
    (b"GET / HTTP/1.1\r\nNoColon\r\n\r\n", False),
])
def test_a_shed_connection_is_kept_only_after_one_whole_request(data, whole):
    assert wire.one_whole_request(data) is whole


@pytest.mark.parametrize("path", ["/v1/hands/score", '/v1/"quoted"\\', "/v1/caf\u00e9", ""])
def test_the_shed_answer_carries_one_request_id_and_its_instance(path):
    answer = Answer(wire.overloaded_answer(True, wire.RequestFacts(path, None, False)), 0.0)
    assert answer.status == 503 and answer.headers["retry-after"] == "1"
    assert answer.headers["connection"] == "keep-alive" and int(answer.headers["content-length"]) == len(answer.body)
    body = answer.json()
    assert re.fullmatch(r"[0-9a-f]{32}", body["request_id"]) and body["request_id"] == answer.headers["x-request-id"]
    assert body["instance"] == (path or "#" + body["request_id"])
    assert "access-control-allow-origin" not in answer.headers
    assert_documented(answer, "Overloaded")
    closing = Answer(wire.overloaded_answer(False, wire.RequestFacts(path, "abc123", True)), 0.0)
    assert closing.headers["connection"] == "close"
    assert closing.json()["request_id"] == closing.headers["x-request-id"] == "abc123"
    assert closing.headers["access-control-allow-origin"] == "*"
    assert closing.headers["access-control-expose-headers"] == "X-Request-ID"


def test_a_tls_handshake_is_answered_400_at_once(port):
    """Before, a ClientHello waited for the read deadline and its 408."""
    answer = exchange(port, CLIENT_HELLO)
    assert_problem(answer, 400)
    assert "TLS" in answer.json()["detail"]


def test_the_deadline_socket():
    """Reads wait at most the deadline (the kernel's timeout): HeadTooSlow for the head,
    BodyTooSlow (a TimeoutError, which gunicorn's body drain expects) for the body."""
    a, b = socket.socketpair()
    sock = wire.DeadlineSocket(a.family, a.type, a.proto, fileno=a.detach())
    with sock, b:
        sock.arm(0.2)
        sock.setblocking(True)
        b.sendall(b"GET")
        assert sock.recv(10) == b"GET"
        with pytest.raises(wire.HeadTooSlow):
            sock.recv(10)  # nothing more comes
        sock.in_head = False
        with pytest.raises(TimeoutError):
            sock.recv(10)
        sock.setblocking(False)  # the poller's: untouched
        with pytest.raises(BlockingIOError):
            sock.recv(10)
        sock.setblocking(True)  # a new request: a new deadline, the head again
        b.sendall(b"x")
        assert sock.recv(10) == b"x" and sock.in_head


@pytest.mark.parametrize("path", ["/v1/hands/score", "/v1/tournaments/standings"])
def test_expect_100_continue_is_answered_once_then_the_body_served(port, path):
    """The poller answers the expectation (and gathers the body: a stalled one holds no
    thread); gunicorn does not answer it a second time."""
    body = (b'{"cards":["5H","5C","5S","JD"],"starter":"5D"}' if path == HS
            else json.dumps({"results": [{"player": "A", "opponent": "B", "game_points": 2, "games_won": 1,
                                          "spread": 9}] * 1500}).encode())
    head = request("POST", path, None, headers={"Content-Length": str(len(body)), "Expect": "100-continue"})
    with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) as s:
        s.sendall(head)
        assert s.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
        s.sendall(body)
        buf = b""
        while not _complete(buf):
            chunk = s.recv(65536)
            assert chunk, buf[:300]
            buf += chunk
    answer = Answer(buf, 0.0)
    assert answer.status == 200 and b"100 Continue" not in buf, buf[:300]
