"""Judged claims (docs/rules.md, "Judged claims"): the core's judge and the
claim on POST /v1/hands/score and POST /v1/pegging/score.

Every expectation is written out from the ACC rule cited (the totals from
the hands' own item lists, counted by hand in the comments), never taken
from the code under test.
"""

from __future__ import annotations

import pytest
from conftest import fields, problem
from hypothesis import given, settings
from hypothesis import strategies as st

from service.core.claims import judge
from service.core.errors import MalformedError
from service.core.play import Score

HANDS = "/v1/hands/score"
PEGGING = "/v1/pegging/score"
# 4D 5C 5H JS, starter 6S: fifteens 5C+JS, 5H+JS, 4D+5C+6S, 4D+5H+6S (8), the pair of
# fives (2), runs 4-5-6 twice (6), his nobs JS (1): 17.
SEVENTEEN = {"cards": ["4D", "5C", "5H", "JS"], "starter": "6S"}


def post(client, url, body):
    return client.simulate_post(url, json=body)


# -- the show, muggins off (ACC 8.3, 8.4.c, 11.1.b) -----------------------


def test_acc_8_3_under_claim_stands_without_muggins(client):
    """ACC 8.3 / 11.1.b: claimed 15 of 17 -> pegs 15, 2 lost, nobody takes them."""
    r = post(client, HANDS, {**SEVENTEEN, "claim": 15})
    assert r.status_code == 200
    c = r.json["claim"]
    assert r.json["total"] == 17
    assert (c["verdict"], c["by"], c["pegged"], c["lost"], c["muggins"]) == ("under", 2, 15, 2, None)
    assert c["rule"].startswith("ACC 8.3")
    # the claim covers the spoken order: 8 fifteens, 2 pair, 3 + 3 runs = 16 > 15; so the
    # second run is missed in part (1 of 3) and nobs whole
    assert c["missed"] == [{"kind": "run", "cards": ["4D", "5H", "6S"], "points": 1},
                           {"kind": "nobs", "cards": ["JS"], "points": 1}]


def test_acc_8_4_c_over_claim_is_corrected_not_penalised(client):
    """ACC 8.4.c: claimed 20 of 17 -> corrected to 17, no penalty, nothing to anyone."""
    r = post(client, HANDS, {**SEVENTEEN, "claim": 20, "muggins": True})
    c = r.json["claim"]
    assert (c["verdict"], c["by"], c["pegged"], c["lost"], c["muggins"], c["missed"]) == \
        ("over", 3, 17, 0, None, [])
    assert c["rule"].startswith("ACC 8.4.c")


def test_correct_claim(client):
    c = post(client, HANDS, {**SEVENTEEN, "claim": 17}).json["claim"]
    assert (c["verdict"], c["by"], c["pegged"], c["lost"], c["muggins"], c["missed"]) == \
        ("correct", 0, 17, 0, None, [])


# -- the show, muggins on (ACC 10) ------------------------------------------


def test_acc_10_muggins_two_players(client):
    """ACC 10: the pone (seat 1) claims 16 of 17, forgetting nobs: the dealer (seat 0) takes 1."""
    c = post(client, HANDS, {**SEVENTEEN, "claim": 16, "muggins": True, "seat": 1}).json["claim"]
    assert (c["verdict"], c["by"], c["pegged"], c["lost"]) == ("under", 1, 16, 0)
    assert c["muggins"] == {"seat": 0, "points": 1}
    assert c["missed"] == [{"kind": "nobs", "cards": ["JS"], "points": 1}]
    assert c["rule"].startswith("ACC 10")


@pytest.mark.parametrize(("players", "seat", "to"), [(3, 0, 1), (3, 1, 2), (3, 2, 0), (4, 0, 1), (4, 3, 0)])
def test_acc_10_muggins_goes_to_the_next_seat_of_the_other_side(client, players, seat, to):
    """Decision (docs/rules.md): with 3 players the player to the left calls muggins;
    with 4 the next seat, always of the other partnership."""
    c = post(client, HANDS, {**SEVENTEEN, "claim": 10, "muggins": True, "players": players,
                             "seat": seat}).json["claim"]
    assert c["muggins"] == {"seat": to, "points": 7}


