"""The win-probability tables: the shipped file matches its checksum and regenerates (reduced) to the
recorded one; the dynamic programme agrees with an independent recursion on small made-up samples; the
tables are symmetric, monotone, and agree with direct simulation of whole games; 3 players are estimated
with a stated error."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from service.advice import odds
from tools.tables import odds_build

np = pytest.importorskip("numpy")


def test_the_shipped_file_matches_its_checksum():
    doc = odds.document()
    assert odds_build.checksum(doc["samples"], doc["tables"]) == doc["checksum"]
    assert set(doc["tables"]) == {f"{m}/{t}" for m in odds_build.TABLES for t in odds.TARGETS}
    for mode in odds_build.MODES:
        assert len(odds.deals(mode)) == doc["deals"][mode]
    assert doc["policy"] == {"discard": "strong", "play": "strong"}  # the shipped strong level's self-play


@pytest.mark.parametrize("coretype", [None, "Haswell", "SkylakeX", "Prescott"])
def test_a_reduced_regeneration_gives_the_recorded_checksum(coretype):
    """The same bits on any CPU: the tables are solved in fixed point by integer arithmetic (numpy's BLAS,
    whose kernel and rounding depend on the CPU, is never called), so the regeneration's checksum is the
    recorded one under every OpenBLAS kernel (a float product gave another checksum on AVX-512)."""
    doc = odds.document()
    reduced = doc["reduced_check"]
    if coretype is None:
        assert odds_build.build(reduced["deals"], doc["seed"], replicates=0)["checksum"] == reduced["checksum"]
        return
    import os
    import subprocess
    import sys
    code = ("from tools.tables import odds_build; "
            f"print(odds_build.build({reduced['deals']}, {doc['seed']!r}, replicates=0)['checksum'])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "OPENBLAS_CORETYPE": coretype})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-1] == reduced["checksum"]


def test_the_table_s_own_error_is_stated():
    """Every table states its bootstrap error; with 8,000 to 20,000 deals the first dealer's chance at 0-0 is known
    to well under a point in 100."""
    doc = odds.document()
    shapes = {"two": (2, False), "five_and_two": (2, True), "four": (4, False)}
    for name in doc["tables"]:
        e = doc["table_errors"][name]
        assert e["replicates"] >= 20 and 0 < e["sd_at_0_0"] <= e["max_sd"] < 0.05, (name, e)
        mode, target = name.split("/")
        players, five = shapes[mode]
        assert odds.table_error(players, int(target), five) == e
    assert odds.table_error(3, 121) is None


def test_deals_round_trip_through_their_encoding():
    deals = [((1, 2), (0, 70), (1, 1)), (), ((3, 63), (2, 64))]
    assert odds.decode_deals(odds.encode_deals(deals)) == deals


def _reference(deals, target):
    """The dealer's chance by plain recursion over the deals, each walked point by point."""

    @lru_cache(maxsize=None)
    def value(a, b):
        total = 0.0
        for deal in deals:
            score = [a, b]
            for side, points in deal:
                score[side] += points
                if score[side] >= target:
                    total += side == 0
                    break
            else:
                total += 1.0 - value(score[1], score[0])
        return total / len(deals)

    return value


@pytest.mark.parametrize("seed", range(4))
def test_the_programme_equals_a_plain_recursion_on_small_samples(seed):
    rng = random.Random(seed)
    deals = []
    for _ in range(6):
        deal = [(rng.randrange(2), rng.randint(1, 6)) for _ in range(rng.randint(1, 5))]
        deals.append(tuple(odds_build.two_sides([deal], 2)[0]))
    target = 17
    value = odds_build.solve(deals, target)
    ref = _reference(tuple(deals), target)
    for a in range(target):
        for b in range(target):
            assert value[a, b] == pytest.approx(ref(a, b), abs=1e-12)


def test_who_pegs_first_decides_a_deal_both_could_end():
    # the pone pegs 3 first, then the dealer 10: at 118-118 the pone wins although the dealer pegs more
    value = odds_build.solve([((1, 3), (0, 10))], 121)
    assert value[118, 118] == 0.0 and value[118, 119] == 0.0 and value[112, 117] == 1.0


TABLED = [(2, False), (2, True), (4, False)]


