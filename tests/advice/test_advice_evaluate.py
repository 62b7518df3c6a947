"""The evaluation engine (service/advice/evaluate.py) and the board level it drives: scripted positions
whose right answer the game engine itself decides, the chance of winning checked against the engine
playing out every card the other seat could hold, and the values a function of the seat's view only."""

from __future__ import annotations

import random

import pytest
from helpers_advice import twin_deals

from service.advice import bot
from service.advice.evaluate import action_values, view_values
from service.core.game.hidden import UNIFORM
from service.advice.pegging import advise, knowledge
from service.core.cards import CARDS, Card, parse_cards
from service.core.game import Count, Cut, Deal, Discard, GameState, apply_action, can
from service.core.game.state import restore
from service.core.options import GameOptions
from service.core.play import Go, PlayCard


def scripted(scores: tuple[int, int], dealer: int, hands: tuple[str, str], starter: str,
             plays: list[str]) -> GameState:
    """A client-deck game at the start of a deal with ``scores`` (seat 0, seat 1), each seat dealt six
    cards (the last two thrown), the starter turned and ``plays`` made ("1 8S", "0 go")."""
    state = restore("5" * 32, GameOptions(deck="client"), (dealer + 1) % 2, None, 2, dealer,
                    tuple((s, s) for s in scores), 15, "0" * 64, ())
    dealt = tuple(parse_cards(h.split()) for h in hands)
    state, _ = apply_action(state, Deal(dealer, dealt, ()))
    for seat in (0, 1):
        state, _ = apply_action(state, Discard(seat, dealt[seat][4:]))
    state, _ = apply_action(state, Cut((dealer + 1) % 2, Card.parse(starter)))
    for p in plays:
        seat, what = p.split()
        state, _ = apply_action(state, Go(int(seat)) if what == "go" else PlayCard(int(seat), Card.parse(what)))
    return state


def finish(state: GameState) -> int:
    """Play the rest of a deal whose every move is forced (the show's counts claim the true totals):
    the winner, or -1 when the deal ends with nobody at the target."""
    deal = state.deal
    while state.phase != "over" and state.deal == deal:
        seat = state.to_act()[0]
        state, _ = apply_action(state, bot.suggest(bot.seat_view(state, seat), "greedy").action)
    return state.position.winner if state.phase == "over" else -1


def by_action(values):
    return {v.action: v for v in values}


def test_pegging_out_beats_more_points() -> None:
    """The dealer at 118 needs 3; the pone at 120 counts first. After 3C 7S 6C the dealer's 5H makes the
    run 7-6-5 and wins the game at once. The ten pegs more over the play (the pegging advisor's choice,
    over 1,000 deals), but only the five wins now: the board level plays it."""
    state = scripted((118, 120), 0, ("TS 5H 7S AC 5D QD", "3C 9D 6C TH KH 6D"), "9C", ["1 3C", "0 7S", "1 6C"])
    five, ten = PlayCard(0, Card.parse("5H")), PlayCard(0, Card.parse("TS"))
    after, _ = apply_action(state, five)
    assert after.phase == "over" and after.position.winner == 0  # the rules' word: the five wins now
    view = bot.seat_view(state, 0)
    k = knowledge(2, view.pone, 0, view.hand, view.plays, (*view.discards, Card.parse("9C")))
    assert advise(k, 1000, seed=1).options[0].action == ten  # more points, but not the game
    values = action_values(state, 0, seed=1)
    assert values[0].action == five and values[0].win == 1.0
    assert by_action(values)[ten].win < 1.0
    assert bot.suggest(view, "board").action == five


# The dealer (seat 0) at 118 needs 3 and holds 5D 6H; the pone (112) holds one card unseen by the dealer
# and counts first in the show. Whatever the pone holds, the six lets the dealer peg out or out-count
# it; the five scores more points on average but lets some cards through.
DEFENCE = dict(scores=(116, 112), dealer=0, hands=("5D KD 6H 9H QC 9D", "9C TS 3H 7D 4H 2D"), starter="7H",
               plays=["1 3H", "0 9H", "1 9C", "0 KD", "1 7D"])


