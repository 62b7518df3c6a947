"""POST /v1/games and POST /v1/games/advance over HTTP (in-process, falcon.testing).

:func:`play_game` plays a whole game with random legal actions through any
``post(url, body) -> (status, json)``; tests/test_e2e_game.py reuses it over a
real gunicorn.
"""

from __future__ import annotations

import copy
import random
from itertools import combinations
from typing import Any, Callable

import falcon.testing
import pytest
from conftest import fields, problem

from service.app import create_app
from service.seal import Sealer

START = "/v1/games"
ADVANCE = "/v1/games/advance"
RESPONSE_KEYS = {"state", "view", "events", "legal_actions", "to_act", "phase"}
VIEW_KEYS = {"view", "version", "options", "phase", "hand", "dealer", "first_dealer", "to_act", "scores",
             "hands", "crib", "starter", "deck", "deck_size", "play", "shown", "result", "log"}
STATE_KEYS = VIEW_KEYS - {"view", "deck_size"}
SEED = {"options": {"deck": "seeded", "seed": "http-games"}, "dealer": 0}

Post = Callable[[str, dict], "tuple[int, Any]"]


def card_value(card: str) -> int:
    rank = card[0]
    return {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}.get(rank) or int(rank)


def check_response(body: dict, *, sealed: bool) -> None:
    """Every answer of /v1/games and /v1/games/advance has the documented shape."""
    assert set(body) == RESPONSE_KEYS, sorted(body)
    assert body["phase"] in ("deal", "discard", "cut", "play", "show", "over")
    assert isinstance(body["to_act"], list) and isinstance(body["events"], list)
    assert isinstance(body["legal_actions"], list)
    if sealed:
        assert isinstance(body["state"], str) and body["state"].startswith("v1.")
        assert set(body["view"]) == VIEW_KEYS
        view = body["view"]
        assert view["deck"] is None
        assert view["options"]["seed"] is None
        # Only the viewing seat's legal actions leave a sealing service.
        assert all(a["seat"] == view["view"] for a in body["legal_actions"]), body["legal_actions"]
        assert view["phase"] == body["phase"] and view["to_act"] == body["to_act"]
    else:
        state = body["state"]
        assert set(state) == STATE_KEYS
        assert state["version"] == 1
        assert state["phase"] == body["phase"] and state["to_act"] == body["to_act"]
        if body["view"] is not None:
            assert set(body["view"]) == VIEW_KEYS
    if body["phase"] == "over":
        assert body["to_act"] == [] and body["legal_actions"] == []
    else:
        assert body["to_act"]
        if not sealed:
            assert {a["seat"] for a in body["legal_actions"]} == set(body["to_act"])


def public(body: dict, *, sealed: bool) -> dict:
    """What the client can read of the state: the view when sealed."""
    return body["view"] if sealed else body["state"]


def _sealed_choices(pub: dict, seat: int, known: dict[int, list[str]]) -> list[dict]:
    """The legal actions of ``seat`` worked out by the client from what it has seen."""
    phase = pub["phase"]
    if phase == "deal":
        return [{"type": "deal", "seat": seat}]
    if phase == "discard":
        hand = known[seat]
        k = len(hand) - 4
        return [{"type": "discard", "seat": seat, "cards": list(c)} for c in combinations(hand, k)]
    if phase == "cut":
        return [{"type": "cut", "seat": seat}]
    if phase == "play":
        play = pub["play"]
        left = [c for c in known[seat] if c not in play["played"]]
        playable = [c for c in left if card_value(c) + play["count"] <= 31]
        if playable:
            return [{"type": "play", "seat": seat, "card": c} for c in playable]
        return [{"type": "go", "seat": seat}]
    if phase == "show":
        return [{"type": "count", "seat": seat}]
    raise AssertionError(phase)


