"""A computer opponent: the action one seat's bot takes, decided from that seat's view only.

:func:`seat_view` (:mod:`.view`) takes from a game state what the seat knows
(:func:`service.core.game.observe.seat_seen`, the one place that decides
what a viewer sees: its cards as dealt and kept, its own discards, the
starter once turned, the public play so far) and the public position and
board; :func:`suggest` decides from that :class:`SeatView` alone, so the bot cannot
use a card it could not see (the test swaps the other seats' hidden cards
and gets the same answer).

Levels:

* ``greedy``: the discard that keeps the best hand on average (the crib
  ignored), the play that scores most now (the highest card on a tie);
* ``strong``: the discard advisor (``tuned`` crib model) and the pegging
  advisor (perfect-information Monte Carlo over double-dummy solves, at least
  :data:`.pegging.MIN_WORLDS` worlds a play); the other seats' cards in its
  worlds are dealt by the core's model of hidden cards as the strong level
  keeps and throws (:data:`.discards.STRONG_THROWS`), not uniformly;
* ``board``: plays to win the game, not for points: its discards, plays and
  goes are the ones :mod:`.evaluate` ranks first by the chance of winning
  (the end of the deal valued by the board's odds, pegging out and the
  defence near the target searched for the game).  In the play it reads the
  other seat as the strong level it meets: its cards drawn from what that
  level keeps and throws, its replies those of the points search
  (:class:`BoardPlay`).  While no side is within
  :data:`BOARD_NEAR` points of the target it plays as ``strong`` does (there
  the chance of winning follows the points).

Deal and cut are the only action there is; a count of its own hand claims
its true score (a crib is counted without a claim, which pegs its true score:
the crib is not the seat's to see before it is turned).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from service.core.errors import IllegalError
from service.core.game import Count, Discard, GameAction, GameEvent, GameState, Phase, apply_action, can
from service.core.game.hidden import ThrowModel

from .discards import STRONG_THROWS, analyse_discards
from .evaluate import evaluate
from .pegging import BOT_NODE_BUDGET as BOT_NODE_BUDGET
from .pegging import MIN_WORLDS, advise, greedy_action, knowledge
from .reasons import (AdvisedPlay, Counting, Forced, ForTheGame, GameChoice, GreedyDiscard, GreedyPlay, PlayChoice,
                      Reason, Routine, TunedDiscard)
from .view import SeatView as SeatView
from .view import routine_action
from .view import seat_view as seat_view

LEVELS = ("greedy", "strong", "board")
BOT_SAMPLES = None
"""The strong bot's pegging deals: as many as its node budget allows."""
BOARD_NEAR = 60
"""The board level plays for the game once a side is this close to the target (it scores more than 60
in a deal almost never); farther, as the strong level (the same choices, far cheaper)."""


@dataclass(frozen=True, slots=True)
class StrongPlay:
    """How the strong level pegs (:func:`.pegging.advise`)."""

    node_budget: int = BOT_NODE_BUDGET
    """Positions searched a play, over as many worlds as they allow (at least :data:`.pegging.MIN_WORLDS`)."""
    model: ThrowModel = STRONG_THROWS
    """How the other seats' cards are dealt in its worlds (:mod:`service.core.game.hidden`): as the strong
    level keeps and throws (fives, pairs and runs, not any four cards), or ``UNIFORM``."""
    min_worlds: int = MIN_WORLDS


STRONG = StrongPlay()
"""The strong level's settings."""
@dataclass(frozen=True, slots=True)
class BoardPlay:
    """How the board level values its choices where it plays for the game (:func:`.evaluate.view_values`)."""

    samples: int = 46
    """Worlds a discard is valued over (each unseen starter once) ..."""
    refine: int = 138
    """... and its best four discards over this many more (the close calls decide games near the end)."""
    play_samples: int = 96
    """Worlds a play is valued over, when the other seat's holdings are too many to take each (or its
    throw is inferred)."""
    model: ThrowModel = STRONG_THROWS
    """How the other seat's hidden cards are dealt in its worlds: as the strong level keeps and throws (it
    reads the opponent's discard as a strong player does; the opponent it is measured against is that
    level), or ``UNIFORM``."""
    points_reply: bool = True
    """In the play, the other seat is taken to reply as the points search does (the strong level pegs for
    points and does not see the seat's cards), not as a minimax for the game that sees them."""
    exact_points: bool = False
    """Whether a discard's worlds searched for the game are searched for points too (only the ties of
    the chance read them: without, the show's points break those ties and a discard costs half)."""


