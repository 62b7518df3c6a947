"""The deal machine (service.core.game.compact.step, on the kernel's deal state): the one place an
action of a deal is applied, every kind of it (the service's pack or a client's cards, claims judged,
reneges, the game won in the middle of an item list).  The typed position is a view of the deal state
and only explains what the machine refuses.

What the machine must do is stated here from the rules, not from another implementation:

* every action the one generator lists (:func:`legal`) is exactly what the rules written again list
  (tests/reference/legal.py), for every seat, and the machine takes each of them;
* whatever it takes from any action at all a client might send is legal by those rules, and whatever
  it refuses the position's check explains (the same error the game answers);
* a step that reaches the target pegs its items in the order they are spoken (fifteens, pairs, runs,
  flush, nobs; in the play the order a table calls them) and stops at the item that reaches it: the
  items before it leave the side short, the game is over, and nothing after it is pegged;
* a deal state and its typed view turn into each other without loss.

tests/core/game/test_game_properties.py holds the points of whole random games to a model of the
table the test keeps itself (the play's points and turns, counts by the reference scorer, claims,
the pegs' moves).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from service.core.cards import CARDS
from service.core.engine import KERNEL
from service.core.errors import DuplicateCardError, IllegalError
from service.core.game import Count, Cut, Deal, Discard, Go, PlayCard, apply_action, check, new_game
from service.core.game.compact import legal, step
from service.core.game.position import Phase, deal_state_of, position_of
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
SPOKEN = {kind: i for i, kind in enumerate(["fifteen", "pair", "run", "flush", "nobs"])}
"""The show's items in the order a player says them (docs/rules.md, "The show")."""


def _claimed(action, rng):  # type: ignore[no-untyped-def]
    """Now and then a claim, or a count that names what it counts."""
    if isinstance(action, (PlayCard, Go, Count)) and rng.random() < 0.1:
        return dataclasses.replace(action, claim=rng.randrange(30))
    if isinstance(action, Cut) and rng.random() < 0.3:
        return Cut(action.seat, None, rng.randrange(3))
    return action


def _check_the_end(state, action, events) -> None:  # type: ignore[no-untyped-def]
    """The game ended by ``action``: the items pegged stop at the one that reaches the target."""
    o = state.options
    pegs = list(state.position.pegs)
    pegged = [s for e in events for s in getattr(e, "scores", ())]
    assert pegged, action
    last = pegged[-1]
    side = o.side_of(last.seat)
    fronts = [front for front, _ in pegs]
    for s in pegged[:-1]:
        fronts[o.side_of(s.seat)] += -s.points if s.kind == "set_back" else s.points
        assert max(fronts) < o.target, (action, pegged)  # an item before the last would have won
    assert fronts[side] + last.points >= o.target > fronts[side], (action, pegged)
    if type(action) is Count and action.claim is None:  # a hand's items, in the spoken order
        order = [SPOKEN[s.kind] for s in pegged]
        assert order == sorted(order), pegged
    assert "game_over" in [e.type for e in events], events


@pytest.mark.parametrize("options", MIXES, ids=lambda o: f"{o.players}p-{o.target}-t{int(o.tournament)}"
                         f"-m{int(o.muggins)}-52{int(o.five_and_two)}")
def test_the_machine_takes_every_legal_action(options: GameOptions) -> None:
    rng = random.Random(f"{KERNEL}-{options}")
    claims = ends = 0
    for game in range(6):
        state, _ = new_game(options, deck_seed="%032x" % rng.getrandbits(128))
        while state.phase is not Phase.OVER:
            k = state.deal_state
            pos = position_of(options, state.deal, state.dealer, state.first_dealer, k)
            assert deal_state_of(pos) == k  # no loss either way
            assert pos == state.position
            for seat in [None, *range(options.players)]:
                listed = legal(state, seat)
                # the one generator against the rules written again: each action once, exactly the rules' set
                assert len(set(map(as_reference, listed))) == len(listed), (seat, pos)
                assert set(map(as_reference, listed)) == legal_reference(pos, seat), (seat, pos)
            action = _claimed(rng.choice(legal(state)), rng)
            claims += getattr(action, "claim", None) is not None
            stepped = step(state, action)
            assert stepped is not None, action  # every legal action, claims and all, is the machine's
            after, events = apply_action(state, action)
            assert (after.actions[-1:] or (stepped[2],)) == (stepped[2],)
            if after.phase is Phase.OVER:
                ends += 1
                _check_the_end(state, action, events)
            state = after
    assert ends == 6 and claims > 20


