"""The game API (state v2) over HTTP, in-process (falcon.testing): plain states.

POST /v1/games, /v1/games/advance and /v1/games/view with a service that has
no sealing secret: the client is a trusted platform holding the v2 state object.
Sealed games are in tests/test_http_games_sealed.py, /v1/games/replay in
tests/test_http_games_replay.py.

The helpers here (:func:`check_game_response`, :func:`play_game`,
:func:`play_sealed_game`, :func:`hidden_cards`, ...) are shared with those
files and with tests/test_e2e_game.py, which plays over a real gunicorn.
Whole games are played through any ``post(url, body) -> (status, json)``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
import struct
from typing import Any, Callable

import falcon.testing
import pytest
from conftest import fields, problem

from service.app import create_app
from service.boundary.state import state_from_json

START = "/v1/games"
ADVANCE = "/v1/games/advance"
VIEW = "/v1/games/view"
REPLAY = "/v1/games/replay"

PHASES = ("deal", "discard", "cut", "play", "show", "over")
GAME_KEYS = {"state", "game_id", "seq", "deal", "phase", "to_act", "view", "events", "legal_actions",
             "seat_tokens"}
VIEW_KEYS = {"seat", "game_id", "seq", "deal", "phase", "dealer", "pone", "first_dealer", "to_act", "scores",
             "hands", "crib", "starter", "play", "shown", "next_count", "result", "win_probability", "options"}
PLAY_KEYS = {"turn", "count", "count_cards", "passed", "last_player", "played"}
STATE_KEYS = {"version", "game_id", "seq", "options", "first_dealer", "deal", "dealer", "pegs", "deck_seed",
              "history", "actions"}
REPLAY_KEYS = {"game_id", "seq", "deals", "scores_after_deal", "history", "phase", "result", "final"}
EVENT_KEYS = {"type", "deal", "seat", "card", "cards", "count", "what", "reset", "scores", "points", "record"}
EVENT_TYPES = {"cut_for_deal", "deal", "discard", "starter", "play", "go", "count", "game_over", "deal_record"}
SCORE_KEYS = {"seat", "side", "kind", "points", "cards"}
ACTION_KEYS = {"deal": {"hands", "crib"}, "discard": {"cards"}, "cut": set(), "play": {"card"}, "go": set(),
               "count": {"what"}}
TOKEN_RE = re.compile(r"v2\.([0-9a-f]{8})\.([0-9a-f]{32})\.(0|[1-9][0-9]{0,8})\.([A-Za-z0-9_-]+)")
SEAT_TOKEN_RE = re.compile(r"st\.([0-3])\.[A-Za-z0-9_-]{22}")
CARD_RE = re.compile(r"[A2-9TJQK][CDHS]")
ALL_CARDS = {r + s for r in "A23456789TJQK" for s in "CDHS"}

MAX_STATE_BYTES = 2048   # a plain state, compact JSON
MAX_TOKEN_CHARS = 1024   # a sealed state token (strictly under)

SEED = {"options": {"deck": "seeded", "seed": "http-games"}, "dealer": 0}

Post = Callable[[str, dict], "tuple[int, Any]"]


# --- checking answers ------------------------------------------------------------------


def compact_size(state: dict) -> int:
    return len(json.dumps(state, separators=(",", ":")).encode())


def token_header(token: str) -> tuple[str, str, int]:
    """(key id, game id, seq) from a v2 state token, checking its spelling."""
    m = TOKEN_RE.fullmatch(token)
    assert m, token
    return m.group(1), m.group(2), int(m.group(3))


def check_event(event: dict, players: int) -> None:
    assert set(event) <= EVENT_KEYS, event
    assert event["type"] in EVENT_TYPES, event
    assert isinstance(event["deal"], int)
    if event["type"] == "play":
        # One card per play, as a string (not a list).
        assert isinstance(event["card"], str) and event["card"] in ALL_CARDS, event
        assert "cards" not in event
    else:
        assert "card" not in event, event
    if event["type"] == "go":
        assert "cards" not in event, event
    if event["type"] == "count":
        assert event["what"] in ("hand", "crib"), event
    if "scores" in event:
        # a set back (ACC 8.4.b, a false claim of game) takes its points off
        assert event["points"] == sum(-s["points"] if s["kind"] == "set_back" else s["points"]
                                      for s in event["scores"]), event
        for s in event["scores"]:
            assert set(s) <= SCORE_KEYS and {"seat", "side", "kind", "points"} <= set(s), s
            assert s["points"] > 0, event
            assert s["side"] == (s["seat"] % 2 if players == 4 else s["seat"]), s
            if s["kind"] == "renege":
                # A renege names no cards: the cards that could have been played are hidden ones.
                assert "cards" not in s, event
                assert s["points"] % 2 == 0, s
    if event["type"] == "deal_record":
        assert isinstance(event["record"], list) and all(isinstance(r, str) for r in event["record"])


def assert_record_is_public(events: list[dict], record: dict) -> None:
    """A deal's record arrives in the answer that counted its crib, or that ended the game, never
    earlier: it names every seat's cards (the rules make them public only then)."""
    kinds = [(e["type"], e.get("what"), e["deal"]) for e in events]
    assert ("count", "crib", record["deal"]) in kinds or ("game_over", None, record["deal"]) in kinds, kinds


