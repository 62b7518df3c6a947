"""``POST /v1/odds`` and the views' ``win_probability``: board positions (table, simulation), game states
within a deal (from the asking seat's view only), hostile bodies as problem+json naming the field."""

from __future__ import annotations

import falcon.testing
import pytest
from conftest import fields, problem

from service.advice import odds
from service.advice.odds_deal import estimate_now
from service.app import create_app
from service.boundary.state import state_to_json
from service.core.cards import Card
from service.core.game import Count, Cut, Deal, Discard, apply_action, new_game
from service.core.options import GameOptions
from service.seal import Sealer

ODDS = "/v1/odds"


@pytest.fixture()
def plain(client):
    return client  # conftest's: no state secret in the suite's environment, so plain mode


@pytest.fixture(scope="module")
def sealed():
    return falcon.testing.TestClient(create_app(sealer=Sealer("s" * 32), collect_metrics=False))


def cards(text):
    return tuple(Card.parse(c) for c in text.split())


def test_a_board_position_reads_the_table(plain):
    for players, target, scores, dealer, five in [(2, 121, [0, 0], 0, False), (2, 61, [40, 55], 1, True),
                                                  (4, 121, [100, 90], 3, False)]:
        body = {"players": players, "target": target, "scores": scores, "dealer": dealer, "five_and_two": five}
        got = plain.simulate_post(ODDS, json=body)
        assert got.status_code == 200, got.text
        assert got.json["chances"] == list(odds.board_odds(players, target, scores, dealer, five))
        assert got.json["method"] == "table" and got.json["standard_errors"] == [0.0, 0.0]
        assert got.json["at"] == "deal_start" and got.json["seat"] is None


def test_three_players_are_simulated_with_their_error(plain):
    got = plain.simulate_post(ODDS, json={"players": 3, "target": 121, "scores": [60, 70, 80], "dealer": 0})
    assert got.status_code == 200, got.text
    body = got.json
    assert body["method"] == "simulation" and body["games"] == odds.SIMULATED_GAMES
    assert sum(body["chances"]) == pytest.approx(1.0)
    assert body["chances"][2] > body["chances"][0]
    assert all(0 < se < 0.012 for se in body["standard_errors"])


def test_a_won_position(plain):
    got = plain.simulate_post(ODDS, json={"players": 3, "target": 61, "scores": [61, 3, 4], "dealer": 1})
    assert got.json["chances"] == [1.0, 0.0, 0.0] and got.json["method"] == "over"


@pytest.mark.parametrize("body,field", [
    ({"players": 2, "target": 121, "scores": [1, 2, 3], "dealer": 0}, "/scores"),
    ({"players": 4, "target": 121, "scores": [1, 2], "dealer": 4}, "/dealer"),
    ({"players": 2, "target": 121, "scores": [1, 2], "dealer": 2}, "/dealer"),
    ({"players": 3, "target": 121, "scores": [1, 2, 3], "dealer": 0, "five_and_two": True}, "/five_and_two"),
    ({"players": 2, "target": 121, "scores": [121, 130], "dealer": 0}, "/scores"),
    ({"players": 2, "target": 100, "scores": [1, 2], "dealer": 0}, "/target"),
    ({"players": 2, "target": 121, "scores": [1, "2"], "dealer": 0}, "/scores/1"),
    ({"players": 2, "target": 121, "scores": [1, 10**30], "dealer": 0}, "/scores/1"),
    ({"players": 2, "target": 121, "scores": [-1, 0], "dealer": 0}, "/scores/0"),
    ({"players": 2, "target": 121, "dealer": 0}, "/scores"),
    ({"players": True, "target": 121, "scores": [0, 0], "dealer": 0}, "/players"),
    ({"players": 2, "target": 121, "scores": [0, 0], "dealer": 0, "samples": 5}, "/samples"),
    ({"players": 2, "target": 121, "scores": [0, 0], "dealer": 0, "extra": 1}, "/extra"),
    ({}, "/players"),
])
def test_bad_board_positions_name_the_field(plain, body, field):
    assert field in fields(problem(plain.simulate_post(ODDS, json=body), 422))


def _client_game(seat0, seat1, game_id="ab" * 16):
    """A client-deck game at the cut: seat 0 deals; seat 1's cards and the starter fixed, seat 0's given."""
    state, _ = new_game(GameOptions(deck="client"), dealer=0, game_id=game_id)
    for action in (Deal(0, (cards(seat0), cards(seat1))), Discard(0, cards(seat0)[:2]),
                   Discard(1, cards(seat1)[:2]), Cut(1, Card.parse("5D"))):
        state, _ = apply_action(state, action)
    return state


SEAT1 = "AC 2C 3H 4H 5S 6S"


def test_the_estimate_never_reads_the_hidden_cards():
    """Seat 1's estimate is the same whatever seat 0 holds (and threw): it sees neither."""
    a = _client_game("KC KD KH QS QD QH", SEAT1)
    b = _client_game("7C 8D 9H TS JD 7H", SEAT1)
    ea, eb = estimate_now(a, 1, 12, budget=60.0), estimate_now(b, 1, 12, budget=60.0)
    assert (ea.chances, ea.standard_errors, ea.samples) == (eb.chances, eb.standard_errors, eb.samples)
    assert ea.samples == 12


