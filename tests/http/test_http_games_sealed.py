"""The game API with sealed states and seat tokens (CRIBBAGE_STATE_SECRET), in-process.

A sealing service answers a ``v2.<key id>.<game id>.<seq>.<body>`` token for
the state, one seat token per seat at the start, and shows each seat only what
it may see.  The test holds the secret, so it opens every token (the oracle) to
check that no answer shows a card the asking seat may not see.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import random
import zlib

import falcon.testing
import orjson
import pytest
from conftest import fields, problem
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from helpers_games import (
    ADVANCE, MAX_TOKEN_CHARS, START, VIEW, cards_in, check_event, check_game_response,
    check_view_cards, client_post, hidden_cards, open_sealed, play_sealed_game,
    shake_deal, token_header,
)

from service.app import create_app
from service.seal import Sealer

SECRET = "s" * 32
SEALER = Sealer(SECRET)


# What SECRET seals with, derived here as service/seal.py documents it (HKDF-SHA256
# of the secret, salt b"cribbage-service", one info label per purpose; HMAC-SHA256
# under the derived keys), not read back from SEALER.
def _hkdf(info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"cribbage-service", info=info).derive(SECRET.encode())


KEY_ID = hmac.new(_hkdf(b"cribbage/v2/key-id"), b"key-id", hashlib.sha256).hexdigest()[:8]


def seat_token(game_id: str, seat: int) -> str:
    """st.<seat>.<base64url(HMAC-SHA256(seat key, "<game_id>/<seat>")[:16])>."""
    mac = hmac.new(_hkdf(b"cribbage/v2/seat-token"), f"{game_id}/{seat}".encode(), hashlib.sha256).digest()[:16]
    return f"st.{seat}." + base64.urlsafe_b64encode(mac).decode().rstrip("=")


def deck_seed(seed: str) -> str:
    """A sealed seeded game's deck seed: HMAC-SHA256 of the seed under the deck key, 32 hex."""
    return hmac.new(_hkdf(b"cribbage/v2/deck-seed"), seed.encode(), hashlib.sha256).hexdigest()[:32]


@pytest.fixture(scope="module", params=[2048, 0], ids=["cache", "no-cache"])
def state_cache(request: pytest.FixtureRequest) -> int:
    """Every game test runs with the worker's state cache and without it (each state
    replayed), so the cache can never hide a state that does not restore."""
    return request.param


@pytest.fixture(scope="module")
def sealed(state_cache: int) -> falcon.testing.TestClient:
    return falcon.testing.TestClient(create_app(sealer=SEALER, state_cache=state_cache))


@pytest.fixture(scope="module")
def plain(state_cache: int) -> falcon.testing.TestClient:
    return falcon.testing.TestClient(create_app(sealer=None, state_cache=state_cache))


def start(client, body) -> dict:
    r = client.simulate_post(START, json=body)
    assert r.status_code == 201, r.text
    return r.json


def act(client, state, action, token=None, **extra):
    body = {"state": state, "action": action, **extra}
    if token is not None:
        body["seat_token"] = token
    return client.simulate_post(ADVANCE, json=body)


def look(client, state, token=None, **extra):
    body = {"state": state, **extra}
    if token is not None:
        body["seat_token"] = token
    return client.simulate_post(VIEW, json=body)


def ok(r) -> dict:
    assert r.status_code == 200, r.text
    return r.json


def forbidden(r) -> dict:
    b = problem(r, 403)
    assert b["type"].endswith("/seat-forbidden"), b
    return b


class Game:
    """A sealed game driven by the test: the latest token and the seat tokens."""

    def __init__(self, client, body: dict) -> None:
        self.client = client
        self.body = body
        self.tokens = body["seat_tokens"]
        self.players = len(self.tokens)

    @property
    def state(self) -> str:
        return self.body["state"]

    def view(self, seat: int | None) -> dict:
        body = ok(look(self.client, self.state, None if seat is None else self.tokens[seat]))
        check_game_response(body, sealed=True, seat=seat, key_id=KEY_ID)
        return body

    def do(self, action: dict) -> dict:
        body = ok(act(self.client, self.state, action, self.tokens[action["seat"]]))
        check_game_response(body, sealed=True, seat=action["seat"], key_id=KEY_ID)
        self.body = body
        return body

    def random_step(self, rng: random.Random) -> dict:
        seat = rng.choice(self.body["to_act"])
        return self.do(rng.choice(self.view(seat)["legal_actions"]))

    def to_phase(self, phase: str, rng: random.Random) -> "Game":
        while self.body["phase"] != phase:
            assert self.body["phase"] != "over"
            self.random_step(rng)
        return self

    def truth(self):
        return open_sealed(SEALER, self.state)