def check_game_response(body: dict, *, sealed: bool, seat: int | None = None, key_id: str | None = None,
                        tokens: bool = False) -> None:
    """Every answer of /v1/games, /advance and /view has exactly the documented shape.

    ``seat``: whose answer it is (sealed: the seat token's seat, None for a
    spectator; plain: the seat named, None for everything); ``tokens``: the
    answer carries seat tokens."""
    assert set(body) - {"record", "deal_records", "deck"} == GAME_KEYS, sorted(body)
    assert "record" not in body or (sealed and body["phase"] == "over"), sorted(body)
    phase = body["phase"]
    assert phase in PHASES
    assert isinstance(body["to_act"], list) and isinstance(body["events"], list)
    assert isinstance(body["legal_actions"], list)
    assert isinstance(body["game_id"], str) and re.fullmatch(r"[0-9a-f]{32}", body["game_id"])
    view = body["view"]
    assert set(view) == VIEW_KEYS, sorted(view)
    for key in ("game_id", "seq", "deal", "phase", "to_act"):
        assert view[key] == body[key], key
    assert view["seat"] == seat
    assert "seed" not in view["options"]  # a seed gives the pack away
    players = len(view["hands"])
    assert players in (2, 3, 4) and view["options"].get("players", 2) == players
    assert len(view["scores"]) == (2 if players == 4 else players)
    if view["play"] is not None:
        assert set(view["play"]) == PLAY_KEYS
    assert view["next_count"] == (("crib" if view["shown"] == players else "hand") if phase == "show" else None)
    if sealed:
        token = body["state"]
        assert isinstance(token, str)
        kid, game_id, seq = token_header(token)
        assert (game_id, seq) == (body["game_id"], body["seq"])
        if key_id is not None:
            assert kid == key_id
        if tokens:  # a sealed start (and a sealed v1 state's first answer) gives one token a seat
            issued = body["seat_tokens"]
            assert isinstance(issued, list) and len(issued) == players
            assert [int(SEAT_TOKEN_RE.fullmatch(t).group(1)) for t in issued] == list(range(players))
        else:
            assert body["seat_tokens"] is None
        for e in body["events"]:
            if e["type"] == "deal_record":  # never before the deal's cards are all public
                assert_record_is_public(body["events"], e)
    else:
        state = body["state"]
        assert isinstance(state, dict)
        assert set(state) == STATE_KEYS, sorted(state)
        assert state["version"] == 2
        for key in ("game_id", "seq", "deal"):
            assert state[key] == body[key], key
        assert (state["dealer"], state["first_dealer"]) == (view["dealer"], view["first_dealer"])
        assert body["seat_tokens"] is None
    for e in body["events"]:
        check_event(e, players)
    for a in body["legal_actions"]:
        assert a["type"] in ACTION_KEYS and isinstance(a["seat"], int), a
        assert set(a) - {"type", "seat"} <= ACTION_KEYS[a["type"]], a
        if a["type"] == "count":
            assert a["what"] == view["next_count"], (a, view["next_count"])
    if phase == "over":
        assert body["to_act"] == [] and body["legal_actions"] == []
        assert view["result"] is not None
    else:
        assert body["to_act"]
        assert view["result"] is None
    seats = {a["seat"] for a in body["legal_actions"]}
    if sealed and seat is None:
        assert body["legal_actions"] == []  # a spectator has none
    elif sealed:
        # Only the seat's own actions: during the discard others' would spell out their hands.
        assert seats <= {seat}, body["legal_actions"]
        assert (seat in seats) == (seat in body["to_act"]), (seat, body["to_act"])
    elif seat is None and phase != "over":
        assert seats == set(body["to_act"])
    elif seat is not None:
        # Plain with a seat named: whether the legal actions are all or the seat's is
        # test_plain_answer_with_a_view_still_carries_everything's question.
        assert (seat in seats) == (seat in body["to_act"]), (seat, body["to_act"])


def hidden_cards(state: Any, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) may not see in ``state`` (a core
    GameState): the rules stated independently of service.core.game.observe.
    Visible: every card played, the starter, one's own hand and discards, each
    hand and the crib once counted; at game over every hand and the crib."""
    pos = state.position
    pack = set(map(str, pos.cards)) if pos.cards is not None else set()
    table = {str(c) for h in pos.hands for c in h} | {str(c) for c in pos.crib}
    if pos.phase == "over":
        return pack - table - ({str(pos.starter)} if pos.starter is not None else set())
    seen: set[str] = set()
    if pos.play is not None:
        seen |= {str(c) for c in pos.play.played}
    if pos.starter is not None:
        seen.add(str(pos.starter))
    if seat is not None:
        seen |= {str(c) for c in pos.hands[seat]} | {str(c) for c in pos.discards[seat]}
    if pos.phase == "show":
        n = pos.options.players
        order = [(pos.dealer + 1 + i) % n for i in range(n)]
        for i in range(pos.shown):
            seen |= {str(c) for c in (pos.crib if i == n else pos.hands[order[i]])}
    return (pack | table) - seen


def check_view_cards(view: dict, state: Any, seat: int | None) -> None:
    """Each card of the view is the true card, or None exactly when ``seat`` may not see it."""
    pos = state.position
    hidden = hidden_cards(state, seat)
    truth = [[str(c) for c in h] for h in pos.hands]
    assert [len(h) for h in view["hands"]] == [len(h) for h in truth]
    for t, (shown, real) in enumerate(zip(view["hands"], truth)):
        assert shown == [None if c in hidden else c for c in real], (seat, t, shown, real)
    crib = [str(c) for c in pos.crib]
    assert view["crib"] == [None if c in hidden else c for c in crib], (seat, view["crib"], crib)
    if seat is not None and pos.phase not in ("deal", "over"):
        assert None not in view["hands"][seat]


def cards_in(data: Any, skip: frozenset[str] = frozenset({"state", "seat_tokens", "request_id", "instance"})) -> set[str]:
    """Every card spelling anywhere in a JSON answer (its strings), except under ``skip`` keys."""
    out: set[str] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            if k not in skip:
                out |= cards_in(v, skip)
    elif isinstance(data, list):
        for v in data:
            out |= cards_in(v, skip)
    elif isinstance(data, str):
        out |= set(CARD_RE.findall(data))
    return out


def public_events(body: dict) -> dict:
    """The answer without the events that speak of another pack (cut for deal: deal 0;
    the events of a deal that just ended, whose cards were all counted in the show)."""
    return {**body, "events": [e for e in body["events"]
                               if e["type"] != "cut_for_deal" and e["deal"] == body["deal"]]}


def open_plain(state: dict) -> Any:
    return state_from_json(state)


def open_sealed(sealer: Any, token: str) -> Any:
    """The oracle: the whole state behind a token (the test knows the secret; no client does)."""
    opened = sealer.unseal(token)
    return state_from_json(opened.state)


# --- playing whole games ------------------------------------------------------------------


class Tally:
    """Points pegged per side from the events, checked against the view's front pegs."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.pegged = [0] * (2 if players == 4 else players)

    def add(self, body: dict) -> None:
        for event in body["events"]:
            for s in event.get("scores", ()):
                self.pegged[s["side"]] += -s["points"] if s["kind"] == "set_back" else s["points"]
        front = [p["front"] for p in body["view"]["scores"]]
        assert front == self.pegged, (front, self.pegged)


def maybe_claim(action: dict, options: dict, rng: random.Random) -> dict:
    """Under muggins, sometimes claim fewer points than made (the opponent pegs the rest)."""
    kind = action["type"]
    if (kind == "count" and options.get("muggins")) or (kind in ("play", "go") and options.get("muggins_in_play")):
        if rng.random() < 0.3:
            return {**action, "claim": rng.randrange(0, 6)}
    return action


def check_result(body: dict) -> None:
    view = body["view"]
    result = view["result"]
    assert body["phase"] == "over" and result is not None
    target = view["options"].get("target", 121)
    sides = len(view["scores"])
    front = [p["front"] for p in view["scores"]]
    winner = result["winner"]
    assert front[winner] >= target
    assert all(f < target for side, f in enumerate(front) if side != winner)
    assert sorted(e["side"] for e in result["losers"]) == [s for s in range(sides) if s != winner]
    for entry in result["losers"]:
        assert entry["score"] == front[entry["side"]]
        assert entry["games"] >= 1
    assert result["next_first_dealer"] in range(len(view["hands"]))
    assert body["events"][-1]["type"] in ("game_over", "deal_record")
    assert "game_over" in [e["type"] for e in body["events"]]
    # At game over every hand and the crib are on the table.
    assert all(None not in h for h in view["hands"]) and None not in view["crib"]


