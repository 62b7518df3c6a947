"""GET /readyz: ready once warmed, 503 ``not-ready`` from the moment a stop begins.

In-process: the answer, the draining answer, a failed warm-up, and the
signal chaining of :func:`service.http.readiness.drain_on_stop_signals`.
Against a real gunicorn (gunicorn.conf.py, 2 gthread workers): a readiness
probe already on a worker's thread when the master gets SIGTERM (Kubernetes'
stop) is answered 503 while the worker finishes it, instead of 200.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import threading
import time

import falcon
import falcon.testing
import httpx
import orjson
import pytest
from conftest import problem, running_kernel

from service.app import create_app
from service.http import readiness
from service.http.readiness import Lifecycle


@pytest.fixture()
def client():
    return falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))


def test_ready(client):
    r = client.simulate_get("/readyz")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    assert r.headers["cache-control"] == "no-store"
    assert r.json == {"status": "ready",
                      "checks": {"openapi": "loaded", "state": "plain", "warm": True, "draining": False,
                                 "kernel": running_kernel()}}
    assert readiness.LIFECYCLE.warm


def test_ready_says_sealed_when_sealed():
    from service.seal import Sealer

    c = falcon.testing.TestClient(create_app(sealer=Sealer("s" * 32), collect_metrics=False))
    assert c.simulate_get("/readyz").json["checks"]["state"] == "sealed"


def test_not_ready_while_draining(client, monkeypatch):
    monkeypatch.setattr(readiness.LIFECYCLE, "_draining", threading.Event())
    readiness.LIFECYCLE.drain()
    r = client.simulate_get("/readyz")
    body = problem(r, 503)
    assert body["type"] == "https://cribbage.example/problems/not-ready"
    assert "shutting down" in body["detail"]
    assert r.headers["cache-control"] == "no-store"
    # Liveness is another question: the process still answers.
    assert client.simulate_get("/healthz").status_code == 200


def test_warm_up_goes_through_the_whole_app():
    calls = []

    def app(environ, start_response):
        calls.append((environ["REQUEST_METHOD"], environ["PATH_INFO"], environ["wsgi.input"].read()))
        start_response("200 OK", [])
        return [b"{}"]

    lifecycle = Lifecycle()
    assert lifecycle.warm_up(app) and lifecycle.warm
    assert lifecycle.warm_up(app)  # once only
    assert calls == [("POST", "/v1/hands/score", readiness.WARM_UP_BODY)]
    # ...and the body it sends is a hand the real app scores (the 29 hand).
    got = falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False)).simulate_post(
        readiness.WARM_UP_PATH, body=readiness.WARM_UP_BODY, headers={"Content-Type": "application/json"})
    assert got.status_code == 200 and got.json["total"] == 29


def test_a_failed_warm_up_is_not_ready(monkeypatch):
    lifecycle = Lifecycle()

    def broken(environ, start_response):
        start_response("500 Internal Server Error", [])
        return [b""]

    assert not lifecycle.warm_up(broken) and not lifecycle.warm
    app = falcon.App()
    from service.http.problems import render_problem
    from service.http.resources.meta import Ready

    app.set_error_serializer(render_problem)
    app.add_route("/readyz", Ready(broken, state="plain", lifecycle=lifecycle))
    r = falcon.testing.TestClient(app).simulate_get("/readyz")
    assert r.status_code == 503 and orjson.loads(r.content)["type"].endswith("/not-ready")


def test_stop_signals_drain_then_call_the_previous_handler():
    lifecycle = Lifecycle()
    seen = []
    saved = {s: signal.getsignal(s) for s in readiness.STOP_SIGNALS}
    try:
        for s in readiness.STOP_SIGNALS:
            signal.signal(s, lambda sig, frame: seen.append((sig, lifecycle.draining)))
        readiness.drain_on_stop_signals(lifecycle)
        assert not lifecycle.draining
        signal.raise_signal(signal.SIGTERM)
        assert lifecycle.draining
        signal.raise_signal(signal.SIGQUIT)
        # the previous handler ran after drain(), for each signal
        assert seen == [(signal.SIGTERM, True), (signal.SIGQUIT, True)]
    finally:
        for s, h in saved.items():
            signal.signal(s, h)


# --- a real gunicorn ----------------------------------------------------------------


def _status_and_headers(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def _read_response(sock: socket.socket) -> bytes:
    out = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return out
        out += chunk
        head, sep, body = out.partition(b"\r\n\r\n")
        if sep:
            length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), None)
            if length is not None and len(body) >= length:
                return out


@pytest.mark.slow
def test_gunicorn_worker_draining_answers_not_ready(tmp_path):
    from gunicorn_server import gunicorn

    pidfile = tmp_path / "gunicorn.pid"
    log = tmp_path / "gunicorn.log"
    with gunicorn(log, GUNICORN_CMD_ARGS=f"--pid {pidfile}") as base:
        r = httpx.get(f"{base}/readyz", timeout=5)
        assert r.status_code == 200 and r.json()["status"] == "ready", r.text
        # Each of the 2 workers sent itself a score request before serving
        # (post_worker_init): not through gunicorn, so not in its access log, but
        # counted in /metrics (each worker writes its counts within a second).
        line = 'cribbage_http_requests_total{method="POST",route="/v1/hands/score",status="200"}'
        deadline = time.monotonic() + 10
        while True:
            text = httpx.get(f"{base}/metrics", timeout=5).text
            counts = [float(x.rsplit(" ", 1)[1]) for x in text.splitlines() if x.startswith(line)]
            if counts == [2.0] or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert counts == [2.0], text
        assert "POST /v1/hands/score" not in log.read_text()
        host, port = base.removeprefix("http://").split(":")
        # A probe already on a worker's thread: the request line sent, the headers not yet.
        probe = socket.create_connection((host, int(port)), timeout=30)
        with contextlib.closing(probe):
            probe.sendall(b"GET /readyz HTTP/1.1\r\n")
            time.sleep(0.5)
            os.kill(int(pidfile.read_text()), signal.SIGTERM)  # what the kubelet sends
            # The master logs the signal, closes its listener and sends SIGTERM to
            # each worker (which keep the listening socket open until they exit).
            deadline = time.monotonic() + 20
            while "Handling signal: term" not in log.read_text():
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.05)
            time.sleep(0.5)  # the workers' signal handlers have run
            probe.sendall(b"Host: localhost\r\nX-Request-ID: drain-probe\r\n\r\n")
            status, headers, body = _status_and_headers(_read_response(probe))
        assert status == 503, body
        assert headers["content-type"] == "application/problem+json"
        got = orjson.loads(body)
        assert got["type"] == "https://cribbage.example/problems/not-ready"
        assert got["request_id"] == "drain-probe" and "shutting down" in got["detail"]
        assert headers.get("connection", "").lower() == "close"
