"""Tournament scoring (docs/rules.md, "Tournament scoring"): match scoring,
standings by the ACC tie-breakers, the cross-check, and the ACC playoff bracket.

The bracket tests build their expectations independently: the qualifiers by
counting entrants in fours, the bracket by repeated doubling, the seeding by
a recursive reference written differently from the code.
"""

from __future__ import annotations

import math
import random

import pytest
from conftest import fields, problem
from hypothesis import given, settings
from hypothesis import strategies as st

from service.core.errors import MalformedError
from service.tournament.bracket import bracket
from service.tournament.matches import MatchRules, score_game, score_match
from service.tournament.standings import Result, standings

MATCHES = "/v1/matches/score"
STANDINGS = "/v1/tournaments/standings"
BRACKET = "/v1/tournaments/bracket"


def post(client, url, body):
    return client.simulate_post(url, json=body)


# -- matches ------------------------------------------------------------------


@pytest.mark.parametrize(("scores", "result", "points", "spread"), [
    ([121, 91], "win", [2, 0], [30, -30]),  # 91 is not a skunk: the loser reached the line
    ([121, 90], "skunk", [3, 0], [31, -31]),  # below 91: the ACC skunk, 3 game points
    ([85, 121], "skunk", [0, 3], [-36, 36]),
    ([121, 40], "skunk", [3, 0], [81, -81]),  # no double skunk unless asked for
])
def test_acc_game_points(client, scores, result, points, spread):
    r = post(client, MATCHES, {"games": [{"scores": scores}]})
    g = r.json["games"][0]
    assert (g["result"], g["game_points"], g["spread"]) == (result, points, spread)
    assert r.json["totals"] == points


def test_double_skunk_and_lurch_have_their_own_values(client):
    g = post(client, MATCHES, {"games": [{"scores": [121, 60]}], "double_skunk": True}).json["games"][0]
    assert (g["result"], g["game_points"]) == ("double_skunk", [4, 0])
    g = post(client, MATCHES, {"games": [{"scores": [121, 60]}], "lurch": True, "lurch_points": 5}).json["games"][0]
    assert (g["result"], g["game_points"]) == ("lurch", [5, 0])
    g = post(client, MATCHES, {"games": [{"scores": [121, 61]}], "double_skunk": True}).json["games"][0]
    assert g["result"] == "skunk"
    body = problem(post(client, MATCHES, {"games": [{"scores": [121, 60]}], "lurch": True, "double_skunk": True}), 422)
    assert fields(body) == ["/lurch"]


def test_grass_roots_spread(client):
    """A winner who pegged out past 121 (on 115, a 12 hand: 127): the spread is his
    margin, 127 - 100 = 27; Grass Roots has the loser record 121 - 100 = 21."""
    assert post(client, MATCHES, {"games": [{"scores": [127, 100]}]}).json["games"][0]["spread"] == [27, -27]
    assert post(client, MATCHES, {"games": [{"scores": [127, 100]}], "grass_roots": True}).json["games"][0]["spread"] \
        == [21, -21]


def test_best_of_3(client):
    """Won, lost (skunked: 90 < 91), won: side 0 takes the match 2-1 on 2 + 0 + 2 = 4
    game points to 3; alternate first dealers 0, 1, 0."""
    r = post(client, MATCHES, {"games": [{"scores": [121, 100]}, {"scores": [90, 121]}, {"scores": [121, 119]}],
                               "best_of": 3})
    m = r.json
    assert (m["winner"], m["decided_after"], m["totals"], m["games_won"]) == (0, 3, [4, 3], [2, 1])
    assert [g["first_dealer"] for g in m["games"]] == [0, 1, 0]
    assert m["spread"] == [21 - 31 + 2, -21 + 31 - 2]
    assert m["next_first_dealer"] is None