# A sealed game's seed is a secret of 32 characters or more (a guessable one would let
# anyone deal a twin game); the plain tests' SEED is too short for a sealed game.
SEED = {"options": {"deck": "seeded", "seed": "http-games, sealed: a secret seed of 32+"}, "dealer": 0}
SAME_SEED = "same-seed, a secret of at least 32 characters"


def new_game(client, body=SEED) -> Game:
    g = start(client, body)
    check_game_response(g, sealed=True, seat=None, key_id=KEY_ID, tokens=True)
    return Game(client, g)


def dealt(client, body=SEED) -> Game:
    g = new_game(client, body)
    g.do({"type": "deal", "seat": g.body["to_act"][0]})
    return g


# --- starting ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sealed_start(sealed, players):
    body = start(sealed, {"options": {"players": players}})
    check_game_response(body, sealed=True, seat=None, key_id=KEY_ID, tokens=True)
    kid, game_id, seq = token_header(body["state"])
    assert (kid, game_id, seq) == (KEY_ID, body["game_id"], 0)
    assert body["view"]["seat"] is None and body["legal_actions"] == []
    assert len(set(body["seat_tokens"])) == players
    assert body["seat_tokens"] == [seat_token(game_id, s) for s in range(players)]  # derived in the test
    assert len(body["state"]) < MAX_TOKEN_CHARS
    assert all(e["type"] == "cut_for_deal" for e in body["events"])


def test_sealed_start_with_a_view_is_403(sealed):
    forbidden(sealed.simulate_post(START, json={**SEED, "view": 0}))
    assert sealed.simulate_post(START, json={**SEED, "view": None}).status_code == 201


def test_every_sealed_operation_answers_exactly_the_documented_keys(sealed):
    g = dealt(sealed)
    for seat in (None, 0, 1):
        body = g.view(seat)  # checked there: keys, the token's header, seat_tokens null
        assert (body["game_id"], body["seq"]) == (g.body["game_id"], 1) == token_header(body["state"])[1:]
        assert body["events"] == []
    kid, game_id, seq = token_header(g.state)
    assert (game_id, seq) == (g.body["game_id"], g.body["seq"])


# --- seats ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seat_token_never_acts_for_another_seat(sealed, players):
    """Two whole deals; at every step every other seat's token, sending the acting
    seat's own legal action, is refused with 403 seat-forbidden."""
    play_sealed_game(client_post(sealed), {"options": {"players": players}}, random.Random(players), SEALER,
                     cross_check=True, until=lambda b: b["deal"] >= 3)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_pair_of_seats_during_the_discard(sealed, players):
    """While every seat is to discard: for each s and each t != s, s's token cannot
    send t's discard (nor any action of t), and the refusal names no card of t's."""
    g = dealt(sealed, {"options": {"players": players}})
    truth = g.truth()
    for t in range(players):
        theirs = g.view(t)["legal_actions"]
        assert {a["seat"] for a in theirs} == {t}
        for s in range(players):
            if s == t:
                continue
            for action in (theirs[0], {"type": "deal", "seat": t}, {"type": "cut", "seat": t}):
                r = act(sealed, g.state, action, g.tokens[s])
                b = forbidden(r)
                assert fields(b) == ["/seat_token"]
                assert not cards_in(b) & (hidden_cards(truth, s) - set(action.get("cards", ())))
    # Seat numbers past the table are refused the same way.
    if players < 4:
        forbidden(act(sealed, g.state, {"type": "deal", "seat": players}, g.tokens[0]))


def test_a_seat_token_of_another_game_is_403(sealed):
    a, b = dealt(sealed), dealt(sealed)
    assert a.body["game_id"] != b.body["game_id"]
    for seat in (0, 1):
        mine = a.view(seat)["legal_actions"][0]
        forbidden(act(sealed, b.state, mine, a.tokens[seat]))
        forbidden(look(sealed, b.state, a.tokens[seat]))
    # Nor with a state of the same game from another deployment's seat token.
    other = Sealer("o" * 32)
    forbidden(look(sealed, a.state, other.seat_token(a.body["game_id"], 0)))


