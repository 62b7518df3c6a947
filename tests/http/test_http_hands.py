"""POST /v1/hands/score over HTTP (in-process, falcon.testing)."""

from __future__ import annotations

import pytest
from conftest import fields, problem

URL = "/v1/hands/score"


def score(client, body, **kwargs):
    return client.simulate_post(URL, json=body, **kwargs)


def test_the_29_hand(client):
    r = score(client, {"cards": ["5H", "5C", "5S", "JD"], "starter": "5D", "crib": False})
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    body = r.json
    assert body["cards"] == ["5H", "5C", "5S", "JD"]
    assert body["starter"] == "5D"
    assert body["crib"] is False
    assert body["total"] == 29
    assert body["subtotals"] == {"fifteen": 16, "pair": 12, "run": 0, "flush": 0, "nobs": 1}
    kinds = [item["kind"] for item in body["breakdown"]]
    assert kinds == ["fifteen"] * 8 + ["pair"] * 6 + ["nobs"]
    assert body["breakdown"][0] == {"kind": "fifteen", "cards": ["5C", "JD"], "points": 2}
    assert body["breakdown"][-1] == {"kind": "nobs", "cards": ["JD"], "points": 1}
    assert sum(item["points"] for item in body["breakdown"]) == 29
    assert body["call"] == (
        "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
        "fifteen fourteen, fifteen sixteen, and a double pair royal is twenty-eight, "
        "and his nobs is twenty-nine"
    )


def test_crib_defaults_to_false(client):
    r = score(client, {"cards": ["4D", "5C", "5H", "6S"], "starter": "JS"})
    assert r.status_code == 200
    body = r.json
    assert body["crib"] is False
    assert body["total"] == 16
    assert body["subtotals"]["run"] == 6
    assert body["call"].endswith("and a double run is sixteen")


@pytest.mark.parametrize(
    ("cards", "starter", "crib", "flush"),
    [
        (["3H", "6H", "9H", "KH"], "AH", False, 5),  # hand: five of a suit
        (["3H", "6H", "9H", "KH"], "AS", False, 4),  # hand: the four hand cards
        (["3H", "6H", "9H", "KH"], "AH", True, 5),  # crib: all five
        (["3H", "6H", "9H", "KH"], "AS", True, 0),  # crib: four is no flush
        (["3H", "6H", "9H", "KS"], "AH", False, 0),  # the starter never completes four
    ],
)
def test_flush_rules(client, cards, starter, crib, flush):
    r = score(client, {"cards": cards, "starter": starter, "crib": crib})
    assert r.status_code == 200
    body = r.json
    assert body["crib"] is crib
    assert body["subtotals"]["flush"] == flush
    flushes = [i for i in body["breakdown"] if i["kind"] == "flush"]
    assert [i["points"] for i in flushes] == ([flush] if flush else [])
    if flush == 5:
        assert sorted(flushes[0]["cards"]) == sorted([*cards, starter])


def test_starter_jack_is_not_nobs(client):
    r = score(client, {"cards": ["2C", "4D", "7H", "9S"], "starter": "JC"})
    assert r.status_code == 200
    assert r.json["subtotals"]["nobs"] == 0


@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        (["10H", "5h", "kd", "AS"], ["TH", "5H", "KD", "AS"]),
        (["TH", "5♥", "K♠", "1c"], ["TH", "5H", "KS", "AC"]),
        (["th", "5♡", "q♢", " 2c\t"], ["TH", "5H", "QD", "2C"]),
    ],
)
def test_spellings_are_answered_canonically(client, given, canonical):
    r = score(client, {"cards": given, "starter": "9♣"})
    assert r.status_code == 200, r.text
    assert r.json["cards"] == canonical
    assert r.json["starter"] == "9C"
    for item in r.json["breakdown"]:
        for card in item["cards"]:
            assert card in canonical or card == "9C"


# --- bad input: status, problem+json, and the field named --------------------

GOOD = {"cards": ["5H", "5C", "5S", "JD"], "starter": "5D"}


