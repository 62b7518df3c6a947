"""Scripted games through the rules core (state format 2), as tests/core/game/test_game.py and
tests/core/game/test_game_claims.py write them: the script notation and the two-player scripted hand.

Script notation: each step is ``(action, fronts)`` where ``fronts`` are the
front pegs of every side *after* the action (one side per player, or per
partnership with four players: side 0 = seats 0+2, side 1 = seats 1+3);
:func:`run` applies a script, checking every step.  Every scripted deal uses a
client deck (:func:`client`: ``GameOptions(deck="client")``, the deal and the cut
carry the cards).  ``client`` here is a function that makes options, not the
``client`` fixture of tests/conftest.py.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from service.core.cards import Card
from service.core.game import (
    Count,
    Cut,
    Deal,
    Discard,
    GameAction,
    GameEvent,
    GameState,
    Go,
    PlayCard,
    apply_action,
    new_game,
    notation,
    restore,
)
from service.core.options import GameOptions

# -- the script notation -------------------------------------------------------


def C(text: str) -> Card:
    return Card.parse(text)


def cs(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def DEAL(seat: int, *hands: str, crib: str = "") -> Deal:
    return Deal(seat, tuple(cs(h) for h in hands), cs(crib))


def DISCARD(seat: int, cards: str) -> Discard:
    return Discard(seat, cs(cards))


def CUT(seat: int, starter: str | None = None) -> Cut:
    return Cut(seat, C(starter) if starter is not None else None)


def PLAY(seat: int, card: str, claim: int | None = None) -> PlayCard:
    return PlayCard(seat, C(card), claim)


def GO(seat: int, claim: int | None = None) -> Go:
    return Go(seat, claim)


def COUNT(seat: int, claim: int | None = None) -> Count:
    return Count(seat, claim)


def pegs(state: GameState) -> tuple[tuple[int, int], ...]:
    return state.position.pegs


def fronts(state: GameState) -> tuple[int, ...]:
    return tuple(f for f, _ in state.position.pegs)


Script = Sequence[tuple[GameAction, Sequence[int]]]


def shifted(script: Script, start: Sequence[int]) -> list[tuple[GameAction, tuple[int, ...]]]:
    """The script from a position whose fronts are ``start`` instead of 0."""
    return [(a, tuple(e + s for e, s in zip(expected, start))) for a, expected in script]


def run(state: GameState, script: Iterable[tuple[GameAction, Sequence[int]]]
        ) -> tuple[GameState, list[GameEvent]]:
    """Apply each action, checking the fronts after it; returns the last state and all events."""
    events: list[GameEvent] = []
    sides = state.options.sides
    for i, (action, expected) in enumerate(script):
        before = state
        state, evs = apply_action(state, action)
        events.extend(evs)
        assert fronts(state) == tuple(expected), f"step {i}: {notation(action)}: {pegs(state)}"
        moved = [0] * sides
        for e in evs:
            for s in e.scores:
                moved[state.options.side_of(s.seat)] += s.points
        for side, ((f0, b0), (f1, b1)) in enumerate(zip(pegs(before), pegs(state))):
            assert moved[side] == f1 - f0, f"step {i}: side {side}: events {moved[side]}, pegs {f1 - f0}"
            assert b1 <= f1
            if f1 == f0:
                assert b1 == b0, f"step {i}: side {side} did not score but its back peg moved"
            else:  # one peg move per side per action: the back peg is the old front
                assert b1 == f0, f"step {i}: side {side}: back peg {b1}, the front was {f0}"
    return state, events


def kinds(event: GameEvent) -> list[tuple[int, str, int]]:
    return [(s.seat, s.kind, s.points) for s in event.scores]


def of_type(events: list[GameEvent], kind: str) -> list[GameEvent]:
    return [e for e in events if e.type == kind]


def client(players: int = 2, **kw: object) -> GameOptions:
    return GameOptions(players=players, deck="client", **kw)  # type: ignore[arg-type]


def start(options: GameOptions, dealer: int = 0) -> GameState:
    state, events = new_game(options, dealer=dealer)
    assert events == []
    return state


GAME_ID = "0123456789abcdef" * 2


def at_deal_start(options: GameOptions, start_pegs: tuple[tuple[int, int], ...]) -> GameState:
    """The start of a later deal (deal players + 1, dealt by seat 0 again, the
    first dealer) with the pegs ``start_pegs``, restored as a client would send it."""
    n = options.players
    return restore(GAME_ID, options, 0, None, n + 1, 0, start_pegs, 30 * n, "ab" * 32, ())


# -- two players: one full hand ------------------------------------------------
#
# Dealer seat 0, pone seat 1.
#   seat 0 is dealt 5H 5D 5C JS KH QH and lays away KH QH -> keeps 5H 5D 5C JS
#   seat 1 is dealt AC 2C 3C 4C 6D 7D and lays away 6D 7D -> keeps AC 2C 3C 4C
#   crib 6D 7D KH QH; starter 5S (the 29 hand for the dealer).

DEAL_2 = DEAL(0, "5H 5D 5C JS KH QH", "AC 2C 3C 4C 6D 7D")

SETUP_2 = [
    (DEAL_2, (0, 0)),
    (DISCARD(1, "6D 7D"), (0, 0)),
    (DISCARD(0, "KH QH"), (0, 0)),
]

PLAY_2 = [
    (CUT(1, "5S"), (0, 0)),          # not a jack: no heels
    (PLAY(1, "AC"), (0, 0)),         # 1
    (PLAY(0, "5H"), (0, 0)),         # 6
    (PLAY(1, "2C"), (0, 0)),         # 8   (A 5 2: no run)
    (PLAY(0, "5D"), (0, 0)),         # 13  (previous card 2C: no pair)
    (PLAY(1, "3C"), (0, 0)),         # 16  (2 5 3: no run)
    (PLAY(0, "5C"), (0, 0)),         # 21  (5 3 5: no run, 3C between the fives: no pair)
    (PLAY(1, "4C"), (0, 3)),         # 25  last three 3C 5C 4C = run of 3 -> 3
    (GO(0), (0, 4)),                 # JS would make 35: go; seat 1 is out -> go point to seat 1
    (PLAY(0, "JS"), (1, 4)),         # 10, the last card of the hand -> 1
]


# -- the show of the scripted hand, from the pegs wanted ------------------------

# The play of PLAY_2 pegs 1 for seat 0 and 4 for seat 1.
PLAY_2_POINTS = (1, 4)


def at_show(options: GameOptions, show_pegs: tuple[tuple[int, int], ...] | None = None) -> GameState:
    """The show of the scripted hand; ``show_pegs`` are the pegs wanted when it begins
    (the deal starts 1 and 4 below them, and the play pegs those)."""
    if show_pegs is None:
        g, _ = run(start(options), SETUP_2 + PLAY_2)
    else:
        begin = tuple((f - p, b) for (f, b), p in zip(show_pegs, PLAY_2_POINTS))
        g, _ = run(at_deal_start(options, begin), shifted(SETUP_2 + PLAY_2, [f for f, _ in begin]))
        assert fronts(g) == tuple(f for f, _ in show_pegs)
    assert g.phase == "show" and g.to_act() == [1]
    return g
