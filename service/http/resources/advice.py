"""``POST /v1/discards``, ``POST /v1/pegging/advise``, ``POST /v1/games/suggest``, ``POST /v1/games/bots``:
advice and a bot.

Thin: validate, call :mod:`service.advice`, serialise.  The suggestion reads
the game state exactly as ``/v1/games/advance`` does (the same
:class:`~.games.StateReader`, the same seat rules: in sealed mode a seat
token, and a seat may ask only for itself) and the bot decides from the
seat's own view, in plain mode too.  ``/v1/games/bots`` plays a run of bot
actions in one request (:func:`service.advice.bot.play_bots`): in sealed mode
every bot seat is proven by its seat token, and the answer is written for the
seat that acts next when it is one of them, else for a spectator.
"""

from __future__ import annotations

from typing import Any

import falcon
import orjson
from marshmallow import ValidationError, fields, validate

from service.advice import bot
from service.advice.discards import MODELS, STRONG_THROWS, analyse_discards
from service.advice.pegging import advise, knowledge, solve_known
from service.boundary.advice import bots_json, discards_json, pegging_advice_json, suggestion_json
from service.core.errors import IllegalError, MalformedError
from service.core.game.hidden import UNIFORM
from service.core.game.observe import EVERYONE, Viewer
from service.core.options import PLAYERS, check_seat
from service.core.play import Play, replay

from ..media import read_json_object
from ..schemas import (
    ArrayOf,
    CardField,
    Cards,
    DistinctCardsSchema,
    ShortList,
    StrictBoolean,
    StrictInteger,
    StrictSchema,
    load,
)
from .games import SEAT_TOKEN, GameResource, StateField, forbidden
from .pegging import PlayEntries

MAX_SAMPLES = 200
MAX_SEED = 2**31 - 1
MAX_KNOWN = 39
"""Known cards a discard question can name at most: 52 less the seat's 6 (or 5), the
other seat's and the starter (2 players; fewer with more, which the core checks)."""


class DiscardsRequest(DistinctCardsSchema):
    distinct_fields = ("cards", "known")
    cards = Cards(5, 6, what="a seat's deal", required=True)
    players = StrictInteger(load_default=2, validate=validate.OneOf(PLAYERS))
    dealer = StrictBoolean(required=True)
    partner_deals = StrictBoolean(load_default=False)
    known = Cards(0, MAX_KNOWN, what="the known cards", load_default=())
    model = fields.String(load_default="tuned", validate=validate.OneOf(MODELS))

    def check(self, data: dict[str, Any]) -> None:
        if data["partner_deals"] and (data["players"] != 4 or data["dealer"]):
            raise ValidationError({"partner_deals": ["a partner deals only with 4 players, when the seat does not"]})


class Discards:
    _schema = DiscardsRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        own = data["dealer"] or data["partner_deals"]
        a = analyse_discards(data["cards"], data["players"], own, data["known"], data["model"])
        resp.data = orjson.dumps(discards_json(a, data["dealer"]))
        resp.content_type = falcon.MEDIA_JSON


OPPONENTS = ("uniform", "strong")
"""How the other seat's cards are dealt in the advisor's deals: at random from the unseen cards, or read from
what a strong player keeps and throws (the strong bot's deals)."""


class AdviseRequest(DistinctCardsSchema):
    distinct_fields = ("hand", "discards", "starter", "known")
    players = StrictInteger(required=True, validate=validate.OneOf(PLAYERS))
    pone = StrictInteger(required=True, validate=validate.Range(0, 3))
    seat = StrictInteger(required=True, validate=validate.Range(0, 3))
    hand = Cards(4, what="the seat's four cards for the play", required=True)
    plays = PlayEntries(load_default=list)
    starter = CardField()
    discards = Cards(0, 2, what="the seat's discards", load_default=())
    known = Cards(0, 20, what="other cards the seat has seen", load_default=())
    samples = StrictInteger(validate=validate.Range(1, MAX_SAMPLES))
    seed = StrictInteger(load_default=0, validate=validate.Range(0, MAX_SEED))
    solve = StrictBoolean(load_default=False)
    hands = ArrayOf(Cards(4, what="a seat's hand for the play"), 2, 4, what="the hands of 2 to 4 seats")
    tournament = StrictBoolean(load_default=False)
    opponent = fields.String(load_default="uniform", validate=validate.OneOf(OPPONENTS))

    def check(self, data: dict[str, Any]) -> None:
        if data["solve"] != ("hands" in data):
            raise ValidationError({"hands": ["give every seat's hands exactly when solve is true"]})
        if data["solve"] and "samples" in data:
            raise ValidationError({"samples": ["a solve with every hand known takes no samples"]})
        if data["opponent"] == "strong" and data["solve"]:
            raise ValidationError({"opponent": ["the other seats' cards are read from their throws when they are"
                                                " sampled, not with solve"]})


