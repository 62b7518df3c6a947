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

from service.advice.review import review_record, review_state
from service.boundary.actions import parse_actions
from service.boundary.options import options_from_json
from service.boundary.review import review_json
from service.core.errors import located
from service.core.game import result

from ..media import read_json_object
from ..schemas import StrictSchema, load
from .games import RecordSchema, StateField, _GameResource, replayed

class ReviewRequest(StrictSchema):
    record = fields.Nested(RecordSchema)
    state = StateField()

    @validates_schema
    def one_of(self, data: dict[str, Any], **kwargs: Any) -> None:
        if ("record" in data) == ("state" in data):
            raise ValidationError({"record": ["give the game's record or its state, one of them"]})


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
        resp.data = orjson.dumps(review_json(review, result(final)))
        resp.content_type = falcon.MEDIA_JSON


__all__ = ["GameReview"]
