"""The double-dummy solver against an exhaustive minimax over the core's Play,
and the Monte Carlo advisor's consistency with what the seat knows."""

from __future__ import annotations

import random

import pytest

from service.advice.pegging import Solver, advise, knowledge, solve
from service.core.cards import CARDS
from service.core.errors import MalformedError
from service.core.play import Go, Play, PlayCard


def exhaustive(play: Play, sides: int, side_of) -> tuple[int, ...]:
    """Every line of play through Play.apply (no memo, cards not merged by rank):
    the points each side pegs from here, each seat maximising its side's net."""
    if play.hand_over:
        return (0,) * sides
    best = None
    for action in play.legal_actions():
        nxt, event = play.apply(action)
        v = list(exhaustive(nxt, sides, side_of))
        for s in event.scores:
            v[side_of(s.seat)] += s.points
        side = side_of(play.turn)
        key = (2 * v[side] - sum(v), v[side], tuple(v))
        if best is None or key > best:
            best = key
    return best[2]


def endgame(rng: random.Random, players: int, cards_each: int) -> Play:
    """A random position: hands of four dealt, then random legal plays until
    each seat holds at most ``cards_each``."""
    deck = rng.sample(CARDS, 4 * players)
    play = Play.start(players, rng.randrange(players), [deck[4 * i:4 * i + 4] for i in range(players)])
    while not play.hand_over and sum(play.left) > cards_each * players:
        play, _ = play.apply(rng.choice(play.legal_actions()))
    return play


@pytest.mark.parametrize("players,cards_each,n", [(2, 4, 25), (3, 2, 25), (4, 2, 15), (2, 2, 40)])
def test_double_dummy_equals_exhaustive_minimax(players, cards_each, n):
    rng = random.Random(f"dd-{players}-{cards_each}")
    side_of = (lambda s: s % 2) if players == 4 else (lambda s: s)
    sides = 2 if players == 4 else players
    for _ in range(n):
        play = endgame(rng, players, cards_each)
        if play.hand_over:
            continue
        options = solve(play, Solver(players))
        for opt in options:
            nxt, event = play.apply(opt.action)
            v = list(exhaustive(nxt, sides, side_of))
            for s in event.scores:
                v[side_of(s.seat)] += s.points
            assert opt.points == tuple(float(x) for x in v)
        assert options[0].points == tuple(float(x) for x in exhaustive(play, sides, side_of))


def test_advice_never_gives_a_go_seat_a_card_that_fits():
    """Seat 0 said go at 24: every sampled deal must give it cards worth 8 or more."""
    from service.advice.discards import STRONG_THROWS
    from service.core.game import hidden
    plays = [PlayCard(1, CARDS[40]), PlayCard(0, CARDS[13]), PlayCard(1, CARDS[44])]  # JC 4D QC = 24
    # seat 1 holds the rest; suppose seat 0 (not us) said go: build it from seat 1's side
    k = knowledge(2, 1, 1, [CARDS[40], CARDS[44], CARDS[20], CARDS[1]], plays + [Go(0)])
    rng = random.Random(3)
    for model in (hidden.UNIFORM, STRONG_THROWS):
        for _ in range(50):
            world = hidden.sample(k.observation, rng, model, starter=False)
            assert all(c.value > 7 for c in world.unplayed(k.observation, 0))
        assert advise(k, 4, seed=1, model=model).options


def test_knowledge_refuses_a_play_of_the_seats_card_by_another():
    hand = [CARDS[i] for i in (0, 5, 9, 13)]
    with pytest.raises(MalformedError):
        knowledge(2, 1, 0, hand, [PlayCard(1, CARDS[0])])
    with pytest.raises(MalformedError):
        knowledge(2, 1, 0, hand, [])  # seat 1 (the pone) leads: not seat 0's turn


def test_advice_is_seeded():
    rng = random.Random(9)
    deck = rng.sample(CARDS, 8)
    k = knowledge(2, 1, 1, deck[:4], [])
    a, b = advise(k, 6, seed=5), advise(k, 6, seed=5)
    assert [(o.action, o.points) for o in a.options] == [(o.action, o.points) for o in b.options]


def _four_player_lead(seed: int = 4):
    deck = random.Random(seed).sample(CARDS, 4)
    return knowledge(4, 1, 1, deck, [])  # seat 1, the pone, leads: the largest searches


