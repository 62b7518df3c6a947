"""End to end: a real gunicorn with gunicorn.conf.py on a free loopback port."""

from __future__ import annotations

import json
import socket
import time
from urllib.parse import urlsplit

import httpx
import pytest
from gunicorn_server import ROOT, gunicorn

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log_path = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    with gunicorn(log_path, CRIBBAGE_MAX_BODY_BYTES="4096", GUNICORN_READ_TIMEOUT="2") as base:
        yield base, log_path


def test_scores_a_hand_over_http(server):
    base, _ = server
    with httpx.Client(base_url=base, timeout=10) as client:
        r = client.post("/v1/hands/score", json={"cards": ["5h", "5C", "5♠", "JD"], "starter": "5D"},
                        headers={"X-Request-ID": "e2e-1"})
    assert r.status_code == 200
    assert r.headers["x-request-id"] == "e2e-1"
    body = r.json()
    assert body["total"] == 29
    assert body["cards"] == ["5H", "5C", "5S", "JD"]


def test_errors_are_problems_over_http(server):
    base, _ = server
    with httpx.Client(base_url=base, timeout=10) as client:
        r = client.post("/v1/hands/score", json={"cards": ["5H"], "starter": "5H"})
        assert r.status_code == 422
        assert r.headers["content-type"] == "application/problem+json"
        r = client.get("/nowhere")
        assert r.status_code == 404
        assert r.headers["content-type"] == "application/problem+json"


def test_body_limit_with_and_without_length(server):
    base, _ = server
    big = b'{"pad": "' + b"x" * 10_000 + b'"}'
    with httpx.Client(base_url=base, timeout=10) as client:
        r = client.post("/v1/hands/score", content=big, headers={"Content-Type": "application/json"})
        assert r.status_code == 413
        assert r.headers["content-type"] == "application/problem+json"

    def chunks(data: bytes, size: int = 1000):
        for i in range(0, len(data), size):
            yield data[i:i + size]

    with httpx.Client(base_url=base, timeout=10) as client:
        r = client.post("/v1/hands/score", content=chunks(big), headers={"Content-Type": "application/json"})
        assert r.request.headers.get("transfer-encoding") == "chunked"
        assert r.status_code == 413
        ok = b'{"cards": ["5H","5C","5S","JD"], "starter": "5D"}'
        r = client.post("/v1/hands/score", content=chunks(ok, 7), headers={"Content-Type": "application/json"})
        assert r.status_code == 200, r.text
        assert r.json()["total"] == 29


# -- the worker's own answers, as a browser reads them ----------------------------------

BROWSER = {"Origin": "https://table.example", "X-Request-ID": "abc123"}
CORS = ("access-control-allow-origin", "access-control-expose-headers")