def test_nineteen_is_a_zero_hand(client):
    """A claim of 19 means "nothing": right for a hand of nothing, 17 short on the 17 hand."""
    # 2C 4D 8H TS, starter KC: no fifteen (2+4+8=14, 2+TS=12...), no pair, no run, no flush
    c = post(client, HANDS, {"cards": ["2C", "4D", "8H", "TS"], "starter": "KC", "claim": 19}).json["claim"]
    assert (c["zero_hand"], c["verdict"], c["pegged"]) == (True, "correct", 0)
    c = post(client, HANDS, {**SEVENTEEN, "claim": 19, "muggins": True}).json["claim"]
    assert (c["zero_hand"], c["verdict"], c["by"], c["pegged"]) == (True, "under", 17, 0)
    assert c["muggins"] == {"seat": 1, "points": 17}


def test_a_claim_adds_only_the_claim_member(client):
    plain = post(client, HANDS, SEVENTEEN).json
    judged = post(client, HANDS, {**SEVENTEEN, "claim": 17}).json
    assert judged.pop("claim")["verdict"] == "correct"
    assert judged == plain


def test_muggins_without_a_claim_is_the_plain_count(client):
    assert post(client, HANDS, {**SEVENTEEN, "muggins": True}).json == post(client, HANDS, SEVENTEEN).json


@pytest.mark.parametrize(("extra", "field"), [
    ({"claim": 30}, "/claim"), ({"claim": -1}, "/claim"), ({"claim": "5"}, "/claim"), ({"claim": True}, "/claim"),
    ({"claim": 3, "players": 5}, "/players"), ({"claim": 3, "players": 2, "seat": 2}, "/seat"),
    ({"claim": 3, "muggins": 1}, "/muggins"),
])
def test_bad_claims_are_422_naming_the_field(client, extra, field):
    body = problem(post(client, HANDS, {**SEVENTEEN, **extra}), 422)
    assert fields(body) == [field]


# -- the play ---------------------------------------------------------------

# pone (seat 1) 4S, dealer 6H, pone 5D: fifteen 2 + run of three 3 = 5 for seat 1
PLAYS = [{"seat": 1, "card": "4S"}, {"seat": 0, "card": "6H"}]


def test_play_under_claim_stands_without_muggins(client):
    """ACC 8.3 in the play: seat 1 pegs 2 of 5 for the 5D; 3 are lost; totals are what was pegged."""
    r = post(client, PEGGING, {"players": 2, "pone": 1, "plays": PLAYS + [{"seat": 1, "card": "5D", "claim": 2}]})
    assert r.status_code == 200, r.text
    e = r.json["events"][2]
    assert (e["claim"]["verdict"], e["claim"]["by"], e["claim"]["lost"], e["claim"]["muggins"]) == \
        ("under", 3, 3, None)
    assert e["claim"]["missed"] == [{"kind": "run", "cards": ["4S", "6H", "5D"], "points": 3}]
    assert e["points"] == 2 and r.json["totals"] == [0, 2]


def test_play_muggins(client):
    """ACC 10, muggins in the play: the dealer takes the 3 the pone missed."""
    r = post(client, PEGGING, {"players": 2, "pone": 1, "muggins": True,
                               "plays": PLAYS + [{"seat": 1, "card": "5D", "claim": 2}]})
    e = r.json["events"][2]
    assert e["claim"]["muggins"] == {"seat": 0, "points": 3}
    assert [s["kind"] for s in e["scores"]] == ["fifteen", "muggins"]
    assert r.json["totals"] == [3, 2]


def test_play_over_claim_is_corrected(client):
    r = post(client, PEGGING, {"players": 2, "pone": 1, "plays": PLAYS + [{"seat": 1, "card": "5D", "claim": 9}]})
    e = r.json["events"][2]
    assert (e["claim"]["verdict"], e["claim"]["by"], e["points"]) == ("over", 4, 5)
    assert r.json["totals"] == [0, 5]


def test_play_claim_of_nineteen_is_only_a_number(client):
    r = post(client, PEGGING, {"players": 2, "pone": 1, "plays": PLAYS + [{"seat": 1, "card": "5D", "claim": 19}]})
    c = r.json["events"][2]["claim"]
    assert (c["zero_hand"], c["verdict"], c["by"]) == (False, "over", 14)