def test_an_advance_without_a_seat_token_is_403(sealed):
    g = new_game(sealed)
    b = forbidden(act(sealed, g.state, {"type": "deal", "seat": 0}))
    assert fields(b) == ["/seat_token"]
    g.do({"type": "deal", "seat": 0})
    forbidden(act(sealed, g.state, {"type": "discard", "seat": 1, "cards": ["AS", "2S"]}))


def test_a_view_number_in_a_sealed_game_is_403(sealed):
    g = new_game(sealed)
    forbidden(act(sealed, g.state, {"type": "deal", "seat": 0}, g.tokens[0], view=0))
    forbidden(act(sealed, g.state, {"type": "deal", "seat": 0}, g.tokens[0], view=1))
    forbidden(act(sealed, g.state, {"type": "deal", "seat": 0}, view=0))
    forbidden(look(sealed, g.state, seat=0))
    forbidden(look(sealed, g.state, g.tokens[1], seat=1))
    # null is no seat number
    assert act(sealed, g.state, {"type": "deal", "seat": 0}, g.tokens[0], view=None).status_code == 200
    assert look(sealed, g.state, seat=None).status_code == 200


@pytest.mark.parametrize("bad", ["st.0.", "st.0.AAAAAAAAAAAAAAAAAAAAAA", "st.9.AAAAAAAAAAAAAAAAAAAAAA", "x" * 64,
                                 "v2.abc"])
def test_a_bad_seat_token_is_403(sealed, bad):
    g = new_game(sealed)
    forbidden(act(sealed, g.state, {"type": "deal", "seat": 0}, bad))
    forbidden(look(sealed, g.state, bad))


def test_a_seat_token_has_one_spelling(sealed):
    g = new_game(sealed)
    token = g.tokens[0]
    for variant in (token + "=", token + "==", token[:-1] + ("B" if token[-1] == "A" else "A"),
                    token.replace("st.0.", "st.00."), token.upper(), " " + token):
        forbidden(act(sealed, g.state, {"type": "deal", "seat": 0}, variant))


# --- what a seat sees ----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_view_with_a_seat_token(sealed, players):
    """/v1/games/view with seat s's token: s's own cards and its legal actions, without acting."""
    g = dealt(sealed, {"options": {"players": players}})
    truth = g.truth()
    for seat in range(players):
        body = g.view(seat)
        v = body["view"]
        assert v["hands"][seat] == [str(c) for c in truth.position.hands[seat]]
        assert all(h == [None] * len(h) for t, h in enumerate(v["hands"]) if t != seat)
        assert all(c is None for c in v["crib"])
        legal = body["legal_actions"]
        assert legal and {a["seat"] for a in legal} == {seat}
        assert all(set(a["cards"]) <= set(v["hands"][seat]) for a in legal)
        assert body["seq"] == g.body["seq"] and body["events"] == []
        check_view_cards(v, truth, seat)
        assert not cards_in(body) & hidden_cards(truth, seat)
        # Viewing did not act: the token it answers is the same game at the same point.
        again = g.view(seat)
        assert again["view"] == v and token_header(again["state"]) == token_header(g.state)


def test_a_spectator_sees_no_unplayed_uncounted_card(sealed):
    rng = random.Random(17)
    g = new_game(sealed, {"options": {"players": 3, "target": 61}})
    while g.body["phase"] != "over":
        body = g.view(None)
        assert body["legal_actions"] == []
        truth = g.truth()
        check_view_cards(body["view"], truth, None)
        assert not cards_in(body) & hidden_cards(truth, None)
        if truth.phase in ("discard", "cut", "play"):
            played = set(body["view"]["play"]["played"]) if body["view"]["play"] else set()
            seen = {c for h in body["view"]["hands"] for c in h if c is not None}
            assert seen <= played
        g.random_step(rng)


