"""The advice operations over HTTP: discards, pegging advice, the bot's suggestion
(plain and sealed: a seat asks only for itself)."""

from __future__ import annotations

import falcon.testing
import pytest
from conftest import fields, problem

from service.app import create_app
from service.seal import Sealer


@pytest.fixture(scope="module")
def plain():
    return falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))


@pytest.fixture(scope="module")
def sealed():
    return falcon.testing.TestClient(create_app(sealer=Sealer("s" * 32), collect_metrics=False))


def test_discards_lists_every_choice_best_first(plain):
    r = plain.simulate_post("/v1/discards", json={"cards": ["5H", "5C", "5S", "JD", "2C", "9H"], "dealer": False})
    assert r.status_code == 200, r.text
    body = r.json
    assert body["model"] == "tuned" and len(body["choices"]) == 15
    assert body["choices"][0]["discard"] == ["2C", "9H"]
    nets = [c["net"] for c in body["choices"]]
    assert nets == sorted(nets, reverse=True)
    first = body["choices"][0]
    assert first["net"] == pytest.approx(first["hand"]["mean"] - first["crib"]["mean"])
    assert sum(c["starters"] for c in first["hand"]["counts"]) == 46


def test_discards_random_model_and_four_players(plain):
    r = plain.simulate_post("/v1/discards", json={"cards": ["5H", "5C", "5S", "JD", "2C"], "players": 4,
                                                  "dealer": False, "partner_deals": True, "model": "random",
                                                  "known": ["KS"]})
    assert r.status_code == 200, r.text
    assert r.json["model"] == "random" and r.json["own_crib"] is True and r.json["unseen"] == 46


@pytest.mark.parametrize("body,field", [
    ({"cards": ["5H", "5C", "5S", "JD", "2C", "9H"], "players": 3, "dealer": True}, "/cards"),
    ({"cards": ["5H", "5C", "5S", "JD", "2C", "5H"], "dealer": True}, "/cards/5"),
    ({"cards": ["5H", "5C", "5S", "JD", "2C"], "dealer": True, "known": ["5C"]}, "/known/0"),
    ({"cards": ["5H", "5C", "5S", "JD", "2C"], "dealer": True, "model": "smart"}, "/model"),
    ({"cards": ["5H", "5C", "5S", "JD", "2C"], "dealer": True, "partner_deals": True}, "/partner_deals"),
    ({"cards": ["5H", "5C", "5S", "JD", "2C"]}, "/dealer"),
])
def test_discards_bad_requests_name_the_field(plain, body, field):
    assert field in fields(problem(plain.simulate_post("/v1/discards", json=body), 422))


KNOWN_MAXIMA = [(2, 6, 39), (2, 5, 39), (3, 5, 35), (4, 5, 31)]
"""(players, cards dealt, the most known cards): 52 less the seat's cards, the others',
the cards dealt straight to the crib and the starter, counted here by hand."""


def test_the_documented_known_maxima_are_the_contract_s():
    import yaml
    from conftest import ROOT

    known = yaml.safe_load((ROOT / "openapi.yaml").read_text())["components"]["schemas"]["DiscardsRequest"][
        "properties"]["known"]
    assert known["maxItems"] == max(m for _, _, m in KNOWN_MAXIMA)
    for text in ("39 with 2 players", "35 with 3", "31 with 4"):
        assert text in known["description"]


@pytest.mark.parametrize(("players", "dealt", "most"), KNOWN_MAXIMA)
@pytest.mark.parametrize("model", ["tuned", "random"])
def test_discards_accept_the_documented_most_known_cards(plain, players, dealt, most, model):
    """Each documented maximum is answered 2xx (40 were documented and always refused);
    one more is a 422 naming /known."""
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    body = {"cards": deck[:dealt], "players": players, "dealer": False, "model": model,
            "known": deck[dealt:dealt + most]}
    r = plain.simulate_post("/v1/discards", json=body)
    assert r.status_code == 200, r.text
    assert r.json["unseen"] == 52 - dealt - most
    body["known"] = deck[dealt:dealt + most + 1]
    assert fields(problem(plain.simulate_post("/v1/discards", json=body), 422)) == ["/known"]