class PeggingAdvise:
    _schema = AdviseRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        players, pone, seat = data["players"], data["pone"], data["seat"]
        for name in ("pone", "seat"):
            check_seat(players, data[name], (name,))
        seen = (*data["discards"], *((data["starter"],) if "starter" in data else ()), *data["known"])
        k = knowledge(players, pone, seat, data["hand"], data["plays"], seen, data["tournament"],
                      discards=data["discards"] or None)
        if data["solve"]:
            hands = data["hands"]
            if len(hands) != players:
                raise MalformedError(f"give the cards of all {players} seats", at=("hands",))
            if set(hands[seat]) != set(data["hand"]):
                raise MalformedError(f"hands/{seat} is the seat's hand", at=("hands", seat))
            if {c for h in hands for c in h} & set(seen):
                raise MalformedError("a hand holds a card given as seen elsewhere", at=("hands",))
            try:
                play, _ = replay(Play.start(players, pone, hands, tournament=data["tournament"]), data["plays"])
            except IllegalError as exc:  # the hands contradict the play; replay names the entry
                raise MalformedError(f"the plays do not fit the hands: {exc}", at=exc.at) from None
            result = solve_known(play)
        else:
            model = STRONG_THROWS if data["opponent"] == "strong" else UNIFORM
            result = advise(k, data.get("samples"), data["seed"], model=model)
        resp.data = orjson.dumps(pegging_advice_json(seat, k.play.count, result))
        resp.content_type = falcon.MEDIA_JSON


class SuggestRequest(StrictSchema):
    state = StateField(required=True)
    seat = StrictInteger(validate=validate.Range(0, 3))
    seat_token = SEAT_TOKEN
    level = fields.String(load_default="strong", validate=validate.OneOf(bot.LEVELS))


class GameSuggest(GameResource):
    """The bot's action for one seat: the same state and seat rules as ``advance``."""

    _schema = SuggestRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        state = self.read_state(data["state"])
        seat = self.bot_seat(state, data)
        s = bot.suggest(bot.seat_view(state, seat), data["level"])
        resp.data = orjson.dumps(suggestion_json(seat, s, state))
        resp.content_type = falcon.MEDIA_JSON


class BotSeat(StrictSchema):
    seat = StrictInteger(required=True, validate=validate.Range(0, 3))
    level = fields.String(load_default="strong", validate=validate.OneOf(bot.LEVELS))


class BotsRequest(StrictSchema):
    state = StateField(required=True)
    bots = ShortList(fields.Nested(BotSeat), required=True, validate=validate.Length(1, 4))
    seat_tokens = ShortList(SEAT_TOKEN, validate=validate.Length(1, 4))
    max_actions = StrictInteger(load_default=bot.MAX_BOT_ACTIONS, validate=validate.Range(1, bot.MAX_BOT_ACTIONS))
    stop_at_deal_end = StrictBoolean(load_default=False)


class GameBots(GameResource):
    """A run of bot actions in one request: the state and seat rules of ``advance``, ``advance``'s answer."""

    _schema = BotsRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        state = self.read_state(data["state"])
        n = state.options.players
        levels: dict[int, str] = {}
        for i, entry in enumerate(data["bots"]):
            seat = check_seat(n, entry["seat"], ("bots", i, "seat"))
            if seat in levels:
                raise MalformedError(f"seat {seat} is listed twice", at=("bots", i, "seat"))
            levels[seat] = entry["level"]
        self.prove(state, data, levels)
        run = bot.play_bots(state, levels, data["max_actions"], data["stop_at_deal_end"])
        viewer: Viewer
        told: Viewer
        if self.sealer is None:  # the trusted platform: told everything, shown the next seat's view
            viewer, told = (EVERYONE if run.next_seat is None else run.next_seat), EVERYONE
        else:  # only a seat the tokens proved, else what a spectator sees
            viewer = run.next_seat if run.next_seat in levels else None
            told = viewer
        resp.media = bots_json(run, self.reader.wire(run.state), viewer, told)

    def prove(self, state: Any, data: dict[str, Any], levels: dict[int, str]) -> None:
        """Sealed: every bot seat proven by its token, each token a bot's; plain: no tokens."""
        tokens = data.get("seat_tokens")
        if self.sealer is None:
            if tokens is not None:
                raise MalformedError("seat tokens belong to sealed games", at=("seat_tokens",))
            return
        proven: set[int] = set()
        for i, token in enumerate(tokens or ()):
            seat = self.token_seat(state, token, f"/seat_tokens/{i}")
            if seat in proven:
                raise MalformedError(f"seat {seat}'s token is given twice", at=("seat_tokens", i))
            if seat not in levels:
                raise forbidden(f"this seat token is seat {seat}'s, which is not one of the bots", f"/seat_tokens/{i}")
            proven.add(seat)
        missing = [s for s in levels if s not in proven]
        if missing:
            raise forbidden("a bot in a sealed game acts only with its seat's seat_token: none for seat "
                            + ", ".join(map(str, missing)), "/seat_tokens")


__all__ = ["Discards", "GameBots", "GameSuggest", "PeggingAdvise"]