def test_events_are_the_seats_own(sealed):
    g = dealt(sealed, {"options": {"players": 3}})
    hand0 = g.view(0)["view"]["hands"][0]
    body = g.do({"type": "discard", "seat": 0, "cards": hand0[:1]})
    assert body["events"] == [{"type": "discard", "deal": 1, "seat": 0, "cards": hand0[:1]}]
    assert body["view"]["crib"].count(hand0[0]) == 1  # its own discard it sees
    # Seat 1 sees seat 0's discard only as a card face down.
    v1 = g.view(1)["view"]
    assert hand0[0] not in v1["crib"] and v1["crib"].count(None) == 2
    assert g.view(None)["view"]["crib"] == [None, None]


def test_a_rule_violation_lists_only_the_seats_own_actions(sealed):
    g = dealt(sealed)
    truth = g.truth()
    mine = g.view(1)
    r = act(sealed, g.state, {"type": "play", "seat": 1, "card": mine["view"]["hands"][1][0]}, g.tokens[1])
    b = problem(r, 422)
    assert b["rule"] == "wrong_phase"
    assert b["legal"] and {a["seat"] for a in b["legal"]} == {1}
    assert b["legal"] == mine["legal_actions"]
    assert not cards_in(b) & hidden_cards(truth, 1)


def _pack_card(truth) -> str:
    """A card still in the pack (dealt to nobody)."""
    pos = truth.position
    out = {str(c) for h in pos.hands for c in h} | {str(c) for c in pos.crib} | {str(pos.starter)}
    return next(c for c in map(str, pos.cards) if c not in out)


@pytest.mark.parametrize("players", [2, 3])
def test_a_card_another_seat_holds_is_answered_as_a_card_in_the_pack(sealed, players):
    """Seat 0 discarding a card seat 1 holds gets what it gets for a card in the pack:
    card_not_held, at /action/cards/1, with only its own legal discards, and
    no card of another seat's hand anywhere in the answer."""
    g = dealt(sealed, {"options": {"players": players}})
    truth = g.truth()
    own = [str(c) for c in truth.position.hands[0]]
    held = str(truth.position.hands[1][0])
    pack = _pack_card(truth)
    k = 1 if players == 3 else 2
    answers = []
    for foreign in (held, pack):
        cards = own[:k - 1] + [foreign]
        b = problem(act(sealed, g.state, {"type": "discard", "seat": 0, "cards": cards}, g.tokens[0]), 422)
        assert b["type"].endswith("/rule-violation") and b["rule"] == "card_not_held"
        assert fields(b) == [f"/action/cards/{k - 1}"]
        assert {a["seat"] for a in b["legal"]} == {0}
        assert not cards_in(b) & (hidden_cards(truth, 0) - {foreign}), b
        answers.append(json.dumps({k2: v for k2, v in b.items() if k2 != "request_id"}).replace(foreign, "??"))
    assert answers[0] == answers[1]


def test_a_card_another_seat_holds_in_the_play(sealed):
    rng = random.Random(23)
    g = dealt(sealed).to_phase("play", rng)
    seat = g.body["to_act"][0]
    truth = g.truth()
    held = next(str(c) for c in truth.position.hands[1 - seat] if c not in truth.position.play.played)
    pack = _pack_card(truth)
    answers = []
    for foreign in (held, pack):
        b = problem(act(sealed, g.state, {"type": "play", "seat": seat, "card": foreign}, g.tokens[seat]), 422)
        assert b["rule"] == "card_not_held" and fields(b) == ["/action/card"]
        assert {a["seat"] for a in b["legal"]} == {seat}
        assert not cards_in(b) & (hidden_cards(truth, seat) - {foreign}), b
        answers.append(json.dumps({k: v for k, v in b.items() if k != "request_id"}).replace(foreign, "??"))
    assert answers[0] == answers[1]


def test_out_of_turn_lists_nothing_of_the_seat_to_play(sealed):
    rng = random.Random(29)
    g = dealt(sealed).to_phase("play", rng)
    waiting = 1 - g.body["to_act"][0]
    truth = g.truth()
    card = g.view(waiting)["view"]["hands"][waiting][0]
    b = problem(act(sealed, g.state, {"type": "play", "seat": waiting, "card": card}, g.tokens[waiting]), 422)
    assert b["rule"] == "out_of_turn" and b["legal"] == []
    assert not cards_in(b) & hidden_cards(truth, waiting)


