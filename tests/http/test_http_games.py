"""The game API (state v2) over HTTP, in-process (falcon.testing): plain states.

POST /v1/games, /v1/games/advance and /v1/games/view with a service that has
no sealing secret: the client is a trusted platform holding the v2 state object.
Sealed games are in tests/http/test_http_games_sealed.py, /v1/games/replay in
tests/http/test_http_games_replay.py.

The helpers (tests/helpers_games.py: :func:`check_game_response`,
:func:`play_game`, :func:`play_sealed_game`, :func:`hidden_cards`, ...) are
shared with those files and with tests/system/test_e2e_game.py, which plays over a
real gunicorn. Whole games are played through any
``post(url, body) -> (status, json)``.
"""

from __future__ import annotations

import copy
import hashlib
import random
import re

import falcon.testing
import pytest
from conftest import fields, problem
from helpers_games import (ADVANCE, ALL_CARDS, GAME_KEYS, MAX_STATE_BYTES, PLAY_KEYS, START, STATE_KEYS, VIEW,
                           VIEW_KEYS, check_game_response, check_view_cards, client_post, open_plain, play_game,
                           shake_deal, shake_pack)

from service.app import create_app

SEED = {"options": {"deck": "seeded", "seed": "http-games"}, "dealer": 0}


# --- in-process clients --------------------------------------------------------------


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
        s["version"] = 0  # a newer one (3) is newer-state-version: tests/system/test_state_versions.py
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
