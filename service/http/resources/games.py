"""The game operations: start, advance, view and replay, stateless.

The client holds the state and sends it back with each request.  Without a
secret the state is plain JSON for a trusted platform server.  With
``CRIBBAGE_STATE_SECRET`` set it travels sealed (:mod:`service.seal`), every
request names its seat by a seat token, and nothing a seat may not see leaves
the service: its view, its own legal actions, the events as it sees them
(:mod:`service.core.game.observe` decides what a viewer sees; this module
says who is asking and writes the answers with :mod:`service.boundary`).
"""

from __future__ import annotations

import threading
from typing import Any

import falcon
import orjson
from cachetools import LRUCache
from marshmallow import ValidationError, fields, validate

from service.boundary.actions import game_action_from
from service.boundary.games import game_json, legal_json, replay_json
from service.boundary.options import options_from_json
from service.boundary.records import replay_from_json
from service.boundary.state import state_from_json, state_to_json
from service.core.claims import MAX_CLAIM
from service.core.errors import CribbageError, IllegalError, MalformedError, Step, located
from service.core.game import ACTION_TYPES, GameState, apply_action, new_game, notation
from service.core.game.observe import EVERYONE, Viewer, legal_in_error
from service.core.options import SECRET_SEED_LENGTH
from service.seal import Sealer, SeatTokenError

from ..media import read_json_object
from ..problems import ProblemError, from_core_error
from ..schemas import CardField, ShortList, StrictInteger, StrictSchema, load


class StartRequest(StrictSchema):
    # The options' one check is options_from_json and GameOptions (located at the option).
    options = fields.Dict(load_default=dict)
    dealer = StrictInteger(validate=validate.Range(0, 3))
    cuts = ShortList(CardField(), validate=validate.Length(2, 4))
    view = StrictInteger(validate=validate.Range(0, 3), allow_none=True)


class _ActionBase(StrictSchema):
    type = fields.String(required=True)
    seat = StrictInteger(required=True, validate=validate.Range(0, 3))


class DealAction(_ActionBase):
    hands = ShortList(ShortList(CardField(), validate=validate.Length(5, 6)),
                        validate=validate.Length(2, 4))
    crib = ShortList(CardField(), validate=validate.Length(0, 2))


class DiscardAction(_ActionBase):
    cards = ShortList(CardField(), required=True, validate=validate.Length(1, 2))


class CutAction(_ActionBase):
    starter = CardField()
    claim = StrictInteger(validate=validate.Range(0, MAX_CLAIM))


class PlayAction(_ActionBase):
    card = CardField(required=True)
    claim = StrictInteger(validate=validate.Range(0, MAX_CLAIM))


class GoAction(_ActionBase):
    claim = StrictInteger(validate=validate.Range(0, MAX_CLAIM))


class CountAction(_ActionBase):
    claim = StrictInteger(validate=validate.Range(0, MAX_CLAIM))
    what = fields.String(validate=validate.OneOf(("hand", "crib")))


ACTION_SCHEMAS = {"deal": DealAction(), "discard": DiscardAction(), "cut": CutAction(),
                  "play": PlayAction(), "go": GoAction(), "count": CountAction()}
assert tuple(ACTION_SCHEMAS) == ACTION_TYPES


class ActionField(fields.Field[Any]):
    """One game action: its ``type`` picks the schema, so each type takes only its own fields."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise ValidationError("an action is an object with a type and a seat")
        return load_action(value)


def load_action(value: dict[str, Any]) -> dict[str, Any]:
    """Validate one action object (cards parsed); raises :class:`ValidationError`."""
    kind = value.get("type")
    schema = ACTION_SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise ValidationError({"type": [f"one of {', '.join(ACTION_TYPES)}"]})
    loaded: dict[str, Any] = schema.load(value)
    return loaded


class StateField(fields.Field[Any]):
    """A full state (object) or a sealed state (string); checked by the core."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, (dict, str)):
            raise ValidationError("expected a game state object or a sealed state string")
        return value


SEAT_TOKEN = fields.String(validate=validate.Length(1, 64))


class AdvanceRequest(StrictSchema):
    state = StateField(required=True)
    action = ActionField(required=True)
    view = StrictInteger(validate=validate.Range(0, 3), allow_none=True)
    seat_token = SEAT_TOKEN


