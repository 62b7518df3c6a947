"""End to end: a real gunicorn with gunicorn.conf.py on a free loopback port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = _free_port()
    log_path = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
        "CRIBBAGE_MAX_BODY_BYTES": "4096",
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    gunicorn = Path(sys.executable).with_name("gunicorn")
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [str(gunicorn), "-c", "gunicorn.conf.py"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                pytest.fail(f"gunicorn exited with {proc.returncode}:\n{log_path.read_text()}")
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"gunicorn did not answer /healthz in 30 s:\n{log_path.read_text()}")
            time.sleep(0.1)
        yield base, log_path
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)  # the master: it stops its workers
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


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


def test_metrics_across_workers(server):
    base, _ = server
    with httpx.Client(base_url=base, timeout=10) as client:
        for _ in range(10):
            client.get("/healthz")
        text = client.get("/metrics").text
    line = next(l for l in text.splitlines()
                if l.startswith('cribbage_http_requests_total{method="GET",route="/healthz",status="200"}'))
    assert float(line.split()[-1]) >= 10


def test_access_log_has_request_id(server):
    base, log_path = server
    httpx.get(f"{base}/healthz", headers={"X-Request-ID": "find-me-42"}, timeout=10)
    deadline = time.monotonic() + 5
    while "rid=find-me-42" not in log_path.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "rid=find-me-42" in log_path.read_text()
