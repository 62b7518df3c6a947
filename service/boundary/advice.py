"""Advice as JSON: ``POST /v1/discards``, ``POST /v1/pegging/advise``, ``POST /v1/games/suggest`` and
``POST /v1/games/bots``.

The advisors (:mod:`service.advice`) answer with typed values; this writes
them: each discard choice with its hand's outlook and the crib's mean, each
play's points per side, and the bot's action (in the notation a client sends
a move in) with its reason.
"""

from __future__ import annotations

from typing import Any

from service.advice.bot import BotMove, BotRun, Suggestion
from service.advice.reasons import AdvisedPlay, Counting, Forced, GreedyDiscard, GreedyPlay, Reason, Routine, TunedDiscard
from service.advice.discards import DiscardAnalysis, DiscardChoice
from service.advice.pegging import PeggingAdvice, PlayOption
from service.core.game import Discard, GameState, Phase
from service.core.game.observe import Viewer, sees_discard

from .actions import action_json, play_action_json
from .games import game_json


def _choice_json(ch: DiscardChoice) -> dict[str, Any]:
    return {"discard": [str(c) for c in ch.discard], "keep": [str(c) for c in ch.keep],
            "hand": {"mean": ch.hand.mean, "min": ch.hand.min, "max": ch.hand.max,
                     "counts": [{"points": p, "starters": n} for p, n in ch.hand.counts]},
            "crib": {"mean": ch.crib}, "net": ch.net}


def discards_json(a: DiscardAnalysis, dealer: bool) -> dict[str, Any]:
    """Every discard, best first, for a seat that deals (``dealer``) or not."""
    return {"model": a.model, "players": a.players, "dealer": dealer, "own_crib": a.own_crib, "unseen": a.unseen,
            "choices": [_choice_json(ch) for ch in a.choices]}


def _option_json(o: PlayOption) -> dict[str, Any]:
    return {"action": play_action_json(o.action), "own": o.own, "others": o.others, "net": o.net,
            "sides": list(o.points)}


def pegging_advice_json(seat: int, count: int, advice: PeggingAdvice) -> dict[str, Any]:
    """Each legal play of ``seat`` at ``count``, best first, with how it was valued."""
    return {"seat": seat, "count": count, "exact": advice.exact, "samples": advice.samples,
            "positions": advice.nodes, "options": [_option_json(o) for o in advice.options]}


def reason_json(r: Reason) -> dict[str, Any]:
    """Why the bot chose its action, as the answer's ``reason`` (the phase first, then what was weighed)."""
    if isinstance(r, Counting):
        out: dict[str, Any] = {"phase": Phase.SHOW, "counting": "crib" if r.crib else "hand"}
        if r.points is not None:
            out["points"] = r.points
        return out
    if isinstance(r, Routine):
        return {"phase": r.phase}
    if isinstance(r, Forced):
        return {"phase": r.phase, "forced": True}
    if isinstance(r, GreedyDiscard):
        return {"phase": Phase.DISCARD, "hand_mean": r.hand_mean, "crib": "ignored"}
    if isinstance(r, TunedDiscard):
        return {"phase": Phase.DISCARD, "model": r.model, "own_crib": r.own_crib, "hand_mean": r.hand_mean,
                "crib_mean": r.crib_mean, "net": r.net, "runner_up_net": r.runner_up_net}
    if isinstance(r, GreedyPlay):
        return {"phase": Phase.PLAY, "points_now": r.points_now}
    if isinstance(r, AdvisedPlay):
        return {"phase": Phase.PLAY, "samples": r.samples,
                "choices": [{"action": action_json(c.action), "own": c.own, "others": c.others, "net": c.net}
                            for c in r.choices]}
    out = {"phase": r.phase, "samples": r.samples, "win": r.win, "points": r.points, "runner_up_win": r.runner_up_win}
    if r.choices is not None:
        out["choices"] = [{"action": action_json(c.action), "points": c.points, "win": c.win} for c in r.choices]
    return out


def suggestion_json(seat: int, s: Suggestion, state: GameState) -> dict[str, Any]:
    """The bot's action for ``seat`` in ``state``, its level and its reason."""
    return {"seat": seat, "action": action_json(s.action, state), "level": s.level, "reason": reason_json(s.reason)}


def bot_move_json(move: BotMove, told: Viewer) -> dict[str, Any]:
    """One action of a run of bots, as ``told`` may see it: another seat's discard as how many cards
    (``null`` each), as its event shows it; no reason (a strong play's lists the bot's cards)."""
    action = action_json(move.action, move.before)
    if type(move.action) is Discard and not sees_discard(told, move.seat):
        action["cards"] = [None] * len(move.action.cards)
    return {"seat": move.seat, "level": move.level, "action": action}


def bots_json(run: BotRun, wire: Any, seat: Viewer, told: Viewer) -> dict[str, Any]:
    """A run of bots' answer: ``advance``'s (:func:`.games.game_json`: the state after the run, every
    event of the run, ``seat``'s view, what ``told`` may know), the actions played and why it stopped."""
    out = game_json(run.state, wire, run.events, seat, told)
    out["bot_actions"] = [bot_move_json(m, told) for m in run.moves]
    out["stopped"] = run.stopped
    return out