def play_game(post: Post, start: dict, rng: random.Random, *, sealed: bool = False,
              max_steps: int = 3000) -> dict:
    """Play a game from ``start`` to the end with random legal actions; check
    every answer.  Returns the last answer.

    Sealed, the client sees one seat at a time, so it asks for the view of the
    seat whose cards it needs next and works out the legal actions itself
    (checked against ``legal_actions`` whenever the viewing seat is to act).
    """
    status, body = post(START, start)
    assert status == 201, body
    check_response(body, sealed=sealed)
    players = public(body, sealed=sealed)["options"]["players"]
    target = public(body, sealed=sealed)["options"]["target"]
    sides = 2 if players == 4 else players
    side_of = (lambda s: s % 2) if players == 4 else (lambda s: s)
    pegged = [0] * sides
    last_front = [0] * sides
    known: dict[int, list[str]] = {}
    for entry in public(body, sealed=sealed)["log"]:
        assert "points" not in entry
    for _ in range(max_steps):
        pub = public(body, sealed=sealed)
        if body["phase"] == "over":
            break
        if not sealed:
            action = rng.choice(body["legal_actions"])
            request = {"state": body["state"], "action": action}
        else:
            viewer = pub["view"]
            if viewer is not None and pub["phase"] in ("discard", "cut", "play", "show"):
                known[viewer] = list(pub["hands"][viewer])
                assert None not in known[viewer]
            seat = body["to_act"][0]
            choices = _sealed_choices(pub, seat, known)
            if viewer in body["to_act"]:
                mine = _sealed_choices(pub, viewer, known)
                key = lambda a: repr(sorted(a.items()))  # noqa: E731
                assert sorted(map(key, mine)) == sorted(map(key, body["legal_actions"]))
            action = rng.choice(choices)
            # Whose cards the client needs next: while discarding, the next seat to discard.
            if pub["phase"] == "deal":
                next_view = 0
            elif pub["phase"] == "discard":
                waiting = [s for s in body["to_act"] if s != seat]
                next_view = waiting[0] if waiting else seat
            else:
                next_view = seat
            if action["type"] == "discard":
                known[seat] = [c for c in known[seat] if c not in action["cards"]]
            request = {"state": body["state"], "action": action, "view": next_view}
        status, nxt = post(ADVANCE, request)
        assert status == 200, (action, nxt)
        check_response(nxt, sealed=sealed)
        for event in nxt["events"]:
            for s in event.get("scores", ()):
                assert s["points"] > 0
                assert s["side"] == side_of(s["seat"])
                pegged[s["side"]] += s["points"]
            if "scores" in event:
                assert event["points"] == sum(s["points"] for s in event["scores"])
        front = [p["front"] for p in public(nxt, sealed=sealed)["scores"]]
        assert all(a >= b for a, b in zip(front, last_front)), (last_front, front)
        assert front == pegged, (front, pegged)
        last_front = front
        body = nxt
    else:
        pytest.fail(f"no winner after {max_steps} actions")
    pub = public(body, sealed=sealed)
    result = pub["result"]
    assert result is not None
    front = [p["front"] for p in pub["scores"]]
    winner = result["winner"]
    assert front[winner] >= target
    assert all(f < target for side, f in enumerate(front) if side != winner)
    assert sorted(entry["side"] for entry in result["losers"]) == [s for s in range(sides) if s != winner]
    for entry in result["losers"]:
        assert entry["score"] == front[entry["side"]]
        assert entry["games"] >= 1
    assert pub["log"][-1]["type"] == "game_over"
    assert body["events"][-1]["type"] == "game_over"
    return body


def client_post(client: falcon.testing.TestClient) -> Post:
    def post(url: str, body: dict) -> tuple[int, Any]:
        r = client.simulate_post(url, json=body)
        return r.status_code, r.json
    return post


@pytest.fixture(scope="module")
def client() -> falcon.testing.TestClient:
    return falcon.testing.TestClient(create_app(sealer=None))


@pytest.fixture(scope="module")
def sealed_client() -> falcon.testing.TestClient:
    return falcon.testing.TestClient(create_app(sealer=Sealer("s" * 32)))


def start(client, body) -> dict:
    r = client.simulate_post(START, json=body)
    assert r.status_code == 201, r.text
    return r.json


def advance(client, state, action, **extra):
    return client.simulate_post(ADVANCE, json={"state": state, "action": action, **extra})


def dealt(client, body=SEED) -> dict:
    g = start(client, body)
    r = advance(client, g["state"], {"type": "deal", "seat": g["to_act"][0]})
    assert r.status_code == 200, r.text
    return r.json


# --- starting --------------------------------------------------------------------


