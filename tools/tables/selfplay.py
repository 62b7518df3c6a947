"""The self-play the win-probability tables come from: the rest of a deal played by the bots at every seat.

The policy (:data:`DISCARD_LEVEL`, :data:`PLAY_LEVEL`): the shipped ``strong``
level at every seat, its discards (the discard advisor, tuned crib model) and
its pegging (the pegging advisor over the model of hidden cards, as it plays
any game): the chances the tables give are those of games the service's own
strong level plays.
The show counts every hand's true score.  What each seat pegs is kept in the
order it was pegged, a seat's consecutive scores merged (that cannot change
who reaches the target first).
"""

from __future__ import annotations

from collections.abc import Callable

from service.core.cards import Card
from service.core.game import Cut, GameAction, GameState, apply_action

from service.advice.bot import seat_view, suggest

DISCARD_LEVEL, PLAY_LEVEL = "strong", "strong"
POLICY = {"discard": DISCARD_LEVEL, "play": PLAY_LEVEL}

Pegged = list[tuple[int, int]]
"""(seat, points) in the order pegged."""


def finish_deal(state: GameState, starter: Callable[[], Card] | None = None) -> tuple[GameState, Pegged]:
    """Play the deal in progress to its end (or the game's) by the policy; ``starter`` draws the card the cut
    turns when the table supplies the cards (a client deck).  The state after, and what each seat pegged."""
    deal = state.deal
    pegged: Pegged = []
    while state.deal == deal and state.phase != "over":
        seat = state.to_act()[0]
        action: GameAction
        if state.phase == "cut" and starter is not None:
            action = Cut(seat, starter())
        else:
            level = DISCARD_LEVEL if state.phase == "discard" else PLAY_LEVEL
            action = suggest(seat_view(state, seat), level).action
        state, events = apply_action(state, action)
        for event in events:
            for score in getattr(event, "scores", ()):
                if score.points <= 0:
                    continue
                if pegged and pegged[-1][0] == score.seat:
                    pegged[-1] = (score.seat, pegged[-1][1] + score.points)
                else:
                    pegged.append((score.seat, score.points))
    return state, pegged
