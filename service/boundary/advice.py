"""Advice as JSON: ``POST /v1/discards``, ``POST /v1/pegging/advise`` and ``POST /v1/games/suggest``.

The advisors (:mod:`service.advice`) answer with typed values; this writes
them: each discard choice with its hand's outlook and the crib's mean, each
play's points per side, and the bot's action (in the notation a client sends
a move in) with its reason.
"""

from __future__ import annotations

from typing import Any

from service.advice.bot import Suggestion
from service.advice.discards import DiscardAnalysis, DiscardChoice
from service.advice.pegging import PeggingAdvice, PlayOption
from service.core.game import GameState
from service.core.play import Go, PlayCard

from .actions import action_json, play_action_json


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


def _reason_json(value: Any) -> Any:
    """The bot's reason, its actions (the play's, among its choices) written as game actions."""
    if isinstance(value, dict):
        return {k: _reason_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_reason_json(v) for v in value]
    if isinstance(value, (PlayCard, Go)):
        return action_json(value)
    return value


def suggestion_json(seat: int, s: Suggestion, state: GameState) -> dict[str, Any]:
    """The bot's action for ``seat`` in ``state``, its level and its reason."""
    return {"seat": seat, "action": action_json(s.action, state), "level": s.level, "reason": _reason_json(s.reason)}
