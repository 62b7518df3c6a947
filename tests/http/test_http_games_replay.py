"""POST /v1/games/replay: a whole game's record (every action, cards given) replayed and verified.

The record is what a plain service hands out: each deal's ``deal_record`` event,
concatenated, with the game id, the options and the first dealer.
"""

from __future__ import annotations

import random

import falcon.testing
import pytest
from conftest import fields, problem
from helpers_games import REPLAY, REPLAY_KEYS, VIEW_KEYS, client_post, play_game

from service.app import create_app


@pytest.fixture(scope="module")
def client() -> falcon.testing.TestClient:
    return falcon.testing.TestClient(create_app(sealer=None))


GAMES = [
    ({"options": {"players": 2}}, 101),
    ({"options": {"players": 2, "five_and_two": True, "muggins": True, "target": 61}}, 102),
    ({"options": {"players": 3, "tournament": True, "deck": "seeded", "seed": "replay"}, "dealer": 2}, 103),
    ({"options": {"players": 4, "muggins": True, "muggins_in_play": True, "skunk": True, "target": 61}}, 104),
]


@pytest.fixture(scope="module")
def games(client) -> list[dict]:
    """Whole plain games, played once for the module."""
    return [play_game(client_post(client), body, random.Random(seed)) for body, seed in GAMES]


def record_of(game: dict) -> dict:
    last = game["last"]
    state = last["state"]
    return {"game_id": state["game_id"], "options": state["options"], "first_dealer": state["first_dealer"],
            "actions": [a for rec in game["records"] for a in rec]}


def replay(client, record: dict):
    return client.simulate_post(REPLAY, json={"record": record})


@pytest.mark.parametrize("i", range(len(GAMES)))
def test_a_whole_game_replays_to_the_same_result(client, games, i):
    game = games[i]
    last = game["last"]
    r = replay(client, record_of(game))
    assert r.status_code == 200, r.text
    body = r.json
    assert set(body) == REPLAY_KEYS
    assert body["game_id"] == last["game_id"]
    assert body["seq"] == last["seq"] == len(record_of(game)["actions"])
    assert body["phase"] == "over"
    assert body["result"] == last["view"]["result"]
    assert body["history"] == last["state"]["history"]
    # The scores after each deal are the pegs the next deal began with; after the last, the final ones.
    final_front = [s["front"] for s in last["view"]["scores"]]
    assert body["scores_after_deal"] == game["scores_at_deal"][1:] + [final_front]
    final = body["final"]
    assert set(final) == VIEW_KEYS - {"options"}
    assert final == {k: v for k, v in last["view"].items() if k != "options"}


def test_a_finished_game_counts_its_deals(client, games):
    """``deals``: the deals of the record; a game that ended in deal N has N."""
    counted = []
    for game in games:
        r = replay(client, record_of(game))
        assert r.status_code == 200, r.text
        assert len(game["records"]) == game["last"]["deal"]
        assert len(r.json["scores_after_deal"]) == game["last"]["deal"]
        counted.append((r.json["deals"], game["last"]["deal"]))
    assert all(a == b for a, b in counted), counted


def test_a_partial_record_replays_to_where_the_game_was(client, games):
    game = games[0]
    record = record_of(game)
    n = len(game["records"][0]) + len(game["records"][1])
    r = replay(client, {**record, "actions": record["actions"][:n]})
    assert r.status_code == 200, r.text
    body = r.json
    assert (body["seq"], body["deals"], body["phase"], body["result"]) == (n, 2, "deal", None)
    assert body["scores_after_deal"] == game["scores_at_deal"][1:3]
    assert [s["front"] for s in body["final"]["scores"]] == game["scores_at_deal"][2]
    r = replay(client, {**record, "actions": record["actions"][:n + 2]})  # the deal and one discard
    assert r.status_code == 200, r.text
    assert (r.json["seq"], r.json["deals"], r.json["phase"]) == (n + 2, 3, "discard")
    r = replay(client, {**record, "actions": []})
    assert r.status_code == 200, r.text
    assert (r.json["seq"], r.json["deals"], r.json["phase"]) == (0, 0, "deal")


def test_the_record_commits_to_its_game_id(client, games):
    record = record_of(games[0])
    other = ("0" if record["game_id"][0] != "0" else "1") + record["game_id"][1:]
    r = replay(client, {**record, "game_id": other})
    assert r.status_code == 200, r.text
    assert r.json["history"] != games[0]["last"]["state"]["history"]
    assert r.json["result"] == games[0]["last"]["view"]["result"]


def _index(record: dict, prefix: str, start: int = 0) -> int:
    return next(i for i, a in enumerate(record["actions"]) if i >= start and a.startswith(prefix))


