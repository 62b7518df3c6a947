"""POST /v1/pegging/score and POST /v1/pegging/go over HTTP (in-process, falcon.testing)."""

from __future__ import annotations

import falcon.testing
import pytest
from conftest import fields, problem

from service.app import create_app

SCORE = "/v1/pegging/score"
GO = "/v1/pegging/go"

# openapi.yaml, /v1/pegging/score, example goAnd31.
HANDS = [["6H", "KC", "3D", "3S"], ["4S", "5D", "9C", "KH"]]
GO_AND_31 = {
    "players": 2,
    "pone": 1,
    "hands": HANDS,
    "complete": True,
    "plays": [
        {"seat": 1, "card": "4S"},
        {"seat": 0, "card": "6H"},
        {"seat": 1, "card": "5D"},
        {"seat": 0, "card": "KC"},
        {"seat": 1, "go": True},
        {"seat": 0, "card": "3D"},
        {"seat": 0, "card": "3S"},
        {"seat": 1, "card": "KH"},
        {"seat": 1, "card": "9C"},
    ],
}


@pytest.fixture(scope="module")
def client() -> falcon.testing.TestClient:
    # Plain states whatever the environment says (the pegging endpoints hold no state anyway).
    return falcon.testing.TestClient(create_app(sealer=None))


def post(client, url, body):
    return client.simulate_post(url, json=body)


def rule_violation(result, rule: str, field: str) -> dict:
    body = problem(result, 422)
    assert body["type"].endswith("/rule-violation")
    assert body["rule"] == rule
    assert fields(body) == [field]
    assert isinstance(body["legal"], list)
    return body


# --- the documented example ---------------------------------------------------


def test_go_and_31_example(client):
    r = post(client, SCORE, GO_AND_31)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    body = r.json
    assert body["events"] == [
        {"index": 0, "seat": 1, "card": "4S", "count": 4, "points": 0, "scores": [], "reset": False},
        {"index": 1, "seat": 0, "card": "6H", "count": 10, "points": 0, "scores": [], "reset": False},
        {"index": 2, "seat": 1, "card": "5D", "count": 15, "points": 5,
         "scores": [{"seat": 1, "kind": "fifteen", "points": 2, "cards": ["4S", "6H", "5D"]},
                    {"seat": 1, "kind": "run", "points": 3, "cards": ["4S", "6H", "5D"]}],
         "reset": False},
        {"index": 3, "seat": 0, "card": "KC", "count": 25, "points": 0, "scores": [], "reset": False},
        {"index": 4, "seat": 1, "go": True, "count": 25, "points": 0, "scores": [], "reset": False},
        {"index": 5, "seat": 0, "card": "3D", "count": 28, "points": 0, "scores": [], "reset": False},
        {"index": 6, "seat": 0, "card": "3S", "count": 31, "points": 4,
         "scores": [{"seat": 0, "kind": "thirty_one", "points": 2,
                     "cards": ["4S", "6H", "5D", "KC", "3D", "3S"]},
                    {"seat": 0, "kind": "pair", "points": 2, "cards": ["3D", "3S"]}],
         "reset": True},
        {"index": 7, "seat": 1, "card": "KH", "count": 10, "points": 0, "scores": [], "reset": False},
        {"index": 8, "seat": 1, "card": "9C", "count": 19, "points": 1,
         "scores": [{"seat": 1, "kind": "last_card", "points": 1}], "reset": True},
    ]
    assert body["totals"] == [4, 6]
    assert body["players"] == 2 and body["pone"] == 1
    assert body["partnerships"] is None
    assert body["hand_over"] is True
    assert body["next"] == {"seat": None, "count": 0, "count_cards": [], "legal": []}


def test_example_without_hands_scores_the_same(client):
    body = {k: v for k, v in GO_AND_31.items() if k != "hands"}
    r = post(client, SCORE, body)
    assert r.status_code == 200, r.text
    assert r.json["totals"] == [4, 6]
    assert r.json["hand_over"] is True


