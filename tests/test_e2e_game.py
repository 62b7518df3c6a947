"""End to end: whole games over a real gunicorn (gunicorn.conf.py) on a free loopback port,
with plain states and with sealed states (CRIBBAGE_STATE_SECRET)."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest
from gunicorn_server import gunicorn
from test_http_games import play_game

GAME_SECONDS = 60
pytestmark = pytest.mark.slow


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
