"""POST /v1/games/review over HTTP: the documented examples, records and states (plain and sealed),
finished games only, and hostile bodies answered 4xx problem+json quickly."""

from __future__ import annotations

import pathlib
import time

import falcon.testing
import pytest
import yaml
from conftest import fields, problem
from openapi_schema_validator import OAS31Validator

from service.advice import bot
from service.app import create_app
from service.boundary.state import state_to_json
from service.core.game import apply_action, new_game
from service.core.options import GameOptions
from service.seal import Sealer

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
OP = DOC["paths"]["/v1/games/review"]["post"]
REVIEW = "/v1/games/review"
PATIENCE = 10.0
"""Seconds a refusal may take before it is called a hang (they take milliseconds)."""


def _validator(node):
    return OAS31Validator({**DOC, "allOf": [node]})


@pytest.fixture(scope="module")
def plain():
    return falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))


@pytest.fixture(scope="module")
def sealer():
    return Sealer("r" * 32)


@pytest.fixture(scope="module")
def sealed(sealer):
    return falcon.testing.TestClient(create_app(sealer=sealer, collect_metrics=False))


@pytest.fixture(scope="module")
def game():
    """A seeded 61-point game of the strong bot against the greedy one: its states and its record."""
    options = {"deck": "seeded", "seed": "review-http", "target": 61}
    state, _ = new_game(GameOptions(**options), dealer=1)
    states, record = [state], []
    while state.phase != "over":
        seat = state.to_act()[0]
        state, events = apply_action(state, bot.suggest(bot.seat_view(state, seat), ("strong", "greedy")[seat]).action)
        states.append(state)
        record += [line for e in events if e.type == "deal_record" for line in e.record]
    return {"states": states, "record": {"game_id": state.game_id, "options": options, "first_dealer": 1,
                                         "actions": record}}


def test_the_examples_are_real(plain):
    request_validator = _validator(OP["requestBody"]["content"]["application/json"]["schema"])
    responses = {}
    for status, response in OP["responses"].items():
        for media in response.get("content", {}).values():
            for name, example in media.get("examples", {}).items():
                if name != "newerState":  # sent by tests/system/test_state_versions.py
                    responses[name] = (int(status), example["value"], _validator(media["schema"]))
    requests = OP["requestBody"]["content"]["application/json"]["examples"]
    assert set(responses) == set(requests) == {"finishedState", "wholeGame", "unfinished"}
    for name, example in requests.items():
        request_validator.validate(example["value"])
        got = plain.simulate_post(REVIEW, json=example["value"])
        status, documented, validator = responses[name]
        assert got.status_code == status, (name, got.text)
        validator.validate(got.json)
        body = dict(got.json)
        body.pop("request_id", None)
        assert body == documented, name


def test_a_record_is_reviewed_whole_and_a_state_its_last_deal(plain, game):
    whole = plain.simulate_post(REVIEW, json={"record": game["record"]})
    assert whole.status_code == 200, whole.text
    final = game["states"][-1]
    last = plain.simulate_post(REVIEW, json={"state": state_to_json(final)})
    assert last.status_code == 200, last.text
    w, s = whole.json, last.json
    assert (w["whole_game"], s["whole_game"]) == (True, False)
    assert w["result"] == s["result"] and w["result"]["winner"] is not None
    assert len(w["deals"]) == final.deal and [d["deal"] for d in s["deals"]] == [final.deal]
    assert s["decisions"] == [d for d in w["decisions"] if d["deal"] == final.deal]
    # the indices are the record's: the taken action is the record's line there
    for d in w["decisions"]:
        line = game["record"]["actions"][d["index"]]
        assert line == d["taken"] or line.startswith(d["taken"] + " =") or d["kind"] in ("count", "claim"), d
    # taken_action and best_action are the notation's actions, in the schema advance takes: each is
    # accepted by advance where the record took the decision
    for d in w["decisions"]:
        for key in ("taken", "best"):
            obj, text = d[key + "_action"], d[key]
            kind, seat, *rest = text.split(" ")
            assert (obj["type"], obj["seat"]) == (kind, int(seat)), d
            cards = rest[0] if rest else ""
            assert "".join(obj.get("cards", [])) + obj.get("card", "") == cards or kind == "count", d
    actions = game["record"]["actions"]
    chosen = [d for d in w["decisions"] if not d["forced"] and d["kind"] in ("discard", "play")][:6]
    for d in chosen:
        before = game["states"][d["index"]]
        got = plain.simulate_post("/v1/games/advance", json={"state": state_to_json(before),
                                                              "action": d["best_action"]})
        assert got.status_code == 200, (d, got.text, actions[d["index"]])
    _validator(OP["responses"]["200"]["content"]["application/json"]["schema"]).validate(w)


