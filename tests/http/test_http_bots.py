"""POST /v1/games/bots: a run of bot actions in one request, plain and sealed, in-process.

Whole games bot against bot through the endpoint are held to the same games
played the old way, one bot action at a time (POST /v1/games/suggest, then
/v1/games/advance), by a reference loop written here; a run stops where a
human seat must act, at max_actions, at a deal's end when asked, at game
over; in a sealed game no answer shows a card its reader may not see (the
test holds the secret and opens every token: tests/helpers_games.py's
hidden_cards states the rules independently of the service); every bad
request is a 4xx problem naming the field.
"""

from __future__ import annotations

import falcon.testing
import pytest
from conftest import fields, problem
from helpers_games import cards_in, check_event, hidden_cards, open_sealed

from service.app import create_app
from service.boundary.state import state_to_json
from service.seal import Sealer

SECRET = "b" * 32
SEALER = Sealer(SECRET)
BOTS = "/v1/games/bots"


@pytest.fixture(scope="module")
def plain():
    return falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))


@pytest.fixture(scope="module")
def sealed():
    return falcon.testing.TestClient(create_app(sealer=Sealer(SECRET), collect_metrics=False))


def post(client, url, body, status=200):
    r = client.simulate_post(url, json=body)
    assert r.status_code == status, r.text
    return r.json


def start(client, players=2, target=121, dealer=0, **options):
    opts = {"players": players, "target": target, **options}
    return post(client, "/v1/games", {"options": opts, "dealer": dealer}, 201)


def reference_game(client, game, levels, tokens=None, limit=3000):
    """The old way, written here: for every action, the seat to act asks /suggest, then /advance
    plays it. Returns the (seat, action) list, every event, and the last answer."""
    actions, events = [], []
    answer = game
    for _ in range(limit):
        if not answer["to_act"]:
            return actions, events, answer
        seat = answer["to_act"][0]
        body = {"state": answer["state"], "level": levels[seat]}
        body.update({"seat_token": tokens[seat]} if tokens else {"seat": seat})
        action = post(client, "/v1/games/suggest", body)["action"]
        adv = {"state": answer["state"], "action": action}
        if tokens:
            adv["seat_token"] = tokens[seat]
        answer = post(client, "/v1/games/advance", adv)
        actions.append((seat, action))
        events += answer["events"]
    raise AssertionError("no game over")


def endpoint_game(client, game, levels, tokens=None, max_actions=32, limit=500):
    """The new way: one /bots request a run, until the game is over."""
    actions, events, answers = [], [], []
    answer = game
    bots = [{"seat": s, "level": lv} for s, lv in levels.items()]
    for _ in range(limit):
        body = {"state": answer["state"], "bots": bots, "max_actions": max_actions}
        if tokens:
            body["seat_tokens"] = [tokens[s] for s in levels]
        answer = post(client, BOTS, body)
        answers.append(answer)
        assert [m["level"] for m in answer["bot_actions"]] == [levels[m["seat"]] for m in answer["bot_actions"]]
        actions += [(m["seat"], m["action"]) for m in answer["bot_actions"]]
        events += answer["events"]
        if answer["stopped"] == "over":
            assert answer["to_act"] == [] and answer["view"]["result"] is not None
            return actions, events, answers
        assert answer["stopped"] == "limit" and len(answer["bot_actions"]) == max_actions, answer["stopped"]
    raise AssertionError("no game over")


# -- whole games: the endpoint plays what suggest + advance play --------------------------------------


@pytest.mark.parametrize("players,levels", [(2, ("greedy", "greedy")), (3, ("greedy", "strong", "greedy")),
                                            (4, ("greedy",) * 4)])
def test_a_whole_game_equals_suggest_and_advance_step_by_step_plain(plain, players, levels):
    game = start(plain, players, deck="seeded", seed=f"bots-{players}")
    by_seat = dict(enumerate(levels))
    want_actions, want_events, last = reference_game(plain, game, by_seat)
    got_actions, got_events, answers = endpoint_game(plain, game, by_seat)
    assert got_actions == want_actions
    assert got_events == want_events
    final = answers[-1]
    assert final["state"] == last["state"] and final["view"] == last["view"]
    assert final["seq"] == len(want_actions) == sum(len(a["bot_actions"]) for a in answers)
    assert any(e["type"] == "deal_record" for e in got_events)  # plain: the platform is told everything
    for e in got_events:
        check_event(e, players)