def test_prefix_without_hands(client):
    r = post(client, SCORE, {"players": 3, "pone": 0,
                             "plays": [{"seat": 0, "card": "7H"}, {"seat": 1, "card": "8C"}]})
    assert r.status_code == 200, r.text
    body = r.json
    assert body["totals"] == [0, 2, 0]
    assert body["events"][1]["scores"] == [{"seat": 1, "kind": "fifteen", "points": 2, "cards": ["7H", "8C"]}]
    assert body["hand_over"] is False
    assert body["next"] == {"seat": 2, "count": 15, "count_cards": ["7H", "8C"],
                            "legal": [{"seat": 2, "any_card_up_to": 10}]}


def test_empty_prefix_is_the_lead(client):
    r = post(client, SCORE, {"players": 2, "pone": 1, "plays": []})
    assert r.status_code == 200, r.text
    assert r.json["events"] == []
    assert r.json["totals"] == [0, 0]
    assert r.json["next"]["seat"] == 1
    assert r.json["next"]["count"] == 0


def test_four_players_partnerships(client):
    r = post(client, SCORE, {"players": 4, "pone": 1,
                             "plays": [{"seat": 1, "card": "5H"}, {"seat": 2, "card": "TC"}]})
    assert r.status_code == 200, r.text
    body = r.json
    assert body["totals"] == [0, 0, 2, 0]
    assert body["partnerships"] == [2, 0]  # seats 0+2, seats 1+3
    assert body["next"]["seat"] == 3


def test_with_hands_next_lists_the_cards(client):
    r = post(client, SCORE, {**GO_AND_31, "complete": False, "plays": GO_AND_31["plays"][:3]})
    assert r.status_code == 200, r.text
    nxt = r.json["next"]
    assert nxt["seat"] == 0 and nxt["count"] == 15
    assert sorted(a["card"] for a in nxt["legal"]) == sorted(["KC", "3D", "3S"])
    assert all(a["seat"] == 0 for a in nxt["legal"])


# --- rule violations: the entry, the rule, what was legal ----------------------


def test_out_of_turn(client):
    r = post(client, SCORE, {"players": 2, "pone": 1,
                             "plays": [{"seat": 1, "card": "4S"}, {"seat": 1, "card": "6H"}]})
    body = rule_violation(r, "out_of_turn", "/plays/1")
    assert body["legal"] == [{"seat": 0, "any_card_up_to": 10}]


def test_count_past_31(client):
    plays = [{"seat": 1, "card": "KS"}, {"seat": 0, "card": "KH"}, {"seat": 1, "card": "QS"},
             {"seat": 0, "card": "9H"}]
    body = rule_violation(post(client, SCORE, {"players": 2, "pone": 1, "plays": plays}),
                          "count_over_31", "/plays/3")
    assert body["legal"] == [{"seat": 0, "any_card_up_to": 1}, {"seat": 0, "go": True}]


def test_count_past_31_with_hands(client):
    hands = [["KH", "9H", "2C", "3C"], ["KS", "QS", "4D", "5D"]]
    plays = [{"seat": 1, "card": "KS"}, {"seat": 0, "card": "KH"}, {"seat": 1, "card": "QS"},
             {"seat": 0, "card": "9H"}]
    body = rule_violation(post(client, SCORE, {"players": 2, "pone": 1, "hands": hands, "plays": plays}),
                          "count_over_31", "/plays/3")
    assert body["legal"] == [{"seat": 0, "go": True}]


def test_card_not_held(client):
    body = rule_violation(
        post(client, SCORE, {**GO_AND_31, "complete": False,
                             "plays": [{"seat": 1, "card": "4S"}, {"seat": 0, "card": "7H"}]}),
        "card_not_held", "/plays/1")
    assert body["legal"] == [{"seat": 0, "card": c} for c in HANDS[0]]


