"""The game's fast path (service.core.game.compact.step, on the kernel's deal
state) against the typed path (service.core.game.position.apply) it stands in
for: every action of random games, in every option mix, taken both ways.

The typed path is the reference: it checks each action with a sentence and
pegs item by item.  For every action the fast path takes, both must give the
same next position, the same events (scores item by item included) and the
same completed action; :func:`legal` (one generator, on the deal state, which
:func:`legal_actions` of the typed position calls too) must list exactly what the
rules written again list (tests/reference/legal.py), for every seat.  The deal
state and the typed position must turn into each other without loss.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from service.core.engine import KERNEL
from service.core.game import Count, Cut, Go, PlayCard, apply_action, legal_actions, new_game
from service.core.game.compact import deal_state_of, legal, position_of, step
from service.core.game.position import Phase, apply
from service.core.options import GameOptions

from reference.legal import as_reference, legal_reference

MIXES = [
    GameOptions(),
    GameOptions(players=3),
    GameOptions(players=4),
    GameOptions(five_and_two=True),
    GameOptions(target=61),
    GameOptions(tournament=True),
    GameOptions(muggins=True, muggins_in_play=True),
    GameOptions(players=4, tournament=True, muggins=True),
    GameOptions(players=3, target=61, skunk=False),
]


def _claimed(action, rng):  # type: ignore[no-untyped-def]
    """Now and then a claim (taken by the typed path), so the two paths alternate."""
    if isinstance(action, (PlayCard, Go, Count)) and rng.random() < 0.1:
        return dataclasses.replace(action, claim=rng.randrange(30))
    if isinstance(action, Cut) and rng.random() < 0.3:
        return Cut(action.seat, None, rng.randrange(3))
    return action


@pytest.mark.parametrize("options", MIXES, ids=lambda o: f"{o.players}p-{o.target}-t{int(o.tournament)}"
                         f"-m{int(o.muggins)}-52{int(o.five_and_two)}")
def test_fast_path_is_the_typed_path(options: GameOptions) -> None:
    rng = random.Random(f"{KERNEL}-{options}")
    fast_taken = typed_only = 0
    for game in range(6):
        state, _ = new_game(options, deck_seed="%032x" % rng.getrandbits(128))
        while state.phase is not Phase.OVER:
            k = state.deal_state
            pos = position_of(options, state.deal, state.dealer, state.first_dealer, k)
            assert deal_state_of(pos) == k  # no loss either way
            assert pos == state.position
            for seat in [None, *range(options.players)]:
                listed = legal(state, seat)
                # the one generator (legal_actions of the position is it too, on the same deal state:
                # asserted equal above) against the rules written again (tests/reference/legal.py): each
                # action once, and exactly the rules' set
                assert len(set(map(as_reference, listed))) == len(listed), (seat, pos)
                assert set(map(as_reference, listed)) == legal_reference(pos, seat), (seat, pos)
            action = _claimed(rng.choice(legal(state)), rng)
            fast = step(state, action)
            typed_pos, typed_events, typed_done = apply(pos, action)
            if fast is None:
                typed_only += 1
            else:
                fast_taken += 1
                k2, events, done = fast
                assert done == typed_done, action
                assert events == typed_events, action
                assert k2 == deal_state_of(typed_pos), action
                assert position_of(options, state.deal, state.dealer, state.first_dealer, k2) == typed_pos
            state, _ = apply_action(state, action)
    # both paths are exercised: the fast path mostly; the typed path by claims, reneges, jacks, game ends
    assert fast_taken > 2 * typed_only > 0


def test_illegal_actions_take_the_typed_path() -> None:
    """An action the fast path refuses is explained by the typed path: the same error either way."""
    options = GameOptions()
    state, _ = new_game(options, deck_seed="00" * 16)
    while state.phase is not Phase.PLAY:
        state, _ = apply_action(state, legal_actions(state.position)[0])
    turn = state.position.the_play.turn
    assert turn is not None
    other = 1 - turn
    held = state.position.the_play.held
    assert held is not None
    for action in (PlayCard(other, held[other][0]), PlayCard(turn, held[other][0]), Go(turn)):
        assert step(state, action) is None
        with pytest.raises(ValueError) as by_state:
            apply_action(state, action)
        with pytest.raises(ValueError) as by_position:
            apply(state.position, action)
        assert str(by_state.value) == str(by_position.value)


def _any_action(options: GameOptions, rng: random.Random) -> object:
    """Any action of any seat, legal or not: what a client may send."""
    from service.core.cards import CARDS
    from service.core.game import Deal, Discard

    seat = rng.randrange(options.players)
    kind = rng.randrange(6)
    if kind == 0:
        return PlayCard(seat, rng.choice(CARDS))
    if kind == 1:
        return Go(seat)
    if kind == 2:
        return Count(seat)
    if kind == 3:
        return Discard(seat, tuple(rng.sample(CARDS, rng.choice((1, 2)))))
    return Deal(seat) if kind == 4 else Cut(seat)


@pytest.mark.parametrize("options", MIXES[:4], ids=lambda o: f"{o.players}p-52{int(o.five_and_two)}")
def test_the_fast_path_takes_only_what_the_typed_path_allows(options: GameOptions) -> None:
    """Any action at all, at every point of random games: whatever the fast path takes, the typed path
    finds legal and applies the same way (the fast path's conditions are never looser than the rules)."""
    rng = random.Random(f"any-{KERNEL}-{options}")
    taken = 0
    for game in range(4):
        state, _ = new_game(options, deck_seed="%032x" % rng.getrandbits(128))
        while state.phase is not Phase.OVER:
            pos = state.position
            for _ in range(30):
                action = _any_action(options, rng)
                fast = step(state, action)  # type: ignore[arg-type]
                if fast is None:
                    continue
                taken += 1
                typed_pos, typed_events, typed_done = apply(pos, action)  # type: ignore[arg-type]
                assert (fast[1], fast[2]) == (typed_events, typed_done), action
                assert fast[0] == deal_state_of(typed_pos), action
            state, _ = apply_action(state, rng.choice(legal_actions(state.position)))
    assert taken > 100