def _outcome_for_each_holding(choice: PlayCard) -> dict[Card, int]:
    """The winner after the dealer's ``choice`` for every card the pone could hold instead of its last
    one, played out by the game engine (every later move is forced)."""
    d = DEFENCE
    seen = set(parse_cards(d["hands"][0].split())) | {Card.parse(d["starter"])} | {
        Card.parse(p.split()[1]) for p in d["plays"] if p[0] == "1"}
    out = {}
    for card in CARDS:
        if card in seen:
            continue
        pone = parse_cards("9C 3H 7D".split()) + (card,)
        throw = [c for c in parse_cards("4H 2D TS 5S 5C".split()) if c != card][:2]  # any two unused
        hands = (d["hands"][0], " ".join(str(c) for c in pone + tuple(throw)))
        state = scripted(d["scores"], d["dealer"], hands, d["starter"], d["plays"])
        state, _ = apply_action(state, choice)
        out[card] = finish(state)
    return out


def test_giving_up_points_to_stop_the_opponent_pegging_out() -> None:
    state = scripted(**DEFENCE)
    six, five = PlayCard(0, Card.parse("6H")), PlayCard(0, Card.parse("5D"))
    # the other seat's cards dealt alike (UNIFORM): every holding is a world of the same chance
    values = by_action(view_values(bot.seat_view(state, 0), seed=2, model=UNIFORM))
    with_six, with_five = _outcome_for_each_holding(six), _outcome_for_each_holding(five)
    assert set(with_six.values()) == {0}  # the six wins against every card
    assert 1 in with_five.values()  # the five loses to some
    # the chance is exact here (every holding is a world, the crib never counted): the engine's fractions
    assert values[six].win == pytest.approx(1.0)
    assert values[five].win == pytest.approx(sum(w == 0 for w in with_five.values()) / len(with_five))
    assert values[five].points > values[six].points  # the points search's choice
    assert bot.suggest(bot.seat_view(state, 0), "board").action == six


def test_values_are_a_function_of_the_seats_view() -> None:
    """The other seat's hidden cards swapped (its hand and discards; the public plays kept): the same
    values, numbers and all, at the discard and in the play."""
    rng = random.Random(5)
    for _ in range(3):
        starter, states = twin_deals(rng, lambda: restore("7" * 32, GameOptions(deck="client"), 1, None, 2, 0,
                                                          ((104, 104), (110, 110)), 15, "0" * 64, ()))
        a, b = (action_values(s, 1, seed=3, samples=4) for s in states)
        assert a == b and len(a) == 15
        plays = []
        for i, s in enumerate(states):
            s, _ = apply_action(s, a[0].action)
            s, _ = apply_action(s, Cut(1, starter))
            plays.append(s)
        a, b = (action_values(s, 1, seed=3, samples=6) for s in plays)
        assert a == b and all(0.0 <= v.win <= 1.0 for v in a)


def test_every_value_is_legal_and_ordered() -> None:
    state = scripted(**DEFENCE)
    for seat in (0,):
        values = action_values(state, seat)
        assert all(can(state.position, v.action) for v in values)
        assert [v.win for v in values] == sorted((v.win for v in values), reverse=True)
    assert action_values(state, 1) == []  # not seat 1's turn


def test_the_show_is_valued_exactly() -> None:
    """In the show every hand is known from the play; the count's value is the rest of the show."""
    state = scripted((60, 60), 0, ("5C 5D 5H JS 2C 3C", "KH QH 9S 8S AC AD"), "5S", [])
    while state.phase == "play":
        state, _ = apply_action(state, bot.suggest(bot.seat_view(state, state.to_act()[0]), "greedy").action)
    assert state.phase == "show"
    (count,) = action_values(state, 1)
    assert isinstance(count.action, Count) and can(state.position, count.action)
    assert 0.0 < count.win < 1.0