def test_start_seeded_example(client):
    r = client.simulate_post(START, json={"options": {"deck": "seeded", "seed": "openapi-example"}, "dealer": 0})
    assert r.status_code == 201, r.text
    body = r.json
    check_response(body, sealed=False)
    assert body["to_act"] == [0] and body["phase"] == "deal"
    assert body["view"] is None and body["events"] == []
    assert body["legal_actions"] == [{"type": "deal", "seat": 0}]
    state = body["state"]
    assert state["options"] == {"players": 2, "target": 121, "five_and_two": False, "deck": "seeded",
                                "seed": "openapi-example", "ten_value_ties": False, "tournament": False,
                                "muggins": False, "muggins_in_play": False, "skunk": False,
                                "double_skunk_games": 3, "lurch": False, "loser_deals_first": False}
    assert state["scores"] == [{"front": 0, "back": 0}] * 2
    assert state["hands"] == [[], []] and state["log"] == []


def test_seeded_deck_is_reproducible(client):
    a, b = dealt(client), dealt(client)
    assert a == b
    hands = a["state"]["hands"]
    assert [len(h) for h in hands] == [6, 6]
    assert len(a["state"]["deck"]) == 40
    assert len({c for h in hands for c in h} | set(a["state"]["deck"])) == 52
    other = dealt(client, {"options": {"deck": "seeded", "seed": "another"}, "dealer": 0})
    assert other["state"]["hands"] != hands


def test_seeded_discard_example(client):
    """openapi.yaml, advance example discard: seat 1 discards 6D 2S after the seeded deal."""
    g = dealt(client, {"options": {"deck": "seeded", "seed": "openapi-example"}, "dealer": 0})
    assert g["state"]["hands"] == [["8C", "9H", "4S", "6C", "4D", "KD"], ["6D", "2S", "TC", "3H", "KH", "AS"]]
    r = advance(client, g["state"], {"type": "discard", "seat": 1, "cards": ["6D", "2S"]})
    assert r.status_code == 200, r.text
    assert r.json["to_act"] == [0]
    assert r.json["state"]["crib"] == ["6D", "2S"]
    assert r.json["events"] == [{"type": "discard", "hand": 1, "seat": 1, "cards": ["6D", "2S"]}]
    assert len(r.json["legal_actions"]) == 15


def test_random_deck_cuts_for_deal(client):
    body = start(client, {"options": {"players": 4, "target": 61, "skunk": True}})
    check_response(body, sealed=False)
    state = body["state"]
    assert state["options"]["deck"] == "random" and state["options"]["seed"] is None
    cut = state["log"][-1]
    assert cut["type"] == "cut_for_deal" and len(cut["cards"]) == 4
    assert body["to_act"] == [state["dealer"]] == [cut["seat"]]
    assert len(state["scores"]) == 2  # partnerships
    deals = {tuple(map(tuple, dealt(client, {"options": {}})["state"]["hands"])) for _ in range(3)}
    assert len(deals) == 3


def test_client_deck_with_cuts(client):
    body = start(client, {"options": {"players": 3, "deck": "client"}, "cuts": ["9H", "4C", "KD"]})
    assert body["to_act"] == [1]
    assert body["state"]["dealer"] == 1
    assert body["state"]["log"] == [{"type": "cut_for_deal", "hand": 0, "seat": 1, "cards": ["9H", "4C", "KD"]}]
    assert body["legal_actions"] == [{"type": "deal", "seat": 1}]
    hands = [["AC", "2C", "3C", "4C", "5C"], ["AD", "2D", "3D", "4D", "5D"], ["AH", "2H", "3H", "4H", "5H"]]
    r = advance(client, body["state"], {"type": "deal", "seat": 1, "hands": hands, "crib": ["KS"]})
    assert r.status_code == 200, r.text
    assert r.json["state"]["hands"] == hands and r.json["state"]["crib"] == ["KS"]
    assert r.json["state"]["deck"] is None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"options": {"players": 3, "five_and_two": True}}, "/options/five_and_two"),
        ({"options": {"seed": "x"}}, "/options/seed"),
        ({"options": {"deck": "seeded"}}, "/options/seed"),
        ({"options": {"target": 100}}, "/options/target"),
        ({"options": {"players": 5}}, "/options/players"),
        ({"options": {"muggins_in_play": True}}, "/options/muggins_in_play"),
        ({"options": {"colour": "red"}}, "/options/colour"),
        ({"options": {"deck": "client"}}, "/dealer"),
        ({"options": {}, "dealer": 2}, "/dealer"),
        ({"options": {"deck": "client"}, "cuts": ["4C", "4D"]}, "/cuts"),
        ({"options": {}, "cuts": ["4C"]}, "/cuts"),
        ({"options": {}, "dealer": 0, "cuts": ["4C", "5D"]}, "/cuts"),
        ({"options": {}, "extra": 1}, "/extra"),
    ],
)
def test_start_errors_name_the_field(client, body, field):
    b = problem(client.simulate_post(START, json=body), 422)
    assert field in fields(b), b