def _alter(record: dict, how: str) -> tuple[dict, int]:
    """One action of the record changed; the index where replaying must fail."""
    actions = list(record["actions"])
    if how == "play_card":
        i = _index(record, "play ", 30)
        kind, seat, card = actions[i].split(" ")[:3]
        # A card this seat never held: one of the starter-less rest of the pack (the crib's).
        deal = max(j for j in range(i) if actions[j].startswith("deal "))
        crib_discard = next(a for a in actions[deal:i] if a.startswith("discard ") and a.split(" ")[1] != seat)
        actions[i] = f"play {seat} {crib_discard.split(' ')[2][:2]}"
    elif how == "discard_card":
        i = _index(record, "discard ")
        seat = actions[i].split(" ")[1]
        other_hand = actions[0].split(" ")[2].split("/")[0].split(".")[1 - int(seat)]
        actions[i] = f"discard {seat} {actions[i].split(' ')[2][:2]}{other_hand[:2]}"
    elif how == "count_seat":
        i = _index(record, "count ")
        seat = int(actions[i].split(" ")[1])
        actions[i] = f"count {(seat + 1) % 2}"
    elif how == "swap_plays":
        i = _index(record, "play ")
        actions[i], actions[i + 1] = actions[i + 1], actions[i]
    elif how == "deal_twice":
        i = _index(record, "discard ")
        actions.insert(i, actions[0])
    elif how == "cut_early":
        i = _index(record, "discard ")
        actions[i] = "cut 1"
    elif how == "starter_in_hand":
        i = _index(record, "cut ")
        seat = actions[i].split(" ")[1]
        actions[i] = f"cut {seat} {actions[0].split(' ')[2][:2]}"
    elif how == "duplicate_deal":
        i = 0
        kind, seat, cards = actions[0].split(" ")
        actions[0] = f"{kind} {seat} {cards[:2]}{cards[:2]}{cards[4:]}"
    else:
        raise AssertionError(how)
    return {**record, "actions": actions}, i


@pytest.mark.parametrize("how", ["play_card", "discard_card", "count_seat", "swap_plays", "deal_twice", "cut_early",
                                 "starter_in_hand", "duplicate_deal"])
def test_an_altered_action_is_named(client, games, how):
    record, i = _alter(record_of(games[0]), how)
    b = problem(replay(client, record), 422)
    assert b["type"].endswith(("/rule-violation", "/invalid-request"))
    assert any(f == f"/record/actions/{i}" or f.startswith(f"/record/actions/{i}/") for f in fields(b)), \
        (how, i, record["actions"][i], b["errors"])


def test_an_action_after_the_end_is_named(client, games):
    record = record_of(games[0])
    n = len(record["actions"])
    b = problem(replay(client, {**record, "actions": record["actions"] + ["deal 0"]}), 422)
    assert b["type"].endswith("/rule-violation") and b["rule"] == "game_over"
    assert fields(b) == [f"/record/actions/{n}"]
    # The same record under a lower target is over sooner: the first action past the end is named.
    short = {**record, "options": {**record["options"], "target": 61}}
    b = problem(replay(client, short), 422)
    assert b["rule"] == "game_over" and fields(b)[0].startswith("/record/actions/")
    assert int(fields(b)[0].split("/")[3]) < n


def test_another_first_dealer_fails_at_the_deal(client, games):
    record = record_of(games[0])
    b = problem(replay(client, {**record, "first_dealer": 1 - record["first_dealer"]}), 422)
    assert b["rule"] == "out_of_turn" and fields(b) == ["/record/actions/0"]


@pytest.mark.parametrize("bad", ["play 0 ZZ", "shuffle 0", "play 9 5H", "play 0", "discard 1 6D2S =3",
                                 "count 0 =30", "deal 0 5H", "cut 1 5H6H", "go 1 x", "play 0 5H =07", "PLAY 0 5H"])
def test_malformed_notation_names_the_index(client, games, bad):
    record = record_of(games[0])
    i = 7
    actions = record["actions"][:i] + [bad] + record["actions"][i + 1:]
    b = problem(replay(client, {**record, "actions": actions}), 422)
    assert b["type"].endswith("/invalid-request")
    assert fields(b) == [f"/record/actions/{i}"], b["errors"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"game_id": "xyz"}, "/record/game_id"),
        ({"game_id": "A" * 32}, "/record/game_id"),
        ({"first_dealer": 2}, "/record/first_dealer"),
        ({"first_dealer": 4}, "/record/first_dealer"),
        ({"options": {"players": 5}}, "/record/options/players"),
        ({"options": {"target": 100}}, "/record/options/target"),
        ({"options": {"colour": "red"}}, "/record/options/colour"),
        ({"actions": "deal 0"}, "/record/actions"),
        ({"actions": [""]}, "/record/actions/0"),
        ({"actions": ["deal 0"] * 5001}, "/record/actions"),
        ({"extra": 1}, "/record/extra"),
    ],
)
def test_bad_records_name_the_field(client, games, change, field):
    record = {**record_of(games[0]), **change}
    b = problem(replay(client, record), 422)
    assert any(f == field or f.startswith(field + "/") for f in fields(b)), b["errors"]


def test_a_replay_needs_a_record(client):
    b = problem(client.simulate_post(REPLAY, json={}), 422)
    assert fields(b) == ["/record"]
    b = problem(client.simulate_post(REPLAY, json={"record": {"actions": []}}), 422)
    assert set(fields(b)) == {"/record/game_id", "/record/first_dealer"}