def test_card_played_twice(client):
    plays = [{"seat": 1, "card": "4S"}, {"seat": 0, "card": "7H"}, {"seat": 1, "card": "4s"}]
    body = rule_violation(post(client, SCORE, {"players": 2, "pone": 1, "plays": plays}),
                          "card_already_played", "/plays/2")
    assert body["legal"] == [{"seat": 1, "any_card_up_to": 10}]


def test_go_while_able_lists_the_playable_cards(client):
    body = rule_violation(
        post(client, SCORE, {**GO_AND_31, "complete": False,
                             "plays": [{"seat": 1, "card": "4S"}, {"seat": 0, "go": True}]}),
        "go_while_able", "/plays/1")
    assert body["legal"] == [{"seat": 0, "card": c} for c in HANDS[0]]


def test_go_while_able_without_hands_at_a_low_count(client):
    # Without hands a go is checked where every card fits: a count of 21 or less.
    body = rule_violation(
        post(client, SCORE, {"players": 2, "pone": 1,
                             "plays": [{"seat": 1, "card": "4S"}, {"seat": 0, "go": True}]}),
        "go_while_able", "/plays/1")
    assert {"seat": 0, "go": True} not in body["legal"]


def test_go_without_hands_at_a_high_count_stands(client):
    plays = [{"seat": 1, "card": "KS"}, {"seat": 0, "card": "KH"}, {"seat": 1, "card": "5S"},
             {"seat": 0, "go": True}]
    r = post(client, SCORE, {"players": 2, "pone": 1, "plays": plays})
    assert r.status_code == 200, r.text
    assert r.json["next"]["seat"] == 1


def test_complete_with_cards_left(client):
    body = rule_violation(
        post(client, SCORE, {**GO_AND_31, "plays": GO_AND_31["plays"][:1]}),
        "hand_not_complete", "/plays")
    assert body["legal"] == [{"seat": 0, "card": c} for c in HANDS[0]]


def test_first_bad_entry_stops_the_adjudication(client):
    plays = [{"seat": 1, "card": "4S"}, {"seat": 1, "card": "6H"}, {"seat": 1, "card": "4S"}]
    rule_violation(post(client, SCORE, {"players": 2, "pone": 1, "plays": plays}),
                   "out_of_turn", "/plays/1")


def test_tournament_renege_is_an_event(client):
    r = post(client, SCORE, {**GO_AND_31, "complete": False, "tournament": True,
                             "plays": [{"seat": 1, "card": "4S"}, {"seat": 0, "go": True}]})
    assert r.status_code == 200, r.text
    body = r.json
    ev = body["events"][1]
    assert ev["seat"] == 0 and ev["go"] is True
    assert ev["points"] == 8
    # four playable cards, 2 each; the cards are not named (ACC 7.3 needs only their number)
    assert ev["scores"] == [{"seat": 1, "kind": "renege", "points": 8}]
    assert body["totals"] == [0, 8]
    # The go stands: seat 1 plays on.
    assert body["next"]["seat"] == 1