# --- whole games -------------------------------------------------------------------

GAMES = [
    ({"options": {"players": 2}}, 1),
    ({"options": {"players": 2, "target": 61, "five_and_two": True, "skunk": True, "lurch": True}}, 2),
    ({"options": {"players": 3, "target": 61, "tournament": True, "loser_deals_first": True}}, 3),
    ({"options": {"players": 4, "target": 61, "skunk": True, "double_skunk_games": 4}}, 4),
    ({"options": {"players": 4, "target": 61, "deck": "seeded", "seed": "four", "muggins": True,
                  "muggins_in_play": True}, "dealer": 2}, 5),
    ({"options": {"players": 3, "target": 61, "ten_value_ties": True}}, 6),
]


@pytest.mark.parametrize(("body", "seed"), GAMES, ids=[str(s) for _, s in GAMES])
def test_a_whole_random_game(client, body, seed):
    last = play_game(client_post(client), body, random.Random(seed))
    state = last["state"]
    assert state["phase"] == "over"
    players = state["options"]["players"]
    assert state["result"]["next_first_dealer"] in range(players)


def test_muggins_claims_go_to_the_opponent(client):
    """Claiming 0 in the show under muggins: the opponent pegs what was missed."""
    post = client_post(client)
    rng = random.Random(7)
    status, body = post(START, {"options": {"deck": "seeded", "seed": "mug", "muggins": True}, "dealer": 0})
    while body["phase"] != "show":
        status, body = post(ADVANCE, {"state": body["state"], "action": rng.choice(body["legal_actions"])})
        assert status == 200, body
    seen = False
    while body["phase"] == "show":
        action = {**body["legal_actions"][0], "claim": 0}
        status, body = post(ADVANCE, {"state": body["state"], "action": action})
        assert status == 200, body
        for event in body["events"]:
            if event["type"] == "count":
                assert all(s["kind"] == "muggins" and s["seat"] != event["seat"] for s in event.get("scores", ()))
                seen = seen or bool(event.get("scores"))
    assert seen


# --- illegal actions and bad states ------------------------------------------------


def test_play_during_discard_is_wrong_phase(client):
    g = dealt(client)
    r = advance(client, g["state"], {"type": "play", "seat": 1, "card": g["state"]["hands"][1][0]})
    b = problem(r, 422)
    assert b["type"].endswith("/rule-violation")
    assert b["rule"] == "wrong_phase"
    assert fields(b) == ["/action"]
    assert b["legal"] == g["legal_actions"]
    assert all(a["type"] == "discard" for a in b["legal"])


@pytest.mark.parametrize(
    ("make", "rule"),
    [
        (lambda s: {"type": "discard", "seat": 1, "cards": s["hands"][1][:1]}, "wrong_discard"),
        (lambda s: {"type": "discard", "seat": 1, "cards": s["hands"][0][:2]}, "card_not_held"),
        (lambda s: {"type": "deal", "seat": 0}, "wrong_phase"),
        (lambda s: {"type": "discard", "seat": 3, "cards": s["hands"][1][:2]}, "no_such_seat"),
    ],
)
def test_illegal_discards(client, make, rule):
    g = dealt(client)
    b = problem(advance(client, g["state"], make(g["state"])), 422)
    assert b["rule"] == rule
    assert b["legal"] == g["legal_actions"]