def raw_exchange(base: str, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``data`` as it is and read one answer until the server closes (the worker's
    answers close the connection): status, headers (lower-case names), body."""
    with socket.create_connection((urlsplit(base).hostname, urlsplit(base).port), timeout=10) as s:
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # answered before it was all sent: read the answer
        buf = b""
        while chunk := s.recv(65536):
            buf += chunk
    head, _, body = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def _browser_readable(status: int, headers: dict[str, str], body: bytes, expected: int) -> None:
    assert status == expected, (status, headers, body[:300])
    assert headers["content-type"] == "application/problem+json"
    assert headers["x-request-id"] == "abc123" == json.loads(body)["request_id"]
    assert headers["access-control-allow-origin"] == "*"
    assert headers["access-control-expose-headers"] == "X-Request-ID"


def test_the_worker_s_answers_carry_cors_and_the_caller_s_request_id(server):
    """A browser reads the worker's own answers (written before the app sees the request) as
    it reads the app's: the same CORS headers, the caller's X-Request-ID (before: neither)."""
    base, _ = server
    with httpx.Client(base_url=base, timeout=10) as client:
        app = client.post("/v1/hands/score", json={"cards": ["5H"]}, headers=BROWSER)  # the app's 422
        assert app.status_code == 422 and app.headers["x-request-id"] == "abc123"
        big = client.post("/v1/hands/score", content=b"x" * (2 * 1024 * 1024),
                          headers={**BROWSER, "Content-Type": "application/json"})  # the poller's 413
    _browser_readable(big.status_code, dict(big.headers), big.content, 413)
    assert {h: big.headers[h] for h in CORS} == {h: app.headers[h] for h in CORS}
    head = "".join(f"{k}: {v}\r\n" for k, v in BROWSER.items())
    cases = {
        414: f"GET /{'a' * 5000} HTTP/1.1\r\nHost: x\r\n{head}\r\n",  # gunicorn's parser, in a thread
        431: f"GET /healthz HTTP/1.1\r\nHost: x\r\n{head}X-Big: {'a' * 9000}\r\n\r\n",
        400: f"GET /healthz HTTP/1.1\r\nHost: x\r\n{head}Bad header\r\n\r\n",
        408: f"POST /v1/hands/score HTTP/1.1\r\nHost: x\r\n{head}Content-Length: 20\r\n\r\n{{",  # the deadline's
    }
    for status, raw in cases.items():
        got = raw_exchange(base, raw.encode())
        _browser_readable(*got, expected=status)
        assert {h: got[1][h] for h in CORS} == {h: app.headers[h] for h in CORS}, status
    # Without an Origin no CORS headers (as the app's), and an insane id is replaced.
    status, headers, body = raw_exchange(base, f"GET /{'a' * 5000} HTTP/1.1\r\nX-Request-ID: a b\r\n\r\n".encode())
    assert status == 414 and "access-control-allow-origin" not in headers
    assert headers["x-request-id"] == json.loads(body)["request_id"] != "a b"


def test_an_encoded_body_is_a_415_over_http(server):
    """A gzipped body (issue 28, 5(d)) is the app's 415 unsupported-content-encoding through gunicorn,
    with and without a length, carrying Accept-Encoding, CORS and the caller's request id."""
    import gzip

    base, _ = server
    data = gzip.compress(b'{"cards": ["5H","5C","5S","JD"], "starter": "5D"}')
    headers = {**BROWSER, "Content-Type": "application/json", "Content-Encoding": "gzip"}
    with httpx.Client(base_url=base, timeout=10) as client:
        for content in (data, iter([data[:10], data[10:]])):  # a length, then chunked
            r = client.post("/v1/hands/score", content=content, headers=headers)
            _browser_readable(r.status_code, dict(r.headers), r.content, 415)
            assert r.headers["accept-encoding"] == "identity"
            body = r.json()
            assert body["type"] == "https://cribbage.example/problems/unsupported-content-encoding"
            assert body["header"] == "Content-Encoding" and body["read_encodings"] == ["identity"]
        r = client.post("/v1/hands/score", content=data[:0] + b'{"cards": ["5H","5C","5S","JD"], "starter": "5D"}',
                        headers={**headers, "Content-Encoding": "identity"})
        assert r.status_code == 200 and r.json()["total"] == 29


def _healthz_count(client) -> float:
    text = client.get("/metrics").text
    prefix = 'cribbage_http_requests_total{method="GET",route="/healthz",status="200"}'
    return sum(float(l.split()[-1]) for l in text.splitlines() if l.startswith(prefix))


def test_metrics_across_workers(server):
    base, _ = server
    with httpx.Client(base_url=base, timeout=10) as client:
        before = _healthz_count(client)
        # new connections, so that both workers answer some
        for _ in range(20):
            httpx.get(f"{base}/healthz", timeout=10)
        # each worker writes what it buffered at least once a second
        deadline = time.monotonic() + 5
        while (count := _healthz_count(client)) < before + 20 and time.monotonic() < deadline:
            time.sleep(0.2)
    assert count >= before + 20


def test_access_log_has_request_id(server):
    base, log_path = server
    httpx.get(f"{base}/healthz", headers={"X-Request-ID": "find-me-42"}, timeout=10)
    deadline = time.monotonic() + 5
    while "rid=find-me-42" not in log_path.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "rid=find-me-42" in log_path.read_text()


@pytest.mark.parametrize("agent", ["httpx", 'a "quoted" agent', None])
def test_lean_access_log_writes_gunicorn_s_line(agent, monkeypatch, tmp_path):
    """The settings' AccessLogger (service/gunicorn_conf.py): the very line gunicorn's own Logger
    writes for the format."""
    import datetime
    import io
    import logging
    import runpy

    from gunicorn.config import Config
    from gunicorn.glogging import Logger

    # Reading the conf sets PROMETHEUS_MULTIPROC_DIR unless it is set: keep it out of
    # this process's environment, or every later in-process metrics test would see it.
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    conf = runpy.run_path(str(ROOT / "service" / "gunicorn_conf.py"))  # run afresh, as gunicorn reads it

    class Resp:
        status = "201 Created"
        sent = 340
        headers = [("Content-Type", "application/json"), ("X-Request-ID", 'r"1')]

    class Req:
        headers = [("HOST", "127.0.0.1")]

    environ = {"REQUEST_METHOD": "POST", "RAW_URI": '/v1/games?x="y"', "SERVER_PROTOCOL": "HTTP/1.1",
               "REMOTE_ADDR": "127.0.0.1", "PATH_INFO": "/v1/games", "QUERY_STRING": 'x="y"'}
    if agent is not None:
        environ["HTTP_USER_AGENT"] = agent
    lines = []
    for cls in (Logger, conf["AccessLogger"]):
        cfg = Config()
        cfg.set("accesslog", "-")
        cfg.set("access_log_format", conf["access_log_format"])
        log = cls(cfg)
        out = io.StringIO()
        handler = logging.StreamHandler(out)  # what gunicorn makes for accesslog = "-", on a buffer
        handler.setFormatter(logging.Formatter(Logger.access_fmt))
        log.access_log.handlers = [handler]
        if cls is not Logger:
            assert log._direct() == [handler]  # the lean path, not gunicorn's
        log.access(Resp, Req, environ, datetime.timedelta(seconds=1, microseconds=2500))
        lines.append(out.getvalue())
    stamp, rest = zip(*(line.split("] ", 1) for line in lines))  # the second may tick between the two
    assert rest[0] == rest[1] and rest[0].endswith("\n") and 'rid=r\\"1' in rest[0]
    assert all(len(s) == len("[01/Dec/2026:09:51:31 +0000") for s in stamp), stamp