def test_play_claim_on_a_go_covers_only_the_claimants_points(client):
    """Seat 0 says go at 31 - 10 short; the go point is seat 1's, so seat 0's claim of 0 is correct."""
    plays = [{"seat": 1, "card": "KS"}, {"seat": 0, "card": "KH"}, {"seat": 1, "card": "5S"},
             {"seat": 0, "go": True, "claim": 0}, {"seat": 1, "go": True}]
    r = post(client, PEGGING, {"players": 2, "pone": 1, "muggins": True,
                               "hands": [["KH", "QH", "JH", "TH"], ["KS", "5S", "9D", "8D"]], "plays": plays})
    assert r.status_code == 200, r.text
    assert r.json["events"][3]["claim"]["verdict"] == "correct"


def test_play_bad_claim(client):
    r = post(client, PEGGING, {"players": 2, "pone": 1, "plays": [{"seat": 1, "card": "5D", "claim": 30}]})
    assert fields(problem(r, 422)) == ["/plays/0/claim"]


# -- the judge's properties (hypothesis) --------------------------------------

KINDS = ("fifteen", "pair", "run", "flush", "nobs", "go", "thirty_one")
scores = st.lists(st.tuples(st.integers(0, 3), st.sampled_from(KINDS), st.integers(1, 12)), max_size=8)


def _table(players: int, raw) -> list[Score]:
    return [Score(seat % players, kind, points) for seat, kind, points in raw]


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 4), st.integers(0, 3), scores, st.booleans())
def test_a_correct_claim_changes_nothing(players, seat, raw, muggins):
    seat %= players
    table = _table(players, raw)
    own = sum(s.points for s in table if s.seat == seat)
    if own > 29:  # no claim can say it
        return
    r = judge(players, seat, table, own, muggins, show=False)
    assert r.verdict == "correct" and r.scores == tuple(table) and r.lost == r.muggins == 0


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 4), st.integers(0, 3), scores, st.integers(0, 29), st.booleans(), st.booleans())
def test_what_is_pegged(players, seat, raw, claim, muggins, show):
    seat %= players
    table = _table(players, raw)
    own = sum(s.points for s in table if s.seat == seat)
    counted = 0 if show and claim == 19 else claim
    r = judge(players, seat, table, claim, muggins, show)
    pegged = {s: 0 for s in range(players)}
    for s in r.scores:
        pegged[s.seat] += s.points
    given_ = {s: sum(x.points for x in table if x.seat == s) for s in range(players)}
    # never more awarded than the true count
    assert sum(pegged.values()) <= sum(given_.values())
    assert pegged[seat] == min(counted, own)
    others = {s: pegged[s] - given_[s] for s in range(players) if s != seat}
    if not muggins or counted >= own:
        # an under-claim with muggins off never gives the opponent points
        assert all(v == 0 for v in others.values())
    else:
        assert others == {s: (own - counted if s == (seat + 1) % players else 0) for s in others}
    assert sum(m.points for m in r.missed) == max(own - counted, 0)


def test_claims_are_0_to_29():
    for claim in (-1, 30, True):
        with pytest.raises(MalformedError):
            judge(2, 0, [], claim)


# -- ACC 8.4.b, the false claim of game ----------------------------------------------


def test_acc_8_4_b_false_claim_of_game(client):
    """On 100 the dealer claims 24 (to 124: into the game hole) for the 17 hand: put back
    to 117, the opponent receives 121 - 117 = 4, and he is set back 15 to 102."""
    r = post(client, HANDS, {**SEVENTEEN, "claim": 24, "tournament": True, "scores": [100, 96]})
    c = r.json["claim"]
    assert (c["verdict"], c["pegged"]) == ("over", 17)
    assert c["false_claim_of_game"] == {"seat": 0, "put_back_to": 117, "set_back": 15, "score": 102,
                                        "opponent": 1, "award": 4, "rule": "ACC 8.4.b false claim of game"}


@pytest.mark.parametrize(("scores", "claim", "expected"), [
    ([110, 50], 24, None),  # 110 + 17 = 127: he did go out, the over-claim is only corrected
    ([90, 50], 24, None),  # 90 + 24 = 114: not into the game hole
    ([97, 50], 24, {"put_back_to": 114, "score": 99, "award": 7}),  # 121 exactly claimed: 7 over
    ([5, 50], 29, None),
])
def test_false_claim_of_game_only_into_the_game_hole(client, scores, claim, expected):
    c = post(client, HANDS, {**SEVENTEEN, "claim": claim, "tournament": True, "scores": scores}).json["claim"]
    got = c["false_claim_of_game"]
    if expected is None:
        assert got is None
    else:
        assert {k: got[k] for k in expected} == expected


