"""The bot: only legal actions over whole games (hypothesis), and decisions
from the seat's own view only (the other seats' hidden cards swapped, the same answer)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from helpers_advice import twin_deals

import service.advice.bot as bot_module
from service.advice import bot
from service.advice.reasons import ForTheGame
from service.core.cards import CARDS
from service.core.game import Deal, apply_action, can, new_game
from service.core.options import GameOptions


def play_out(options: GameOptions, levels, seed: int, max_actions: int = 3000):
    state, _ = new_game(options, dealer=seed % options.players, deck_seed=f"{seed:032x}")
    n = 0
    while state.phase != "over" and n < max_actions:
        seat = state.to_act()[0]
        s = bot.suggest(bot.seat_view(state, seat), levels[seat % len(levels)])
        assert can(state.position, s.action), (s.action, state.phase)
        state, _ = apply_action(state, s.action)
        n += 1
    return state, n


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(players=st.sampled_from([2, 3, 4]), five_and_two=st.booleans(), seed=st.integers(0, 2**20),
       levels=st.sampled_from([("strong", "greedy"), ("greedy", "strong"), ("greedy",)]))
def test_the_bot_only_suggests_legal_actions(players, five_and_two, seed, levels, monkeypatch_samples):
    options = GameOptions(players=players, five_and_two=five_and_two and players == 2, target=61, deck="seeded",
                          seed=str(seed))
    state, n = play_out(options, levels, seed)
    assert state.phase == "over" and n > 20


@pytest.fixture()
def monkeypatch_samples(monkeypatch):
    monkeypatch.setattr(bot_module, "BOT_SAMPLES", 3)  # a short game: few deals a decision
    monkeypatch.setattr(bot_module, "BOARD", bot_module.BoardPlay(samples=4, refine=4, play_samples=4))


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (2, 3), (3, 4), (4, 5)])
def test_the_board_level_only_suggests_legal_actions(players, seed, monkeypatch_samples):
    """Whole games to 61 (the board level plays for the game from the first points): every action legal,
    against itself and against strong."""
    for levels in (("board",), ("board", "strong")):
        options = GameOptions(players=players, target=61, deck="seeded", seed=f"board-{seed}")
        state, n = play_out(options, levels, seed)
        assert state.phase == "over" and n > 20


def test_the_board_level_plays_the_same_whatever_the_hidden_cards(monkeypatch_samples):
    """As below, near the target (both sides past 100, so the board level plays for the game): seat 1's
    discard and its plays are the same, numbers and all, whatever seat 0 holds and throws."""
    from service.core.game import Cut
    from service.core.game.state import restore
    rng = random.Random(12)
    for _ in range(3):
        starter, games = twin_deals(rng, lambda: restore("3" * 32, GameOptions(deck="client"), 1, None, 2, 0,
                                                         ((103, 103), (108, 108)), 15, "0" * 64, ()))
        a, b = (bot.suggest(bot.seat_view(s, 1), "board") for s in games)
        assert a == b and isinstance(a.reason, ForTheGame)  # played for the game
        for i, s in enumerate(games):
            s, _ = apply_action(s, a.action)
            games[i], _ = apply_action(s, Cut(1, starter))
        while games[0].phase == "play" and games[0].to_act() == [1]:
            a, b = (bot.suggest(bot.seat_view(s, 1), "board") for s in games)
            assert a == b
            for i, s in enumerate(games):
                games[i], _ = apply_action(s, a.action)
            if games[0].phase != "play" or games[0].to_act() != [0]:
                break
            # seat 0 plays its own cards in each game: the same public card only when both hold it
            moves = [bot.suggest(bot.seat_view(s, 0), "greedy").action for s in games]
            if moves[0] != moves[1]:
                break
            for i, s in enumerate(games):
                games[i], _ = apply_action(s, moves[i])


def test_the_bot_sees_only_its_own_cards(monkeypatch_samples):
    """Swap seat 0's hidden cards with unseen ones (a client deck replays any cards):
    seat 1's suggestion is the same at every step of a deal where seat 0 keeps them."""
    options = GameOptions(deck="client")
    rng = random.Random(4)
    for trial in range(6):
        deck = rng.sample(range(52), 52)
        cards = [CARDS[c] for c in deck]
        a = (tuple(cards[0:6]), tuple(cards[6:12]))
        b = (tuple(cards[12:18]), tuple(cards[6:12]))  # seat 0 holds other cards entirely
        sa, _ = new_game(options, dealer=0, game_id="0" * 32)
        sb, _ = new_game(options, dealer=0, game_id="0" * 32)
        sa, _ = apply_action(sa, Deal(0, a, ()))
        sb, _ = apply_action(sb, Deal(0, b, ()))
        va, vb = bot.seat_view(sa, 1), bot.seat_view(sb, 1)
        assert va == vb  # so the bot, a function of the view alone, cannot tell them apart