def test_renege_events_carry_no_cards_when_sealed(sealed):
    """Tournament: a seat saying go while able pegs its opponent 2 a playable card;
    neither its answer nor anyone's names the cards it could have played."""
    rng = random.Random(41)
    found = 0
    for game in range(8):
        g = dealt(sealed, {"options": {"tournament": True}}).to_phase("play", rng)
        while g.body["phase"] == "play":
            seat = g.body["to_act"][0]
            legal = g.view(seat)["legal_actions"]
            gos = [a for a in legal if a["type"] == "go"]
            plays = [a for a in legal if a["type"] == "play"]
            body = g.do(gos[0] if gos and plays else rng.choice(legal))
            for e in body["events"]:
                check_event(e, 2)
                if any(s["kind"] == "renege" for s in e.get("scores", ())):
                    found += 1
                    assert e["type"] == "go" and not cards_in(e), e
        if found >= 3:
            break
    assert found >= 3


# --- the pack ------------------------------------------------------------------------


def test_the_deal_is_committed(sealed):
    """Re-sending the same pre-deal token to deal, five times, deals the same cards."""
    g = new_game(sealed, {"options": {"players": 3}})
    before = g.state
    dealer = g.body["to_act"][0]
    seen = []
    for _ in range(5):
        body = ok(act(sealed, before, {"type": "deal", "seat": dealer}, g.tokens[dealer]))
        others = [ok(look(sealed, body["state"], g.tokens[s]))["view"]["hands"][s] for s in range(3)]
        seen.append((body["view"]["hands"][dealer], others))
        assert token_header(body["state"])[1:] == (g.body["game_id"], 1)
    assert all(s == seen[0] for s in seen)
    assert seen[0][0] == seen[0][1][dealer] and None not in seen[0][0]
    # and the cards are the deal of the token's deck seed (read with the test's
    # SEALER), dealt off the test's own SHAKE-256 derivation of the pack
    inside = SEALER.unseal(before).state
    assert inside["dealer"] == dealer
    expected, _ = shake_deal(inside["deck_seed"], 1, 3, dealer, 5, 1)
    assert seen[0] == (expected[dealer], expected)


def test_a_seeded_sealed_pack_is_mixed_with_the_secret(sealed, plain):
    body = {"options": {"deck": "seeded", "seed": SAME_SEED}, "dealer": 0}
    p = start(plain, body)
    p = ok(act(plain, p["state"], {"type": "deal", "seat": 0}))["view"]["hands"]
    s1, s2 = dealt(sealed, body), dealt(sealed, body)
    assert s1.view(0)["view"]["hands"][0] != p[0]
    # The operator reproduces it (same secret, same seed: same pack); another secret does not.
    # The deck seed is derived in the test from SECRET, the hands from its pack (seat 0 deals).
    mixed = deck_seed(SAME_SEED)
    expected, _ = shake_deal(mixed, 1, 2, 0, 6)
    assert s1.view(0)["view"]["hands"][0] == s2.view(0)["view"]["hands"][0] == expected[0]
    assert s1.truth().deck_seed == s2.truth().deck_seed == mixed
    other_sealer = Sealer("q" * 32)
    other = falcon.testing.TestClient(create_app(sealer=other_sealer))
    o = start(other, body)
    o = ok(act(other, o["state"], {"type": "deal", "seat": 0}, o["seat_tokens"][0]))
    assert o["view"]["hands"][0] != s1.view(0)["view"]["hands"][0]


# --- tokens ----------------------------------------------------------------------------


def _flip(token: str, i: int) -> str:
    c = token[i]
    return token[:i] + ("A" if c != "A" else "B") + token[i + 1:]


def _sealed_token_with(chars: str) -> tuple[Game, str]:
    """A game whose token body contains one of ``chars`` (tokens are random: try a few)."""
    client = falcon.testing.TestClient(create_app(sealer=SEALER))
    for _ in range(200):
        g = new_game(client)
        body = g.state.rpartition(".")[2]
        if any(c in body for c in chars):
            return g, body
    pytest.fail(f"no token with any of {chars!r}")