class ViewRequest(StrictSchema):
    state = StateField(required=True)
    seat = StrictInteger(validate=validate.Range(0, 3), allow_none=True)
    seat_token = SEAT_TOKEN


class RecordSchema(StrictSchema):
    game_id = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{32}$"))
    options = fields.Dict(load_default=dict)
    first_dealer = StrictInteger(required=True, validate=validate.Range(0, 3))
    actions = ShortList(fields.String(validate=validate.Length(1, 120)), required=True,
                          validate=validate.Length(max=5000))


class ReplayRequest(StrictSchema):
    record = fields.Nested(RecordSchema, required=True)


def forbidden(detail: str, field: str = "/seat_token") -> ProblemError:
    return ProblemError(403, "seat-forbidden", "Not this seat's to do or see", detail,
                        errors=[{"field": field, "reason": detail}])


class StateReader:
    """Reads the state a client sends back, sealed or plain (format 2).

    A client sends back the state it was last answered, so each worker keeps
    the states it answered and verified (``cache_size`` of them, 0 for none),
    keyed by their whole text: a hit is the same bytes, hence the same state
    as replaying them again would give.
    """

    def __init__(self, sealer: Sealer | None, cache_size: int = 2048) -> None:
        self.sealer = sealer
        self._cache: LRUCache[str | bytes, GameState] | None = (
            LRUCache(cache_size) if cache_size > 0 else None)
        self._lock = threading.Lock()  # gthread workers answer on several threads

    def _verified(self, key: str | bytes) -> GameState:
        if self._cache is None:
            return self._verify(key)
        with self._lock:
            hit = self._cache.get(key)
        if hit is None:
            hit = self._verify(key)
            with self._lock:
                self._cache[key] = hit
        state: GameState = hit
        return state

    def wire(self, state: GameState) -> Any:
        """The state as it leaves the service (sealed or plain), remembered for its return."""
        data = state_to_json(state)
        if self.sealer is not None:
            token: Any = self.sealer.seal(data, state.game_id, state.seq)
            key: str | bytes = token
        else:
            token = data
            key = orjson.dumps(data) if self._cache is not None else b""
        if self._cache is not None:
            with self._lock:
                self._cache[key] = state
        return token

    def read_state(self, raw: Any) -> GameState:
        """The state a client sent, verified by replaying it."""
        if self.sealer is not None:
            if not isinstance(raw, str):
                raise MalformedError("this service seals game states: send the sealed state string",
                                     at=("state",))
            return self._verified(raw)
        if not isinstance(raw, dict):
            raise MalformedError("this service has no sealing secret: send the state object", at=("state",))
        try:
            key = orjson.dumps(raw)
        except TypeError:  # nested past orjson's limit: no state is
            raise MalformedError("the state is not a game state: it nests too deep", at=("state",)) from None
        return self._verified(key)

    def _verify(self, raw: str | bytes) -> GameState:
        if self.sealer is not None:
            opened = self.sealer.unseal(raw)
            with located("state"):
                state = state_from_json(opened.state)
            if (opened.game_id, opened.seq) != (state.game_id, state.seq):
                raise MalformedError("the sealed header does not match the state", at=("state",))
            return state
        with located("state"):
            return state_from_json(orjson.loads(raw))


class _GameResource:
    def __init__(self, reader: StateReader) -> None:
        self.reader = reader
        self.sealer = reader.sealer

    def read_state(self, raw: Any) -> GameState:
        return self.reader.read_state(raw)

    def seat(self, state: GameState, data: dict[str, Any], plain_key: str) -> Viewer:
        """Who is asking: a seat proven by its token (sealed), or the seat the
        platform names (plain; :data:`EVERYONE` when it names none)."""
        n = state.options.players
        if self.sealer is None:
            if "seat_token" in data:
                raise MalformedError("seat tokens belong to sealed games", at=("seat_token",))
            seat = data.get(plain_key)
            if seat is not None and seat >= n:
                raise MalformedError(f"seat {seat} is not at a {n}-player table", at=(plain_key,))
            return EVERYONE if seat is None else seat
        if data.get(plain_key) is not None:
            raise forbidden(f"a sealed game names its seat by seat_token, not by {plain_key!r}", f"/{plain_key}")
        token = data.get("seat_token")
        return None if token is None else self.token_seat(state, token)  # None: a spectator

    def token_seat(self, state: GameState, token: str, field: str = "/seat_token") -> int:
        """The seat a sealed game's seat token proves (403 for a token not of this game, naming ``field``)."""
        assert self.sealer is not None  # only a sealed game has seat tokens
        try:
            return self.sealer.seat_of(state.game_id, token, state.options.players)
        except SeatTokenError as exc:
            raise forbidden(f"the seat token is not one of this game's: {exc}", field) from None

    def asking(self, seat: Viewer) -> Viewer:
        """Who is told the events and legal actions: the seat (or spectator) a
        sealed game's token proves; in a plain game the trusted platform, told
        everything, whichever seat's view it asked for."""
        return seat if self.sealer is not None else EVERYONE

    # -- answering -----------------------------------------------------------

    def respond(self, resp: falcon.Response, state: GameState, events: list[Any],
                seat: Viewer, seat_tokens: list[str] | None = None) -> None:
        resp.media = game_json(state, self.reader.wire(state), events, seat, self.asking(seat), seat_tokens)


