"""Judged claims in a game (docs/rules.md, "Judged claims"): under tournament rules
an under-claim stands (ACC 8.3), an over-claim into the game hole is a false claim
of game (ACC 8.4.b), and a claim of 19 for a hand is a hand of nothing.

The scripted hand of test_game.py (tests/helpers_game_scripts.py): at the show the
pone (seat 1) holds AC 2C 3C 4C with the 5S starter, 11 points (fifteen 2, run of
five 5, flush 4).
"""

from __future__ import annotations

from helpers_game_scripts import COUNT, PLAY, SETUP_2, PLAY_2, at_show, client, fronts, kinds, run, start

from service.core.game import apply_action, result


def test_acc_8_3_under_claim_stands_under_tournament_rules() -> None:
    g = at_show(client(tournament=True))
    assert fronts(g) == (1, 4)
    g, events = apply_action(g, COUNT(1, claim=8))
    assert fronts(g) == (1, 12)  # 8 pegged, 3 lost: no muggins without the switch
    assert all(s.kind != "muggins" for s in events[0].scores)


def test_without_tournament_rules_or_muggins_a_claim_is_ignored() -> None:
    g = at_show(client())
    g, _ = apply_action(g, COUNT(1, claim=8))
    assert fronts(g) == (1, 15)


def test_a_claim_of_nineteen_is_a_zero_hand() -> None:
    g = at_show(client(tournament=True))
    g, _ = apply_action(g, COUNT(1, claim=19))
    assert fronts(g) == (1, 4)
    g = at_show(client(muggins=True))
    g, events = apply_action(g, COUNT(1, claim=19))
    assert fronts(g) == (12, 4) and kinds(events[0]) == [(0, "muggins", 11)]


def test_acc_8_4_b_false_claim_of_game_in_a_game() -> None:
    """The pone on 105 claims 20 (to 125) for the 11 hand: put back to 116, the dealer
    receives 121 - 116 = 5 (100 -> 105), the pone is set back 15 to 101."""
    g = at_show(client(tournament=True), ((100, 90), (105, 100)))
    g, events = apply_action(g, COUNT(1, claim=20))
    assert fronts(g) == (105, 101)
    assert kinds(events[0])[-2:] == [(0, "false_claim_of_game", 5), (1, "set_back", 15)]
    assert g.position.pegs[1] == (101, 101)  # both pegs go back
    assert g.phase != "over"


def test_false_claim_of_game_award_can_win_for_the_opponent() -> None:
    """The dealer on 118 receives the 5: he reaches 121 and wins; the set back is not pegged."""
    g = at_show(client(tournament=True), ((118, 100), (105, 100)))
    g, events = apply_action(g, COUNT(1, claim=20))
    assert g.phase == "over" and result(g).winner == 0
    assert kinds(events[0])[-1] == (0, "false_claim_of_game", 5)


def test_an_over_claim_that_really_goes_out_is_only_corrected() -> None:
    g = at_show(client(tournament=True), ((100, 90), (112, 100)))  # 112 + 11 = 123: out
    g, _ = apply_action(g, COUNT(1, claim=20))
    assert g.phase == "over" and result(g).winner == 1


def test_tournament_play_claim_stands() -> None:
    """4C makes a run of 3 for seat 1, who claims 1: pegs 1, the 2 are lost (no muggins in the play)."""
    g, _ = run(start(client(tournament=True)), SETUP_2 + PLAY_2[:7])
    g, events = apply_action(g, PLAY(1, "4C", claim=1))
    assert fronts(g) == (0, 1) and kinds(events[0]) == [(1, "run", 1)]


# -- ACC 6.3.c, his heels forfeited ------------------------------------------------


def _cut_a_jack(options, claim):
    from service.core.cards import Card
    from service.core.game import Cut

    g, _ = run(start(options), SETUP_2)
    g, events = apply_action(g, Cut(1, Card.parse("JH"), claim))
    return g, events


def test_acc_6_3_c_heels_not_pegged_before_the_dealer_plays_are_forfeited() -> None:
    g, events = _cut_a_jack(client(tournament=True), 0)
    assert fronts(g) == (0, 0) and events[0].scores == ()
    g, _ = _cut_a_jack(client(tournament=True), 2)
    assert fronts(g) == (2, 0)
    g, _ = _cut_a_jack(client(tournament=True, muggins=True), 0)
    assert fronts(g) == (0, 0)  # ACC 10.3: no muggins on a missed his heels
    g, _ = _cut_a_jack(client(tournament=True), None)
    assert fronts(g) == (2, 0)  # no claim: pegged at the cut, as always


def test_heels_are_pegged_at_the_cut_without_tournament_rules() -> None:
    g, _ = _cut_a_jack(client(), 0)
    assert fronts(g) == (2, 0)


def test_the_heels_claim_is_in_the_notation() -> None:
    from service.core.game import notation, parse_action

    assert notation(parse_action("cut 1 JH =0")) == "cut 1 JH =0"
    assert parse_action("cut 1 =2").claim == 2