def test_false_claim_set_back_stops_at_0_and_needs_tournament_rules(client):
    # game to 61: on 40 the pone (seat 1 of 3) claims 24 for the 17 hand: 64 >= 61 > 57
    c = post(client, HANDS, {**SEVENTEEN, "claim": 24, "tournament": True, "target": 61, "players": 3,
                             "seat": 1, "scores": [10, 40, 20]}).json["claim"]
    assert c["false_claim_of_game"]["opponent"] == 2 and c["false_claim_of_game"]["award"] == 61 - 57
    c = post(client, HANDS, {**SEVENTEEN, "claim": 24, "scores": [100, 96]}).json["claim"]
    assert c["false_claim_of_game"] is None
    body = problem(post(client, HANDS, {**SEVENTEEN, "claim": 3, "scores": [100, 96, 3]}), 422)
    assert fields(body) == ["/scores"]
    body = problem(post(client, HANDS, {**SEVENTEEN, "claim": 3, "target": 61, "scores": [61, 9]}), 422)
    assert fields(body) == ["/scores/0"]


def test_set_back_is_never_below_0():
    from service.core.claims import false_claim_of_game

    f = false_claim_of_game(2, 1, 50, 5, 12, 61)  # 55 put back, 6 awarded, 15 set back: 40
    assert (f.put_back_to, f.award, f.set_back, f.score) == (55, 6, 15, 40)
    f = false_claim_of_game(2, 1, 0, 2, 29, 29)  # (no such target; the arithmetic only)
    assert (f.set_back, f.score) == (2, 0)


# -- ACC 10.4.a: "muggins for N" -----------------------------------------------------------
# 5H 5C 6S JD, starter 4D, counted by hand: fifteens 5H+JD, 5C+JD, 4D+5H+6S, 4D+5C+6S (8),
# the pair of fives (2), runs 4-5-6 twice (6), his nobs JD with a diamond turned (1): 17.
SEVENTEEN_B = {"cards": ["5H", "5C", "6S", "JD"], "starter": "4D"}


@pytest.mark.parametrize("called, takes, lost", [(3, 3, 4), (7, 7, 0), (9, 7, 0), (1, 1, 6)])
def test_acc_10_4_a_muggins_for_an_amount(client, called, takes, lost):
    """Claimed 10 of 17: 7 missed; the opponent called "muggins for N" and takes the
    lesser of N and 7; what he did not call is lost."""
    c = post(client, HANDS, {**SEVENTEEN_B, "claim": 10, "muggins": True, "muggins_called": called}).json["claim"]
    assert (c["verdict"], c["by"], c["pegged"], c["lost"]) == ("under", 7, 10, lost)
    assert c["muggins"] == {"seat": 1, "points": takes, "called": called}
    assert c["rule"].startswith("ACC 10.4.a")


def test_without_an_amount_muggins_takes_everything_missed(client):
    c = post(client, HANDS, {**SEVENTEEN_B, "claim": 10, "muggins": True}).json["claim"]
    assert (c["lost"], c["muggins"]) == (0, {"seat": 1, "points": 7})


def test_a_muggins_call_on_a_true_count_takes_nothing(client):
    c = post(client, HANDS, {**SEVENTEEN_B, "claim": 17, "muggins": True, "muggins_called": 5}).json["claim"]
    assert (c["verdict"], c["pegged"], c["lost"], c["muggins"]) == ("correct", 17, 0, None)


@pytest.mark.parametrize("body, field", [
    ({"claim": 10, "muggins_called": 3}, "/muggins_called"),              # muggins is off
    ({"muggins": True, "muggins_called": 3}, "/muggins_called"),          # no claim to call on
    ({"claim": 10, "muggins": True, "muggins_called": 0}, "/muggins_called"),
    ({"claim": 10, "muggins": True, "muggins_called": 30}, "/muggins_called"),
])
def test_a_muggins_call_needs_a_claim_and_muggins(client, body, field):
    assert field in fields(problem(post(client, HANDS, {**SEVENTEEN_B, **body}), 422))