def test_pegging_advise_and_solve(plain):
    base = {"players": 2, "pone": 1, "seat": 0, "hand": ["5H", "5C", "TS", "JD"],
            "plays": [{"seat": 1, "card": "KH"}]}
    r = plain.simulate_post("/v1/pegging/advise", json={**base, "starter": "2C", "samples": 8, "seed": 3})
    assert r.status_code == 200, r.text
    assert r.json["samples"] == 8 and not r.json["exact"]
    assert {o["action"]["card"] for o in r.json["options"]} == {"5H", "5C", "TS", "JD"}
    r2 = plain.simulate_post("/v1/pegging/advise", json={**base, "starter": "2C", "samples": 8, "seed": 3})
    assert r2.json == r.json  # seeded
    s = plain.simulate_post("/v1/pegging/advise", json={
        **base, "solve": True, "hands": [["5H", "5C", "TS", "JD"], ["KH", "4D", "6S", "7C"]]})
    assert s.status_code == 200, s.text
    assert s.json["exact"] is True
    nets = [o["net"] for o in s.json["options"]]
    assert nets == sorted(nets, reverse=True)


@pytest.mark.parametrize("extra,field", [
    ({"seat": 1}, "/plays/0"),
    ({"plays": []}, "/plays"),
    ({"plays": [{"seat": 1, "card": "5H"}]}, "/plays/0"),
    ({"samples": 0}, "/samples"),
    ({"solve": True}, "/hands"),
    ({"opponent": "weak"}, "/opponent"),
    ({"opponent": "strong", "solve": True, "hands": [["5H", "5C", "TS", "JD"], ["KH", "4D", "6S", "7C"]]},
     "/opponent"),
])
def test_pegging_advise_bad_requests(plain, extra, field):
    body = {"players": 2, "pone": 1, "seat": 0, "hand": ["5H", "5C", "TS", "JD"],
            "plays": [{"seat": 1, "card": "KH"}], **extra}
    assert field in fields(problem(plain.simulate_post("/v1/pegging/advise", json=body), 422))


def test_pegging_advice_reads_the_other_seat_s_throw_when_asked(plain):
    """``opponent: strong`` deals the other seat what a strong player keeps (tests/advice/test_advice_pegging.py
    holds the read itself): the same actions, other values than uniform deals, seeded like them."""
    body = {"players": 2, "pone": 1, "seat": 0, "hand": ["5H", "5C", "TS", "JD"], "starter": "2C",
            "discards": ["9S", "AD"], "plays": [{"seat": 1, "card": "KH"}], "samples": 64, "seed": 5}
    got = {}
    for opponent in ("uniform", "strong"):
        r = plain.simulate_post("/v1/pegging/advise", json={**body, "opponent": opponent})
        assert r.status_code == 200, r.text
        assert r.json["samples"] == 64
        got[opponent] = [(o["action"]["card"], o["net"]) for o in r.json["options"]]
    assert got["uniform"] == [(o["action"]["card"], o["net"]) for o in
                              plain.simulate_post("/v1/pegging/advise", json=body).json["options"]]  # the default
    assert {c for c, _ in got["uniform"]} == {c for c, _ in got["strong"]}
    assert got["uniform"] != got["strong"]
    again = plain.simulate_post("/v1/pegging/advise", json={**body, "opponent": "strong"})
    assert [(o["action"]["card"], o["net"]) for o in again.json["options"]] == got["strong"]