BOARD = BoardPlay()
"""The board level's settings (a test makes them cheaper, a benchmark compares two)."""
@dataclass(frozen=True, slots=True)
class Suggestion:
    action: Any
    level: str
    reason: Reason


def suggest(v: SeatView, level: str = "strong", strong: StrongPlay | None = None,
            board: BoardPlay | None = None) -> Suggestion:
    """The bot's action for ``v.seat`` now; :class:`IllegalError` when it has none to take.
    ``strong``: how the strong level pegs (None: :data:`STRONG`; the board level too, far from the
    target); ``board``: the board level's settings (None: :data:`BOARD`)."""
    if v.seat not in v.to_act:
        waiting = ("the game is over" if not v.to_act
                   else "waiting for " + ", ".join(f"seat {s}" for s in v.to_act))
        raise IllegalError(f"seat {v.seat} has nothing to do now (phase {v.phase}); {waiting}",
                           rule="out_of_turn", field="seat")
    routine = routine_action(v)
    if isinstance(routine, Count):
        return Suggestion(routine, level, Counting(v.counting_crib, routine.claim))
    if routine is not None:  # the deal or the cut
        return Suggestion(routine, level, Routine(v.phase))
    if level == "board" and v.phase in (Phase.DISCARD, Phase.PLAY) and _near(v):
        return _for_the_game(v, BOARD if board is None else board)
    if v.phase is Phase.DISCARD:
        return _discard(v, level)
    assert v.phase is Phase.PLAY  # a seat acts in no other phase (over: none is to act)
    return _play(v, level, STRONG if strong is None else strong)


def _discard(v: SeatView, level: str) -> Suggestion:
    own = v.options.owns_crib(v.seat, v.dealer)
    if level == "greedy":
        analysis = analyse_discards(v.hand, v.players, own, model="random")
        best = max(analysis.choices, key=lambda ch: ch.hand.mean)
        return Suggestion(Discard(v.seat, best.discard), level, GreedyDiscard(best.hand.mean))
    # the cards sorted: a tie falls the same way whatever order they were dealt in, so the discard is
    # discards.strong_throw, which the model of hidden cards reads other seats' throws by
    analysis = analyse_discards(sorted(v.hand), v.players, own, model="tuned")
    best = analysis.choices[0]
    return Suggestion(Discard(v.seat, best.discard), level, TunedDiscard(
        analysis.model, own, best.hand.mean, best.crib, best.net,
        analysis.choices[1].net if len(analysis.choices) > 1 else None))


def _play(v: SeatView, level: str, strong: StrongPlay) -> Suggestion:
    seen = (*v.discards, *((v.starter,) if v.starter is not None else ()))
    k = knowledge(v.players, v.pone, v.seat, v.hand, v.plays, seen, v.tournament, observation=v.observation)
    play = k.play
    held = tuple(c for c in v.hand if c not in play.played)
    legal = play._replace(held=tuple(held if s == v.seat else () for s in range(v.players))).legal_actions() \
        if not v.tournament else []
    if len(legal) == 1:  # forced: one card that fits, or go
        return Suggestion(legal[0], level, Forced(Phase.PLAY))
    if level == "greedy":
        action, pts = greedy_action(play, v.seat, held)
        return Suggestion(action, level, GreedyPlay(pts))
    advice = advise(k, BOT_SAMPLES, seed=v.state_key, node_budget=strong.node_budget, model=strong.model,
                    min_worlds=strong.min_worlds)
    options = advice.options
    best = options[0]
    return Suggestion(best.action, level, AdvisedPlay(
        advice.samples, tuple([PlayChoice(o.action, o.own, o.others, o.net) for o in options])))


def _near(v: SeatView) -> bool:
    """Whether the board level plays for the game (two players; three and four play as strong)."""
    return v.players == 2 and max(v.scores, default=0) + BOARD_NEAR >= v.target


