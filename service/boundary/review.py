"""A game's review as JSON: ``POST /v1/games/review`` (:mod:`service.advice.review`'s values, written).

Every value is rounded to :data:`DIGITS` decimals: the advisors' estimates
are not finer than that.
"""

from __future__ import annotations

from typing import Any

from service.advice.review import CATEGORIES, THRESHOLDS, Review
from service.core.game import notation
from service.core.options import Outcome

from .actions import action_json
from .views import outcome_json

DIGITS = 4
"""Decimals of every value answered."""


def _r(x: float) -> float:
    return round(x, DIGITS) + 0.0  # + 0.0: no -0.0


def review_json(r: Review, outcome: Outcome | None) -> dict[str, Any]:
    """A finished game's review: every decision against the best, each seat's summary and each
    deal's luck; ``outcome``: the game's result."""
    return {
        "game_id": r.game_id, "whole_game": r.whole_game, "result": outcome_json(outcome),
        "thresholds": {name: t for name, t in reversed(THRESHOLDS)},
        "decisions": [{
            "index": d.index, "deal": d.deal, "seat": d.seat, "kind": d.kind, "forced": d.forced,
            "taken": notation(d.taken), "best": notation(d.best),
            "taken_action": action_json(d.taken), "best_action": action_json(d.best), "category": d.category,
            "points": {"taken": _r(d.taken_value.points), "best": _r(d.best_value.points), "loss": _r(d.loss_points)},
            "win": {"taken": _r(d.taken_value.win), "best": _r(d.best_value.win), "loss": _r(d.loss_win)},
            "worlds": d.worlds,
        } for d in r.decisions],
        "seats": [{
            "seat": s.seat, "side": s.side, "decisions": s.decisions, "forced": s.forced, "errors": s.errors,
            "error_rate": _r(s.error_rate), "categories": {c: s.categories[c] for c in CATEGORIES},
            "loss": {"points": _r(s.loss_points), "win": _r(s.loss_win)},
            "luck": {"dealt": _r(s.dealt_luck), "cut": _r(s.cut_luck), "total": _r(s.dealt_luck + s.cut_luck)},
        } for s in r.seats],
        "deals": [{
            "deal": d.deal, "dealer": d.dealer, "starter": None if d.starter is None else str(d.starter),
            "luck": [{"seat": seat, "dealt": _r(d.dealt[seat]), "cut": _r(d.cut[seat])}
                     for seat in range(len(d.dealt))],
        } for d in r.deals],
    }