def play_game(post: Post, start: dict, rng: random.Random, *, max_steps: int = 3000) -> dict:
    """Play a plain game from ``start`` to the end with random legal actions,
    checking every answer.  Returns ``{"last", "records", "scores_at_deal", "max_size"}``:
    the last answer, each deal's ``deal_record``, the front pegs as each deal began."""
    status, body = post(START, start)
    assert status == 201, body
    check_game_response(body, sealed=False)
    assert body["seq"] == 0 and body["deal"] == 1 and body["phase"] == "deal"
    options = body["state"]["options"]
    players = len(body["view"]["hands"])
    tally = Tally(players)
    game_id = body["game_id"]
    records: list[list[str]] = []
    scores_at_deal = [[0] * len(tally.pegged)]
    max_size = compact_size(body["state"])
    for _ in range(max_steps):
        if body["phase"] == "over":
            break
        action = maybe_claim(rng.choice(body["legal_actions"]), options, rng)
        status, nxt = post(ADVANCE, {"state": body["state"], "action": action})
        assert status == 200, (action, nxt)
        check_game_response(nxt, sealed=False)
        assert nxt["game_id"] == game_id and nxt["seq"] == body["seq"] + 1
        size = compact_size(nxt["state"])
        assert size <= MAX_STATE_BYTES, (size, nxt["state"])
        max_size = max(max_size, size)
        tally.add(nxt)
        deal_records = [e for e in nxt["events"] if e["type"] == "deal_record"]
        if deal_records:
            (rec,) = deal_records
            # The deal's record is the deal's actions so far and the one that ended it.
            assert rec["record"][:-1] == body["state"]["actions"], rec
            assert rec["deal"] == body["deal"]
            records.append(rec["record"])
            if nxt["phase"] != "over":
                assert nxt["deal"] == body["deal"] + 1 and nxt["state"]["actions"] == []
                scores_at_deal.append([f for f, _ in nxt["state"]["pegs"]])
        else:
            assert nxt["deal"] == body["deal"]
            assert nxt["state"]["actions"][:-1] == body["state"]["actions"]
        body = nxt
    else:
        pytest.fail(f"no winner after {max_steps} actions")
    check_result(body)
    return {"last": body, "records": records, "scores_at_deal": scores_at_deal, "max_size": max_size}


def play_sealed_game(post: Post, start: dict, rng: random.Random, sealer: Any, *,
                     max_steps: int = 3000, cross_check: bool = False,
                     until: Callable[[dict], bool] | None = None) -> dict:
    """A sealed game: the seat to act (a random one while discarding) asks its
    view with its own seat token, picks from its own legal actions and advances
    with its token.  ``sealer`` is the test's oracle (it opens each token to
    check that no answer shows a card the seat may not see).  ``cross_check``:
    at every step every other seat's token, acting for this seat, is refused (403).
    Returns ``{"last", "tokens", "max_size"}``."""
    status, body = post(START, start)
    assert status == 201, body
    check_game_response(body, sealed=True, seat=None, key_id=sealer.key_id, tokens=True)
    tokens = body["seat_tokens"]
    players = len(tokens)
    options = open_sealed(sealer, body["state"]).options
    claims = {"muggins": options.muggins, "muggins_in_play": options.muggins_in_play}
    check_view_cards(body["view"], open_sealed(sealer, body["state"]), None)
    tally = Tally(players)
    max_size = len(body["state"])
    for _ in range(max_steps):
        if body["phase"] == "over" or (until is not None and until(body)):
            break
        assert len(body["state"]) < MAX_TOKEN_CHARS, len(body["state"])
        seat = rng.choice(body["to_act"])
        status, mine = post(VIEW, {"state": body["state"], "seat_token": tokens[seat]})
        assert status == 200, mine
        check_game_response(mine, sealed=True, seat=seat, key_id=sealer.key_id)
        assert (mine["game_id"], mine["seq"], mine["events"]) == (body["game_id"], body["seq"], [])
        truth = open_sealed(sealer, body["state"])
        check_view_cards(mine["view"], truth, seat)
        assert not cards_in(mine) & hidden_cards(truth, seat)
        action = maybe_claim(rng.choice(mine["legal_actions"]), claims, rng)
        if cross_check:
            for other in range(players):
                if other != seat:
                    status, refused = post(ADVANCE, {"state": body["state"], "action": action,
                                                     "seat_token": tokens[other]})
                    assert status == 403, refused
                    assert refused["type"].endswith("/seat-forbidden"), refused
        status, nxt = post(ADVANCE, {"state": body["state"], "action": action, "seat_token": tokens[seat]})
        assert status == 200, (action, nxt)
        check_game_response(nxt, sealed=True, seat=seat, key_id=sealer.key_id)
        assert nxt["game_id"] == body["game_id"] and nxt["seq"] == body["seq"] + 1
        truth = open_sealed(sealer, nxt["state"])
        check_view_cards(nxt["view"], truth, seat)
        assert not cards_in(public_events(nxt)) & hidden_cards(truth, seat)
        for e in nxt["events"]:
            if e["type"] == "discard" and e["seat"] != seat:
                assert e["cards"] == [None] * len(e["cards"]), e
        tally.add(nxt)
        max_size = max(max_size, len(nxt["state"]))
        body = nxt
    else:
        pytest.fail(f"no winner after {max_steps} actions")
    if until is None:
        check_result(body)
    assert len(body["state"]) < MAX_TOKEN_CHARS
    return {"last": body, "tokens": tokens, "max_size": max_size}


# --- in-process clients --------------------------------------------------------------


def client_post(client: falcon.testing.TestClient) -> Post:
    def post(url: str, body: dict) -> tuple[int, Any]:
        r = client.simulate_post(url, json=body)
        return r.status_code, r.json
    return post


@pytest.fixture(scope="module", params=[2048, 0], ids=["cache", "no-cache"])
def client(request: pytest.FixtureRequest) -> falcon.testing.TestClient:
    """Every game test runs twice: with the worker's state cache, and without it
    (each state replayed, as a worker that did not answer it would), so the cache
    can never hide a state that does not restore."""
    return falcon.testing.TestClient(create_app(sealer=None, state_cache=request.param))


def start(client, body) -> dict:
    r = client.simulate_post(START, json=body)
    assert r.status_code == 201, r.text
    return r.json


def advance(client, state, action, **extra):
    return client.simulate_post(ADVANCE, json={"state": state, "action": action, **extra})


def view_of(client, state, **extra):
    return client.simulate_post(VIEW, json={"state": state, **extra})


def step(client, body, action, **extra) -> dict:
    r = advance(client, body["state"], action, **extra)
    assert r.status_code == 200, (action, r.text)
    return r.json


def dealt(client, body=SEED) -> dict:
    g = start(client, body)
    return step(client, g, {"type": "deal", "seat": g["to_act"][0]})


def hands(body: dict) -> list[list[str]]:
    """The hands of a plain answer's everything-view."""
    assert body["view"]["seat"] is None
    return body["view"]["hands"]


def to_phase(client, body: dict, phase: str, rng: random.Random) -> dict:
    while body["phase"] != phase:
        assert body["phase"] != "over", phase
        body = step(client, body, rng.choice(body["legal_actions"]))
    return body


# --- starting --------------------------------------------------------------------


