"""A playout (service/core/game/playout.py) is the game engine: the same legal actions, the same deal
after every action, the same winner, on both kernels (this file is in KERNEL_TESTS).

Random games in every option mix are played twice, action by action: as the playout's codes, and as
the game actions they name through the game engine (apply_action, which checks them itself).  At every
point the legal codes name exactly the engine's legal list, in its order, and the two deal states are
equal; at the end, the same side has won with the same pegs.
"""

from __future__ import annotations

import random

import pytest

from service.core.engine import KERNEL, kernel
from service.core.errors import IllegalError, MalformedError
from service.core.game import Phase, apply_action, legal, new_game
from service.core.game.playout import Playout
from service.core.options import GameOptions

MIXES = [GameOptions(), GameOptions(players=3), GameOptions(players=4), GameOptions(five_and_two=True),
         GameOptions(target=61), GameOptions(tournament=True), GameOptions(muggins=True, tournament=True),
         GameOptions(players=3, tournament=True), GameOptions(players=4, target=61)]


def played_both_ways(state, pick):
    """Play ``state``'s game to its end as a playout's codes (``pick`` chooses among the legal ones) and as
    the game actions they name through the game engine, holding the two equal at every step: the legal
    codes name the engine's legal list, in order, and the deal, dealer and deal state agree.  Yields
    (the legal codes, the code taken, the playout, the game state) after each action."""
    p = Playout(state)
    while not p.is_terminal():
        codes = p.legal_actions()
        assert [p.action_of(c) for c in codes] == legal(state)
        code = pick(codes)
        action = p.action_of(code)
        p.apply_action(code)
        state, _ = apply_action(state, action)
        assert (p.deal, p.dealer, p.deal_state) == (state.deal, state.dealer, state.deal_state), action
        yield codes, code, p, state


@pytest.mark.parametrize("options", MIXES, ids=lambda o: f"{o.players}p-{o.target}-t{int(o.tournament)}"
                         f"-m{int(o.muggins)}-52{int(o.five_and_two)}")
def test_a_playout_is_the_game_engine(options: GameOptions) -> None:
    rng = random.Random(f"playout-{KERNEL}-{options}")
    typed_steps = 0
    for game in range(5):
        state, _ = new_game(options, deck_seed="%032x" % rng.getrandbits(128))
        for _, _, p, state in played_both_ways(state, rng.choice):
            typed_steps += state.deal_state[kernel.PHASE] == kernel.OVER_PHASE  # (the game's end is the deal machine's)
        assert state.phase is Phase.OVER and p.winner == state.position.winner
        assert p.scores == tuple(front for front, _ in state.position.pegs)
        assert p.legal_actions() == [] == legal(state)
    assert typed_steps == 5


def test_reneges_are_the_kernel_s() -> None:
    """Under tournament rules a go while able stands, as a renege the next opponent pegs (ACC 7.3): the
    kernel's step pegs it, as the game engine does."""
    options = GameOptions(tournament=True)
    rng = random.Random(f"renege-{KERNEL}")
    reneges = 0
    for game in range(30):
        state, _ = new_game(options, deck_seed="%032x" % rng.getrandbits(128))
        for codes, code, _, _ in played_both_ways(
                state, lambda codes: 52 if 52 in codes and rng.random() < 0.5 else rng.choice(codes)):
            reneges += code == 52 and len(codes) > 1
    assert reneges > 20


def test_illegal_codes_are_refused_as_the_game_engine_refuses_them() -> None:
    state, _ = new_game(GameOptions(), deck_seed="00" * 16)
    p = Playout(state)
    for code in (52, 0, 56, 56 + 16 * 2, -1, 10**6):  # before the deal: no card, no go, no hand, no third seat
        with pytest.raises(MalformedError):
            p.apply_action(code)
    with pytest.raises(IllegalError) as refused:
        p.apply_action(55)  # a count before the deal
    assert refused.value.rule == "wrong_phase" and refused.value.legal == [p.action_of(53)]
    while state.phase is not Phase.PLAY:
        code = p.legal_actions()[0]
        state, _ = apply_action(state, p.action_of(code))
        p.apply_action(code)
    held = state.position.the_play.held
    assert held is not None
    other = held[1 - state.position.the_play.turn][0]
    before = p.deal_state
    with pytest.raises(IllegalError) as refused:
        p.apply_action(int(other))  # a card the seat to play does not hold
    assert refused.value.rule == "card_not_held"
    assert refused.value.legal == legal(state) == [p.action_of(c) for c in p.legal_actions()]
    assert p.deal_state == before  # nothing taken


def test_a_client_deck_has_no_playout() -> None:
    state, _ = new_game(GameOptions(deck="client"), dealer=0)
    with pytest.raises(MalformedError):
        Playout(state)


def test_a_fresh_deck_seed_deals_the_later_deals() -> None:
    """The deal in progress keeps its pack (it is in the deal state); every later deal comes from the
    seed given, so a simulation from a seat's view need not know the game's."""
    from service.core.game.deck import pack_numbers

    state, _ = new_game(GameOptions(), deck_seed="ab" * 16)
    own, fresh = Playout(state), Playout(state, deck_seed="cd" * 16)
    while own.deal == 1:
        code = own.legal_actions()[0]
        assert fresh.legal_actions()[0] == code
        own.apply_action(code)
        fresh.apply_action(code)
        if own.deal == 1:
            assert own.deal_state == fresh.deal_state
    assert own.deal_state[kernel.PACK] == pack_numbers("ab" * 16, 2)
    assert fresh.deal_state[kernel.PACK] == pack_numbers("cd" * 16, 2)
    assert own.deal_state[kernel.PEGS] == fresh.deal_state[kernel.PEGS]  # the same pegs into the next deal
