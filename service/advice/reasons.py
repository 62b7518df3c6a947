"""Why the bot chose its action: one frozen record for each way it chooses.

The bot (:mod:`.bot`) answers an action and one of these; the JSON boundary
(:func:`service.boundary.advice.reason_json`) writes each as the answer's
``reason`` object, so the advice layer composes no JSON and a reader of a
suggestion learns what was weighed from its type, not from a dict's keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..core.game import GameAction, Phase
from ..core.play import Go, PlayCard


@dataclass(frozen=True, slots=True)
class Routine:
    """The deal or the cut: nothing to choose."""

    phase: Phase


@dataclass(frozen=True, slots=True)
class Counting:
    """A count in the show: the hand or (``crib``) the crib, and the points claimed (muggins; else None)."""

    crib: bool
    points: int | None


@dataclass(frozen=True, slots=True)
class Forced:
    """One legal action only (a card that fits, or go)."""

    phase: Phase


@dataclass(frozen=True, slots=True)
class GreedyDiscard:
    """The greedy level keeps the hand with the best mean over the starters, the crib ignored."""

    hand_mean: float


@dataclass(frozen=True, slots=True)
class TunedDiscard:
    """The discard with the best net (hand plus or minus crib), by the crib model named."""

    model: str
    own_crib: bool
    hand_mean: float
    crib_mean: float
    net: float
    runner_up_net: float | None


@dataclass(frozen=True, slots=True)
class GreedyPlay:
    """The greedy level lays the card that pegs the most now."""

    points_now: int


@dataclass(frozen=True, slots=True)
class PlayChoice:
    """One legal play as the pegging advisor values it (points for the seat's side, for the others, net)."""

    action: PlayCard | Go
    own: float
    others: float
    net: float


@dataclass(frozen=True, slots=True)
class AdvisedPlay:
    """The strong level's play: the pegging advisor's best over ``samples`` sampled deals."""

    samples: int
    choices: tuple[PlayChoice, ...]


@dataclass(frozen=True, slots=True)
class GameChoice:
    """One legal play valued for the game: expected points and the chance of winning."""

    action: GameAction
    points: float
    win: float


@dataclass(frozen=True, slots=True)
class ForTheGame:
    """The board level near the end: the action with the best chance of winning over ``samples`` worlds;
    in the play, every choice (``choices``; None for a discard)."""

    phase: Phase
    samples: int
    win: float
    points: float
    runner_up_win: float
    choices: tuple[GameChoice, ...] | None


Reason = Union[Routine, Counting, Forced, GreedyDiscard, TunedDiscard, GreedyPlay, AdvisedPlay, ForTheGame]

