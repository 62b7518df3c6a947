"""``POST /v1/games/review``: a finished game's review (:mod:`service.advice.review`).

Thin: a record (as ``/v1/games/replay`` takes it, replayed and verified the same
way) or a finished game's state (read as ``/v1/games/advance`` reads it, sealed
or plain), then the review, written as JSON.  A game is reviewed only once it is
over, so a review never shows a card a seat could not yet see.
"""

from __future__ import annotations

from typing import Any

import falcon
import orjson
from marshmallow import ValidationError, fields, validates_schema

from service.advice.review import CATEGORIES, THRESHOLDS, Review, review_record, review_state
from service.boundary.actions import parse_actions
from service.boundary.options import options_from_json
from service.boundary.views import outcome_json
from service.core.errors import located
from service.core.game import notation, result

from ..media import read_json_object
from ..schemas import StrictSchema, load
from .games import RecordSchema, StateField, _GameResource, replayed

DIGITS = 4
"""Decimals of every value answered: the advisors' estimates are not finer than that."""


class ReviewRequest(StrictSchema):
    record = fields.Nested(RecordSchema)
    state = StateField()

    @validates_schema
    def one_of(self, data: dict[str, Any], **kwargs: Any) -> None:
        if ("record" in data) == ("state" in data):
            raise ValidationError({"record": ["give the game's record or its state, one of them"]})


def _r(x: float) -> float:
    return round(x, DIGITS) + 0.0  # + 0.0: no -0.0


def review_json(r: Review, outcome: Any) -> dict[str, Any]:
    return {
        "game_id": r.game_id, "whole_game": r.whole_game, "result": outcome,
        "thresholds": {name: t for name, t in reversed(THRESHOLDS)},
        "decisions": [{
            "index": d.index, "deal": d.deal, "seat": d.seat, "kind": d.kind, "forced": d.forced,
            "taken": notation(d.taken), "best": notation(d.best), "category": d.category,
            "points": {"taken": _r(d.taken_value.points), "best": _r(d.best_value.points), "loss": _r(d.loss_points)},
            "win": {"taken": _r(d.taken_value.win), "best": _r(d.best_value.win), "loss": _r(d.loss_win)},
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


class GameReview(_GameResource):
    """Every decision of a finished game against the best, per-seat summaries and the luck of the cards."""

    _schema = ReviewRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        if "record" in data:
            record = data["record"]
            final, _ = replayed(record, "record")
            with located("record", "options"):
                options = options_from_json(record["options"])
            with located("record", "actions"):
                actions = parse_actions(record["actions"])
            review = review_record(options, record["first_dealer"], record["game_id"], actions, final)
        else:
            final = self.read_state(data["state"])
            review = review_state(final)
        resp.data = orjson.dumps(review_json(review, outcome_json(result(final))))
        resp.content_type = falcon.MEDIA_JSON


__all__ = ["GameReview"]