def test_the_bot_plays_the_same_whatever_the_hidden_cards(monkeypatch_samples):
    """Two deals alike in all seat 1 sees (its cards, the starter, the public
    actions) but not in seat 0's cards and discards: in the play seat 1's bot
    answers the same, numbers and all."""
    from service.core.game import Cut
    rng = random.Random(11)
    for _ in range(5):
        starter, twins = twin_deals(rng, lambda: new_game(GameOptions(deck="client"), dealer=0, game_id="1" * 32)[0])
        states = []
        for s in twins:
            own = bot.suggest(bot.seat_view(s, 1)).action
            s, _ = apply_action(s, own)
            s, _ = apply_action(s, Cut(1, starter))
            states.append(s)
        a, b = (bot.suggest(bot.seat_view(s, 1)) for s in states)
        assert a == b


# -- play_bots: a run of bot actions -----------------------------------------------------------------


def _first_legal(state, seat):
    from service.core.game import legal
    return next(a for a in legal(state) if a.seat == seat)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**20), humans=st.sets(st.integers(0, 3), max_size=2),
       level=st.sampled_from(["greedy", "strong"]), limits=st.lists(st.integers(1, 32), min_size=1, max_size=5))
def test_runs_of_bots_are_the_game_played_one_suggestion_at_a_time(players, seed, humans, level, limits,
                                                                  monkeypatch_samples):
    """Runs of play_bots (cut by max_actions, a human's moves between them: its first legal action) make
    the game the reference makes one action at a time: whoever is to act, a bot first (seat order)
    asks suggest for its seat's view, else the human moves."""
    options = GameOptions(players=players, target=61, deck="seeded", seed=str(seed))
    start, _ = new_game(options, dealer=seed % players, deck_seed=f"{seed:032x}")
    levels = {s: level for s in range(players) if s not in humans}
    want, state = [], start
    while state.to_act() and len(want) < 120:
        bots_to_act = sorted(s for s in state.to_act() if s in levels)
        if bots_to_act:
            action = bot.suggest(bot.seat_view(state, bots_to_act[0]), level).action
        else:
            action = _first_legal(state, state.to_act()[0])
        want.append(action)
        state, _ = apply_action(state, action)
    got, state, i = [], start, 0
    while len(got) < len(want):
        run = bot.play_bots(state, levels, max_actions=limits[i % len(limits)])
        i += 1
        for m in run.moves:
            assert m.level == level and m.seat in levels and m.seat == m.action.seat and m.before.to_act()
        got += [m.action for m in run.moves]
        state = run.state
        if run.stopped is bot.Stop.OVER:
            assert not state.to_act() and run.next_seat is None
            break
        if run.stopped is bot.Stop.HUMAN:
            assert run.next_seat == state.to_act()[0] and not set(state.to_act()) & set(levels)
            action = _first_legal(state, run.next_seat)
            got.append(action)
            state, _ = apply_action(state, action)
        else:
            assert run.stopped is bot.Stop.LIMIT and len(run.moves) == limits[(i - 1) % len(limits)]
            assert run.next_seat in levels and run.next_seat in state.to_act()
    assert got[:len(want)] == want


def test_a_run_plays_the_same_whatever_the_other_seat_s_hidden_cards(monkeypatch_samples):
    """Two deals alike in all seat 1 sees: its bot's run is the same (the discard, then with the
    table's starter its lead), and a client deck's cut stops the run for the table's cards."""
    from service.core.game import Cut
    rng = random.Random(12)
    for _ in range(4):
        starter, twins = twin_deals(rng, lambda: new_game(GameOptions(deck="client"), dealer=0, game_id="2" * 32)[0])
        runs = []
        for s in twins:
            first = bot.play_bots(s, {1: "strong"})
            assert first.stopped is bot.Stop.CARDS and first.next_seat == 1 and len(first.moves) == 1
            s, _ = apply_action(first.state, Cut(1, starter))
            second = bot.play_bots(s, {1: "strong"})
            assert second.stopped is bot.Stop.HUMAN and second.next_seat == 0
            runs.append([m.action for m in (*first.moves, *second.moves)])
        assert runs[0] == runs[1]


def test_a_run_stops_at_a_deal_s_end_when_asked():
    state, _ = new_game(GameOptions(deck="seeded", seed="run"), dealer=1)
    run = bot.play_bots(state, {0: "greedy", 1: "greedy"}, stop_at_deal_end=True)
    assert run.stopped is bot.Stop.DEAL_END and run.state.deal == 2 and run.state.phase == "deal"
    assert run.next_seat == 0 and run.events[-1].type == "deal_record"
    assert bot.play_bots(state, {0: "greedy"}).stopped is bot.Stop.HUMAN  # seat 1 deals
    assert bot.play_bots(state, {0: "greedy"}).moves == ()


@pytest.mark.parametrize("levels,max_actions", [({0: "greedy"}, 0), ({0: "greedy"}, 33), ({0: "genius"}, 5),
                                                ({2: "greedy"}, 5), ({-1: "greedy"}, 5)])
def test_play_bots_refuses_what_the_edge_refuses(levels, max_actions):
    state, _ = new_game(GameOptions(deck="seeded", seed="run"), dealer=0)
    with pytest.raises(ValueError):
        bot.play_bots(state, levels, max_actions=max_actions)