def test_a_spectators_estimate_before_any_card_is_seen_agrees_with_the_table():
    """Nothing seen yet (the discards to make): the sampled deals are the table's own distribution."""
    state, _ = new_game(GameOptions(deck="seeded", seed="odds-check"), dealer=1)
    state, _ = apply_action(state, Deal(1))
    e = estimate_now(state, None, 200, budget=60.0)
    want = odds.board_odds(2, 121, [0, 0], 1)
    assert e.samples == 200 and e.method == "sampled"
    assert abs(e.chances[1] - want[1]) <= 4 * e.standard_errors[1] + 0.01, (e, want)


def test_the_estimate_within_a_deal_over_http(plain, sealed):
    state = _client_game("KC KD KH QS QD QH", SEAT1)
    body = {"state": state_to_json(state), "seat": 1, "samples": 6}
    got = plain.simulate_post(ODDS, json=body)
    assert got.status_code == 200, got.text
    j = got.json
    assert j["at"] == "now" and j["method"] == "sampled" and j["seat"] == 1 and 1 <= j["samples"] <= 6
    assert j["budget_seconds"] > 0 and sum(j["chances"]) == pytest.approx(1.0)
    assert all(0 <= se <= 0.5 for se in j["standard_errors"])
    # plain mode names the seat and takes no token
    assert "/seat" in fields(problem(plain.simulate_post(ODDS, json={"state": body["state"]}), 422))
    assert "/seat_token" in fields(problem(plain.simulate_post(ODDS, json={**body, "seat_token": "x"}), 422))
    assert "/players" in fields(problem(plain.simulate_post(ODDS, json={**body, "players": 2}), 422))
    assert "/seat" in fields(problem(plain.simulate_post(ODDS, json={**body, "seat": 3}), 422))
    assert "/samples" in fields(problem(plain.simulate_post(ODDS, json={**body, "samples": 201}), 422))
    # a plain state is not a sealed one
    assert "/state" in fields(problem(sealed.simulate_post(ODDS, json=body), 422))


def test_sealed_odds_take_the_seats_token(sealed):
    start = sealed.simulate_post("/v1/games", json={"options": {}, "dealer": 0}).json
    token = start["seat_tokens"][1]
    state = sealed.simulate_post("/v1/games/advance", json={"state": start["state"], "action": {"type": "deal", "seat": 0},
                                                             "seat_token": start["seat_tokens"][0]}).json["state"]
    got = sealed.simulate_post(ODDS, json={"state": state, "seat_token": token, "samples": 3})
    assert got.status_code == 200 and got.json["seat"] == 1 and got.json["method"] == "sampled", got.text
    spectator = sealed.simulate_post(ODDS, json={"state": state, "samples": 3})
    assert spectator.status_code == 200 and spectator.json["seat"] is None
    assert sealed.simulate_post(ODDS, json={"state": state, "seat": 1}).status_code == 403
    assert sealed.simulate_post(ODDS, json={"state": state, "seat_token": "st.1.nope"}).status_code == 403


def test_before_the_deal_and_at_game_over_no_sampling():
    state, _ = new_game(GameOptions(players=4), dealer=2)
    e = estimate_now(state, 0, 50)
    assert e.method == "table" and e.samples == 0 and e.chances == odds.board_odds(4, 121, [0, 0], 2)


def _advance_all(client, state, view=None):
    """Play a whole plain game by its first legal actions; every answer's view."""
    views = []
    for _ in range(2000):
        body = {"state": state, "action": None}
        answer = client.simulate_post("/v1/games/view", json={"state": state}).json
        if answer["phase"] == "over":
            views.append(answer["view"])
            return views
        legal = answer["legal_actions"][0]
        got = client.simulate_post("/v1/games/advance", json={**body, "action": legal})
        assert got.status_code == 200, got.text
        views.append(got.json["view"])
        state = got.json["state"]
    raise AssertionError("the game did not end")


def test_every_view_carries_the_chance_at_the_start_of_its_deal(plain):
    start = plain.simulate_post("/v1/games", json={"options": {"target": 61, "deck": "seeded", "seed": "odds-views"},
                                                   "dealer": 1}).json
    assert start["view"]["win_probability"] == [round(p, 4) for p in odds.board_odds(2, 61, [0, 0], 1)]
    views = _advance_all(plain, start["state"])
    last_deal = None
    for v in views[:-1]:
        if v["phase"] == "deal":  # a new deal: its start's scores are the scores now
            want = odds.board_odds(2, 61, [s["front"] for s in v["scores"]], v["dealer"])
            assert v["win_probability"] == [round(p, 4) for p in want]
            last_deal = (v["deal"], v["win_probability"])
        elif last_deal is not None and v["deal"] == last_deal[0] and v["result"] is None:
            assert v["win_probability"] == last_deal[1]  # it does not move within a deal
    final = views[-1]
    assert final["result"] is not None
    assert final["win_probability"] == [1.0 if s == final["result"]["winner"] else 0.0 for s in range(2)]


def test_three_player_views_have_no_table(plain):
    start = plain.simulate_post("/v1/games", json={"options": {"players": 3}, "dealer": 0}).json
    assert start["view"]["win_probability"] is None