def test_a_whole_strong_game_to_61_equals_the_step_by_step_one(plain):
    game = start(plain, 2, target=61, deck="seeded", seed="bots-strong")
    levels = {0: "strong", 1: "strong"}
    want, _, last = reference_game(plain, game, levels)
    got, _, answers = endpoint_game(plain, game, levels, max_actions=17)
    assert got == want and answers[-1]["state"] == last["state"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_sealed_game_equals_the_step_by_step_one(sealed, players):
    game = start(sealed, players)
    tokens = game["seat_tokens"]
    levels = {s: "greedy" for s in range(players)}
    want, _, last = reference_game(sealed, game, levels, tokens)
    got, events, answers = endpoint_game(sealed, game, levels, tokens)
    # Both games end in the same state (each token opened by the test's oracle).
    assert state_to_json(open_sealed(SEALER, answers[-1]["state"])) == state_to_json(open_sealed(SEALER, last["state"]))
    assert [(s, a["type"]) for s, a in got] == [(s, a["type"]) for s, a in want]
    # Every seat receives each deal's record once its crib is counted (its cards are public then):
    # one a deal, the last at game over.
    final = open_sealed(SEALER, answers[-1]["state"])
    assert sum(e["type"] == "deal_record" for e in events) == final.deal
    for (s, a), (_, b) in zip(got, want):
        if a["type"] == "discard" and None in a["cards"]:
            assert a["cards"] == [None] * len(b["cards"])  # another seat's discard: how many, not which
        else:
            assert a == b


# -- where a run stops ---------------------------------------------------------------------------------


def test_a_run_stops_where_the_human_must_act(plain):
    """Seat 0 is a human (it plays its first legal action), seat 1 the bot: every answer
    leaves the game to seat 0 and holds only seat 1's actions."""
    game = start(plain, 2, deck="seeded", seed="bots-human")
    answer = game
    runs = 0
    while answer["to_act"] and answer["deal"] < 3:
        if 0 in answer["to_act"]:
            mine = next(a for a in answer["legal_actions"] if a["seat"] == 0)
            answer = post(plain, "/v1/games/advance", {"state": answer["state"], "action": mine})
            continue
        answer = post(plain, BOTS, {"state": answer["state"], "bots": [{"seat": 1, "level": "greedy"}]})
        runs += 1
        assert answer["bot_actions"] and {m["seat"] for m in answer["bot_actions"]} == {1}
        if answer["stopped"] == "human":
            assert answer["to_act"] and 1 not in answer["to_act"]
            assert answer["view"]["seat"] == answer["to_act"][0] == 0
        else:
            assert answer["stopped"] == "over"
    assert runs > 10


def test_the_bots_discard_first_then_the_human(plain):
    game = start(plain, 3, deck="seeded", seed="bots-discard")
    dealt = post(plain, "/v1/games/advance", {"state": game["state"], "action": {"type": "deal", "seat": 0}})
    assert dealt["to_act"] == [0, 1, 2]
    run = post(plain, BOTS, {"state": dealt["state"], "bots": [{"seat": 2}, {"seat": 1, "level": "greedy"}]})
    assert [(m["seat"], m["level"], m["action"]["type"]) for m in run["bot_actions"]] == [
        (1, "greedy", "discard"), (2, "strong", "discard")]
    assert run["stopped"] == "human" and run["to_act"] == [0]
    assert [e["type"] for e in run["events"]] == ["discard", "discard"]


def test_max_actions_splits_a_run_and_the_parts_are_the_whole(plain):
    game = start(plain, 2, deck="seeded", seed="bots-limit")
    bots = [{"seat": 0, "level": "greedy"}, {"seat": 1, "level": "greedy"}]
    whole = post(plain, BOTS, {"state": game["state"], "bots": bots, "max_actions": 12})
    assert whole["stopped"] == "limit" and len(whole["bot_actions"]) == 12 and whole["seq"] == 12
    parts, events, answer = [], [], game
    for n in (1, 4, 7):
        answer = post(plain, BOTS, {"state": answer["state"], "bots": bots, "max_actions": n})
        assert answer["stopped"] == "limit" and len(answer["bot_actions"]) == n
        parts += answer["bot_actions"]
        events += answer["events"]
        # the view is the seat the run would play next, and it is to act
        assert answer["view"]["seat"] in answer["to_act"]
    assert parts == whole["bot_actions"] and events == whole["events"] and answer["state"] == whole["state"]


def test_a_run_can_stop_at_the_end_of_a_deal(plain):
    game = start(plain, 2, deck="seeded", seed="bots-deal-end")
    bots = [{"seat": 0, "level": "greedy"}, {"seat": 1, "level": "greedy"}]
    answer = post(plain, BOTS, {"state": game["state"], "bots": bots, "stop_at_deal_end": True})
    assert answer["stopped"] == "deal_end", answer["stopped"]
    assert answer["deal"] == 2 and answer["phase"] == "deal" and answer["state"]["actions"] == []
    assert answer["events"][-1]["type"] == "deal_record"
    assert answer["bot_actions"][-1]["action"] == {"type": "count", "seat": 0, "what": "crib"}
    again = post(plain, BOTS, {"state": answer["state"], "bots": bots, "stop_at_deal_end": True})
    assert again["stopped"] in ("deal_end", "over") and again["deal"] >= 3 or again["stopped"] == "over"


def test_no_bot_to_act_is_zero_actions_and_a_game_over_too(plain):
    game = start(plain, 2, deck="seeded", seed="bots-none")
    answer = post(plain, BOTS, {"state": game["state"], "bots": [{"seat": 1}]})
    assert answer["bot_actions"] == [] and answer["events"] == [] and answer["stopped"] == "human"
    assert answer["state"] == game["state"] and answer["view"]["seat"] == 0
    bots = [{"seat": 0, "level": "greedy"}, {"seat": 1, "level": "greedy"}]
    _, _, answers = endpoint_game(plain, game, {0: "greedy", 1: "greedy"})
    over = post(plain, BOTS, {"state": answers[-1]["state"], "bots": bots})
    assert over["stopped"] == "over" and over["bot_actions"] == [] and over["view"]["seat"] is None


def test_a_client_deck_deal_stops_the_run_for_the_table_s_cards(plain):
    game = start(plain, 2, deck="client")
    answer = post(plain, BOTS, {"state": game["state"], "bots": [{"seat": 0}, {"seat": 1}]})
    assert answer["stopped"] == "cards" and answer["bot_actions"] == [] and answer["view"]["seat"] == 0


# -- sealed: nothing a reader may not see -------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sealed_answers_show_no_card_their_reader_may_not_see(sealed, players):
    """Seat 0 is a human; the others are bots, run one action at a time or until the human
    must act.  Each answer is for the next seat when it is a bot (the tokens proved it), else for
    a spectator: no card that reader may not see in the state after the run (the visible cards
    only grow within a deal, and a run that ends a deal has shown all of it)."""
    game = start(sealed, players)
    tokens = game["seat_tokens"]
    bots = list(range(1, players))
    body = {"bots": [{"seat": s, "level": "greedy"} for s in bots], "seat_tokens": [tokens[s] for s in bots]}
    answer = game
    checked = 0
    for step in range(160):
        if not answer["to_act"]:
            break
        if 0 in answer["to_act"]:
            own = post(sealed, "/v1/games/view", {"state": answer["state"], "seat_token": tokens[0]})
            mine = own["legal_actions"][0]
            answer = post(sealed, "/v1/games/advance", {"state": answer["state"], "action": mine,
                                                         "seat_token": tokens[0]})
            continue
        before = open_sealed(SEALER, answer["state"])
        answer = post(sealed, BOTS, {**body, "state": answer["state"], "max_actions": 1 + step % 3})
        after = open_sealed(SEALER, answer["state"])
        reader = answer["view"]["seat"]
        if answer["stopped"] == "human":
            assert reader is None and answer["legal_actions"] == []
        elif answer["stopped"] == "limit":
            assert reader in bots and reader in answer["to_act"]
            assert {a["seat"] for a in answer["legal_actions"]} == {reader}
        # A deal's record only in the answer that ends the deal (its crib counted, or the game over).
        records = [e for e in answer["events"] if e["type"] == "deal_record"]
        assert not records or after.deal > before.deal or after.phase.value == "over", (after.phase, records)
        if after.deal == before.deal:
            leaked = cards_in(answer) & hidden_cards(after, reader)
            assert not leaked, (reader, after.phase, leaked)
            checked += 1
        for m in answer["bot_actions"]:
            if m["action"]["type"] == "discard" and m["seat"] != reader:
                assert set(m["action"]["cards"]) == {None}
    assert checked > 20


def test_a_sealed_bot_discard_is_shown_to_its_own_seat_only(sealed):
    game = start(sealed, 3)
    tokens = game["seat_tokens"]
    body = {"state": game["state"], "bots": [{"seat": 0, "level": "greedy"}, {"seat": 1, "level": "greedy"}],
            "seat_tokens": [tokens[1], tokens[0]], "max_actions": 2}
    answer = post(sealed, BOTS, body)  # the deal, seat 0's discard; seat 1 acts next
    assert answer["stopped"] == "limit" and answer["view"]["seat"] == 1
    truth = open_sealed(SEALER, answer["state"])
    discard = answer["bot_actions"][1]["action"]
    assert discard == {"type": "discard", "seat": 0, "cards": [None]}
    assert answer["events"][1] == {"type": "discard", "deal": 1, "seat": 0, "cards": [None]}
    assert answer["view"]["hands"][1] == [str(c) for c in truth.position.hands[1]]
    assert not cards_in(answer) & hidden_cards(truth, 1)


# -- every bad request names its field ---------------------------------------------------------------


@pytest.mark.parametrize("change,status,field", [
    ({"bots": [{"seat": 1, "level": "genius"}]}, 422, "/bots/0/level"),
    ({"bots": [{"seat": 2}]}, 422, "/bots/0/seat"),
    ({"bots": [{"seat": 4}]}, 422, "/bots/0/seat"),
    ({"bots": [{"seat": -1}]}, 422, "/bots/0/seat"),
    ({"bots": [{"seat": 1}, {"seat": 1, "level": "greedy"}]}, 422, "/bots/1/seat"),
    ({"bots": []}, 422, "/bots"),
    ({"bots": [{"seat": 0}] * 5}, 422, "/bots"),
    ({"bots": [{"level": "greedy"}]}, 422, "/bots/0/seat"),
    ({"bots": [{"seat": 1, "view": 0}]}, 422, "/bots/0/view"),
    ({"bots": None}, 422, "/bots"),
    ({"max_actions": 0}, 422, "/max_actions"),
    ({"max_actions": 33}, 422, "/max_actions"),
    ({"max_actions": 2.5}, 422, "/max_actions"),
    ({"stop_at_deal_end": 1}, 422, "/stop_at_deal_end"),
    ({"seat_tokens": ["st.1.AAAAAAAAAAAAAAAAAAAAAA"]}, 422, "/seat_tokens"),
    ({"state": "v2.a.b.c.d"}, 422, "/state"),
    ({"view": 1}, 422, "/view"),
])
def test_plain_bad_requests_name_the_field(plain, change, status, field):
    game = start(plain, 2, deck="seeded", seed="bots-errors")
    body = {"state": game["state"], "bots": [{"seat": 1}], **change}
    if body["bots"] is None:
        del body["bots"]
    b = problem(plain.simulate_post(BOTS, json=body), status)
    assert field in fields(b), b


def _sealed_game(sealed):
    game = start(sealed, 3)
    return game, game["seat_tokens"]


def test_sealed_bad_tokens(sealed):
    game, tokens = _sealed_game(sealed)
    other, other_tokens = _sealed_game(sealed)
    state = game["state"]
    bots = [{"seat": 0, "level": "greedy"}, {"seat": 2, "level": "greedy"}]
    cases = [
        ({}, 403, "/seat_tokens"),                                     # no token at all
        ({"seat_tokens": [tokens[0]]}, 403, "/seat_tokens"),           # seat 2 unproven
        ({"seat_tokens": [tokens[0], tokens[1]]}, 403, "/seat_tokens/1"),  # seat 1 is the human's
        ({"seat_tokens": [tokens[0], other_tokens[2]]}, 403, "/seat_tokens/1"),  # another game's
        ({"seat_tokens": [tokens[0], "st.2.xxxxxxxxxxxxxxxxxxxxxx"]}, 403, "/seat_tokens/1"),
        ({"seat_tokens": [tokens[0], tokens[0]]}, 422, "/seat_tokens/1"),  # given twice
        ({"seat_tokens": [tokens[0], tokens[2], tokens[1], tokens[0], tokens[2]]}, 422, "/seat_tokens"),
        ({"seat_tokens": [tokens[0], ""]}, 422, "/seat_tokens/1"),
        ({"seat_tokens": [tokens[0], tokens[2]], "state": game["state"][:-4]}, 422, "/state"),
    ]
    for change, status, field in cases:
        body = {"state": state, "bots": bots, **change}
        b = problem(sealed.simulate_post(BOTS, json=body), status)
        assert field in fields(b), (change, b)
        assert not cards_in(b) & hidden_cards(open_sealed(SEALER, state), None)
    ok = post(sealed, BOTS, {"state": state, "bots": bots, "seat_tokens": [tokens[2], tokens[0]]})
    assert ok["stopped"] == "human" and [m["seat"] for m in ok["bot_actions"]] == [0, 0, 2]
    plain_state = {"version": 2}
    b = problem(sealed.simulate_post(BOTS, json={"state": plain_state, "bots": bots}), 422)
    assert fields(b) == ["/state"]
