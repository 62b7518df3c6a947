"""``POST /v1/pegging/score`` and ``POST /v1/pegging/go``: adjudicating the play.

Design for illegal plays (the same on every endpoint): the first entry that
breaks a rule stops the adjudication with a 422 problem naming the entry
(``/plays/5``), the rule (``count_over_31``, ``out_of_turn`` ...) and the legal
actions at that point, in the notation of ``plays``.  The one exception is a
renege under tournament rules, which the rules themselves score (2 points a
playable card to the opponent), so it is an event, not an error.
"""

from __future__ import annotations

from typing import Any

import falcon
from marshmallow import ValidationError, fields, validate, validates_schema

from service.core.errors import IllegalError, MalformedError
from service.core.play import Go, Play, PlayCard, replay, rule_on_go

from ..actions import action_json
from ..media import read_json_object
from ..problems import invalid_request
from .hands import duplicate_errors
from ..schemas import CardField, StrictBoolean, StrictInteger, StrictSchema, load

MAX_PLAYS = 64


class PlayEntry(StrictSchema):
    seat = StrictInteger(required=True, validate=validate.Range(0, 3))
    card = CardField()
    go = StrictBoolean()

    @validates_schema
    def _card_or_go(self, data: dict[str, Any], **_: Any) -> None:
        if ("card" in data) == ("go" in data):
            raise ValidationError("an entry has either a card or \"go\": true")
        if data.get("go") is False:
            raise ValidationError("\"go\" is true when given", field_name="go")


def _hand_of_four(value: list[Any]) -> None:
    if len(value) != 4:
        raise ValidationError(f"a seat holds 4 cards for the play, not {len(value)}")


class PeggingScoreRequest(StrictSchema):
    players = StrictInteger(required=True, validate=validate.OneOf([2, 3, 4]))
    pone = StrictInteger(required=True, validate=validate.Range(0, 3))
    plays = fields.List(fields.Nested(PlayEntry), required=True, validate=validate.Length(max=MAX_PLAYS))
    hands = fields.List(fields.List(CardField(), validate=_hand_of_four),
                        validate=validate.Length(2, 4))
    complete = StrictBoolean(load_default=False)
    tournament = StrictBoolean(load_default=False)


class GoRequest(StrictSchema):
    count = StrictInteger(validate=validate.Range(0, 30))
    count_cards = fields.List(CardField(), validate=validate.Length(max=16))
    hand = fields.List(CardField(), required=True, validate=validate.Length(1, 4))
    tournament = StrictBoolean(load_default=False)

    @validates_schema
    def _count_or_cards(self, data: dict[str, Any], **_: Any) -> None:
        if ("count" in data) == ("count_cards" in data):
            raise ValidationError("give either count or count_cards")


def score_json(s: Any) -> dict[str, Any]:
    out = {"seat": s.seat, "kind": s.kind, "points": s.points}
    if s.cards:
        out["cards"] = [str(c) for c in s.cards]
    return out


def _event_json(index: int, event: Any) -> dict[str, Any]:
    return {"index": index, **action_json(event.action), "count": event.count,
            "points": event.points, "scores": [score_json(s) for s in event.scores],
            "reset": event.reset}


def _no_card_twice(named: list[tuple[str, Any]]) -> None:
    errors = duplicate_errors(named)
    if errors:
        raise invalid_request(errors)


class PeggingScore:
    _schema = PeggingScoreRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        players, pone = data["players"], data["pone"]
        if pone >= players:
            raise MalformedError(f"seat {pone} is not at a {players}-player table", field="pone")
        hands = data.get("hands")
        if hands is not None:
            if len(hands) != players:
                raise MalformedError(f"give the cards of all {players} seats", field="hands")
            _no_card_twice([(f"/hands/{s}/{i}", c) for s, h in enumerate(hands) for i, c in enumerate(h)])
        actions = []
        for i, entry in enumerate(data["plays"]):
            if entry["seat"] >= players:
                raise MalformedError(f"seat {entry['seat']} is not at a {players}-player table",
                                     field=f"plays/{i}/seat")
            actions.append(PlayCard(entry["seat"], entry["card"]) if "card" in entry else Go(entry["seat"]))
        play = Play.start(players, pone, hands, tournament=data["tournament"])
        play, events = replay(play, actions)
        if data["complete"] and not play.hand_over:
            raise IllegalError(
                "the plays are said to be the whole hand, but "
                + ", ".join(f"seat {s} still holds {n}" for s, n in enumerate(play.left) if n),
                rule="hand_not_complete", legal=play.legal_actions(), field="plays",
            )
        team = play.team_scores()
        legal = play.legal_actions()
        resp.media = {
            "players": players,
            "pone": pone,
            "events": [_event_json(i, e) for i, e in enumerate(events)],
            "totals": list(play.scores),
            "partnerships": list(team) if team else None,
            "hand_over": play.hand_over,
            "next": {
                "seat": play.turn,
                "count": play.count,
                "count_cards": [str(c) for c in play.count_cards],
                "legal": [action_json(a) for a in legal],
            },
        }


class PeggingGo:
    _schema = GoRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        hand = data["hand"]
        if "count_cards" in data:
            cards = data["count_cards"]
            _no_card_twice([(f"/count_cards/{i}", c) for i, c in enumerate(cards)]
                           + [(f"/hand/{i}", c) for i, c in enumerate(hand)])
            count = sum(c.value for c in cards)
            if count > 30:
                raise MalformedError(
                    f"the cards of a count in progress add up to 30 at most, not {count}",
                    field="count_cards",
                )
        else:
            count = data["count"]
        ruling = rule_on_go(count, hand, tournament=data["tournament"])
        resp.media = {
            "legal": ruling.legal,
            "count": ruling.count,
            "playable": [str(c) for c in ruling.playable],
            "penalty": (
                {"points": ruling.penalty, "to": "opponent", "rule": "ACC 7.3 renege"}
                if data["tournament"] and not ruling.legal else None
            ),
        }