def test_start_seeded(client):
    body = start(client, {"options": {"deck": "seeded", "seed": "openapi-example"}, "dealer": 0})
    check_game_response(body, sealed=False)
    assert body["to_act"] == [0] and body["phase"] == "deal" and body["deal"] == 1 and body["seq"] == 0
    assert body["events"] == []
    assert body["legal_actions"] == [{"type": "deal", "seat": 0}]
    state = body["state"]
    # Only the options that differ from the defaults; the plain state keeps the seed.
    assert state["options"] == {"deck": "seeded", "seed": "openapi-example"}
    assert body["view"]["options"] == {"deck": "seeded"}
    assert state["pegs"] == [[0, 0], [0, 0]] and state["actions"] == []
    assert re.fullmatch(r"[0-9a-f]{32}", state["deck_seed"]) and re.fullmatch(r"[0-9a-f]{64}", state["history"])
    v = body["view"]
    assert v["hands"] == [[], []] and v["crib"] == [] and v["starter"] is None and v["play"] is None
    assert v["scores"] == [{"front": 0, "back": 0}] * 2
    assert (v["dealer"], v["pone"], v["first_dealer"], v["shown"]) == (0, 1, 0, 0)


# Regression pin of the seeded pack over HTTP: the first deal of SEED (seed
# "http-games", seat 0 deals), written down once from the service (at d1eef08).
# The test re-derives it from the documented construction -- deck seed =
# sha256("cribbage/seeded/<seed>")[:32], the pack = the 52 cards (rank-major,
# suits C D H S) sorted by 52 big-endian 32-bit SHAKE-256 keys (deck.py), dealt
# one at a time from the left of the dealer -- without the service's code.
SEED_DECK_SEED = "37c84615479a1b9ed1492c6f5b368f11"
SEED_HANDS = [["8D", "KH", "2S", "3H", "7S", "6H"], ["KC", "7D", "4D", "8H", "AC", "AH"]]


def shake_pack(deck_seed: str, deal: int) -> list[str]:
    """The pack of a deal as deck.py's docstring documents it, with hashlib alone:
    the 52 cards (rank-major, suits C D H S) sorted by 52 big-endian 32-bit
    SHAKE-256 keys of ``cribbage/deck/<deck seed>/<deal>``."""
    keys = struct.unpack(">52I", hashlib.shake_256(f"cribbage/deck/{deck_seed}/{deal}".encode()).digest(208))
    names = [r + s for r in "A23456789TJQK" for s in "CDHS"]
    return [names[i] for _, i in sorted(zip(keys, range(52)))]


def shake_deal(deck_seed: str, deal: int, players: int, dealer: int, each: int,
               to_crib: int = 0) -> tuple[list[list[str]], list[str]]:
    """The hands and the crib dealt off :func:`shake_pack` as documented: one card
    at a time from the left of the dealer, then the crib's."""
    cards = shake_pack(deck_seed, deal)
    dealt: list[list[str]] = [[] for _ in range(players)]
    for i in range(players * each):
        dealt[(dealer + 1 + i) % players].append(cards[i])
    return dealt, cards[players * each:players * each + to_crib]


def test_seeded_deck_pin_is_the_documented_construction():
    assert hashlib.sha256(b"cribbage/seeded/http-games").hexdigest()[:32] == SEED_DECK_SEED
    pack = shake_pack(SEED_DECK_SEED, 1)
    assert [pack[1:12:2], pack[0:12:2]] == SEED_HANDS  # seat 1 (the pone) is dealt first
    assert shake_deal(SEED_DECK_SEED, 1, 2, 0, 6) == (SEED_HANDS, [])


def test_seeded_deck_is_reproducible(client):
    a, b = dealt(client), dealt(client)
    assert a["game_id"] != b["game_id"]  # a new game each time...
    for g in (a, b):  # ...with the pinned pack
        assert g["state"]["deck_seed"] == SEED_DECK_SEED
        assert hands(g) == SEED_HANDS
    other = dealt(client, {"options": {"deck": "seeded", "seed": "another"}, "dealer": 0})
    assert hands(other) != SEED_HANDS


def test_seeded_discard(client):
    g = dealt(client)
    seat1 = hands(g)[1]
    r = advance(client, g["state"], {"type": "discard", "seat": 1, "cards": seat1[:2]})
    assert r.status_code == 200, r.text
    body = r.json
    check_game_response(body, sealed=False)
    assert body["to_act"] == [0]
    assert body["view"]["crib"] == seat1[:2]
    assert body["view"]["hands"][1] == seat1[2:]
    assert body["events"] == [{"type": "discard", "deal": 1, "seat": 1, "cards": seat1[:2]}]
    assert len(body["legal_actions"]) == 15
    assert body["state"]["actions"][-1] == f"discard 1 {''.join(seat1[:2])}"


def test_random_deck_cuts_for_deal(client):
    body = start(client, {"options": {"players": 4, "target": 61, "skunk": True}})
    check_game_response(body, sealed=False)
    cut = body["events"][-1]
    assert cut["type"] == "cut_for_deal" and cut["deal"] == 0 and len(cut["cards"]) == 4
    assert all(e["type"] == "cut_for_deal" for e in body["events"])
    assert body["to_act"] == [body["view"]["dealer"]] == [cut["seat"]] == [body["state"]["first_dealer"]]
    assert len(body["state"]["pegs"]) == 2 and len(body["view"]["scores"]) == 2  # partnerships
    deals = {tuple(map(tuple, hands(dealt(client, {"options": {}})))) for _ in range(3)}
    assert len(deals) == 3


def test_random_deal_is_committed(client):
    """The pack is fixed by the state: re-sending the same pre-deal state deals the same cards."""
    g = start(client, {"options": {"players": 3}})
    answers = [step(client, g, g["legal_actions"][0]) for _ in range(3)]
    deals = [hands(a) for a in answers]
    assert deals[0] == deals[1] == deals[2]
    # and each is the deal of the state's deck seed, derived in the test (5 each, 1 to the crib)
    expected, crib = shake_deal(g["state"]["deck_seed"], 1, 3, g["state"]["dealer"], 5, 1)
    for a in answers:
        assert hands(a) == expected and a["view"]["crib"] == crib


