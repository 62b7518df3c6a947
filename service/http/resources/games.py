"""``POST /v1/games`` and ``POST /v1/games/advance``: a whole game, stateless.

The client holds the state and sends it back with each action.  Without a
secret the state is plain JSON (a trusted platform server holds it); with
``CRIBBAGE_STATE_SECRET`` set it travels sealed (see :mod:`service.seal`), and
every response shows a per-seat ``view`` in which hidden cards are ``null``.
"""

from __future__ import annotations

from typing import Any

import falcon
from marshmallow import ValidationError, fields, validate

from service.core.errors import CribbageError, IllegalError, MalformedError
from service.core.game import ACTION_TYPES, apply_action, event_record, legal_actions, new_game
from service.core.options import DECKS, GameOptions
from service.core.state_json import from_json, to_json
from service.core.views import redact_event, view
from service.seal import Sealer

from ..actions import game_action_from, game_action_json
from ..media import read_json_object
from ..schemas import CardField, StrictBoolean, StrictInteger, StrictSchema, load


class OptionsSchema(StrictSchema):
    players = StrictInteger(validate=validate.OneOf([2, 3, 4]))
    target = StrictInteger(validate=validate.OneOf([61, 121]))
    five_and_two = StrictBoolean()
    deck = fields.String(validate=validate.OneOf(DECKS))
    seed = fields.String(validate=validate.Length(1, 200), allow_none=True)
    ten_value_ties = StrictBoolean()
    tournament = StrictBoolean()
    muggins = StrictBoolean()
    muggins_in_play = StrictBoolean()
    skunk = StrictBoolean()
    double_skunk_games = StrictInteger(validate=validate.OneOf([3, 4]))
    lurch = StrictBoolean()
    loser_deals_first = StrictBoolean()


class StartRequest(StrictSchema):
    options = fields.Nested(OptionsSchema, load_default=dict)
    dealer = StrictInteger(validate=validate.Range(0, 3))
    cuts = fields.List(CardField(), validate=validate.Length(2, 4))
    view = StrictInteger(validate=validate.Range(0, 3), allow_none=True)


class ActionSchema(StrictSchema):
    type = fields.String(required=True, validate=validate.OneOf(ACTION_TYPES))
    seat = StrictInteger(required=True, validate=validate.Range(0, 3))
    card = CardField()
    cards = fields.List(CardField(), validate=validate.Length(1, 2))
    hands = fields.List(fields.List(CardField(), validate=validate.Length(5, 6)),
                        validate=validate.Length(2, 4))
    crib = fields.List(CardField(), validate=validate.Length(0, 2))
    starter = CardField()
    claim = StrictInteger(validate=validate.Range(0, 29))


class StateField(fields.Field):
    """A full state (object) or a sealed state (string); checked by the core."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, (dict, str)):
            raise ValidationError("expected a game state object or a sealed state string")
        return value


class AdvanceRequest(StrictSchema):
    state = StateField(required=True)
    action = fields.Nested(ActionSchema, required=True)
    view = StrictInteger(validate=validate.Range(0, 3), allow_none=True)


class _GameResource:
    def __init__(self, sealer: Sealer | None) -> None:
        self.sealer = sealer

    def respond(self, resp: falcon.Response, state: Any, events: list[Any], seat: int | None,
                asked_view: bool) -> None:
        full = to_json(state)
        if seat is not None and seat >= state.players:
            raise MalformedError(f"seat {seat} is not at a {state.players}-player table", field="view")
        records = [event_record(e, state.options, with_cards=True) for e in events]
        legal = [game_action_json(a) for a in legal_actions(state)]
        body: dict[str, Any] = {"to_act": state.to_act(), "phase": state.phase}
        if self.sealer is not None:
            # Untrusted clients: only what the viewing seat may see leaves the service.
            body["state"] = self.sealer.seal(full)
            body["view"] = view(state, seat)
            body["events"] = [redact_event(e, seat) for e in records]
            body["legal_actions"] = [a for a in legal if a["seat"] == seat]
        else:
            body["state"] = full
            body["view"] = view(state, seat) if asked_view else None
            body["events"] = records
            body["legal_actions"] = legal
        resp.media = body

    def read_state(self, raw: Any) -> Any:
        if self.sealer is not None:
            if not isinstance(raw, str):
                raise MalformedError("this service seals game states: send the sealed state string",
                                     field="state")
            raw = self.sealer.unseal(raw)
        elif not isinstance(raw, dict):
            raise MalformedError("this service has no sealing secret: send the state object",
                                 field="state")
        return from_json(raw)


class GameStart(_GameResource):
    _schema = StartRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        options = GameOptions.from_json(data["options"])
        state = new_game(options, dealer=data.get("dealer"), cuts=data.get("cuts"))
        self.respond(resp, state, [], data.get("view"), "view" in data)
        resp.status = falcon.HTTP_201


class GameAdvance(_GameResource):
    _schema = AdvanceRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        state = self.read_state(data["state"])
        action = game_action_from(data["action"])
        try:
            state, events = apply_action(state, action)
        except CribbageError as exc:
            exc.field = exc.field or "action"
            if self.sealer is not None and isinstance(exc, IllegalError):
                # Legal discards and plays of other seats would show their hidden cards.
                exc.legal = [a for a in exc.legal if a.seat == data.get("view")]
            raise
        self.respond(resp, state, events, data.get("view"), "view" in data)
