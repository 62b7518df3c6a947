"""End to end: whole games over a real gunicorn (gunicorn.conf.py) on a free loopback port,
with plain states and with sealed states (CRIBBAGE_STATE_SECRET)."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest
from test_e2e_gunicorn import _free_port
from test_http_games import play_game

ROOT = Path(__file__).resolve().parent.parent
GAME_SECONDS = 60
pytestmark = pytest.mark.slow


@contextlib.contextmanager
def gunicorn(log_path: Path, **env_extra: str) -> Iterator[str]:
    """A gunicorn master with 2 workers; yields its base URL and always stops it."""
    port = _free_port()
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "WEB_CONCURRENCY": "2", **env_extra}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    if "CRIBBAGE_STATE_SECRET" not in env_extra:
        env.pop("CRIBBAGE_STATE_SECRET", None)
    exe = Path(sys.executable).with_name("gunicorn")
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([str(exe), "-c", "gunicorn.conf.py"], cwd=ROOT, env=env,
                                stdout=log, stderr=subprocess.STDOUT)
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
        yield base
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)  # the master stops its workers
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


def http_post(client: httpx.Client, deadline: float):
    def post(url: str, body: dict) -> tuple[int, Any]:
        if time.monotonic() > deadline:
            pytest.fail(f"the game took more than {GAME_SECONDS} s")
        r = client.post(url, json=body)
        assert r.headers["content-type"].startswith(("application/json", "application/problem+json"))
        return r.status_code, r.json()
    return post


@pytest.mark.parametrize("sealed", [False, True], ids=["plain", "sealed"])
def test_a_whole_game_over_gunicorn(tmp_path, sealed):
    extra = {"CRIBBAGE_STATE_SECRET": "e2e-" + "k" * 40} if sealed else {}
    with gunicorn(tmp_path / "gunicorn.log", **extra) as base:
        deadline = time.monotonic() + GAME_SECONDS
        with httpx.Client(base_url=base, timeout=10) as client:
            last = play_game(http_post(client, deadline), {"options": {"players": 2}},
                             random.Random(2024 + sealed), sealed=sealed)
        public = last["view"] if sealed else last["state"]
        assert public["phase"] == "over"
        front = [p["front"] for p in public["scores"]]
        winner = public["result"]["winner"]
        assert front[winner] >= 121 > front[1 - winner]
        assert public["result"]["losers"] == [
            {"side": 1 - winner, "score": front[1 - winner], "result": None, "games": 1}
        ]
        # Scores add up: the pegs in the log, side by side, are the final scores.
        pegged = [0, 0]
        for entry in public["log"]:
            for s in entry.get("scores", ()):
                pegged[s["side"]] += s["points"]
        assert pegged == front
        if sealed:
            assert isinstance(last["state"], str) and last["state"].startswith("v1.")