def _play_view(seed: int):
    """Seat 1 (the pone at 104-110) in the play, after a few greedy plays of a seeded client deal."""
    rng = random.Random(seed)
    starter, (state, _) = twin_deals(rng, lambda: restore("9" * 32, GameOptions(deck="client"), 1, None, 2, 0,
                                                          ((104, 104), (110, 110)), 15, "0" * 64, ()))
    state, _ = apply_action(state, bot.suggest(bot.seat_view(state, 1), "strong").action)
    state, _ = apply_action(state, Cut(1, starter))
    for _ in range(rng.randrange(0, 4)):
        seat = state.to_act()[0]
        state, _ = apply_action(state, bot.suggest(bot.seat_view(state, seat), "greedy").action)
    return state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_inferred_worlds_are_what_the_strong_level_keeps(seed) -> None:
    """Every world the evaluation draws for the other seat in the play (the core's model, read as the strong
    level throws, here without its slip) is six cards it could have been dealt (none seen by the seat,
    its played cards among them) whose strong discard -- asked of the discard advisor directly -- is the
    two cards the world puts in the crib (or one as good), and whose kept cards fit its goes."""
    from dataclasses import replace

    from service.advice.discards import STRONG_THROWS, analyse_discards
    from service.core.game import hidden

    state = _play_view(seed)
    seat = state.to_act()[0]
    v = bot.seat_view(state, seat)
    opp = 1 - seat
    obs = v.observation
    played = tuple(a.card for a in v.plays if isinstance(a, PlayCard) and a.seat == opp)
    seen = set(v.hand) | set(v.discards) | {v.starter} | {a.card for a in v.plays if isinstance(a, PlayCard)}
    rng = random.Random(seed)
    for _ in range(20):
        w = hidden.sample(obs, rng, replace(STRONG_THROWS, slip=0.0))
        assert w.held[seat] == tuple(v.hand) and w.thrown[seat] == tuple(v.discards)
        unplayed, thrown = w.unplayed(obs, opp), w.thrown[opp]
        six = played + unplayed + thrown
        assert len(set(six)) == 6 and not (set(unplayed) | set(thrown)) & seen
        assert len(unplayed) == 4 - len(played)
        choices = analyse_discards(six, 2, opp == v.dealer, model="tuned").choices
        net = {frozenset(ch.discard): ch.net for ch in choices}
        assert net[frozenset(thrown)] == choices[0].net  # its best (of equals, such as a ten for a ten)
        assert not set(thrown) & set(played)
        assert all(c.value > obs.go_limits[opp] for c in unplayed)


def test_the_inferred_throw_changes_the_worlds_not_the_actions() -> None:
    """Read as the strong level throws (the default) or dealt alike, the same actions; the other seat's
    cards follow the strong level's discard, so the values move."""
    state = _play_view(4)
    seat = state.to_act()[0]
    v = bot.seat_view(state, seat)
    plain = view_values(v, seed=1, samples=24, model=UNIFORM)
    inferred = view_values(v, seed=1, samples=24)
    assert inferred == action_values(state, seat, seed=1, samples=24)
    assert {a.action for a in inferred} == {a.action for a in plain}
    assert [(a.points, a.win) for a in inferred] != [(a.points, a.win) for a in plain]


def test_a_discard_without_the_points_search_keeps_the_chance() -> None:
    """``exact_points=False``: the same worlds, so the same chance for every discard, to the last digit;
    only the points change (the pegging left out of them) where the play is searched for the game."""
    from service.advice.evaluate import view_values
    state = restore("3" * 32, GameOptions(deck="client"), 1, None, 2, 0, ((108, 108), (113, 113)), 15, "0" * 64, ())
    dealt = tuple(parse_cards(h.split()) for h in ("TS 5H 7S AC 5D QD", "3C 9D 6C TH KH 6D"))
    state, _ = apply_action(state, Deal(0, dealt, ()))
    v = bot.seat_view(state, 1)
    exact = by_action(view_values(v, seed=2, samples=6))
    quick = by_action(view_values(v, seed=2, samples=6, exact_points=False))
    assert exact.keys() == quick.keys() and len(exact) == 15
    assert all(exact[a].win == quick[a].win for a in exact)
    assert any(exact[a].points != quick[a].points for a in exact)
