"""End to end: a real gunicorn with gunicorn.conf.py on a free loopback port."""

from __future__ import annotations

import time

import httpx
import pytest
from gunicorn_server import ROOT, gunicorn

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log_path = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    with gunicorn(log_path, CRIBBAGE_MAX_BODY_BYTES="4096") as base:
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