def test_a_state_token_has_one_spelling(sealed):
    """The same token with '=' padding, with the '+'/'/' alphabet, or with an inserted character: 422."""
    g, body = _sealed_token_with("-_")
    head = g.state[: -len(body)]
    variants = [g.state + "=", g.state + "==", head + body.replace("-", "+").replace("_", "/"),
                head + body[:5] + "A" + body[5:], head + "A" + body, g.state + "A",
                " " + g.state, g.state + "\n", g.state.upper(), g.state.replace("v2.", "V2.")]
    kid, game_id, seq = token_header(g.state)
    variants += [head.replace(f".{seq}.", ".00.") + body, head.replace(game_id, game_id.upper()) + body]
    assert all(v != g.state for v in variants)
    for v in variants:
        for r in (act(sealed, v, {"type": "deal", "seat": 0}, g.tokens[0]), look(sealed, v)):
            b = problem(r, 422)
            assert fields(b) == ["/state"], (v, b)
    assert look(sealed, g.state).status_code == 200


@pytest.mark.parametrize("where", [3, 5, 12, 20, 44, 47, -40, -5, -1])
def test_a_tampered_sealed_token(sealed, where):
    g = new_game(sealed)
    token = _flip(g.state, where % len(g.state))
    b = problem(act(sealed, token, {"type": "deal", "seat": 0}, g.tokens[0]), 422)
    assert fields(b) == ["/state"]


def test_a_token_header_names_its_game_and_seq(sealed):
    """The header is authenticated: another game id or seq, or key id, does not open."""
    a, b = new_game(sealed), dealt(sealed)
    kid, game_id, seq = token_header(b.state)
    body = b.state.rpartition(".")[2]
    for forged in (f"v2.{kid}.{a.body['game_id']}.{seq}.{body}", f"v2.{kid}.{game_id}.{seq + 1}.{body}",
                   f"v2.{kid}.{game_id}.0.{body}", f"v2.{'0' * 8}.{game_id}.{seq}.{body}"):
        problem(look(sealed, forged), 422)
        problem(act(sealed, forged, {"type": "discard", "seat": 0, "cards": ["AS", "2S"]}, b.tokens[0]), 422)


@pytest.mark.parametrize("token", ["", "v2.", "v2.!!!", "v2.abc", "v1.", "v1.!!!", "not a token",
                                   "v1." + "A" * 100, "v2." + "A" * 5000])
def test_a_junk_token(sealed, token):
    b = problem(act(sealed, token, {"type": "deal", "seat": 0}, SEALER.seat_token("0" * 32, 0)), 422)
    assert fields(b) == ["/state"]


def test_a_plain_state_to_a_sealed_service(sealed, plain):
    state = start(plain, SEED)["state"]
    b = problem(act(sealed, state, {"type": "deal", "seat": 0}, SEALER.seat_token(state["game_id"], 0)), 422)
    assert fields(b) == ["/state"]
    b = problem(look(sealed, state), 422)
    assert fields(b) == ["/state"]


def test_a_sealed_token_to_a_plain_service(sealed, plain):
    g = new_game(sealed)
    b = problem(act(plain, g.state, {"type": "deal", "seat": 0}), 422)
    assert fields(b) == ["/state"]


def test_a_token_from_another_secret(sealed):
    other = falcon.testing.TestClient(create_app(sealer=Sealer("t" * 32)))
    o = start(other, SEED)
    b = problem(act(sealed, o["state"], {"type": "deal", "seat": 0}, o["seat_tokens"][0]), 422)
    assert fields(b) == ["/state"]


# --- rotation ---------------------------------------------------------------------


def test_rotation_keeps_tokens_and_seat_tokens():
    old, new = "old-secret-" + "o" * 24, "new-secret-" + "n" * 24
    before = falcon.testing.TestClient(create_app(sealer=Sealer(old)))
    after = falcon.testing.TestClient(create_app(sealer=Sealer(new, previous=old)))
    only_new = falcon.testing.TestClient(create_app(sealer=Sealer(new)))
    g = start(before, {"options": {"players": 3}})
    tokens = g["seat_tokens"]
    dealer = g["to_act"][0]
    old_kid = token_header(g["state"])[0]
    # The rotated service reads the old token and the old seat tokens...
    body = ok(act(after, g["state"], {"type": "deal", "seat": dealer}, tokens[dealer]))
    new_kid = token_header(body["state"])[0]
    assert new_kid == Sealer(new).key_id != old_kid  # ...and answers under the new key
    for seat in range(3):
        v = ok(look(after, g["state"], tokens[seat]))
        assert v["view"]["seat"] == seat
        mine = ok(look(after, body["state"], tokens[seat]))
        assert None not in mine["view"]["hands"][seat]
        other = tokens[(seat + 1) % 3]
        # a tampered token: its last two characters changed (never to what they were: "AA" can be its own tail)
        forbidden(look(after, body["state"], other[:-2] + ("AA" if not other.endswith("AA") else "BB")))
    # The seat tokens it issued before rotation keep working on the new tokens.
    seat = body["to_act"][0]
    legal = ok(look(after, body["state"], tokens[seat]))["legal_actions"]
    ok(act(after, body["state"], legal[0], tokens[seat]))
    # Once the old secret is dropped, the old token no longer opens; the service before
    # rotation cannot read the new key's tokens.
    problem(look(only_new, g["state"]), 422)
    problem(look(before, body["state"]), 422)
    forbidden(look(only_new, body["state"], tokens[0]))