def test_the_position_cap_holds_inside_a_deal(monkeypatch):
    """The cap stops the search inside a deal (before: only between deals, so the last
    deal ran past it); a deal cut short is left out of the means."""
    from service.advice import pegging

    monkeypatch.setattr(pegging, "NODE_CAP", 30_000)
    k = _four_player_lead()
    capped = advise(k, 200, seed=2)
    assert capped.nodes <= 30_000 and 1 <= capped.samples < 200
    again = advise(k, capped.samples, seed=2)  # the same deals, each solved whole
    assert [(o.action, o.points) for o in capped.options] == [(o.action, o.points) for o in again.options]


def test_an_exact_solve_past_the_cap_is_refused(monkeypatch):
    from service.advice import pegging

    monkeypatch.setattr(pegging, "NODE_CAP", 1_000)
    deck = random.Random(5).sample(CARDS, 16)
    play = Play.start(4, 1, [deck[4 * i:4 * i + 4] for i in range(4)])
    with pytest.raises(MalformedError, match="positions"):
        pegging.solve_known(play)
    with pytest.raises(MalformedError, match="positions"):  # a first deal past the cap: nothing to answer
        advise(_four_player_lead(), 5, seed=2)


def _after_a_king_lead() -> tuple:
    """Seat 1 deals and is to play after pone (seat 0) led a king: seat 1 knows its four, its two
    discards and the starter (no five among them: four fives are unseen)."""
    mine = [CARDS[i] for i in (0, 9, 26, 35)]  # AC 3D 7H 9S
    seen = [CARDS[i] for i in (6, 30, 41)]  # 2H, 8H thrown; starter JD
    return knowledge(2, 0, 1, mine, [PlayCard(0, CARDS[48])], seen)


def test_knowledge_records_the_cards_each_seat_laid():
    hand = [CARDS[i] for i in (0, 5, 9, 13)]
    k = knowledge(2, 1, 1, hand, [PlayCard(1, CARDS[0]), PlayCard(0, CARDS[44])])
    assert k.observation.dealer == 0
    assert k.observation.laid == ((CARDS[44],), (CARDS[0],))


def test_deals_read_from_the_throw_give_the_pone_its_fives():
    """A pone keeps fives (a five thrown is points in the dealer's crib): in worlds read from its throw
    it holds far more of them than in uniform worlds of the unseen cards (3 x 4 / 42 = 0.29 a deal)."""
    from service.advice.discards import STRONG_THROWS
    from service.core.game import hidden
    k = _after_a_king_lead()
    rng = random.Random("fives")

    def fives(model: hidden.ThrowModel) -> float:
        worlds = [hidden.sample(k.observation, rng, model, starter=False) for _ in range(600)]
        return sum(sum(c.rank == 5 for c in w.unplayed(k.observation, 0)) for w in worlds) / 600
    uniform, read = fives(hidden.UNIFORM), fives(STRONG_THROWS)
    assert 0.2 < uniform < 0.4
    assert read > 1.6 * uniform  # 0.51 (0.53 without the slip)


@pytest.mark.parametrize("players,five_and_two,before", [(2, False, False), (2, True, False), (3, False, False),
                                                        (2, False, True)])
def test_the_strong_level_reads_throws_in_every_deal(players, five_and_two, before, monkeypatch):
    """As it ships, the strong level's worlds are dealt by the strong throw model in every deal's shape,
    over at least MIN_WORLDS worlds a play; as it shipped before, uniformly."""
    from service.advice import bot, pegging
    from service.advice.discards import STRONG_THROWS
    from service.core.game import apply_action, hidden, new_game
    from service.core.options import GameOptions
    asked = []
    real = bot.advise

    def spy(*args, **kwargs):
        got = real(*args, **kwargs)
        asked.append((kwargs["model"], got.samples, got.exact))
        return got
    monkeypatch.setattr(bot, "advise", spy)
    if before:
        monkeypatch.setattr(bot, "STRONG", bot.StrongPlay(model=hidden.UNIFORM, min_worlds=1))  # as before it read throws
    state, _ = new_game(GameOptions(players=players, five_and_two=five_and_two, deck="seeded", seed="reads"),
                        dealer=0, game_id="2" * 32)
    while state.phase != "show":
        seat = state.to_act()[0]
        state, _ = apply_action(state, bot.suggest(bot.seat_view(state, seat), "strong").action)
    assert asked and {m for m, _, _ in asked} == {hidden.UNIFORM if before else STRONG_THROWS}
    if not before:
        assert all(n >= pegging.MIN_WORLDS or exact for _, n, exact in asked)
