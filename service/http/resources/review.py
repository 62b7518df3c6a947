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

from service.advice.review import Review, review_record, review_state
from service.boundary.actions import parse_actions
from service.boundary.options import options_from_json
from service.boundary.review import review_json
from service.core.errors import located
from service.core.game import GameState, result

from ..media import read_json_object
from ..schemas import StrictSchema, load
from .games import GameResource, RecordSchema, StateField, check_deck, check_seal, replayed

class ReviewRequest(StrictSchema):
    record = fields.Nested(RecordSchema)
    state = StateField()

    @validates_schema
    def one_of(self, data: dict[str, Any], **kwargs: Any) -> None:
        if ("record" in data) == ("state" in data):
            raise ValidationError({"record": ["give the game's record or its state, one of them"]})


class GameReview(GameResource):
    """Every decision of a finished game against the best, per-seat summaries and the luck of the cards."""

    _schema = ReviewRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        if "record" in data:
            record = data["record"]
            check_seal(self.sealer, record, "record")
            review, final = self.of_record(record, "record")
        else:
            final, carried = self.read_held(data["state"])
            sealed = self.sealed_record(final, carried)
            # A finished sealed game's state that kept its deals' records: the whole game.
            review, final = (review_state(final), final) if sealed is None else self.of_record(sealed, "state")
        resp.data = orjson.dumps(review_json(review, result(final)))
        resp.content_type = falcon.MEDIA_JSON

    @staticmethod
    def of_record(record: dict[str, Any], where: str) -> tuple[Review, GameState]:
        check_deck(record, where)
        final, _ = replayed(record, where)
        with located(where, "options"):
            options = options_from_json(record["options"])
        with located(where, "actions"):
            actions = parse_actions(record["actions"])
        return review_record(options, record["first_dealer"], record["game_id"], actions, final), final



__all__ = ["GameReview"]