# --- schema errors -------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"plays": [{"seat": 1, "card": "4S", "go": True}]}, "/plays/0"),
        ({"plays": [{"seat": 1}]}, "/plays/0"),
        ({"plays": [{"seat": 1, "go": False}]}, "/plays/0/go"),
        ({"plays": [{"seat": 1, "go": "true"}]}, "/plays/0/go"),
        ({"plays": [{"seat": 1, "card": "4X"}]}, "/plays/0/card"),
        ({"plays": [{"seat": 1, "card": "4S", "points": 2}]}, "/plays/0/points"),
        ({"plays": [{"seat": 4, "card": "4S"}]}, "/plays/0/seat"),
        ({"plays": [{"seat": True, "card": "4S"}]}, "/plays/0/seat"),
        ({"plays": [{"card": "4S"}]}, "/plays/0/seat"),
        ({"plays": ["4S"]}, "/plays/0"),
        ({"plays": [{"seat": 1, "card": "4S"}] * 65}, "/plays"),
        ({"plays": {"seat": 1}}, "/plays"),
        ({"hands": [["6H", "KC", "3D", "3S"], ["4S", "5D", "9C", "X"]]}, "/hands/1/3"),
        ({"hands": [["6H", "KC", "3D", "3S"], ["4S", "5D", "9C", "6h"]]}, "/hands/1/3"),
        ({"tournament": 1}, "/tournament"),
        ({"players": 5}, "/players"),
        ({"players": 1}, "/players"),
        ({"pone": 2}, "/pone"),
        ({"pone": -1}, "/pone"),
        ({"hands": [["6H", "KC", "3D"], ["4S", "5D", "9C", "KH"]]}, "/hands/0"),
        ({"hands": [HANDS[0]]}, "/hands"),
        ({"hands": [*HANDS, ["AC", "2C", "3C", "4C"]]}, "/hands"),
        ({"complete": "yes"}, "/complete"),
        ({"colour": "red"}, "/colour"),
    ],
)
def test_schema_errors_name_the_field(client, change, field):
    body = {"players": 2, "pone": 1, "plays": [{"seat": 1, "card": "4S"}], **change}
    b = problem(post(client, SCORE, body), 422)
    assert b["type"].endswith("/invalid-request")
    assert field in fields(b), b


def test_a_seat_not_at_the_table(client):
    # The core keeps the table: a seat past the players is its rule, at the entry.
    body = rule_violation(post(client, SCORE, {"players": 2, "pone": 1, "plays": [{"seat": 2, "card": "4S"}]}),
                          "no_such_seat", "/plays/0")
    assert body["legal"] == [{"seat": 1, "any_card_up_to": 10}]
    b = problem(post(client, SCORE, {"players": 2, "pone": 2, "plays": []}), 422)
    assert fields(b) == ["/pone"]


def test_every_bad_entry_is_named(client):
    plays = [{"seat": 1, "card": "4S"}, {"seat": 0, "card": "4X"}, {"seat": 1}, {"seat": 0, "go": False}]
    b = problem(post(client, SCORE, {"players": 2, "pone": 1, "plays": plays}), 422)
    assert fields(b) == ["/plays/1/card", "/plays/2", "/plays/3/go"]


def test_spellings_in_plays_and_hands(client):
    hands = [["6h", "K♣", "3D", " 3s"], ["4S", "5D", "9C", "KH"]]
    plays = [{"card": "4s", "seat": 1}, {"seat": 0, "card": "6♥"}]
    r = post(client, SCORE, {"players": 2, "pone": 1, "hands": hands, "plays": plays})
    assert r.status_code == 200, r.text
    assert [e["card"] for e in r.json["events"]] == ["4S", "6H"]


def test_missing_fields(client):
    b = problem(post(client, SCORE, {}), 422)
    assert set(fields(b)) == {"/players", "/pone", "/plays"}


def test_a_card_in_two_hands(client):
    hands = [["6H", "KC", "3D", "3S"], ["4S", "5D", "9C", "6H"]]
    b = problem(post(client, SCORE, {"players": 2, "pone": 1, "hands": hands, "plays": []}), 422)
    assert b["errors"] == [{"field": "/hands/1/3", "reason": "6H is given twice (also at /hands/0/0)"}]


# --- /v1/pegging/go ------------------------------------------------------------


def test_go_is_legal(client):
    r = post(client, GO, {"count": 25, "hand": ["7H", "KS"]})
    assert r.status_code == 200, r.text
    assert r.json == {"legal": True, "count": 25, "playable": [], "penalty": None}


def test_go_is_illegal(client):
    r = post(client, GO, {"count": 25, "hand": ["6H", "AS", "QD"]})
    assert r.status_code == 200, r.text
    assert r.json == {"legal": False, "count": 25, "playable": ["6H", "AS"], "penalty": None}


