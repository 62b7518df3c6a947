"""A sealed game's whole record: each deal's record to every seat once the deal's cards are public,
the whole record at game over (state format 3), sealed, taken by replay and review.

The leak checks are written from the rules, not from the service's visibility code: a seat may be
told a card once it has seen it in its own views and events (its hand, the starter, the cards
played, the hands and the crib as each is counted), and a deal's record names every card dealt.
"""

from __future__ import annotations

import re

import falcon.testing
import pytest
from conftest import fields, problem

from service.app import create_app
from service.boundary.state import held_from_json, state_to_json
from service.core.errors import MalformedError
from service.core.game import apply_action, legal, new_game
from service.core.options import GameOptions
from service.boundary.records import carried_after
from service.boundary.state import Carried
from service.seal import MAX_TOKEN, Sealer

SECRET = "a test secret for whole-game records, 32+ chars"
CARD = re.compile(r"[A2-9TJQK][CDHS]")


def client(sealer: Sealer | None, writes: int) -> falcon.testing.TestClient:
    return falcon.testing.TestClient(create_app(sealer=sealer, collect_metrics=False, state_cache=0,
                                                state_format_writes=writes))


@pytest.fixture(scope="module")
def sealed3() -> falcon.testing.TestClient:
    return client(Sealer(SECRET), 3)


def cards_of(body: dict) -> set[str]:
    """Every card a seat is shown in one answer: its view and its events."""
    view = body["view"]
    seen = {c for hand in view["hands"] for c in hand if c} | {c for c in view["crib"] if c}
    if view["starter"]:
        seen.add(view["starter"])
    if view["play"]:
        seen.update(view["play"]["played"])
    for e in body["events"]:
        if e["type"] == "deal_record":
            continue
        seen.update(e.get("cards") or [])
        if e.get("card"):
            seen.add(e["card"])
    return seen


def play_sealed(c: falcon.testing.TestClient, options: dict) -> dict:
    """A whole sealed game, first legal action each time; after every action every other seat looks
    at the table.  Every deal record a seat gets (an event of its own action, or a view's
    ``deal_records``) is checked on arrival against the cards that seat had been shown of that deal."""
    r = c.simulate_post("/v1/games", json={"options": options})
    assert r.status_code == 201, r.text
    body, tokens = r.json, r.json["seat_tokens"]
    n = len(tokens)
    seen: list[dict[int, set[str]]] = [{} for _ in range(n)]
    public: dict[int, set[str]] = {}  # shown to the whole table: each hand and the crib as counted
    records: list[dict[int, list[str]]] = [{} for _ in range(n)]
    biggest = len(body["state"])

    def told(s: int, deal: int, record: list[str]) -> None:
        named = {card for line in record for card in CARD.findall(line)}
        known = seen[s].get(deal, set()) | public.get(deal, set())
        assert named <= known, (s, deal, sorted(named - known))
        assert records[s].setdefault(deal, record) == record
    while body["phase"] != "over":
        seat = body["to_act"][0]
        v = c.simulate_post("/v1/games/view", json={"state": body["state"], "seat_token": tokens[seat]}).json
        seen[seat].setdefault(v["deal"], set()).update(cards_of(v))
        action = v["legal_actions"][0]
        r = c.simulate_post("/v1/games/advance", json={"state": body["state"], "action": action,
                                                        "seat_token": tokens[seat]})
        assert r.status_code == 200, r.text
        body = r.json
        biggest = max(biggest, len(body["state"]))
        mine = seen[seat].setdefault(v["deal"], set())
        mine.update(cards_of(body) if body["deal"] == v["deal"] else set())
        mine.update(card for e in body["events"] for card in (e.get("cards") or []) + [e.get("card")] if card)
        for e in body["events"]:
            if e["type"] == "count" or body["phase"] == "over" and e["type"] != "deal_record":
                public.setdefault(e["deal"], set()).update(e.get("cards") or [])
        if body["phase"] == "over":  # every hand and the crib are shown at the end
            public.setdefault(body["deal"], set()).update(cards_of(body))
        for e in body["events"]:
            if e["type"] == "deal_record":
                told(seat, e["deal"], e["record"])
        for s in range(n):
            if s != seat:
                w = c.simulate_post("/v1/games/view", json={"state": body["state"], "seat_token": tokens[s]}).json
                seen[s].setdefault(w["deal"], set()).update(cards_of(w))
                for d in w.get("deal_records") or []:
                    told(s, d["deal"], d["record"])
    return {"tokens": tokens, "last": body, "seen": seen, "records": records, "biggest": biggest}


@pytest.fixture(scope="module")
def game2(sealed3) -> dict:
    return play_sealed(sealed3, {})