def test_client_deck_with_cuts(client):
    body = start(client, {"options": {"players": 3, "deck": "client"}, "cuts": ["9H", "4C", "KD"]})
    check_game_response(body, sealed=False)
    assert body["to_act"] == [1] and body["view"]["dealer"] == 1
    assert body["events"] == [{"type": "cut_for_deal", "deal": 0, "seat": 1, "cards": ["9H", "4C", "KD"]}]
    assert body["legal_actions"] == [{"type": "deal", "seat": 1}]
    assert body["state"]["deck_seed"] is None
    dealt_hands = [["AC", "2C", "3C", "4C", "5C"], ["AD", "2D", "3D", "4D", "5D"], ["AH", "2H", "3H", "4H", "5H"]]
    r = advance(client, body["state"], {"type": "deal", "seat": 1, "hands": dealt_hands, "crib": ["KS"]})
    assert r.status_code == 200, r.text
    check_game_response(r.json, sealed=False)
    assert hands(r.json) == dealt_hands and r.json["view"]["crib"] == ["KS"]
    assert r.json["state"]["actions"] == ["deal 1 AC2C3C4C5C.AD2D3D4D5D.AH2H3H4H5H/KS"]
    g = r.json
    for seat in (2, 0, 1):
        g = step(client, g, {"type": "discard", "seat": seat, "cards": [hands(g)[seat][0]]})
    assert g["phase"] == "cut" and g["legal_actions"] == [{"type": "cut", "seat": 2}]
    b = problem(advance(client, g["state"], {"type": "cut", "seat": 2}), 422)
    assert b["rule"] == "cards_required" and fields(b) == ["/action/starter"]
    b = problem(advance(client, g["state"], {"type": "cut", "seat": 2, "starter": "KS"}), 422)
    assert b["rule"] == "card_in_use"
    g = step(client, g, {"type": "cut", "seat": 2, "starter": "QH"})
    assert g["view"]["starter"] == "QH" and g["phase"] == "play"


def test_client_deck_deal_errors(client):
    body = start(client, {"options": {"deck": "client"}, "dealer": 0})
    b = problem(advance(client, body["state"], {"type": "deal", "seat": 0}), 422)
    assert b["rule"] == "cards_required"
    short = [["AC", "2C", "3C", "4C", "5C", "6C"], ["AD", "2D", "3D", "4D", "5D"]]
    b = problem(advance(client, body["state"], {"type": "deal", "seat": 0, "hands": short}), 422)
    assert "/action/hands" in fields(b)[0]
    twice = [["AC", "2C", "3C", "4C", "5C", "6C"], ["AC", "2D", "3D", "4D", "5D", "6D"]]
    b = problem(advance(client, body["state"], {"type": "deal", "seat": 0, "hands": twice}), 422)
    assert b["type"].endswith("/invalid-request")
    seeded = dealt(client)
    b = problem(advance(client, start(client, SEED)["state"],
                        {"type": "deal", "seat": 0, "hands": hands(seeded), "crib": []}), 422)
    assert b["rule"] == "cards_not_expected"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"options": {"players": 3, "five_and_two": True}}, "/options/five_and_two"),
        ({"options": {"seed": "x"}}, "/options/seed"),
        ({"options": {"deck": "seeded"}}, "/options/seed"),
        ({"options": {"deck": "shuffled"}}, "/options/deck"),
        ({"options": {"target": 100}}, "/options/target"),
        ({"options": {"players": 5}}, "/options/players"),
        ({"options": {"players": "2"}}, "/options/players"),
        ({"options": {"skunk": 1}}, "/options/skunk"),
        ({"options": {"double_skunk_games": 5}}, "/options/double_skunk_games"),
        ({"options": {"muggins_in_play": True}}, "/options/muggins_in_play"),
        ({"options": {"colour": "red"}}, "/options/colour"),
        ({"options": {"deck": "client"}}, "/dealer"),
        ({"options": {}, "dealer": 2}, "/dealer"),
        ({"options": {}, "dealer": 4}, "/dealer"),
        ({"options": {"deck": "client"}, "cuts": ["4C", "4D"]}, "/cuts"),
        ({"options": {}, "cuts": ["4C"]}, "/cuts"),
        ({"options": {}, "cuts": ["4C", "4C"]}, "/cuts"),
        ({"options": {}, "dealer": 0, "cuts": ["4C", "5D"]}, "/cuts"),
        ({"options": {}, "view": 2}, "/view"),
        ({"options": {}, "seat_token": "st.0.AAAAAAAAAAAAAAAAAAAAAA"}, "/seat_token"),
        ({"options": {}, "extra": 1}, "/extra"),
    ],
)
def test_start_errors_name_the_field(client, body, field):
    b = problem(client.simulate_post(START, json=body), 422)
    assert any(f == field or f.startswith(field + "/") for f in fields(b)), b


# --- response shapes --------------------------------------------------------------------


def test_every_operation_answers_exactly_the_documented_keys(client):
    g = start(client, SEED)
    assert set(g) == GAME_KEYS and set(g["view"]) == VIEW_KEYS and set(g["state"]) == STATE_KEYS
    a = step(client, g, {"type": "deal", "seat": 0})
    assert set(a) == GAME_KEYS and set(a["view"]) == VIEW_KEYS and set(a["state"]) == STATE_KEYS
    for extra in ({}, {"seat": 1}, {"seat": None}):
        r = view_of(client, a["state"], **extra)
        assert r.status_code == 200, r.text
        check_game_response(r.json, sealed=False, seat=extra.get("seat"))
        assert set(r.json) == GAME_KEYS
        # A view changes nothing: the same state comes back, no events.
        assert r.json["state"] == a["state"] and r.json["events"] == []
        assert (r.json["game_id"], r.json["seq"]) == (a["game_id"], a["seq"]) == (a["state"]["game_id"], 1)


def test_view_keys_in_the_play_and_show(client):
    rng = random.Random(3)
    body = to_phase(client, dealt(client), "play", rng)
    assert set(body["view"]["play"]) == PLAY_KEYS and body["view"]["starter"] in ALL_CARDS
    body = to_phase(client, body, "show", rng)
    assert body["view"]["next_count"] == "hand"


# --- whole games -------------------------------------------------------------------

GAMES = [
    ({"options": {"players": 2}}, 1),
    ({"options": {"players": 2, "target": 61, "five_and_two": True, "skunk": True}}, 2),
    ({"options": {"players": 3, "target": 61, "tournament": True, "loser_deals_first": True}}, 3),
    ({"options": {"players": 4, "target": 61, "skunk": True, "double_skunk_games": 4}}, 4),
    ({"options": {"players": 4, "target": 61, "deck": "seeded", "seed": "four", "muggins": True,
                  "muggins_in_play": True}, "dealer": 2}, 5),
    ({"options": {"players": 3, "target": 61, "ten_value_ties": True}}, 6),
    ({"options": {"players": 2, "muggins": True, "muggins_in_play": True, "tournament": True}}, 7),
    ({"options": {"players": 2, "five_and_two": True, "tournament": True, "muggins": True}}, 8),
    ({"options": {"players": 3, "muggins": True, "tournament": True}}, 9),
    ({"options": {"players": 4, "muggins": True, "tournament": True, "lurch": True}}, 10),
]


@pytest.mark.parametrize(("body", "seed"), GAMES, ids=[str(s) for _, s in GAMES])
def test_a_whole_random_game(client, body, seed):
    """Random legal actions to the end: every answer checked, every state at most 2 KiB."""
    out = play_game(client_post(client), body, random.Random(seed))
    last = out["last"]
    assert last["view"]["options"] == {k: v for k, v in options_of(body).items() if k != "seed"}
    assert out["max_size"] <= MAX_STATE_BYTES
    assert len(out["records"]) == last["deal"]  # every deal, the last one too, left its record