def test_best_of_3_decided_in_two_and_no_third_game(client):
    r = post(client, MATCHES, {"games": [{"scores": [121, 100]}, {"scores": [121, 100]}], "best_of": 3})
    assert (r.json["winner"], r.json["decided_after"]) == (0, 2)
    body = problem(post(client, MATCHES, {"games": [{"scores": [121, 100]}] * 3, "best_of": 3}), 422)
    assert fields(body) == ["/games/2"]


def test_best_of_5_undecided(client):
    r = post(client, MATCHES, {"games": [{"scores": [121, 100]}, {"scores": [100, 121]}], "best_of": 5})
    assert (r.json["winner"], r.json["next_first_dealer"]) == (None, 0)


def test_loser_deals_first(client):
    r = post(client, MATCHES, {"games": [{"scores": [121, 100]}, {"scores": [121, 100]}],
                               "loser_deals_first": True, "first_dealer": 0})
    assert [g["first_dealer"] for g in r.json["games"]] == [0, 1]
    assert r.json["next_first_dealer"] == 1


def test_three_sides():
    """Decision: the result is against the loser nearest the winner (a skunk only when
    both are below 91); the winner's spread is the sum of his margins."""
    g = score_game([121, 95, 80])
    assert (g.result, g.game_points, g.spread) == ("win", (2, 0, 0), (26 + 41, -26, -41))
    assert dict(g.loser_results) == {1: "win", 2: "skunk"}
    assert score_game([80, 121, 85]).result == "skunk"


@pytest.mark.parametrize(("games", "field"), [
    ([{"scores": [121, 121]}], "/games/0/scores"),
    ([{"scores": [120, 100]}], "/games/0/scores"),
    ([{"scores": [121, 100]}, {"scores": [121, 100, 50]}], "/games/1/scores"),
    ([{}], "/games/0"),
    ([{"scores": [121, 100], "record": {"game_id": "0" * 32, "first_dealer": 0, "actions": []}}], "/games/0"),
])
def test_bad_games(client, games, field):
    assert fields(problem(post(client, MATCHES, {"games": games}), 422)) == [field]


def test_a_game_record_from_a_played_game(client):
    from service.core.game import apply_action, legal, new_game
    from service.core.options import GameOptions

    rng = random.Random(7)
    state, _ = new_game(GameOptions(deck="seeded", seed="match"), dealer=0, game_id="a" * 32)
    actions: list[str] = []
    while state.position.winner is None:
        state, events = apply_action(state, rng.choice(legal(state)))
        actions += [a for e in events if e.type == "deal_record" for a in e.record]
    record = {"game_id": "a" * 32, "options": {"deck": "seeded", "seed": "match"}, "first_dealer": 0,
              "actions": actions}
    r = post(client, MATCHES, {"games": [{"record": record}]})
    assert r.status_code == 200, r.text
    assert r.json["games"][0]["scores"] == list(state.position.scores)


# -- standings ------------------------------------------------------------------


def line(p, o, gp, won, spread, rnd=None):
    out = {"player": p, "opponent": o, "game_points": gp, "games_won": won, "spread": spread}
    if rnd is not None:
        out["round"] = rnd
    return out


def game(a, b, gp, spread, rnd):
    """Both lines of a game a won by ``spread`` for ``gp`` game points."""
    return [line(a, b, gp, 1, spread, rnd), line(b, a, 0, 0, -spread, rnd)]


def order(client, results):
    r = post(client, STANDINGS, {"results": results})
    assert r.status_code == 200, r.text
    return [s["player"] for s in r.json["standings"]], r.json