@pytest.mark.parametrize(
    ("body", "expected_fields"),
    [
        ({"starter": "5D"}, ["/cards"]),
        ({"cards": ["5H", "5C", "5S", "JD"]}, ["/starter"]),
        ({}, ["/cards", "/starter"]),
        ({**GOOD, "colour": "red"}, ["/colour"]),
        ({**GOOD, "crib": 1}, ["/crib"]),
        ({**GOOD, "crib": "true"}, ["/crib"]),
        ({**GOOD, "crib": None}, ["/crib"]),
        ({**GOOD, "cards": "5H 5C 5S JD"}, ["/cards"]),
        ({**GOOD, "cards": None}, ["/cards"]),
        ({**GOOD, "starter": 5}, ["/starter"]),
        ({**GOOD, "starter": ["5D"]}, ["/starter"]),
        ({**GOOD, "cards": ["5H", "5C", "5S"]}, ["/cards"]),
        ({**GOOD, "cards": ["5H", "5C", "5S", "JD", "2C"]}, ["/cards"]),
        ({**GOOD, "cards": []}, ["/cards"]),
        ({**GOOD, "cards": ["5H", "5C", "11S", "JD"]}, ["/cards/2"]),
        ({**GOOD, "cards": ["5H", "5C", "5X", "JD"]}, ["/cards/2"]),
        ({**GOOD, "cards": ["5H", "5C", 5, "JD"]}, ["/cards/2"]),
        ({**GOOD, "cards": ["5H", "5C", "5S", ""]}, ["/cards/3"]),
        ({**GOOD, "starter": "joker"}, ["/starter"]),
        ({**GOOD, "starter": "\n5D"}, ["/starter"]),
        ({**GOOD, "starter": "5D\n"}, ["/starter"]),
    ],
)
def test_schema_errors_are_422_naming_the_field(client, body, expected_fields):
    body = problem(score(client, body), 422)
    assert body["type"] == "https://cribbage.example/problems/invalid-request"
    assert sorted(fields(body)) == sorted(expected_fields)
    assert all(e["reason"] for e in body["errors"])
    assert body["instance"] == URL


def test_unknown_card_reason_comes_from_the_core(client):
    body = problem(score(client, {**GOOD, "cards": ["5H", "5C", "11S", "JD"]}), 422)
    assert body["errors"] == [
        {"field": "/cards/2", "reason": "'11S' is not a card: unknown rank '11' (use A 2-10 T J Q K)"}
    ]
    assert "/cards/2" in body["detail"]


def test_wrong_count_reason(client):
    body = problem(score(client, {**GOOD, "cards": ["5H", "5C", "5S"]}), 422)
    assert body["errors"] == [{"field": "/cards", "reason": "a hand or crib has exactly 4 cards, not 3"}]


def test_several_bad_fields_are_all_named(client):
    body = problem(score(client, {"cards": ["5H", "xx", "5S", "JD"], "crib": 0, "x": 1}), 422)
    assert sorted(fields(body)) == ["/cards/1", "/crib", "/starter", "/x"]


@pytest.mark.parametrize(
    ("cards", "starter", "field", "card", "first"),
    [
        (["5H", "5C", "5S", "JD"], "5H", "/starter", "5H", "/cards/0"),
        (["5H", "5C", "5S", "JD"], "jd", "/starter", "JD", "/cards/3"),
        (["5H", "5C", "5h", "JD"], "5D", "/cards/2", "5H", "/cards/0"),
        (["TH", "5C", "10h", "JD"], "5D", "/cards/2", "TH", "/cards/0"),
        (["5♥", "5C", "5S", "JD"], "5h", "/starter", "5H", "/cards/0"),
    ],
)
def test_a_card_given_twice_names_where_it_repeats(client, cards, starter, field, card, first):
    body = problem(score(client, {"cards": cards, "starter": starter}), 422)
    assert body["errors"] == [{"field": field, "reason": f"{card} is given twice (also at {first})"}]


def test_every_repeat_is_named(client):
    body = problem(score(client, {"cards": ["5H", "5H", "5H", "JD"], "starter": "5H"}), 422)
    assert fields(body) == ["/cards/1", "/cards/2", "/starter"]


@pytest.mark.parametrize(
    ("raw", "slug"),
    [
        (b'{"cards": ["5H"', "malformed-json"),
        (b"cards=5H", "malformed-json"),
        (b"\xff\xfe{}", "malformed-json"),
        (b"", "empty-body"),
        (b'["5H", "5C", "5S", "JD"]', "body-not-object"),
        (b'"5H"', "body-not-object"),
        (b"null", "body-not-object"),
        (b"29", "body-not-object"),
    ],
)
def test_non_json_or_non_object_body_is_400(client, raw, slug):
    r = client.simulate_post(URL, body=raw, headers={"Content-Type": "application/json"})
    body = problem(r, 400)
    assert body["type"] == f"https://cribbage.example/problems/{slug}"
    assert fields(body) == [""]


def test_missing_content_type_is_read_as_json(client):
    r = client.simulate_post(URL, body=b'{"cards": ["5H","5C","5S","JD"], "starter": "5D"}')
    assert r.status_code == 200
    assert r.json["total"] == 29


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml"]
)
def test_wrong_content_type_is_415(client, content_type):
    r = client.simulate_post(URL, body=b'{"cards": [], "starter": "5D"}', headers={"Content-Type": content_type})
    body = problem(r, 415)
    assert body["type"] == "https://cribbage.example/problems/unsupported-media-type"


def test_json_with_charset_is_accepted(client):
    r = client.simulate_post(
        URL, body=b'{"cards": ["5H","5C","5S","JD"], "starter": "5D"}',
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert r.status_code == 200


def test_oversize_body_is_413(client):
    body = {**GOOD, "pad": "x" * 70_000}
    body = problem(score(client, body), 413)
    assert body["type"] == "https://cribbage.example/problems/content-too-large"


def test_get_is_405(client):
    r = client.simulate_get(URL)
    problem(r, 405)
    assert "POST" in r.headers["allow"]