def test_every_seat_gets_every_finished_deal_s_record(game2):
    """Checked on arrival (play_sealed): no record names a card its seat had not been shown."""
    deals = game2["last"]["deal"]
    for records in game2["records"]:
        assert set(range(1, deals)) <= set(records)


def test_the_whole_record_is_every_deal_record_and_sealed(game2):
    last = game2["last"]
    record = last["record"]
    assert set(record) == {"game_id", "options", "first_dealer", "actions", "deck", "seal"}
    assert record["game_id"] == last["game_id"] and "seed" not in record["options"]
    ender = max(game2["records"], key=len)  # the seat whose action ended the game got the last deal's
    assert [line for d in sorted(ender) for line in ender[d]] == record["actions"]
    assert re.fullmatch(r"rs\.[0-9a-f]{8}\.[A-Za-z0-9_-]{43}", record["seal"])


def test_every_seat_and_a_spectator_can_get_the_whole_record_at_game_over(sealed3, game2):
    last = game2["last"]
    for token in game2["tokens"] + [None]:
        body = {"state": last["state"]} | ({"seat_token": token} if token else {})
        r = sealed3.simulate_post("/v1/games/view", json=body)
        assert r.status_code == 200 and r.json["record"]["actions"] == last["record"]["actions"], r.text


def test_replay_and_review_take_the_sealed_record(sealed3, game2):
    record = game2["last"]["record"]
    r = sealed3.simulate_post("/v1/games/replay", json={"record": record})
    assert r.status_code == 200, r.text
    assert r.json["phase"] == "over" and r.json["result"] == game2["last"]["view"]["result"]
    deals = r.json["deals"]
    by_record = sealed3.simulate_post("/v1/games/review", json={"record": record})
    by_state = sealed3.simulate_post("/v1/games/review", json={"state": game2["last"]["state"]})
    assert by_record.status_code == by_state.status_code == 200, (by_record.text, by_state.text)
    assert by_state.json["whole_game"] is True and by_state.json == by_record.json
    assert {d["deal"] for d in by_state.json["decisions"]} == set(range(1, deals + 1))
    assert len(by_state.json["decisions"]) > 60


@pytest.mark.parametrize("alter", [
    lambda r: r["actions"].__setitem__(-1, r["actions"][-1] + " =0"),
    lambda r: r.__setitem__("first_dealer", 1 - r["first_dealer"]),
    lambda r: r.__setitem__("options", {**r["options"], "skunk": False}),
    lambda r: r["actions"].pop(),
    lambda r: r.__setitem__("seal", r["seal"][:-2] + ("AA" if r["seal"][-2:] != "AA" else "AB")),
])
@pytest.mark.parametrize("url", ["/v1/games/replay", "/v1/games/review"])
def test_an_altered_sealed_record_is_a_422_naming_the_seal(sealed3, game2, alter, url):
    record = {**game2["last"]["record"], "actions": list(game2["last"]["record"]["actions"])}
    alter(record)
    b = problem(sealed3.simulate_post(url, json={"record": record}), 422)
    assert fields(b) == ["/record/seal"], b


def test_another_deployment_s_seal_and_a_plain_service_are_422s(game2):
    record = game2["last"]["record"]
    other = client(Sealer("another deployment's secret, 32+ chars"), 3)
    assert fields(problem(other.simulate_post("/v1/games/replay", json={"record": record}), 422)) == ["/record/seal"]
    plain = client(None, 3)
    b = problem(plain.simulate_post("/v1/games/replay", json={"record": record}), 422)
    assert fields(b) == ["/record/seal"] and "no secret" in b["detail"]
    unsealed = {k: v for k, v in record.items() if k != "seal"}  # a record without a seal is any record
    assert plain.simulate_post("/v1/games/replay", json={"record": unsealed}).status_code == 200


def test_a_rotated_secret_still_checks_an_old_seal(game2):
    rotated = client(Sealer("the next secret of this deployment, 32+", previous=SECRET), 3)
    assert rotated.simulate_post("/v1/games/replay", json={"record": game2["last"]["record"]}).status_code == 200


def test_format_2_writers_keep_no_records():
    """The default (CRIBBAGE_STATE_FORMAT unset: format 2, what the release before reads): the deal
    records still reach every seat, the state keeps none and the game over has no whole record."""
    c = client(Sealer(SECRET), 2)
    g = play_sealed(c, {"target": 61})
    assert "record" not in g["last"] and any(g["records"])  # the acting seats' events
    assert Sealer(SECRET).unseal(g["last"]["state"]).state["version"] == 2