@pytest.mark.parametrize(("results", "expected", "decider"), [
    # game points: A 3 (a skunk) over B 2 (a win) ...
    (game("A", "X", 3, 40, 1) + game("B", "Y", 2, 10, 1), ["A", "B"], "game_points"),
    # games won: A 4 game points in 2 wins over B 4 in one (a double skunk worth 4) and a loss
    (game("A", "X", 2, 5, 1) + game("A", "Y", 2, 5, 2) + game("B", "Z", 4, 50, 1) + game("W", "B", 2, 1, 2),
     ["A", "B"], "games_won"),
    # net spread: equal points and wins, A +30 over B +20
    (game("A", "X", 2, 30, 1) + game("B", "Y", 2, 20, 1), ["A", "B"], "spread"),
    # plus points: both net +10; A won by 40 and lost by 30, B won by 10
    (game("A", "X", 2, 40, 1) + game("Y", "A", 2, 30, 2) + game("B", "Z", 2, 10, 1)
     + [line("B", "W", 0, 0, 0, 2), line("W", "B", 0, 0, 0, 2)],
     ["A", "B"], "plus"),
])
def test_acc_tie_breakers_in_their_order(client, results, expected, decider):
    names, body = order(client, results)
    assert [n for n in names if n in expected] == expected
    first = next(s for s in body["standings"] if s["player"] == expected[0])
    nxt = body["standings"][first["position"]]  # the line below him
    assert nxt["player"] == expected[1]
    assert first["decided_by"] == decider


def test_head_to_head_then_playoff(client):
    """A and B tie on points, wins, spread and plus; A beat B: A first (head-to-head).
    C and D tie on everything and never met: a one-game playoff is needed."""
    results = game("A", "B", 2, 10, 1) + game("B", "X", 2, 10, 2) + game("Y", "A", 2, 10, 2)
    names, body = order(client, results)
    assert names.index("A") < names.index("B")
    a = body["standings"][names.index("A")]
    assert a["decided_by"] == "head_to_head" and a["head_to_head"] == 2
    results = game("C", "P", 2, 10, 1) + game("D", "Q", 2, 10, 1)
    names, body = order(client, results)
    c = body["standings"][names.index("C")]
    d = body["standings"][names.index("D")]
    assert c["decided_by"] == "playoff" and names.index("D") == names.index("C") + 1
    assert c["playoff_group"] == d["playoff_group"] == c["position"]
    p, q = body["standings"][names.index("P")], body["standings"][names.index("Q")]
    assert p["playoff_group"] == q["playoff_group"] == 3  # the two losers, tied too
    assert a["playoff_group"] is None


@pytest.mark.parametrize(("lines", "problem_"), [
    ([line("A", "B", 2, 1, 20, 1), line("B", "A", 2, 1, -20, 1)], "wins"),
    ([line("A", "B", 0, 1, 20, 1), line("B", "A", 2, 0, -20, 1)], "game_points_transposed"),
    ([line("A", "B", 2, 1, 20, 1), line("B", "A", 0, 0, -21, 1)], "spread_mismatch"),
    ([line("A", "B", 2, 1, 20, 1)], "unmatched"),
])
def test_cross_check_flags_disagreements(client, lines, problem_):
    _, body = order(client, lines)
    assert [d["problem"] for d in body["disagreements"]] == [problem_]


def test_agreeing_lines_raise_nothing(client):
    _, body = order(client, game("A", "B", 3, 40, 1) + game("B", "A", 2, 3, 2))
    assert body["disagreements"] == []


def test_bad_result_lines(client):
    body = problem(post(client, STANDINGS, {"results": [line("A", "B", 2, 2, 20), {"player": "A"}, 3]}), 422)
    assert set(fields(body)) == {"/results/0/games_won", "/results/1/opponent", "/results/1/game_points",
                                 "/results/1/games_won", "/results/1/spread", "/results/2"}


lines_st = st.lists(st.tuples(st.sampled_from("ABCDEFG"), st.sampled_from("ABCDEFG"), st.sampled_from([0, 2, 3]),
                              st.integers(0, 1), st.integers(-60, 60)), max_size=40)