@pytest.mark.parametrize("players,discards", [(3, ["9S"]), (4, ["9S"]), (2, ["9S"])])
def test_the_other_seats_throws_are_read_in_every_deal(plain, players, discards):
    """Three and four players, and five and two (one discard with two players): the other seats' cards are
    read from their throws as well (the core's one model of hidden cards): the same actions, other values."""
    body = {"players": players, "pone": 1, "seat": 1, "hand": ["5H", "5C", "TS", "JD"], "starter": "2C",
            "discards": discards, "samples": 24, "seed": 5}
    got = {}
    for opponent in ("uniform", "strong"):
        r = plain.simulate_post("/v1/pegging/advise", json={**body, "opponent": opponent})
        assert r.status_code == 200, r.text
        assert r.json["samples"] == 24
        got[opponent] = [(o["action"]["card"], o["net"]) for o in r.json["options"]]
    assert {c for c, _ in got["uniform"]} == {c for c, _ in got["strong"]}
    assert got["uniform"] != got["strong"]


def _start(client, **extra):
    r = client.simulate_post("/v1/games", json={"options": {"deck": "seeded", "seed": "advice, a secret seed of 32 characters or more"}, "dealer": 0, **extra})
    assert r.status_code == 201, r.text
    return r.json


def test_suggest_plays_a_whole_deal_plain(plain):
    game = _start(plain)
    state = game["state"]
    for _ in range(30):
        seat = game["to_act"][0]
        s = plain.simulate_post("/v1/games/suggest", json={"state": state, "seat": seat, "level": "greedy"})
        assert s.status_code == 200, s.text
        game = plain.simulate_post("/v1/games/advance", json={"state": state, "action": s.json["action"]}).json
        state = game["state"]
        if game["deal"] == 2:
            break
    assert game["deal"] == 2


def test_suggest_sealed_a_seat_asks_only_for_itself(sealed):
    game = _start(sealed)
    tokens = game["seat_tokens"]
    state = sealed.simulate_post("/v1/games/advance", json={"state": game["state"], "action": {"type": "deal", "seat": 0},
                                                             "seat_token": tokens[0]}).json["state"]
    ok = sealed.simulate_post("/v1/games/suggest", json={"state": state, "seat_token": tokens[1]})
    assert ok.status_code == 200, ok.text
    assert ok.json["action"]["type"] == "discard" and ok.json["action"]["seat"] == 1
    body = problem(sealed.simulate_post("/v1/games/suggest", json={"state": state, "seat": 0, "seat_token": tokens[1]}), 403)
    assert body["errors"][0]["field"] == "/seat"
    problem(sealed.simulate_post("/v1/games/suggest", json={"state": state, "seat": 1}), 403)
    problem(sealed.simulate_post("/v1/games/suggest", json={"state": state, "seat_token": "x" * 20}), 403)


def test_suggest_for_a_seat_with_nothing_to_do(plain):
    game = _start(plain)
    body = problem(plain.simulate_post("/v1/games/suggest", json={"state": game["state"], "seat": 1}), 422)
    assert body["rule"] == "out_of_turn"


# -- the documented examples are what the service answers ------------------------

import pathlib

import yaml
from openapi_schema_validator import OAS31Validator

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))


def _validator(node):
    return OAS31Validator({**DOC, "allOf": [node]})


# The answers to a state of a newer format: tests/system/test_state_versions.py sends
# the states two releases wrote, with the format bumped, and compares them.
RUN_ELSEWHERE = {"newerState", "newerSealedState"}


@pytest.mark.parametrize("path", ["/v1/discards", "/v1/pegging/advise", "/v1/games/suggest", "/v1/odds"])
def test_advice_examples_are_real(plain, path):
    op = DOC["paths"][path]["post"]
    requests = op["requestBody"]["content"]["application/json"]["examples"]
    request_validator = _validator(op["requestBody"]["content"]["application/json"]["schema"])
    responses = {}
    for status, response in op["responses"].items():
        for media in response.get("content", {}).values():
            for name, example in media.get("examples", {}).items():
                if name not in RUN_ELSEWHERE:
                    responses[name] = (int(status), example["value"], _validator(media["schema"]))
    assert set(responses) <= set(requests)
    for name, example in requests.items():
        request_validator.validate(example["value"])
        got = plain.simulate_post(path, json=example["value"])
        status, documented, validator = responses[name]
        assert got.status_code == status, (name, got.text)
        validator.validate(documented)
        body = dict(got.json)
        body.pop("request_id", None)
        assert body == {k: v for k, v in documented.items() if k != "request_id"}, name


