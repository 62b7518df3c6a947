"""POST /v1/hands/score-batch: one result per item, in order, each exactly the
answer POST /v1/hands/score gives that item; a bad item answered in place."""

from __future__ import annotations

import falcon.testing
import orjson
from conftest import fields, problem
from hypothesis import given, settings
from hypothesis import strategies as st

BATCH = "/v1/hands/score-batch"
ONE = "/v1/hands/score"
RANKS = "A23456789TJQK"
SUITS = "CDHS"
DECK = [r + s for r in RANKS for s in SUITS]


def post(client, url, body):
    return client.simulate_post(url, json=body)


def test_one_bad_item_is_answered_in_place(client):
    items = [{"cards": ["5H", "5C", "5S", "JD"], "starter": "5D"},
             {"cards": ["5H", "5C", "5S", "XX"], "starter": "5D"},
             {"cards": ["4D", "5C", "5H", "JS"], "starter": "6S", "claim": 16, "muggins": True}]
    r = post(client, BATCH, {"items": items})
    assert r.status_code == 200
    results = r.json["results"]
    assert len(results) == 3
    assert results[0]["total"] == 29
    bad = results[1]
    assert bad["status"] == 422 and bad["type"].endswith("/invalid-request")
    assert fields(bad) == ["/items/1/cards/3"]
    assert bad["instance"] == BATCH
    assert results[2]["claim"]["muggins"] == {"seat": 1, "points": 1}


def test_items_that_are_not_objects(client):
    r = post(client, BATCH, {"items": [5, [], None, {"cards": ["5H", "5C", "5S", "JD"], "starter": "5H"}]})
    results = r.json["results"]
    assert [fields(x) for x in results] == [["/items/0"], ["/items/1"], ["/items/2"], ["/items/3/starter"]]


def test_the_batch_itself_must_be_well_formed(client):
    assert fields(problem(post(client, BATCH, {}), 422)) == ["/items"]
    assert fields(problem(post(client, BATCH, {"items": []}), 422)) == ["/items"]
    assert fields(problem(post(client, BATCH, {"items": {}}), 422)) == ["/items"]
    assert fields(problem(post(client, BATCH, {"items": [], "x": 1}), 422)) == ["/x"]
    # an unknown key is named by a JSON pointer (RFC 6901: "/" in a key is "~1", "~" is "~0"), as everywhere
    assert fields(problem(post(client, BATCH, {"items": [], "a/b~c": 1}), 422)) == ["/a~1b~0c"]
    too_many = [{"cards": ["5H", "5C", "5S", "JD"], "starter": "5D"}] * 1001
    assert fields(problem(post(client, BATCH, {"items": too_many}), 422)) == ["/items"]


def test_a_thousand_items_fit_the_body_limit(client):
    """1,000 items of the longest documented shape (claim, muggins, players, seat) are
    over the service's 64 KiB but within the batch's own limit."""
    item = {"cards": ["10H", "10C", "10S", "10D"], "starter": "5D", "crib": False, "claim": 29,
            "muggins": False, "players": 4, "seat": 3}
    body = orjson.dumps({"items": [item] * 1000})
    assert len(body) > 64 * 1024
    r = client.simulate_post(BATCH, body=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 200
    assert len(r.json["results"]) == 1000


_CLIENT: dict = {}
spelling = st.sampled_from(DECK + ["10h", "5♥", "XX", " 5h", ""])
item = st.one_of(
    st.fixed_dictionaries({"cards": st.lists(st.sampled_from(DECK), min_size=3, max_size=5, unique=True),
                           "starter": st.sampled_from(DECK)},
                          optional={"crib": st.booleans(), "claim": st.integers(-1, 30),
                                    "muggins": st.booleans(), "players": st.integers(2, 4),
                                    "seat": st.integers(0, 3)}),
    st.fixed_dictionaries({"cards": st.lists(spelling, min_size=4, max_size=4), "starter": spelling},
                          optional={"crib": st.sampled_from([True, False, 1, None])}),
    st.sampled_from([None, 3, "x", [], {}, {"cards": 5, "starter": []}, {"starter": "5D"}]),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(item, min_size=1, max_size=12))
def test_batch_results_equal_the_one_by_one_results(items):
    from service.app import create_app

    client = _CLIENT.setdefault("c", falcon.testing.TestClient(create_app()))
    got = post(client, BATCH, {"items": items})
    assert got.status_code == 200
    for i, (x, result) in enumerate(zip(items, got.json["results"], strict=True)):
        one = post(client, ONE, x)
        if one.status_code == 200:
            assert result == one.json
        elif one.status_code == 400:  # not an object: the batch says so in place
            assert result["status"] == 422 and fields(result) == [f"/items/{i}"]
        else:
            single = one.json
            assert result["status"] == single["status"] and result["type"] == single["type"]
            assert [(f"/items/{i}" + e["field"], e["reason"]) for e in single["errors"]] == \
                [(e["field"], e["reason"]) for e in result["errors"]]


def test_the_batch_has_its_own_body_limit(client):
    """512 KiB for the batch; the service's 64 KiB everywhere else."""
    big = b'{"items": [' + b" " * (512 * 1024) + b"]}"
    r = client.simulate_post(BATCH, body=big, headers={"Content-Type": "application/json"})
    assert problem(r, 413)["detail"] == "the body may be at most 524288 bytes"
    mid = b'{"cards": ["5H", "5C", "5S", "JD"], "starter": "5D"' + b" " * (70 * 1024) + b"}"
    r = client.simulate_post(ONE, body=mid, headers={"Content-Type": "application/json"})
    assert problem(r, 413)["detail"] == "the body may be at most 65536 bytes"
    r = client.simulate_post(BATCH, body=b'{"items": [' + mid + b"]}", headers={"Content-Type": "application/json"})
    assert r.status_code == 200 and r.json["results"][0]["total"] == 29