@settings(max_examples=200, deadline=None)
@given(lines_st)
def test_standings_are_a_total_order_consistent_with_the_tie_breakers(raw):
    results = [Result(p, o, gp, w, s) for p, o, gp, w, s in raw if p != o]
    counted = standings(results)
    table = counted.table
    assert [s.position for s in table] == list(range(1, len(table) + 1))
    assert len({s.player for s in table}) == len(table)
    # each player's totals summed here from the lines as counted (ACC 12.2 resolved; plus: the positive spreads)
    sums: dict[str, list[int]] = {}
    for r in counted.counted:
        t = sums.setdefault(r.player, [0, 0, 0, 0])
        t[0] += r.game_points
        t[1] += r.won
        t[2] += r.spread
        t[3] += max(r.spread, 0)
    for s in table:
        assert [s.game_points, s.games_won, s.spread, s.plus] == sums.get(s.player, [0, 0, 0, 0])
    for a, b in zip(table, table[1:]):
        ka = (a.game_points, a.games_won, a.spread, a.plus)
        kb = (b.game_points, b.games_won, b.spread, b.plus)
        assert ka >= kb
        if ka > kb:
            assert a.decided_by == ("game_points", "games_won", "spread", "plus")[
                next(i for i in range(4) if ka[i] != kb[i])]
        else:
            assert (a.head_to_head or 0) >= (b.head_to_head or 0)
            assert a.decided_by in ("head_to_head", "playoff")
            assert (a.decided_by == "playoff") == (a.playoff_group == b.playoff_group is not None)


def _reference_table(results: list[Result]) -> list[tuple]:
    """The standings written as the rules read, pair by pair (quadratic, fine for a few
    players): each player's sums, the head-to-head of every tied group summed over
    every pair of its players, then the players sorted; (player, head_to_head,
    names tied with him on every key)."""
    names: list[str] = []
    for r in results:
        names += [n for n in (r.player, r.opponent) if n not in names]

    def sums(n: str) -> tuple:
        mine = [r for r in results if r.player == n]
        return (sum(r.game_points for r in mine), sum(r.won for r in mine), sum(r.spread for r in mine),
                sum(r.spread for r in mine if r.spread > 0))

    def h2h(n: str) -> int | None:
        group = [o for o in names if o != n and sums(o) == sums(n)]
        if not group:
            return None
        return sum(r.game_points for r in results if r.player == n and r.opponent in group)

    key = {n: (*sums(n), h2h(n) or 0) for n in names}
    order = sorted(names, key=lambda n: key[n], reverse=True)  # stable: ties in the order met
    return [(n, h2h(n), [o for o in order if o != n and key[o] == key[n]]) for n in order]


@settings(max_examples=300, deadline=None)
@given(lines_st)
def test_standings_agree_with_a_pairwise_reference(raw):
    """The linear head-to-head and playoff groups equal the pairwise reference's; a
    playoff group is the position of the first of the players tied on everything."""
    results = [Result(p, o, gp, w, s) for p, o, gp, w, s in raw if p != o]
    counted = standings(results)
    table = counted.table
    ref = _reference_table(list(counted.counted))
    assert [(s.player, s.head_to_head) for s in table] == [(n, h) for n, h, _ in ref]
    by_name = {s.player: s for s in table}
    for s, (_, _, tied) in zip(table, ref):
        group = sorted([s.position] + [by_name[o].position for o in tied])
        assert s.playoff_group == (group[0] if tied else None)
        assert group == list(range(group[0], group[0] + len(group)))  # listed together


def test_standings_for_1000_results_are_quick_enough_to_measure():
    """Speed is measured in make bench, not asserted; this only checks 1,000 lines work."""
    rng = random.Random(3)
    players = [f"P{i}" for i in range(100)]
    results = []
    for rnd in range(1, 11):
        rng.shuffle(players)
        for a, b in zip(players[::2], players[1::2]):
            spread = rng.randint(1, 60)
            results += [Result(a, b, 3 if spread > 30 else 2, 1, spread, rnd), Result(b, a, 0, 0, -spread, rnd)]
    assert len(results) == 1000
    s = standings(results)
    assert len(s.table) == 100 and s.disagreements == ()


