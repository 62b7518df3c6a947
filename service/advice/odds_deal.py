"""The chance of winning from within a deal, estimated from what one viewer may see.

The one evaluation engine's value of the position (:func:`.evaluate.position_value`): the cards the
viewer cannot see are dealt by the core's one model of hidden cards (:mod:`service.core.game.hidden`),
the other seats' discards read as the strong level throws (:data:`.discards.STRONG_THROWS`), as
worlds (every world with its chance where they are few); in each the rest of the deal is played out
(the seats yet to discard as the strong level, the play double dummy, the show in its order) and
valued: a side that reaches the target wins; otherwise the next deal's start is read from the table
(:func:`.odds.board_odds`), or for 3 players one game is played on by drawing the shipped deals
(:func:`.odds.play_out`).  Where the viewer is to act, the chances follow the action its strong
level takes (the review values each decision over the same worlds: its ``win`` for that action is this
answer).

The estimate is the mean over the worlds, with its standard error; the number of worlds is the
caller's, bounded by a time budget once :data:`.pegging.MIN_WORLDS` are valued.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

from service.core.game import GameState, Phase, result
from service.core.game.observe import Viewer
from service.core.options import Outcome

from . import bot, odds
from .discards import STRONG_THROWS
from .evaluate import position_value
from .view import observer_view

TIME_BUDGET = 0.5
"""Seconds of valuing worlds, after the first :data:`.pegging.MIN_WORLDS`; the answer says how many fitted."""


@dataclass(frozen=True, slots=True)
class DealEstimate:
    chances: tuple[float, ...]
    standard_errors: tuple[float, ...]
    samples: int
    """Worlds valued (0: none, the position is a deal's start or the game's end)."""
    method: str
    """``table`` (a deal's start, 2 or 4 players), ``simulation`` (a deal's start, 3 players), ``over``,
    ``sampled`` (within a deal, sampled worlds), ``exact`` (within a deal, every world with its chance)."""
    seconds: float


def at_deal_start(state: GameState, outcome: Outcome | None) -> tuple[float, ...] | None:
    """Each side's chance at the start of the state's deal, by the table: 1 and 0 once the game is over
    (``outcome``: the state's result); None with 3 players, who have no table (:func:`deal_start`
    simulates).  Every game view shows it; a lookup (cached: every answer of a deal asks the same)."""
    o = state.options
    if outcome is not None:
        return tuple(1.0 if s == outcome.winner else 0.0 for s in range(o.sides))
    if o.players == 3:
        return None
    return _table(o.players, o.target, tuple(f for f, _ in state.pegs), state.dealer, o.five_and_two)


@lru_cache(maxsize=8192)
def _table(players: int, target: int, scores: tuple[int, ...], dealer: int, five_and_two: bool) -> tuple[float, ...]:
    return odds.board_odds(players, target, scores, dealer, five_and_two)


def deal_start(state: GameState) -> DealEstimate:
    """The table's answer at the start of the state's deal (or the game's result)."""
    o = state.options
    over = result(state)
    chances = at_deal_start(state, over)
    if chances is None:
        e = odds.estimate(o.target, tuple(f for f, _ in state.pegs), state.dealer)
        return DealEstimate(e.chances, e.standard_errors, 0, "simulation", 0.0)
    return DealEstimate(chances, (0.0,) * o.sides, 0, "over" if over is not None else "table", 0.0)


def estimate_now(state: GameState, viewer: Viewer, samples: int, seed: int | str = 0,
                 budget: float = TIME_BUDGET) -> DealEstimate:
    """Each side's chance from the position now as ``viewer`` sees it (see the module's docstring)."""
    if result(state) is not None or state.phase is Phase.DEAL:
        return deal_start(state)
    start = time.perf_counter()
    v = observer_view(state, viewer)
    action = bot.suggest(v, "strong").action if isinstance(viewer, int) and viewer in v.to_act else None
    e = position_value(v, seed=seed, samples=samples, model=STRONG_THROWS, action=action, budget=budget,
                       lead_search=False)
    return DealEstimate(e.chances, e.standard_errors, e.worlds, "exact" if e.exact else "sampled",
                        time.perf_counter() - start)
