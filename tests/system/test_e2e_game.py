"""End to end: whole games over a real gunicorn (gunicorn.conf.py) on a free loopback port.

* plain states: a 2-player game played by one trusted platform client, then its
  record replayed;
* sealed states (CRIBBAGE_STATE_SECRET): a 3-player game in which each seat is a
  separate client with its own connection, knowing only its own seat token and
  the latest state token a "platform" loop relays to it.

Each game is bounded at 60 s; the server is always stopped.
"""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest
from gunicorn_server import gunicorn
from helpers_games import (
    ADVANCE, MAX_TOKEN_CHARS, REPLAY, START, VIEW, Tally, cards_in, check_game_response, check_result,
    check_view_cards, hidden_cards, open_sealed, play_game, public_events,
)

from service.seal import Sealer

GAME_SECONDS = 60
pytestmark = pytest.mark.slow


def post_json(client: httpx.Client, url: str, body: dict, deadline: float) -> tuple[int, Any]:
    if time.monotonic() > deadline:
        pytest.fail(f"the game took more than {GAME_SECONDS} s")
    r = client.post(url, json=body)
    assert r.headers["content-type"].startswith(("application/json", "application/problem+json"))
    return r.status_code, r.json()


# Each game also runs with the workers' state cache off: every request is replayed
# from its state, so a state one worker answered must restore on the other.
CACHE = pytest.mark.parametrize("state_cache", ["2048", "0"], ids=["cache", "no-cache"])


@CACHE
def test_a_whole_plain_game_over_gunicorn(tmp_path, state_cache):
    with gunicorn(tmp_path / "gunicorn.log", CRIBBAGE_STATE_CACHE=state_cache) as base:
        deadline = time.monotonic() + GAME_SECONDS
        with httpx.Client(base_url=base, timeout=10) as client:
            out = play_game(lambda url, body: post_json(client, url, body, deadline),
                            {"options": {"players": 2}}, random.Random(2024))
            last = out["last"]
            state = last["state"]
            record = {"game_id": state["game_id"], "options": state["options"],
                      "first_dealer": state["first_dealer"], "actions": [a for r in out["records"] for a in r]}
            status, replayed = post_json(client, REPLAY, {"record": record}, deadline)
    assert status == 200, replayed
    view = last["view"]
    assert view["phase"] == "over"
    front = [p["front"] for p in view["scores"]]
    winner = view["result"]["winner"]
    assert front[winner] >= 121 > front[1 - winner]
    assert view["result"]["losers"] == [
        {"side": 1 - winner, "score": front[1 - winner], "result": None, "games": 1}
    ]
    assert replayed["result"] == view["result"] and replayed["history"] == state["history"]
    assert [s["front"] for s in replayed["final"]["scores"]] == front


class SeatClient:
    """One seat's program: its own connection and its own seat token, nothing else.
    It is handed the latest state token, asks its own view, picks one of its own
    legal actions at random and advances.  ``seen`` keeps every answer it got."""

    def __init__(self, base: str, seat: int, token: str, deadline: float, rng: random.Random) -> None:
        self.seat, self._token, self._deadline, self._rng = seat, token, deadline, rng
        self._http = httpx.Client(base_url=base, timeout=10)
        self.seen: list[dict] = []

    def _post(self, url: str, body: dict) -> dict:
        status, answer = post_json(self._http, url, body, self._deadline)
        assert status == 200, (self.seat, url, answer)
        self.seen.append(answer)
        return answer

    def take_turn(self, state: str) -> dict:
        mine = self._post(VIEW, {"state": state, "seat_token": self._token})
        action = self._rng.choice(mine["legal_actions"])
        assert action["seat"] == self.seat
        return self._post(ADVANCE, {"state": state, "action": action, "seat_token": self._token})

    def close(self) -> None:
        self._http.close()


@CACHE
def test_a_whole_sealed_3_player_game_with_a_client_per_seat(tmp_path, state_cache):
    secret = "e2e-" + "k" * 40
    oracle = Sealer(secret)  # the test's, to check what each seat was shown; no client has it
    rng = random.Random(2025)
    with gunicorn(tmp_path / "gunicorn.log", CRIBBAGE_STATE_SECRET=secret, CRIBBAGE_STATE_CACHE=state_cache) as base:
        deadline = time.monotonic() + GAME_SECONDS
        with httpx.Client(base_url=base, timeout=10) as platform:
            status, latest = post_json(platform, START, {"options": {"players": 3}}, deadline)
        assert status == 201, latest
        check_game_response(latest, sealed=True, seat=None, key_id=oracle.key_id, tokens=True)
        seats = [SeatClient(base, s, token, deadline, random.Random(rng.random()))
                 for s, token in enumerate(latest["seat_tokens"])]
        tally = Tally(3)
        try:
            # The platform: relays the latest state token to a seat that is to act.
            for _ in range(3000):
                if latest["phase"] == "over":
                    break
                seq = latest["seq"]
                latest = seats[rng.choice(latest["to_act"])].take_turn(latest["state"])
                assert latest["seq"] == seq + 1
                assert len(latest["state"]) < MAX_TOKEN_CHARS
                tally.add(latest)
            else:
                pytest.fail("no winner after 3000 actions")
        finally:
            for s in seats:
                s.close()
    check_result(latest)
    for client in seats:
        assert client.seen
        for answer in client.seen:
            seat = client.seat
            check_game_response(answer, sealed=True, seat=seat, key_id=oracle.key_id)
            truth = open_sealed(oracle, answer["state"])
            # Only its own unplayed cards: every other card it was shown had been played or counted.
            check_view_cards(answer["view"], truth, seat)
            assert not cards_in(public_events(answer)) & hidden_cards(truth, seat)
            assert all(a["seat"] == seat for a in answer["legal_actions"])
            v = answer["view"]
            if v["phase"] in ("discard", "cut", "play"):
                played = set(v["play"]["played"]) if v["play"] else set()
                others = {c for t, h in enumerate(v["hands"]) if t != seat for c in h if c is not None}
                assert others <= played, (seat, others, played)