def test_muggins_claims_go_to_the_opponent(client):
    """Claiming 0 in the show under muggins: the opponent pegs what was missed."""
    rng = random.Random(7)
    body = to_phase(client, start(client, {"options": {"deck": "seeded", "seed": "mug", "muggins": True},
                                           "dealer": 0}), "show", rng)
    seen = False
    while body["phase"] == "show":
        action = {**body["legal_actions"][0], "claim": 0}
        body = step(client, body, action)
        for event in body["events"]:
            if event["type"] == "count":
                assert all(s["kind"] == "muggins" and s["seat"] != event["seat"] for s in event.get("scores", ()))
                seen = seen or bool(event.get("scores"))
        assert body["state"]["actions"] == [] or body["state"]["actions"][-1].endswith(" =0")
    assert seen


def test_renege_events_carry_no_cards(client):
    """Tournament rules: a go while able is a renege, 2 points a playable card to the
    opponent; the event names no cards (they are the reneging seat's hidden ones)."""
    rng = random.Random(11)
    found = 0
    for game in range(6):
        body = to_phase(client, dealt(client, {"options": {"deck": "seeded", "seed": f"renege-{game}",
                                                           "tournament": True}, "dealer": 0}), "play", rng)
        while body["phase"] == "play":
            gos = [a for a in body["legal_actions"] if a["type"] == "go"]
            plays = [a for a in body["legal_actions"] if a["type"] == "play"]
            body = step(client, body, gos[0] if gos and plays else rng.choice(body["legal_actions"]))
            for e in body["events"]:
                reneges = [s for s in e.get("scores", ()) if s["kind"] == "renege"]
                if reneges:
                    found += 1
                    assert e["type"] == "go" and "cards" not in e and "card" not in e, e
                    assert all("cards" not in s for s in reneges), e
        if found >= 3:
            break
    assert found >= 3


# --- the small things ------------------------------------------------------------------


def test_play_events_carry_one_card_as_a_string(client):
    rng = random.Random(5)
    body = to_phase(client, dealt(client), "play", rng)
    plays = [a for a in body["legal_actions"] if a["type"] == "play"]
    nxt = step(client, body, plays[0])
    (event,) = [e for e in nxt["events"] if e["type"] == "play"]
    assert event["card"] == plays[0]["card"] and "cards" not in event
    assert event["count"] == nxt["view"]["play"]["count"]


def test_count_actions_say_hand_then_crib(client):
    """In the show the legal count carries what is counted: each hand, pone first,
    the dealer's hand, then (the dealer again) the crib."""
    rng = random.Random(9)
    for players in (2, 3, 4):
        body = to_phase(client, dealt(client, {"options": {"players": players, "deck": "seeded", "seed": "what"},
                                               "dealer": 1}), "show", rng)
        whats, seats = [], []
        while body["phase"] == "show":
            (count,) = body["legal_actions"]
            assert count["type"] == "count" and set(count) == {"type", "seat", "what"}
            whats.append(count["what"])
            seats.append(count["seat"])
            before = body
            body = step(client, body, count)
            (event,) = [e for e in body["events"] if e["type"] == "count"]
            assert event["what"] == count["what"] and event["seat"] == count["seat"]
            if count["what"] == "crib":
                assert event["cards"] == before["view"]["crib"]
        assert whats == ["hand"] * players + ["crib"]
        dealer = 1
        assert seats == [(dealer + 1 + i) % players for i in range(players)] + [dealer]


def test_a_count_naming_the_wrong_what_is_refused(client):
    """A count may say what it counts (as the legal one does); saying the crib when
    the hand is next is not silently taken as the hand."""
    rng = random.Random(4)
    body = to_phase(client, dealt(client), "show", rng)
    (count,) = body["legal_actions"]
    assert count["what"] == "hand"
    step(client, body, count)  # the legal count, sent back as is
    b = problem(advance(client, body["state"], {**count, "what": "crib"}), 422)
    assert fields(b) == ["/action/what"], b["errors"]


def test_card_not_held_points_at_the_card(client):
    g = dealt(client)
    mine, theirs = hands(g)[1], hands(g)[0]
    b = problem(advance(client, g["state"], {"type": "discard", "seat": 1, "cards": [mine[0], theirs[0]]}), 422)
    assert b["rule"] == "card_not_held"
    assert fields(b) == ["/action/cards/1"]
    b = problem(advance(client, g["state"], {"type": "discard", "seat": 1, "cards": [theirs[0], mine[0]]}), 422)
    assert fields(b) == ["/action/cards/0"]


# --- illegal actions ----------------------------------------------------------------


def test_play_during_discard_is_wrong_phase(client):
    g = dealt(client)
    b = problem(advance(client, g["state"], {"type": "play", "seat": 1, "card": hands(g)[1][0]}), 422)
    assert b["type"].endswith("/rule-violation")
    assert b["rule"] == "wrong_phase"
    assert fields(b) == ["/action/type"]
    assert b["legal"] == g["legal_actions"]
    assert all(a["type"] == "discard" for a in b["legal"])


@pytest.mark.parametrize(
    ("make", "rule", "field"),
    [
        (lambda h: {"type": "discard", "seat": 1, "cards": h[1][:1]}, "wrong_discard", "/action/cards"),
        (lambda h: {"type": "discard", "seat": 1, "cards": h[0][:2]}, "card_not_held", "/action/cards/0"),
        (lambda h: {"type": "deal", "seat": 0}, "wrong_phase", "/action/type"),
        (lambda h: {"type": "cut", "seat": 1}, "wrong_phase", "/action/type"),
        (lambda h: {"type": "count", "seat": 1}, "wrong_phase", "/action/type"),
        (lambda h: {"type": "discard", "seat": 3, "cards": h[1][:2]}, "no_such_seat", "/action/seat"),
    ],
)
def test_illegal_discards(client, make, rule, field):
    g = dealt(client)
    b = problem(advance(client, g["state"], make(hands(g))), 422)
    assert b["type"].endswith("/rule-violation")
    assert b["rule"] == rule
    assert fields(b) == [field]
    assert b["legal"] == g["legal_actions"]


def test_discard_twice_is_out_of_turn(client):
    g = dealt(client)
    once = step(client, g, {"type": "discard", "seat": 0, "cards": hands(g)[0][:2]})
    b = problem(advance(client, once["state"], {"type": "discard", "seat": 0, "cards": hands(once)[0][:2]}), 422)
    assert b["rule"] == "out_of_turn" and fields(b) == ["/action/seat"]
    assert b["legal"] == once["legal_actions"] and {a["seat"] for a in b["legal"]} == {1}


def test_out_of_turn_and_over_31_in_the_play(client):
    rng = random.Random(1)
    body = to_phase(client, dealt(client), "play", rng)
    turn = body["to_act"][0]
    other = 1 - turn
    b = problem(advance(client, body["state"], {"type": "play", "seat": other, "card": hands(body)[other][0]}), 422)
    assert b["rule"] == "out_of_turn"
    assert b["legal"] == body["legal_actions"]
    b = problem(advance(client, body["state"], {"type": "go", "seat": turn}), 422)
    assert b["rule"] == "go_while_able" and b["legal"] == body["legal_actions"]
    b = problem(advance(client, body["state"], {"type": "play", "seat": turn, "card": hands(body)[other][0]}), 422)
    assert b["rule"] == "card_not_held" and fields(b) == ["/action/card"]