def test_out_of_turn_in_the_play(client):
    g = dealt(client)
    state = g["state"]
    for seat in (0, 1):
        r = advance(client, state, {"type": "discard", "seat": seat, "cards": state["hands"][seat][:2]})
        state = r.json["state"]
    r = advance(client, state, {"type": "cut", "seat": 1})
    assert r.status_code == 200, r.text
    body = r.json
    assert body["phase"] == "play" and body["to_act"] == [1]
    b = problem(advance(client, body["state"], {"type": "play", "seat": 0, "card": body["state"]["hands"][0][0]}), 422)
    assert b["rule"] == "out_of_turn"
    assert b["legal"] == body["legal_actions"]


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ({"type": "shuffle", "seat": 0}, "/action/type"),
        ({"seat": 0}, "/action/type"),
        ({"type": "deal"}, "/action/seat"),
        ({"type": "deal", "seat": 0, "colour": 1}, "/action/colour"),
        ({"type": "play", "seat": 0, "card": "ZZ"}, "/action/card"),
    ],
)
def test_bad_actions_name_the_field(client, action, field):
    g = start(client, SEED)
    b = problem(advance(client, g["state"], action), 422)
    assert field in fields(b), b


def _tamper(state: dict, how: str) -> dict:
    s = copy.deepcopy(state)
    if how == "duplicate":
        s["hands"][1][0] = s["hands"][0][0]
    elif how == "scores":
        s["scores"][0]["front"] = 5
    elif how == "version":
        s["version"] = 2
    elif how == "unknown":
        s["colour"] = "red"
    elif how == "phase":
        s["phase"] = "show"
    elif how == "missing":
        del s["log"]
    return s


@pytest.mark.parametrize(
    ("how", "field"),
    [
        ("duplicate", "/state"),
        ("scores", "/state/scores"),
        ("version", "/state/version"),
        ("unknown", "/state/colour"),
        ("missing", "/state/log"),
        ("phase", "/state"),
    ],
)
def test_tampered_plain_state(client, how, field):
    g = dealt(client)
    state = _tamper(g["state"], how)
    b = problem(advance(client, state, {"type": "discard", "seat": 1, "cards": g["state"]["hands"][1][2:4]}), 422)
    assert b["type"].endswith("/invalid-request")
    assert any(f == field or f.startswith(field + "/") for f in fields(b)), b


def test_sealed_string_to_a_plain_service(client, sealed_client):
    g = start(sealed_client, SEED)
    b = problem(advance(client, g["state"], {"type": "deal", "seat": 0}), 422)
    assert fields(b) == ["/state"]


def test_view_hides_other_hands_during_discard(client):
    g = dealt(client)
    r = advance(client, g["state"], {"type": "discard", "seat": 0, "cards": g["state"]["hands"][0][:2]}, view=1)
    assert r.status_code == 200, r.text
    body = r.json
    check_response(body, sealed=False)
    v = body["view"]
    assert v["view"] == 1
    assert v["hands"][1] == g["state"]["hands"][1]
    assert v["hands"][0] == [None] * 4
    assert v["crib"] == [None, None]
    assert v["deck"] is None and v["deck_size"] == 40
    assert v["options"]["seed"] is None
    discard = [e for e in v["log"] if e["type"] == "discard"]
    assert discard == [{"type": "discard", "hand": 1, "seat": 0, "cards": [None, None]}]
    # The plain answer still carries everything (a trusted server holds it).
    assert body["events"][0]["cards"] == g["state"]["hands"][0][:2]
    assert len(body["legal_actions"]) == 15


def test_view_seat_not_at_the_table_is_422(client):
    b = problem(client.simulate_post(START, json={**SEED, "view": 2}), 422)
    assert fields(b) == ["/view"]
    g = start(client, SEED)
    b = problem(advance(client, g["state"], {"type": "deal", "seat": 0}, view=2), 422)
    assert fields(b) == ["/view"]


def test_view_in_start(client):
    g = start(client, {**SEED, "view": 1})
    check_response(g, sealed=False)
    assert g["view"]["view"] == 1
    g = start(client, {**SEED, "view": None})
    assert g["view"]["view"] is None


# --- sealed states -------------------------------------------------------------------


def test_sealed_start_and_advance(sealed_client):
    g = start(sealed_client, SEED)
    check_response(g, sealed=True)
    assert g["view"]["view"] is None  # a spectator's without view
    assert g["legal_actions"] == []  # the spectator has none
    r = advance(sealed_client, g["state"], {"type": "deal", "seat": 0}, view=1)
    assert r.status_code == 200, r.text
    body = r.json
    check_response(body, sealed=True)
    assert body["state"] != g["state"]
    assert body["phase"] == "discard"
    v = body["view"]
    assert v["view"] == 1
    assert len(v["hands"][1]) == 6 and None not in v["hands"][1]
    assert v["hands"][0] == [None] * 6
    assert v["deck_size"] == 40
    assert {a["seat"] for a in body["legal_actions"]} == {1}
    assert len(body["legal_actions"]) == 15