def test_a_sealed_game_is_reviewed_once_over(sealed, sealer, game):
    final = game["states"][-1]
    token = sealer.seal(state_to_json(final), final.game_id, final.seq)
    got = sealed.simulate_post(REVIEW, json={"state": token})
    assert got.status_code == 200, got.text
    assert got.json["whole_game"] is False
    # a record is public: a sealed service reviews one too
    assert sealed.simulate_post(REVIEW, json={"record": game["record"]}).status_code == 200


@pytest.mark.parametrize("at", [0, 1, 5, 20, -2])
def test_an_unfinished_game_is_refused(plain, sealed, sealer, game, at):
    state = game["states"][at]
    for client, body in ((plain, state_to_json(state)), (sealed, sealer.seal(state_to_json(state), state.game_id,
                                                                            state.seq))):
        t = time.perf_counter()
        got = client.simulate_post(REVIEW, json={"state": body})
        assert time.perf_counter() - t < PATIENCE
        assert fields(problem(got, 422)) == ["/state"]
        assert "once it is over" in got.json["detail"]


def test_the_state_of_the_other_mode_is_refused(plain, sealed, sealer, game):
    final = game["states"][-1]
    assert fields(problem(sealed.simulate_post(REVIEW, json={"state": state_to_json(final)}), 422)) == ["/state"]
    token = sealer.seal(state_to_json(final), final.game_id, final.seq)
    assert fields(problem(plain.simulate_post(REVIEW, json={"state": token}), 422)) == ["/state"]


def _refused(client, body, field, status=422):
    t = time.perf_counter()
    got = client.simulate_post(REVIEW, json=body)
    assert time.perf_counter() - t < PATIENCE, "a refusal took too long"
    assert field in fields(problem(got, status)), got.json
    return got.json


def test_hostile_records_are_refused_quickly(plain, game):
    record = game["record"]
    _refused(plain, {}, "/record")
    _refused(plain, {"record": record, "state": state_to_json(game["states"][-1])}, "/record")
    # 10,000 actions: past the body limit (64 KiB); 5,001 short ones: past the record's 5,000
    ten_thousand = plain.simulate_post(REVIEW, json={"record": {**record, "actions": ["go 0"] * 10_000}})
    problem(ten_thousand, 413)
    _refused(plain, {"record": {**record, "actions": ["go 0"] * 5001}}, "/record/actions")
    # the game played 30 times over: refused at the first action after the game is over
    _refused(plain, {"record": {**record, "actions": record["actions"] * 30}},
             f"/record/actions/{len(record['actions'])}")
    _refused(plain, {"record": {**record, "actions": ["play 9 5H"] * 5000}}, "/record/actions/0")
    # a game that goes on after it is over
    _refused(plain, {"record": {**record, "actions": record["actions"] + ["deal 0"]}},
             f"/record/actions/{len(record['actions'])}")
    # an impossible record: a card played that the seat never held
    actions = list(record["actions"])
    i = next(i for i, a in enumerate(actions) if a.startswith("play "))
    seat = actions[i].split()[1]
    held = {c for line in actions[:i] if line.startswith("deal ") for c in _cards(line, int(seat))}
    foreign = next(c for c in ("AS", "AH", "AD", "AC", "2S", "2H", "2D", "2C") if c not in held)
    actions[i] = f"play {seat} {foreign}"
    body = _refused(plain, {"record": {**record, "actions": actions}}, f"/record/actions/{i}")
    assert body["type"].endswith("/rule-violation")
    # the last deal cut short: a game not over
    _refused(plain, {"record": {**record, "actions": record["actions"][:-1]}}, "/record")


def _cards(deal_line: str, seat: int) -> list[str]:
    hands = deal_line.split()[2].split("/")[0].split(".")
    return [hands[seat][i:i + 2] for i in range(0, len(hands[seat]), 2)]
