"""``POST /v1/pegging/score`` and ``POST /v1/pegging/go``: adjudicating the play.

Design for illegal plays (the same on every endpoint): the first entry that
breaks a rule stops the adjudication with a 422 problem naming the entry
(``/plays/5``), the rule (``count_over_31``, ``out_of_turn`` ...) and the legal
actions at that point, in the notation of ``plays``.  The one exception is a
renege under tournament rules, which the rules themselves score (2 points a
playable card to the opponent), so it is an event, not an error.

An entry may carry a ``claim``: the points the seat pegged for that card or
go.  Its event then carries the ruling (:func:`~service.core.claims.judge`:
correct, under or over) and scores what the table pegs: an under-claim
stands (the rest is lost) or, with ``muggins`` (muggins in the play), the
next opponent takes what was missed; an over-claim is corrected.  The
totals are what was pegged.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import falcon
import orjson
from marshmallow import ValidationError, fields, missing, validate

from service.boundary.pegging import go_ruling_json, pegging_score_json
from service.core.cards import SPELLINGS, Card
from service.core.claims import MAX_CLAIM, check_muggins_call, settle_play
from service.core.errors import located
from service.core.options import PLAYERS
from service.core.go import count_of, rule_on_go
from service.core.play import GOS, PLAYS, Go, Play, PlayCard, replay

from ..media import read_json_object
from ..schemas import ArrayOf, Cards, DistinctCardsSchema, StrictBoolean, StrictInteger, card_of, load

MAX_PLAYS = 64


class Plays(list[PlayCard | Go]):
    """The loaded entries (the core's actions), with the muggins calls made
    on them: ``calls[i]`` is the opponent's "muggins for N" on entry ``i``."""

    calls: dict[int, int]

    def __init__(self, actions: Iterable[PlayCard | Go] = (), calls: dict[int, int] | None = None) -> None:
        super().__init__(actions)
        self.calls = calls or {}


class PlayEntries(fields.Field[Plays]):
    """``plays``: at most ``MAX_PLAYS`` entries, each ``{"seat": s, "card": c}``
    or ``{"seat": s, "go": true}``, loaded as the core's :class:`PlayCard` and
    :class:`Go`.  One field, not a list of nested schemas (a ``Schema.load``
    per entry): a well-formed entry costs a few dict lookups; any other takes
    :meth:`_entry`, which names every error (``/plays/3/card``)."""

    _seat = StrictInteger(required=True, validate=validate.Range(0, 3))
    _claim = StrictInteger(validate=validate.Range(0, MAX_CLAIM))
    _called = StrictInteger()  # the call itself is the core's to check (claims.check_muggins_call)

    def deserialize(self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any) -> Any:
        if type(value) is list and len(value) <= MAX_PLAYS:
            out: list[PlayCard | Go] = []
            for entry in value:
                if type(entry) is not dict or len(entry) != 2:
                    break
                seat = entry.get("seat")
                if type(seat) is not int or not 0 <= seat <= 3:
                    break
                card = entry.get("card")
                if card is not None:
                    card = SPELLINGS.get(card) if type(card) is str else None
                    if card is None:
                        break
                    out.append(PLAYS[seat][card])
                elif entry.get("go") is True:
                    out.append(GOS[seat])
                else:
                    break
            else:
                return Plays(out)
        return super().deserialize(value, attr, data, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Plays:
        if not isinstance(value, list):
            raise ValidationError("expected an array")
        out: list[PlayCard | Go] = []
        errors: dict[int, Any] = {}
        calls: dict[int, int] = {}
        for i, entry in enumerate(value):
            try:
                out.append(self._entry(entry))
            except ValidationError as err:
                errors[i] = err.messages
                continue
            if "muggins_called" in entry:
                calls[i] = entry["muggins_called"]  # an integer (_entry); the core checks the call
        if errors:
            raise ValidationError(errors)
        if len(out) > MAX_PLAYS:
            raise ValidationError(f"the play of a hand has at most {MAX_PLAYS} entries, not {len(out)}")
        return Plays(out, calls)

    def _entry(self, entry: Any) -> PlayCard | Go:
        if not isinstance(entry, dict):
            raise ValidationError("expected a JSON object")
        errors: dict[str, Any] = {key: ["unknown field"] for key in entry
                                  if key not in ("seat", "card", "go", "claim", "muggins_called")}
        seat: int | None = None
        card: Card | None = None
        claim: int | None = None
        try:
            seat = self._seat.deserialize(entry.get("seat", missing))
        except ValidationError as err:
            errors["seat"] = err.messages
        if "card" in entry:
            try:
                card = card_of(entry["card"])
            except ValidationError as err:
                errors["card"] = err.messages
        if "claim" in entry:
            try:
                claim = self._claim.deserialize(entry["claim"])
            except ValidationError as err:
                errors["claim"] = err.messages
        if "muggins_called" in entry:
            try:
                self._called.deserialize(entry["muggins_called"])
            except ValidationError as err:
                errors["muggins_called"] = err.messages
        if "go" in entry and entry["go"] is not True:
            errors["go"] = ['"go" is true when given' if entry["go"] is False else "expected true or false"]
        if not errors and ("card" in entry) == ("go" in entry):
            errors["_schema"] = ['an entry has either a card or "go": true']
        if errors:
            raise ValidationError(errors)
        assert seat is not None  # read without an error
        if claim is not None:
            return PlayCard(seat, card, claim) if card is not None else Go(seat, claim)
        return PLAYS[seat][card] if card is not None else GOS[seat]


class PeggingScoreRequest(DistinctCardsSchema):
    distinct_fields = ("hands",)
    players = StrictInteger(required=True, validate=validate.OneOf(PLAYERS))
    pone = StrictInteger(required=True, validate=validate.Range(0, 3))
    plays = PlayEntries(required=True)
    hands = ArrayOf(Cards(4, what="a seat's hand for the play"), 2, 4, what="the hands of 2 to 4 seats")
    complete = StrictBoolean(load_default=False)
    tournament = StrictBoolean(load_default=False)
    muggins = StrictBoolean(load_default=False)
    """Muggins in the play: the next opponent takes the points a claim missed."""



class GoRequest(DistinctCardsSchema):
    distinct_fields = ("count_cards", "hand")
    count = StrictInteger(validate=validate.Range(0, 30))
    count_cards = Cards(0, 13, what="the count so far")  # 30 at most: A A A A 2 2 2 2 3 3 3 3 4 is 28
    hand = Cards(1, 4, what="a seat asking about go", required=True)
    tournament = StrictBoolean(load_default=False)

    def check(self, data: dict[str, Any]) -> None:
        if ("count" in data) == ("count_cards" in data):
            raise ValidationError("give either count or count_cards")


class PeggingScore:
    _schema = PeggingScoreRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        plays = data["plays"]
        for i, called in sorted(plays.calls.items()):
            with located("plays", i):
                check_muggins_call(called, data["muggins"], plays[i].claim)
        players, pone = data["players"], data["pone"]
        # The core checks the table: the pone and every entry's seat at it, a hand per seat.
        play = Play.start(players, pone, data.get("hands"), tournament=data["tournament"])
        play, events = replay(play, plays)
        if data["complete"]:
            play.check_complete()
        settled, totals = settle_play(players, events, play.scores, muggins=data["muggins"], calls=plays.calls)
        resp.data = orjson.dumps(pegging_score_json(pone, play, events, settled, totals))
        resp.content_type = falcon.MEDIA_JSON


class PeggingGo:
    _schema = GoRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        count = count_of(data["count_cards"]) if "count_cards" in data else data["count"]
        ruling = rule_on_go(count, data["hand"], tournament=data["tournament"])
        resp.data = orjson.dumps(go_ruling_json(ruling))
        resp.content_type = falcon.MEDIA_JSON