@pytest.mark.parametrize("players,five", TABLED)
@pytest.mark.parametrize("target", odds.TARGETS)
def test_swapping_the_sides_and_the_dealer_swaps_the_chances(players, five, target):
    for x in range(0, target, 3):
        for y in range(0, target, 5):
            for dealer in range(players):
                p = odds.board_odds(players, target, [x, y], dealer, five)
                q = odds.board_odds(players, target, [y, x], (dealer + 1) % players, five)
                assert p == pytest.approx(q[::-1], abs=1e-12)
                assert sum(p) == pytest.approx(1.0)


@pytest.mark.parametrize("players,five", TABLED)
@pytest.mark.parametrize("target", odds.TARGETS)
def test_a_higher_own_score_never_lowers_the_chance(players, five, target):
    # Exact, not within noise: the table is the exact value of the game whose deals are drawn from the
    # sample, and there a higher score reaches the target no later on every draw.  One unit of
    # quantisation is allowed for values equal up to rounding.
    v = odds.table(odds.mode_of(players, five), target)
    unit = 1
    for a in range(target):
        for b in range(target):
            here = v[a * target + b]
            if a + 1 < target:
                assert v[(a + 1) * target + b] >= here - unit, (a, b)
            if b + 1 < target:
                assert v[a * target + b + 1] <= here + unit, (a, b)


def test_the_first_dealer_has_an_edge_and_the_dealer_pegs_more():
    for mode, figures in odds.document()["figures"].items():
        dealer, pone = figures["mean_points_by_role"][:2]
        assert dealer > pone + 3, mode


def test_the_two_player_table_agrees_with_published_human_figures():
    """Independent evidence: Colvert's and Chambers' expert averages (cribbage.org: the dealer 16.2 points a
    deal with the crib, the pone 10.1-10.2) and Cribbage Pro's millions of online games (the first dealer won
    55.5 %).  Bots are not experts: within 1.5 points a deal, and 53-59 %."""
    dealer, pone = odds.document()["figures"]["two"]["mean_points_by_role"]
    assert abs(dealer - 16.2) < 1.5 and abs(pone - 10.2) < 1.5
    assert 0.53 < odds.board_odds(2, 121, [0, 0], 0)[0] < 0.59


def test_won_and_bad_positions():
    assert odds.board_odds(2, 121, [121, 50], 1) == (1.0, 0.0)
    assert odds.board_odds(4, 61, [3, 70], 0) == (0.0, 1.0)
    assert odds.board_odds(3, 61, [3, 70, 2], 0) == (0.0, 1.0, 0.0)
    for bad in [(2, 100, [0, 0], 0), (2, 121, [0], 0), (2, 121, [-1, 0], 0), (2, 121, [0, 0], 2),
                (5, 121, [0] * 5, 0), (3, 121, [0, 0, 0], 3)]:
        with pytest.raises(ValueError):
            odds.board_odds(*bad)
    with pytest.raises(ValueError):
        odds.board_odds(3, 121, [0, 0, 0], 0, five_and_two=True)


def _positions(target, rng, n):
    yield 0, 0
    for _ in range(n):
        yield rng.randrange(target), rng.randrange(target)


@pytest.mark.parametrize("players,five", TABLED)
@pytest.mark.parametrize("target", odds.TARGETS)
def test_the_table_agrees_with_direct_simulation_of_whole_games(players, five, target):
    """Whole games played on from sampled positions by drawing the same deals: each within 4 standard errors
    (plus the table's rounding); 7 positions a table, 1,500 games each."""
    mode = odds.mode_of(players, five)
    sample = odds.deals(mode)
    rng = random.Random(f"check/{mode}/{target}")
    for x, y in _positions(target, rng, 6):
        dealer = rng.randrange(players)
        want = odds.board_odds(players, target, [x, y], dealer, five)
        got = odds.simulate(players, target, [x, y], dealer, 1500, sample, f"{x}/{y}/{dealer}")
        for side in range(2):
            assert abs(got.chances[side] - want[side]) <= 4 * max(got.standard_errors[side], 0.005) + 1e-4, \
                (x, y, dealer, got, want)


def test_three_players_are_estimated_with_their_error():
    e = odds.estimate(121, (0, 0, 0), 0)
    assert e.games == odds.SIMULATED_GAMES and sum(e.chances) == pytest.approx(1.0)
    assert all(0 < se < 0.012 for se in e.standard_errors)
    assert e.chances[0] > max(e.chances[1:])  # the first dealer's edge
    lead = odds.board_odds(3, 121, [110, 40, 40], 1)
    assert lead[0] > 0.9
    assert odds.board_odds(3, 121, [0, 0, 0], 0) == e.chances  # seeded: the same question, the same answer