def test_a_client_s_cards_are_the_machine_s() -> None:
    """A client deck: the deal gives every hand and the crib's cards, the cut the starter; cards given
    twice, a starter already dealt, or the wrong number are refused, each with the rule it breaks."""
    options = GameOptions(deck="client", players=3, tournament=True)
    rng = random.Random(f"client-{KERNEL}")
    refused = taken = 0
    for game in range(4):
        state, _ = new_game(options, dealer=rng.randrange(3))
        while state.phase is not Phase.OVER:
            action = rng.choice(legal(state))
            bad = None
            if type(action) is Deal:
                deck = rng.sample(CARDS, 52)
                each = options.cards_dealt
                hands = tuple(tuple(deck[i * each:(i + 1) * each]) for i in range(3))
                crib = tuple(deck[3 * each:3 * each + options.dealt_to_crib])
                bad = rng.choice([None, "twice", "short"])
                if bad == "twice":
                    hands = (hands[0][:-1] + (hands[1][0],),) + hands[1:]
                elif bad == "short":
                    crib = ()
                action = Deal(action.seat, hands, crib)
            elif type(action) is Cut:
                pos = state.position
                used = [c for h in pos.hands for c in h] + list(pos.crib)
                fresh = [c for c in CARDS if c not in used]
                bad = "dealt" if rng.random() < 0.2 else None
                action = Cut(action.seat, rng.choice(used if bad else fresh))
            stepped = step(state, action)
            assert (stepped is None) == (bad is not None), (bad, action)  # refused exactly what is wrong
            if stepped is None:
                refused += 1
                # the rule each wrong deal or cut breaks (docs/rules.md), told as the game answers it
                expected = {"twice": DuplicateCardError, "short": IllegalError, "dealt": IllegalError}[bad]
                with pytest.raises(expected) as by_game:
                    apply_action(state, action)
                if expected is IllegalError:
                    assert by_game.value.rule == {"short": "wrong_deal", "dealt": "card_in_use"}[bad]
                    assert set(map(as_reference, by_game.value.legal)) == legal_reference(state.position)
                continue
            taken += 1
            state, _ = apply_action(state, action)
    assert refused > 10 and taken > 300


def test_illegal_actions_are_explained_by_the_position() -> None:
    """An action the machine refuses is explained: the rule it breaks, and what would have been legal as the
    rules written again list it."""
    options = GameOptions()
    state, _ = new_game(options, deck_seed="00" * 16)
    while state.phase is not Phase.PLAY:
        state, _ = apply_action(state, legal(state)[0])
    turn = state.position.the_play.turn
    assert turn is not None
    other = 1 - turn
    held = state.position.the_play.held
    assert held is not None
    for action, rule in ((PlayCard(other, held[other][0]), "out_of_turn"),
                         (PlayCard(turn, held[other][0]), "card_not_held"), (Go(turn), "go_while_able")):
        assert step(state, action) is None
        with pytest.raises(IllegalError) as by_state:
            apply_action(state, action)
        assert by_state.value.rule == rule, action  # a lead: every card fits at 0, so no go
        assert set(map(as_reference, by_state.value.legal)) == legal_reference(state.position)


def _any_action(options: GameOptions, rng: random.Random) -> object:
    """Any action of any seat, legal or not: what a client may send."""
    seat = rng.randrange(options.players)
    kind = rng.randrange(6)
    if kind == 0:
        return PlayCard(seat, rng.choice(CARDS), rng.choice([None, None, rng.randrange(30)]))
    if kind == 1:
        return Go(seat)
    if kind == 2:
        return Count(seat, rng.choice([None, rng.randrange(30)]))
    if kind == 3:
        return Discard(seat, tuple(rng.sample(CARDS, rng.choice((1, 2)))))
    return Deal(seat) if kind == 4 else Cut(seat)


@pytest.mark.parametrize("options", MIXES[:4] + [GameOptions(tournament=True, muggins=True)],
                         ids=lambda o: f"{o.players}p-52{int(o.five_and_two)}-t{int(o.tournament)}")
def test_the_machine_takes_only_what_the_rules_allow(options: GameOptions) -> None:
    """Any action at all, at every point of random games: whatever the machine takes the rules list
    (tests/reference/legal.py); whatever it refuses the position's check refuses."""
    rng = random.Random(f"any-{KERNEL}-{options}")
    taken = 0
    for game in range(4):
        state, _ = new_game(options, deck_seed="%032x" % rng.getrandbits(128))
        while state.phase is not Phase.OVER:
            pos = state.position
            for _ in range(30):
                action = _any_action(options, rng)
                if step(state, action) is None:  # type: ignore[arg-type]
                    with pytest.raises(ValueError):
                        check(pos, action)  # type: ignore[arg-type]
                    continue
                taken += 1
                assert as_reference(action) in legal_reference(pos, action.seat), action  # type: ignore[attr-defined]
            state, _ = apply_action(state, rng.choice(legal(state)))
    assert taken > 100