def test_go_tournament_penalty(client):
    r = post(client, GO, {"count_cards": ["KC", "8D", "7S"], "hand": ["6H", "AS", "QD"], "tournament": True})
    assert r.status_code == 200, r.text
    assert r.json == {"legal": False, "count": 25, "playable": ["6H", "AS"],
                      "penalty": {"points": 4, "to": "opponent", "rule": "ACC 7.3 renege"}}


def test_go_tournament_legal_has_no_penalty(client):
    r = post(client, GO, {"count": 30, "hand": ["2H"], "tournament": True})
    assert r.status_code == 200, r.text
    assert r.json == {"legal": True, "count": 30, "playable": [], "penalty": None}


def test_go_penalty_is_two_a_playable_card(client):
    r = post(client, GO, {"count": 1, "hand": ["AH", "2H", "3H", "4H"], "tournament": True})
    assert r.status_code == 200, r.text
    assert r.json["penalty"]["points"] == 8


def test_go_at_the_lead_is_refused_not_a_renege(client):
    r = post(client, GO, {"count": 0, "hand": ["AH", "2H", "3H", "4H"], "tournament": True})
    assert r.status_code == 200, r.text
    assert r.json == {"legal": False, "count": 0, "playable": ["AH", "2H", "3H", "4H"], "penalty": None}


def test_go_count_cards_same_as_count(client):
    a = post(client, GO, {"count_cards": ["KC", "8D", "7S"], "hand": ["7H", "KS"]})
    b = post(client, GO, {"count": 25, "hand": ["7H", "KS"]})
    assert a.status_code == b.status_code == 200
    assert a.json == b.json


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"count": 25, "count_cards": ["KC", "8D", "7S"], "hand": ["7H"]}, ""),
        ({"hand": ["7H"]}, ""),
        ({"count_cards": ["KC", "QD", "TS", "AS"], "hand": ["6H"]}, "/count_cards"),
        ({"count": 31, "hand": ["6H"]}, "/count"),
        ({"count": 25, "hand": []}, "/hand"),
        ({"count": 25, "hand": ["AH", "2H", "3H", "4H", "5H"]}, "/hand"),
        ({"count": 25, "hand": ["7X"]}, "/hand/0"),
        ({"count": 25}, "/hand"),
        ({"count": 25, "hand": ["7H"], "extra": 1}, "/extra"),
    ],
)
def test_go_errors(client, body, field):
    b = problem(post(client, GO, body), 422)
    assert field in fields(b), b


def test_go_duplicate_card_between_count_and_hand(client):
    b = problem(post(client, GO, {"count_cards": ["KC", "8D"], "hand": ["kc"]}), 422)
    assert b["errors"] == [{"field": "/hand/0", "reason": "KC is given twice (also at /count_cards/0)"}]
    b = problem(post(client, GO, {"count": 3, "hand": ["AH", "ah"]}), 422)
    assert b["errors"] == [{"field": "/hand/1", "reason": "AH is given twice (also at /hand/0)"}]


def test_go_takes_the_documented_most_count_cards(client):
    """openapi.yaml's maxItems for count_cards is the most a count can hold (its cards add up
    to 30 at most): 13 are answered 2xx (16 were documented, and 14 or more always refused)."""
    import yaml
    from conftest import ROOT

    doc = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    most = doc["components"]["schemas"]["GoRequest"]["properties"]["count_cards"]["maxItems"]
    lowest = [r + s for r in "A234" for s in "CDHS"]  # the lowest cards first: the longest count
    assert sum(min(i // 4 + 1, 10) for i in range(most)) <= 30 < sum(min(i // 4 + 1, 10) for i in range(most + 1))
    r = post(client, GO, {"count_cards": lowest[:most], "hand": ["5H"]})
    assert r.status_code == 200 and r.json["count"] == 28, r.text
    assert fields(problem(post(client, GO, {"count_cards": lowest[:most + 1], "hand": ["5H"]}), 422)) == [
        "/count_cards"]