def test_sealed_state_is_the_same_game(client, sealed_client):
    plain = dealt(client)
    g = start(sealed_client, SEED)
    r = advance(sealed_client, g["state"], {"type": "deal", "seat": 0}, view=0)
    assert r.json["view"]["hands"][0] == plain["state"]["hands"][0]


def test_sealed_events_are_redacted(sealed_client):
    g = start(sealed_client, SEED)
    s = advance(sealed_client, g["state"], {"type": "deal", "seat": 0}, view=0).json
    hand0 = s["view"]["hands"][0]
    r = advance(sealed_client, s["state"], {"type": "discard", "seat": 0, "cards": hand0[:2]}, view=1)
    assert r.status_code == 200, r.text
    body = r.json
    assert body["events"] == [{"type": "discard", "hand": 1, "seat": 0, "cards": [None, None]}]
    assert body["view"]["crib"] == [None, None]
    r = advance(sealed_client, s["state"], {"type": "discard", "seat": 0, "cards": hand0[:2]}, view=0)
    assert r.json["events"] == [{"type": "discard", "hand": 1, "seat": 0, "cards": hand0[:2]}]
    assert r.json["view"]["crib"] == hand0[:2]
    assert r.json["legal_actions"] == []  # seat 0 has discarded; seat 1 is to act


def _flip(token: str, i: int) -> str:
    c = token[i]
    return token[:i] + ("A" if c != "A" else "B") + token[i + 1:]


@pytest.mark.parametrize("where", [3, 10, -5, -1])
def test_sealed_tampered_token(sealed_client, where):
    g = start(sealed_client, SEED)
    token = g["state"]
    b = problem(advance(sealed_client, _flip(token, where % len(token)), {"type": "deal", "seat": 0}), 422)
    assert fields(b) == ["/state"]


@pytest.mark.parametrize("token", ["", "v1.", "v1.!!!", "v2.abc", "not a token", "v1." + "A" * 100])
def test_sealed_junk_token(sealed_client, token):
    b = problem(advance(sealed_client, token, {"type": "deal", "seat": 0}), 422)
    assert fields(b) == ["/state"]


def test_sealed_plain_object_state(client, sealed_client):
    plain = start(client, SEED)["state"]
    b = problem(advance(sealed_client, plain, {"type": "deal", "seat": 0}), 422)
    assert fields(b) == ["/state"]


def test_sealed_token_from_another_secret(sealed_client):
    other = falcon.testing.TestClient(create_app(sealer=Sealer("t" * 32)))
    token = start(other, SEED)["state"]
    b = problem(advance(sealed_client, token, {"type": "deal", "seat": 0}), 422)
    assert fields(b) == ["/state"]


def test_sealed_legal_actions_only_for_the_viewing_seat(sealed_client):
    g = start(sealed_client, SEED)
    for seat in (None, 0, 1):
        extra = {} if seat is None else {"view": seat}
        r = advance(sealed_client, g["state"], {"type": "deal", "seat": 0}, **extra)
        assert r.status_code == 200, r.text
        legal = r.json["legal_actions"]
        assert r.json["view"]["view"] == seat
        assert {a["seat"] for a in legal} == ({seat} if seat is not None else set())


def test_sealed_rule_violation_leaks_no_hidden_cards(sealed_client):
    """An illegal action answered by a sealing service must not list other
    seats' legal actions: during the discard they spell out their hands."""
    g = start(sealed_client, SEED)
    s = advance(sealed_client, g["state"], {"type": "deal", "seat": 0}, view=1).json
    r = advance(sealed_client, s["state"], {"type": "play", "seat": 1, "card": s["view"]["hands"][1][0]}, view=1)
    b = problem(r, 422)
    assert b["rule"] == "wrong_phase"
    assert all(a["seat"] == 1 for a in b["legal"]), [a for a in b["legal"] if a["seat"] != 1][:3]


@pytest.mark.parametrize(("body", "seed"), [({"options": {"players": 2}}, 11),
                                            ({"options": {"players": 4, "target": 61}}, 12)])
def test_a_whole_sealed_game(sealed_client, body, seed):
    play_game(client_post(sealed_client), body, random.Random(seed), sealed=True)