def test_a_long_four_player_game_s_token_stays_under_the_bound(sealed3):
    g = play_sealed(sealed3, {"players": 4})
    assert g["biggest"] < MAX_TOKEN
    assert g["biggest"] < 2048  # measured about 1.1-1.3 kB over a 4-player game to 121 (docs/deals.md)


def _finished_deals(deals: int) -> tuple:
    o = GameOptions()
    state, _ = new_game(o, dealer=0, deck_seed="ab" * 16)
    carried = Carried(records=())
    while state.deal <= deals:
        nxt, events = apply_action(state, legal(state)[0])
        carried = carried_after(carried, state, nxt, events)
        state = nxt
    return state, carried


def test_records_must_chain_to_the_history():
    state, carried = _finished_deals(2)
    data = state_to_json(state, carried, 3)
    assert held_from_json(data)[1] == carried
    for bad in ([data["records"][1], data["records"][0]], data["records"][:1],
                [data["records"][0], data["records"][1][:-1]],
                [data["records"][0], [*data["records"][1][:-1], data["records"][1][-1] + " =3"]]):
        with pytest.raises(MalformedError) as exc:
            held_from_json({**data, "records": bad})
        assert exc.value.field == "records", exc.value.message
    assert held_from_json({**data, "records": None})[1].records is None
    with pytest.raises(MalformedError):
        held_from_json({k: v for k, v in data.items() if k != "records"})


def test_a_replica_writing_format_2_keeps_a_format_3_state_s_records(game2):
    """While CRIBBAGE_STATE_FORMAT=3 is being switched on, a replica still writing format 2 that is
    sent a format-3 state answers it in format 3: no record is dropped."""
    old = client(Sealer(SECRET), 2)
    token = game2["last"]["state"]
    r = old.simulate_post("/v1/games/view", json={"state": token, "seat_token": game2["tokens"][0]})
    assert r.status_code == 200 and r.json["record"] == {**game2["last"]["record"], "seal": r.json["record"]["seal"]}
    assert Sealer(SECRET).unseal(r.json["state"]).state["version"] == 3


def test_the_state_format_written_is_2_or_3(monkeypatch):
    for bad in (1, 4):
        with pytest.raises(ValueError):
            create_app(sealer=None, collect_metrics=False, state_format_writes=bad)
    monkeypatch.setenv("CRIBBAGE_STATE_FORMAT", "3")
    c = falcon.testing.TestClient(create_app(sealer=Sealer(SECRET), collect_metrics=False))
    start = c.simulate_post("/v1/games", json={}).json
    assert Sealer(SECRET).unseal(start["state"]).state["version"] == 3 and "deck" in start
    monkeypatch.setenv("CRIBBAGE_STATE_FORMAT", "5")
    with pytest.raises(ValueError):
        create_app(sealer=None, collect_metrics=False)


def test_a_plain_format_3_state_fits_the_contract():
    """A plain service writing format 3: records and contributions null, the answers as documented."""
    import yaml
    from openapi_schema_validator import OAS31Validator

    from conftest import ROOT
    doc = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    validator = OAS31Validator({**doc, "allOf": [{"$ref": "#/components/schemas/GameResponse"}]})
    c = client(None, 3)
    body = c.simulate_post("/v1/games", json={"dealer": 0}).json
    assert body["state"]["version"] == 3 and body["state"]["records"] is None
    assert body["state"]["contributions"] is None and "deck" not in body
    for _ in range(30):
        validator.validate(body)
        body = c.simulate_post("/v1/games/advance", json={"state": body["state"],
                                                           "action": body["legal_actions"][0]}).json
    validator.validate(body)


def test_the_sealed_answers_fit_the_contract(sealed3, game2):
    import yaml
    from openapi_schema_validator import OAS31Validator

    from conftest import ROOT
    doc = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))

    def check(name: str, value: dict) -> None:
        OAS31Validator({**doc, "allOf": [{"$ref": f"#/components/schemas/{name}"}]}).validate(value)
    last = game2["last"]
    check("GameResponse", last)
    assert "record" in last and "deck" in last and last["deck"]["server_seed"]
    view = sealed3.simulate_post("/v1/games/view", json={"state": last["state"]}).json
    assert len(view["deal_records"]) == last["deal"] - 1
    check("GameResponse", view)
    check("ReplayRequest", {"record": last["record"]})
    start = sealed3.simulate_post("/v1/games", json={"options": {"players": 4}}).json
    check("GameResponse", start)
    given = sealed3.simulate_post("/v1/games/contribute", json={"state": start["state"], "contribution": "0f" * 32,
                                                                "seat_token": start["seat_tokens"][2]}).json
    check("GameResponse", given)
    check("ContributeRequest", {"state": start["state"], "contribution": "0f" * 32})