def _for_the_game(v: SeatView, board: BoardPlay) -> Suggestion:
    samples = board.play_samples if v.phase is Phase.PLAY else board.samples
    e = evaluate(v, seed=v.state_key, samples=samples, refine=board.refine, exact_points=board.exact_points,
                 model=board.model, points_reply=board.points_reply)
    values = e.values
    if len(values) == 1:
        return Suggestion(values[0].action, "board", Forced(v.phase))
    best = values[0]
    choices = tuple([GameChoice(o.action, o.points, o.win) for o in values]) if v.phase is Phase.PLAY else None
    return Suggestion(best.action, "board", ForTheGame(v.phase, e.worlds, best.win, best.points, values[1].win,
                                                       choices))


def suggest_checked(state: GameState, seat: int, level: str = "strong") -> Suggestion:
    """:func:`suggest` from ``seat``'s view, and the rules' word that the action is legal."""
    s = suggest(seat_view(state, seat), level)
    assert can(state.position, s.action), (s.action, state.position.phase)
    return s


# -- a run of bot turns ----------------------------------------------------------------------

MAX_BOT_ACTIONS = 32
"""The most actions :func:`play_bots` plays in one run (``POST /v1/games/bots``' ``max_actions``)."""


class Stop(StrEnum):
    """Why a run of bot actions stopped (the value is the API's name for it), the first that applies in
    this order: the game is over; no seat to act is a bot's (a human must act, whoever else waits);
    a client deck's deal or cut, whose cards the table supplies, is a bot's to take; the run played
    the last action of a deal, and was asked to stop there; it played ``max_actions``."""

    OVER = "over"
    HUMAN = "human"
    CARDS = "cards"
    DEAL_END = "deal_end"
    LIMIT = "limit"


@dataclass(frozen=True, slots=True)
class BotMove:
    """One action a bot took in a run: the seat, its level, the action and the state it was taken in."""

    seat: int
    level: str
    action: GameAction
    before: GameState


@dataclass(frozen=True, slots=True)
class BotRun:
    """A run of bot actions: where it left the game, every event in order, each action, why it stopped,
    and the seat that acts next (the seat a human plays, the bot the run would have played on, the
    dealer of the next deal; None when the game is over)."""

    state: GameState
    events: tuple[GameEvent, ...]
    moves: tuple[BotMove, ...]
    stopped: Stop
    next_seat: int | None


def play_bots(state: GameState, levels: Mapping[int, str], max_actions: int = MAX_BOT_ACTIONS,
              stop_at_deal_end: bool = False, strong: StrongPlay | None = None,
              board: BoardPlay | None = None) -> BotRun:
    """Play the consecutive actions of the seats in ``levels`` (seat -> level), each decided by
    :func:`suggest` from that seat's view only and applied by the rules
    (:func:`service.core.game.apply_action`), until a seat not in ``levels`` must act, the game is
    over, ``max_actions`` are played or (``stop_at_deal_end``) a deal has ended (:class:`Stop`).
    Where several seats are to act at once (the discards), the bots act first, in seat order.
    A state where no bot is to act plays nothing (``HUMAN``, or ``OVER``)."""
    if not 1 <= max_actions <= MAX_BOT_ACTIONS:
        raise ValueError(f"max_actions is 1 to {MAX_BOT_ACTIONS}")
    for bot_seat, bot_level in levels.items():
        if bot_level not in LEVELS or not 0 <= bot_seat < state.options.players:
            raise ValueError(f"seat {bot_seat} at level {bot_level!r}")
    start_deal = state.deal
    moves: list[BotMove] = []
    events: list[GameEvent] = []
    while True:
        to_act = state.to_act()
        if not to_act:
            return BotRun(state, tuple(events), tuple(moves), Stop.OVER, None)
        seat = next((s for s in to_act if s in levels), None)
        if seat is None:
            return BotRun(state, tuple(events), tuple(moves), Stop.HUMAN, to_act[0])
        if state.options.deck == "client" and state.phase in (Phase.DEAL, Phase.CUT):
            return BotRun(state, tuple(events), tuple(moves), Stop.CARDS, seat)
        if stop_at_deal_end and state.deal != start_deal:
            return BotRun(state, tuple(events), tuple(moves), Stop.DEAL_END, seat)
        if len(moves) == max_actions:
            return BotRun(state, tuple(events), tuple(moves), Stop.LIMIT, seat)
        level = levels[seat]
        action = suggest(seat_view(state, seat), level, strong, board).action
        after, caused = apply_action(state, action)
        moves.append(BotMove(seat, level, action, state))
        events.extend(caused)
        state = after