def test_rule_violation_in_the_show_lists_the_legal_count(client):
    """The ``legal`` of a rule violation is in the notation of ``legal_actions``: a count says what."""
    rng = random.Random(4)
    body = to_phase(client, dealt(client), "show", rng)
    wrong = 1 - body["to_act"][0]
    b = problem(advance(client, body["state"], {"type": "count", "seat": wrong}), 422)
    assert b["rule"] == "out_of_turn"
    assert b["legal"] == body["legal_actions"]


def test_actions_after_the_game_is_over(client):
    out = play_game(client_post(client), {"options": {"target": 61}}, random.Random(21))
    last = out["last"]
    b = problem(advance(client, last["state"], {"type": "deal", "seat": 0}), 422)
    assert b["rule"] == "game_over" and b["legal"] == []


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ({"type": "shuffle", "seat": 0}, "/action/type"),
        ({"seat": 0}, "/action/type"),
        ({"type": "deal"}, "/action/seat"),
        ({"type": "deal", "seat": 4}, "/action/seat"),
        ({"type": "deal", "seat": "0"}, "/action/seat"),
        ({"type": "deal", "seat": 0, "colour": 1}, "/action/colour"),
        ({"type": "deal", "seat": 0, "card": "5H"}, "/action/card"),
        ({"type": "play", "seat": 0, "card": "ZZ"}, "/action/card"),
        ({"type": "play", "seat": 0}, "/action/card"),
        ({"type": "discard", "seat": 0}, "/action/cards"),
        ({"type": "count", "seat": 0, "claim": 30}, "/action/claim"),
        ({"type": "count", "seat": 0, "what": "pack"}, "/action/what"),
    ],
)
def test_bad_actions_name_the_field(client, action, field):
    g = start(client, SEED)
    b = problem(advance(client, g["state"], action), 422)
    assert b["type"].endswith("/invalid-request")
    assert any(f == field or f.startswith(field + "/") for f in fields(b)), b


# --- tampered and forged plain states -----------------------------------------------


def _other_hex(text: str) -> str:
    return ("1" if text[0] != "1" else "2") + text[1:]


def _swap_deal_cards(record: str) -> str:
    """Swap the first card of seat 0's hand with the first of seat 1's in a deal's notation."""
    kind, seat, cards = record.split(" ")
    hand_text, _, crib = cards.partition("/")
    hs = hand_text.split(".")
    hs[0], hs[1] = hs[1][:2] + hs[0][2:], hs[0][:2] + hs[1][2:]
    return f"{kind} {seat} {'.'.join(hs)}/{crib}"


def _tamper(state: dict, how: str) -> dict:
    s = copy.deepcopy(state)
    if how == "phase":
        s["phase"] = "show"  # a derived field: never taken on trust, so refused
    elif how == "hands":
        s["hands"] = [[], []]
    elif how == "pegs":
        s["pegs"][0] = [5, 0]
    elif how == "pegs_order":
        s["pegs"][0] = [0, 3]
    elif how == "version":
        s["version"] = 0  # a newer one (3) is newer-state-version: tests/test_state_versions.py
    elif how == "version_text":
        s["version"] = "2"
    elif how == "unknown":
        s["colour"] = "red"
    elif how == "missing":
        del s["actions"]
    elif how == "deal_swap":
        s["actions"][0] = _swap_deal_cards(s["actions"][0])
    elif how == "deal_outside":
        s["actions"][0] = s["actions"][0].replace(s["actions"][0].split(" ")[2][:2], "XX", 1)
    elif how == "game_id":
        s["game_id"] = _other_hex(s["game_id"])
    elif how == "history":
        s["history"] = _other_hex(s["history"])
    elif how == "deck_seed":
        s["deck_seed"] = _other_hex(s["deck_seed"])
    elif how == "seq_short":
        s["seq"] = 0
    elif how == "seq_long":
        s["seq"] = s["seq"] + 10
    elif how == "dealer":
        s["dealer"] = 1
    elif how == "first_dealer":
        s["first_dealer"] = 1
    elif how == "deal":
        s["deal"] = 2
    elif how == "options":
        s["options"] = {**s["options"], "players": 3}
    elif how == "replay":
        s["actions"] = s["actions"] + [s["actions"][1]]  # the same discard twice
        s["seq"] += 1
    elif how == "notation":
        s["actions"][1] = "discard 0 5H5H5H"
    elif how == "order":
        s["actions"] = [s["actions"][1], s["actions"][0]] + s["actions"][2:]
    return s


@pytest.mark.parametrize(
    ("how", "field"),
    [
        ("phase", "/state/phase"),
        ("hands", "/state/hands"),
        ("unknown", "/state/colour"),
        ("missing", "/state/actions"),
        ("version", "/state/version"),
        ("version_text", "/state/version"),
        ("pegs", "/state/pegs/0"),
        ("pegs_order", "/state/pegs/0"),
        ("deal_swap", "/state/actions/0"),
        ("deal_outside", "/state/actions/0"),
        ("game_id", "/state/history"),
        ("history", "/state/history"),
        ("deck_seed", "/state/actions/0"),
        ("seq_short", "/state/seq"),
        ("seq_long", "/state/history"),
        ("dealer", "/state/dealer"),
        ("first_dealer", "/state/dealer"),
        ("deal", "/state/dealer"),
        ("options", "/state/pegs"),
        ("replay", "/state/actions/2"),
        ("notation", "/state/actions/1"),
        ("order", "/state/actions/0"),
    ],
)
def test_forged_plain_state(client, how, field):
    """A forged state is a 422 invalid-request naming the field; nothing in it is taken on trust."""
    g = dealt(client)
    g = step(client, g, {"type": "discard", "seat": 0, "cards": hands(g)[0][:2]})
    state = _tamper(g["state"], how)
    action = {"type": "discard", "seat": 1, "cards": hands(g)[1][2:4]}
    for r in (advance(client, state, action), view_of(client, state)):
        b = problem(r, 422)
        assert b["type"].endswith("/invalid-request")
        assert any(f == field or f.startswith(field + "/") for f in fields(b)), (how, b["errors"])


def test_forged_action_mid_play(client):
    """An action list that does not replay is refused at its index."""
    rng = random.Random(2)
    body = to_phase(client, dealt(client), "play", rng)
    for _ in range(2):
        body = step(client, body, rng.choice(body["legal_actions"]))
    state = copy.deepcopy(body["state"])
    i = next(k for k, a in enumerate(state["actions"]) if a.startswith("play "))
    kind, seat, card = state["actions"][i].split(" ")[:3]
    foreign = hands(body)[1 - int(seat)][0]
    state["actions"][i] = f"play {seat} {foreign}"
    b = problem(view_of(client, state), 422)
    assert fields(b) == [f"/state/actions/{i}"], b


def test_states_are_json_objects(client):
    for bad in ([], 5, None, True):
        b = problem(advance(client, bad, {"type": "deal", "seat": 0}), 422)
        assert fields(b) == ["/state"]
    b = problem(advance(client, "v2.abc", {"type": "deal", "seat": 0}), 422)
    assert fields(b) == ["/state"]  # a sealed string to a plain service