class GameStart(_GameResource):
    _schema = StartRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        with located("options"):
            options = options_from_json(data["options"])
        deck_seed = None
        if self.sealer is not None:
            if data.get("view") is not None:
                raise forbidden("a sealed game shows each seat its view through its seat token", "/view")
            if options.deck == "client":
                # Whoever supplies the cards would see every hand, and a cut's
                # "already dealt" answer would tell the others which cards are out.
                raise MalformedError("a sealed game deals its own cards: choose deck 'random' or 'seeded'",
                                     at=("options", "deck"))
            if options.deck == "seeded":
                # No client can compute a sealed game's pack, not even from its own seed;
                # but whoever knows the seed can start a twin game, so it must be a secret.
                if len(options.seed or "") < SECRET_SEED_LENGTH:
                    raise MalformedError(
                        f"a sealed game's seed is a secret of at least {SECRET_SEED_LENGTH} characters: "
                        "whoever knows it deals the same cards", at=("options", "seed"))
                deck_seed = self.sealer.deck_seed(options.seed or "")
        state, events = new_game(options, dealer=data.get("dealer"), cuts=data.get("cuts"),
                                 deck_seed=deck_seed)
        if data.get("view") is not None and data["view"] >= options.players:
            raise MalformedError(f"seat {data['view']} is not at a {options.players}-player table",
                                 at=("view",))
        seat: Viewer = data.get("view", EVERYONE) if self.sealer is None else None
        tokens = None
        if self.sealer is not None:
            tokens = [self.sealer.seat_token(state.game_id, s) for s in range(options.players)]
        self.respond(resp, state, events, EVERYONE if seat is None and self.sealer is None else seat,
                     seat_tokens=tokens)
        resp.status = falcon.HTTP_201


class GameAdvance(_GameResource):
    _schema = AdvanceRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        state = self.read_state(data["state"])
        action = game_action_from(data["action"])
        seat = self.seat(state, data, "view")
        if self.sealer is not None:
            if seat is None:
                raise forbidden("an action in a sealed game needs the acting seat's seat_token")
            if action.seat != seat:
                raise forbidden(f"this seat token is seat {seat}'s; it cannot act for seat {action.seat}")
        try:
            state, events = apply_action(state, action)
        except IllegalError as exc:
            legal = legal_json(state, legal_in_error(exc, self.asking(seat)))
            raise from_core_error(exc.within("action"), legal) from None
        except CribbageError as exc:
            raise exc.within("action")
        self.respond(resp, state, events, seat)


class GameView(_GameResource):
    _schema = ViewRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        state = self.read_state(data["state"])
        self.respond(resp, state, [], self.seat(state, data, "seat"))


def replayed(record: dict[str, Any], *where: Step) -> tuple[GameState, list[tuple[int, ...]]]:
    """Replay a record loaded by :class:`RecordSchema` that sits at ``where`` in
    the request; an illegal action's legal ones are written in the record's
    own notation (a record is public: every one)."""
    try:
        return replay_from_json(record)
    except IllegalError as exc:
        raise from_core_error(exc.within(*where), [notation(a) for a in exc.legal]) from None
    except CribbageError as exc:
        raise exc.within(*where)


class GameReplay:
    """Replay a whole game's record and verify it (no secret involved: a record is public)."""

    _schema = ReplayRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))["record"]
        state, after = replayed(data, "record")
        resp.media = replay_json(state, after)