# -- the bracket ------------------------------------------------------------------


@pytest.mark.parametrize(("entrants", "qualifiers", "size", "byes"), [
    (108, 27, 32, 5), (132, 33, 64, 31), (60, 15, 16, 1),
    (121, 31, 32, 1), (122, 31, 32, 1), (123, 31, 32, 1), (124, 31, 32, 1),
])
def test_acc_bracket_examples(client, entrants, qualifiers, size, byes):
    r = post(client, BRACKET, {"entrants": entrants})
    b = r.json
    assert (b["qualifiers"], b["size"], b["byes"]) == (qualifiers, size, byes)
    first = b["rounds"][0]["matches"]
    assert len(first) == size // 2
    assert all(sum(m["seeds"]) == size + 1 for m in first)
    # the byes go to the top seeds
    assert sorted(m["seeds"][0] for m in first if m["bye"]) == list(range(1, byes + 1))
    assert len(b["rounds"]) == int(math.log2(size))


def test_108_entrants_named(client):
    names = [f"player {i}" for i in range(1, 109)]
    b = post(client, BRACKET, {"names": names}).json
    first = b["rounds"][0]["matches"]
    assert first[0] == {"match": 0, "seeds": [1, 32], "bye": True, "players": ["player 1", None]}
    assert first[1] == {"match": 1, "seeds": [16, 17], "bye": False, "players": ["player 16", "player 17"]}
    assert b["rounds"][1]["matches"][0] == {"match": 0, "seeds": [1, 16], "bye": False, "feeds": [0, 1]}
    assert b["rounds"][-1]["matches"] == [{"match": 0, "seeds": [1, 2], "bye": False, "feeds": [0, 1]}]


def _reference_order(size: int) -> list[int]:
    """The seeds in bracket order, by recursion on halves (1 and 2 in opposite halves)."""
    if size == 1:
        return [1]
    half = _reference_order(size // 2)
    out = []
    for s in half:
        out += [s, size + 1 - s]
    return out


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 4096))
def test_every_bracket(entrants):
    b = bracket(entrants)
    q = sum(1 for i in range(0, entrants, 4))  # one in each four, the last four perhaps short
    size = 1
    while size < q:
        size *= 2
    assert (b.qualifiers, b.size, b.byes) == (q, size, size - q)
    if size == 1:
        assert b.rounds == ()
        return
    ref = _reference_order(size)
    assert [p.seeds for p in b.rounds[0]] == [(ref[i], ref[i + 1]) for i in range(0, size, 2)]
    # byes only in round one, and there only for seeds past the qualifiers
    assert [p.bye for p in b.rounds[0]] == [p.seeds[1] > q for p in b.rounds[0]]
    assert all(not p.bye for r in b.rounds[1:] for p in r)
    assert [len(r) for r in b.rounds] == [size >> k for k in range(1, len(b.rounds) + 1)]


def test_bad_entrants(client):
    for bad in (0, 4097, [], "12", 12.0, True):
        assert fields(problem(post(client, BRACKET, {"entrants": bad}), 422)) == ["/entrants"]
    for bad in ([], ["a", "a"], [1], 5, ["x" * 41]):
        assert fields(problem(post(client, BRACKET, {"names": bad}), 422))[0].startswith("/names")
    assert fields(problem(post(client, BRACKET, {"entrants": 2, "names": ["a", "b"]}), 422)) == [""]
    assert fields(problem(post(client, BRACKET, {}), 422)) == [""]
    with pytest.raises(MalformedError):
        bracket(0)


def test_rules_checked_in_the_core():
    with pytest.raises(MalformedError):
        MatchRules(best_of=2)
    with pytest.raises(MalformedError):
        score_match([])