# --- format 1 is retired ---------------------------------------------------------------


def old_v1_seal(secret: str, state: dict) -> str:
    """The v1 sealing as the first release wrote it, independently of service.seal."""
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"cribbage-service",
               info=b"game-state-seal").derive(secret.encode())
    nonce = os.urandom(12)
    body = AESGCM(key).encrypt(nonce, zlib.compress(orjson.dumps(state), 6), b"cribbage-state/v1")
    return "v1." + base64.urlsafe_b64encode(nonce + body).decode().rstrip("=")


@pytest.mark.parametrize("seat_token", [False, True])
def test_format_1_token_is_refused_saying_so(sealed, seat_token):
    """An authentic v1 token (this deployment's secret) is a 422 naming /state that
    says format 1 is no longer read, with or without a seat token; it acts never."""
    v1 = old_v1_seal(SECRET, {"version": 1, "phase": "deal", "to_act": [0]})
    game = start(sealed, {"options": {}})
    token = game["seat_tokens"][0] if seat_token else None
    for r in (look(sealed, v1, token), act(sealed, v1, {"type": "deal", "seat": 0}, token)):
        b = problem(r, 422)
        assert fields(b) == ["/state"]
        assert "format 1 is no longer read" in b["detail"]


@pytest.mark.parametrize("seed", ["club-night-round-3", "x" * 31])
def test_a_sealed_game_refuses_a_guessable_seed(sealed, seed):
    """Whoever knows a seed deals the same cards, so a sealed game takes only a
    seed of 32 characters or more (a 422 naming /options/seed); 32 is enough."""
    b = problem(sealed.simulate_post(START, json={"options": {"deck": "seeded", "seed": seed}}), 422)
    assert fields(b) == ["/options/seed"]
    assert "at least 32 characters" in b["detail"]
    start(sealed, {"options": {"deck": "seeded", "seed": seed + "y" * (32 - len(seed))}})


# --- whole sealed games -------------------------------------------------------------

SEALED_GAMES = [
    ({"options": {"players": 2}}, 11),
    ({"options": {"players": 2, "five_and_two": True, "muggins": True, "tournament": True}}, 12),
    ({"options": {"players": 2, "target": 61, "muggins": True, "muggins_in_play": True}}, 13),
    ({"options": {"players": 3, "tournament": True, "muggins": True}}, 14),
    ({"options": {"players": 3, "target": 61, "deck": "seeded", "seed": "three of us, a sealed seeded game to 61"}}, 15),
    ({"options": {"players": 4, "muggins": True, "tournament": True, "skunk": True}}, 16),
    ({"options": {"players": 4, "target": 61, "muggins": True, "muggins_in_play": True}}, 17),
]


@pytest.mark.parametrize(("body", "seed"), SEALED_GAMES, ids=[str(s) for _, s in SEALED_GAMES])
def test_a_whole_sealed_game(sealed, body, seed):
    """Each seat acts with its own token on what its own view shows; no answer shows
    it a card it may not see; every token is under 1,024 characters."""
    out = play_sealed_game(client_post(sealed), body, random.Random(seed), SEALER)
    assert out["max_size"] < MAX_TOKEN_CHARS
    last = out["last"]
    for seat in range(len(out["tokens"])):
        v = ok(look(sealed, last["state"], out["tokens"][seat]))["view"]
        assert all(None not in h for h in v["hands"])  # the game is over: everything is shown