def test_seat_tokens_belong_to_sealed_games(client):
    g = start(client, SEED)
    token = "st.0.AAAAAAAAAAAAAAAAAAAAAA"
    b = problem(advance(client, g["state"], {"type": "deal", "seat": 0}, seat_token=token), 422)
    assert fields(b) == ["/seat_token"]
    b = problem(view_of(client, g["state"], seat_token=token), 422)
    assert fields(b) == ["/seat_token"]


# --- views -------------------------------------------------------------------------


def test_view_hides_other_hands_during_discard(client):
    g = dealt(client)
    full = hands(g)
    r = advance(client, g["state"], {"type": "discard", "seat": 0, "cards": full[0][:2]}, view=1)
    assert r.status_code == 200, r.text
    body = r.json
    check_game_response(body, sealed=False, seat=1)
    v = body["view"]
    assert v["seat"] == 1
    assert v["hands"][1] == full[1]
    assert v["hands"][0] == [None] * 4
    assert v["crib"] == [None, None]
    check_view_cards(v, open_plain(body["state"]), 1)


def test_plain_answer_with_a_view_still_carries_everything(client):
    """Plain mode: the platform holds the whole state anyway; naming a seat only
    changes the view.  Legal actions are all of them and the events are in full
    (design: "view is everything unless a seat is named; all legal actions;
    events in full, with deal_record events")."""
    g = dealt(client)
    full = hands(g)
    r = view_of(client, g["state"], seat=1)
    assert r.status_code == 200, r.text
    assert r.json["view"]["hands"][0] == [None] * 6
    assert r.json["legal_actions"] == g["legal_actions"]  # both seats' 15 discards
    body = step(client, g, {"type": "discard", "seat": 0, "cards": full[0][:2]}, view=1)
    assert body["events"] == [{"type": "discard", "deal": 1, "seat": 0, "cards": full[0][:2]}]


def test_plain_answer_with_a_view_keeps_the_deal_record(client):
    """A platform that names the acting seat's view on every advance must still get
    each deal's record (it is what /v1/games/replay takes)."""
    rng = random.Random(8)
    body = to_phase(client, dealt(client), "show", rng)
    while body["phase"] == "show":
        seat = body["to_act"][0]
        body = step(client, body, {"type": "count", "seat": seat}, view=seat)
    assert body["deal"] == 2
    assert [e["type"] for e in body["events"]][-1:] == ["deal_record"], body["events"]


def test_view_endpoint_plain(client):
    g = dealt(client)
    for seat in (0, 1):
        r = view_of(client, g["state"], seat=seat)
        assert r.status_code == 200, r.text
        check_game_response(r.json, sealed=False, seat=seat)
        v = r.json["view"]
        assert v["hands"][seat] == hands(g)[seat] and v["hands"][1 - seat] == [None] * 6
        check_view_cards(v, open_plain(g["state"]), seat)
    r = view_of(client, g["state"])
    assert r.json["view"]["hands"] == hands(g)


def test_view_seat_not_at_the_table_is_422(client):
    b = problem(client.simulate_post(START, json={**SEED, "view": 2}), 422)
    assert fields(b) == ["/view"]
    g = start(client, SEED)
    b = problem(advance(client, g["state"], {"type": "deal", "seat": 0}, view=2), 422)
    assert fields(b) == ["/view"]
    b = problem(view_of(client, g["state"], seat=3), 422)
    assert fields(b) == ["/seat"]
    b = problem(view_of(client, g["state"], seat=4), 422)
    assert fields(b) == ["/seat"]


def test_view_in_start(client):
    g = start(client, {**SEED, "view": 1})
    check_game_response(g, sealed=False, seat=1)
    g = start(client, {**SEED, "view": None})
    check_game_response(g, sealed=False, seat=None)


def test_views_through_a_whole_game(client):
    """Every seat's view of every position of a 3-player game shows exactly what it may."""
    post = client_post(client)
    rng = random.Random(31)
    status, body = post(START, {"options": {"players": 3, "target": 61}})
    while body["phase"] != "over":
        truth = open_plain(body["state"])
        seat = rng.randrange(3)
        status, seen = post(VIEW, {"state": body["state"], "seat": seat})
        assert status == 200
        check_view_cards(seen["view"], truth, seat)
        status, body = post(ADVANCE, {"state": body["state"], "action": rng.choice(body["legal_actions"])})
        assert status == 200, body
    for seat in range(3):
        status, seen = post(VIEW, {"state": body["state"], "seat": seat})
        assert all(None not in h for h in seen["view"]["hands"])  # at the end every hand is shown


# --- format 1 is retired ---------------------------------------------------------------

# A format-1 plain state as the first release wrote it (abridged: the service
# refuses it on its version alone).
FORMAT_1_STATE = {"version": 1, "options": {"players": 2, "target": 121}, "phase": "deal", "hand": 0,
                  "dealer": 0, "first_dealer": 0, "to_act": [0], "scores": [], "hands": [[], []], "crib": [],
                  "starter": None, "deck": None, "play": None, "shown": 0, "result": None, "log": []}


@pytest.mark.parametrize("url", [VIEW, ADVANCE])
def test_format_1_state_is_refused_saying_so(client, url):
    """Format 1 is no longer read: a 422 naming /state/version that says so (CHANGELOG.md)."""
    body = {"state": FORMAT_1_STATE}
    if url == ADVANCE:
        body["action"] = {"type": "deal", "seat": 0}
    b = problem(client.simulate_post(url, json=body), 422)
    assert fields(b) == ["/state/version"]
    assert "format 1 is no longer read" in b["detail"]


# The documented defaults (docs/rules.md: two players to 121, every variant off;
# a random deck), written down here rather than read from the service.
DEFAULT_OPTIONS = {"players": 2, "target": 121, "five_and_two": False, "deck": "random", "seed": None,
                   "ten_value_ties": False, "tournament": False, "muggins": False, "muggins_in_play": False,
                   "skunk": False, "double_skunk_games": 3, "lurch": False, "loser_deals_first": False}


def options_of(body: dict) -> dict:
    """The options that differ from the defaults, as a state and a view write them."""
    options = body["options"]
    assert set(options) <= set(DEFAULT_OPTIONS), options
    return {k: v for k, v in options.items() if v != DEFAULT_OPTIONS[k]}


def test_lurch_in_a_game_to_61_is_refused_as_match_scoring_refuses_it(client):
    """One decision for both operations (docs/rules.md, "Lurch"): a game to 61 has
    no lurch line; POST /v1/games and POST /v1/matches/score both answer 422."""
    b = problem(client.simulate_post(START, json={"options": {"target": 61, "lurch": True}}), 422)
    assert fields(b) == ["/options/lurch"]
    match = {"games": [{"scores": [61, 20]}], "target": 61, "lurch": True}
    m = client.simulate_post("/v1/matches/score", json=match)
    assert m.status_code == 422, m.text
    assert "lurch" in m.json["detail"]