def test_muggins_for_an_amount_in_a_batch(client):
    items = [{**SEVENTEEN_B, "claim": 10, "muggins": True, "muggins_called": 2},
             {**SEVENTEEN_B, "claim": 10, "muggins": True}]
    r = post(client, "/v1/hands/score-batch", {"items": items})
    assert r.status_code == 200, r.text
    first, second = (item["claim"] for item in r.json["results"])
    assert (first["muggins"], first["lost"]) == ({"seat": 1, "points": 2, "called": 2}, 5)
    assert (second["muggins"], second["lost"]) == ({"seat": 1, "points": 7}, 0)


# The pone (seat 1) leads 4S, the dealer 6H (10), the pone 5D: fifteen (2) and the run
# 4-5-6 (3), 5 made; he claims 2.
PLAY_4_6_5 = {"players": 2, "pone": 1, "muggins": True,
              "plays": [{"seat": 1, "card": "4S"}, {"seat": 0, "card": "6H"}, {"seat": 1, "card": "5D", "claim": 2}]}


@pytest.mark.parametrize("called, takes", [(1, 1), (3, 3), (10, 3)])
def test_muggins_for_an_amount_in_the_play(client, called, takes):
    body = {**PLAY_4_6_5, "plays": PLAY_4_6_5["plays"][:2] + [{**PLAY_4_6_5["plays"][2], "muggins_called": called}]}
    r = post(client, PEGGING, body)
    assert r.status_code == 200, r.text
    c = r.json["events"][2]["claim"]
    assert (c["by"], c["pegged"], c["lost"], c["muggins"]) == (3, 2, 3 - takes, {"seat": 0, "points": takes,
                                                                                 "called": called})
    assert r.json["totals"] == [takes, 2]


def test_a_muggins_call_in_the_play_needs_muggins_and_a_claim(client):
    no_muggins = {**PLAY_4_6_5, "muggins": False,
                  "plays": PLAY_4_6_5["plays"][:2] + [{**PLAY_4_6_5["plays"][2], "muggins_called": 2}]}
    assert fields(problem(post(client, PEGGING, no_muggins), 422)) == ["/plays/2/muggins_called"]
    no_claim = {**PLAY_4_6_5, "plays": PLAY_4_6_5["plays"][:2] + [{"seat": 1, "card": "5D", "muggins_called": 2}]}
    assert "/plays/2/muggins_called" in fields(problem(post(client, PEGGING, no_claim), 422))


@pytest.mark.parametrize("call, muggins, claim, reason", [
    (3, False, 10, "a muggins call needs muggins on"),
    (3, True, None, "a muggins call is made on a claim: give the claim too"),
    (0, True, 10, "a muggins call is 1 to 29 points"),
    (30, True, 10, "a muggins call is 1 to 29 points"),
])
def test_a_muggins_call_is_checked_in_one_place(client, call, muggins, claim, reason):
    """The same faulty call gets the same reason on a hand, a batch item and a play entry,
    each at its own field: one check (the core's), located where each request holds it."""
    claimed = {} if claim is None else {"claim": claim}
    hand = {**SEVENTEEN_B, **claimed, "muggins": muggins, "muggins_called": call}
    entry = {"seat": 1, "card": "5D", **({} if claim is None else {"claim": 2}), "muggins_called": call}
    pegging = {**PLAY_4_6_5, "muggins": muggins, "plays": PLAY_4_6_5["plays"][:2] + [entry]}
    answers = [(problem(post(client, HANDS, hand), 422), "/muggins_called"),
               (post(client, "/v1/hands/score-batch", {"items": [hand]}).json["results"][0], "/items/0/muggins_called"),
               (problem(post(client, PEGGING, pegging), 422), "/plays/2/muggins_called")]
    for doc, field in answers:
        assert doc["errors"] == [{"field": field, "reason": reason}], doc


def test_judge_muggins_for_an_amount_in_the_core():
    s = [Score(0, "fifteen", 2), Score(0, "pair", 2), Score(0, "run", 3)]
    r = judge(2, 0, s, 2, muggins=True, called=4)
    assert (r.by, r.pegged, r.muggins, r.muggins_seat, r.lost, r.called) == (5, 2, 4, 1, 1, 4)
    assert [x.points for x in r.scores if x.kind == "muggins"] == [4]
    with pytest.raises(MalformedError):
        judge(2, 0, s, 2, muggins=False, called=4)