def test_suggest_after_a_renege_under_tournament_rules(plain):
    """Under tournament rules a go may be a renege (ACC 7.3): seat 0 said go at
    a count of 2 while holding cards that fitted.  The bot must not take that
    go as proof that seat 0 holds nothing that fits (found by schemathesis:
    the sampler found no consistent deal and answered 422)."""
    state = {"version": 2, "game_id": "23cd2b9cd191f5bfaf8e6893a203e36c", "seq": 195,
             "options": {"players": 3, "deck": "seeded", "seed": "renege", "tournament": True,
                         "muggins": True, "muggins_in_play": True},
             "first_dealer": 0, "deal": 8, "dealer": 1, "pegs": [[101, 99], [96, 89], [113, 105]],
             "deck_seed": "0a45ad7b8f0b955834ec8e8a600b3121",
             "history": "77363771b8f8d1a4357bd2054b277a83e268d5f867654e662cfa1e4dd49cac9d",
             "actions": ["deal 1 QH5HJH2S9C.QD4S7C9S3S.9D8S2CQS5C/3D", "discard 2 8S", "discard 1 QD",
                         "discard 0 9C", "cut 2 3C", "play 2 2C =4", "go 0 =13"]}
    r = plain.simulate_post("/v1/games/suggest", json={"state": state, "seat": 1})
    assert r.status_code == 200, r.text
    action = r.json["action"]
    assert action["seat"] == 1 and action["type"] in ("play", "go")


def test_pegging_advice_never_searches_past_its_cap(plain):
    """200 worlds asked at a 4-player lead: the search stops at the documented 1,000,000
    positions, inside a world (it went past its cap when the cap was checked between worlds)."""
    r = plain.simulate_post("/v1/pegging/advise", json={
        "players": 4, "pone": 1, "seat": 1, "hand": ["3C", "4D", "5H", "6S"], "samples": 200, "seed": 1})
    assert r.status_code == 200, r.text
    assert r.json["positions"] <= 1_000_000 and 16 <= r.json["samples"] < 200


def test_suggest_at_the_board_level_plays_for_the_game(plain):
    """Near the target the board level answers with the chance of winning it plays for; its actions
    carry a whole deal through /v1/games/advance."""
    from service.boundary.state import state_to_json
    from service.core.game import new_game
    from service.core.game.state import restore
    from service.core.options import GameOptions

    options = GameOptions(deck="seeded", seed="board-http")
    first, _ = new_game(options, dealer=0, game_id="9" * 32)
    late = restore("9" * 32, options, 1, first.deck_seed, 2, 0, ((108, 100), (112, 104)), 15, "0" * 64, ())
    state, to_act, for_the_game = state_to_json(late), [0], 0
    for _ in range(40):
        s = plain.simulate_post("/v1/games/suggest", json={"state": state, "seat": to_act[0], "level": "board"})
        assert s.status_code == 200, s.text
        assert s.json["level"] == "board"
        if s.json["reason"].get("samples"):
            for_the_game += 1
            assert 0.0 <= s.json["reason"]["win"] <= 1.0
        r = plain.simulate_post("/v1/games/advance", json={"state": state, "action": s.json["action"]})
        assert r.status_code == 200, r.text
        state, to_act = r.json["state"], r.json["to_act"]
        if r.json["deal"] == 3 or not to_act:
            break
    else:
        pytest.fail("the deal did not end")
    assert for_the_game >= 2  # both discards at least
