"""Request bodies for the HTTP benchmarks, random and legal by construction.

* :func:`score_requests` -- ``POST /v1/hands/score``: distinct (4 cards,
  starter, crib) of a seeded shuffle;
* :func:`pegging_requests` -- ``POST /v1/pegging/score``: the play of one hand
  for 2, 3 or 4 seats, dealt from a seeded shuffle and played by random legal
  moves through the core's :class:`~service.core.play.Play` (any prefix, or
  the whole hand with ``complete``), with the hands or without;
* :func:`go_requests` -- ``POST /v1/pegging/go``: a seat's cards at a point
  of such a play, with the count or with the count's cards;
* :func:`advance_requests` -- ``POST /v1/games/advance``: the bodies of a few
  seeded random games, played in-process through the service.

Each is checked against the service in-process (:func:`check`): a benchmark
of error answers would measure nothing.
"""

from __future__ import annotations

import random
import time

import falcon.testing
import orjson

Request = tuple[str, str, bytes]

RANKS = "A23456789TJQK"
SUITS = "CDHS"
DECK = [r + s for r in RANKS for s in SUITS]  # "5H", "TD", ...; card i is DECK[i]
HEADERS = {"Content-Type": "application/json"}
MAX_ACTIONS_PER_GAME = 2000
RECORD_TIME_CAP = 60.0  # seconds for recording all advance bodies


def score_requests(n: int = 200, seed: int = 2026) -> list[Request]:
    """``n`` distinct random (4 cards, starter, crib) bodies for POST /v1/hands/score."""
    rng = random.Random(seed)
    seen: set = set()
    out = []
    for _ in range(n * 100):
        if len(out) == n:
            break
        five = rng.sample(DECK, 5)
        crib = rng.random() < 0.5
        key = (frozenset(five[:4]), five[4], crib)
        if key in seen:
            continue
        seen.add(key)
        out.append(("POST", "/v1/hands/score",
                    orjson.dumps({"cards": five[:4], "starter": five[4], "crib": crib})))
    return out


def _random_play(rng: random.Random):
    """A dealt table and a random legal play of it: (players, pone, hands, positions, actions)."""
    from service.core.cards import CARDS
    from service.core.play import Play

    players = rng.choice((2, 3, 4))
    pone = rng.randrange(players)
    deck = rng.sample(range(52), 4 * players)
    hands = [[CARDS[c] for c in deck[4 * s:4 * s + 4]] for s in range(players)]
    play = Play.start(players, pone, hands)
    positions, actions = [play], []
    while not play.hand_over:
        action = rng.choice(play.legal_actions())
        play, _ = play.apply(action)
        positions.append(play)
        actions.append(action)
    return players, pone, hands, positions, actions


def _entry(action) -> dict:
    from service.core.play import PlayCard

    if type(action) is PlayCard:
        return {"seat": action.seat, "card": str(action.card)}
    return {"seat": action.seat, "go": True}


def pegging_requests(n: int = 200, seed: int = 2026) -> list[Request]:
    """``n`` random legal bodies for POST /v1/pegging/score."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        players, pone, hands, _, actions = _random_play(rng)
        whole = rng.random() < 0.5
        cut = len(actions) if whole else rng.randrange(len(actions) + 1)
        body = {"players": players, "pone": pone, "plays": [_entry(a) for a in actions[:cut]]}
        if rng.random() < 0.7:
            body["hands"] = [[str(c) for c in h] for h in hands]
        if whole:
            body["complete"] = True
        out.append(("POST", "/v1/pegging/score", orjson.dumps(body)))
    return out


def go_requests(n: int = 200, seed: int = 2026) -> list[Request]:
    """``n`` random bodies for POST /v1/pegging/go: the seat to act and what it holds."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        _, _, _, positions, _ = _random_play(rng)
        play = rng.choice(positions[:-1])
        hand = [str(c) for c in play.held[play.turn]]
        body: dict = {"hand": hand}
        if rng.random() < 0.5 and play.count_cards:
            body["count_cards"] = [str(c) for c in play.count_cards]
        else:
            body["count"] = play.count
        if rng.random() < 0.3:
            body["tournament"] = True
        out.append(("POST", "/v1/pegging/go", orjson.dumps(body)))
    return out


def _json_post(client: falcon.testing.TestClient, path: str, body: bytes) -> dict:
    resp = client.simulate_post(path, body=body, headers=HEADERS)
    if not 200 <= resp.status_code < 300:
        detail = resp.json.get("detail") if isinstance(resp.json, dict) else resp.text[:300]
        raise RuntimeError(f"{path} answered {resp.status_code}: {detail}")
    return resp.json


def check(requests: list[Request]) -> list[Request]:
    """``requests`` unchanged, once the service in-process answered each 2xx (else raises)."""
    from service.app import create_app

    client = falcon.testing.TestClient(create_app(collect_metrics=False))
    for _, path, body in requests:
        _json_post(client, path, body)
    return requests


def advance_requests(games: int = 5, seed: int = 2026) -> tuple[list[Request], int]:
    """The advance bodies of ``games`` seeded random 2-player games, played in-process.

    Only the response keys ``state``, ``legal_actions`` and ``phase`` are used,
    so any state format works.  The service is stateless: each recorded body is
    a valid request on its own.  Raises if any answer is not 2xx.
    """
    from service.app import create_app

    client = falcon.testing.TestClient(create_app())
    rng = random.Random(seed)
    bodies = []
    start = time.perf_counter()
    for i in range(games):
        resp = _json_post(client, "/v1/games",
                          orjson.dumps({"options": {"deck": "seeded", "seed": str(i)}, "dealer": 0}))
        for _ in range(MAX_ACTIONS_PER_GAME):
            if resp["phase"] == "over":
                break
            if time.perf_counter() - start > RECORD_TIME_CAP:
                raise RuntimeError(f"recording took over {RECORD_TIME_CAP:.0f} s")
            body = orjson.dumps({"state": resp["state"], "action": rng.choice(resp["legal_actions"])})
            bodies.append(("POST", "/v1/games/advance", body))
            resp = _json_post(client, "/v1/games/advance", body)
        else:
            raise RuntimeError(f"game {i} not over after {MAX_ACTIONS_PER_GAME} actions")
    return bodies, games
