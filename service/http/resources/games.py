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

import secrets
import threading
from typing import Any

import falcon
import orjson
from cachetools import LRUCache
from marshmallow import ValidationError, fields, validate

from service.boundary.actions import game_action_from
from service.boundary.games import deal_records_json, deck_json, game_json, legal_json, replay_json
from service.boundary.options import options_from_json
from service.boundary.records import carried_after, check_packs, replay_from_json, whole_record
from service.boundary.state import NEXT, NOTHING, VERSION, Carried, held_from_json, state_to_json
from service.core.claims import MAX_CLAIM
from service.core.errors import CribbageError, IllegalError, MalformedError, Step, located
from service.core.game import ACTION_TYPES, GameState, apply_action, new_game, notation, restore
from service.core.game.deck import mixed_seed
from service.core.game.observe import EVERYONE, Viewer, legal_in_error
from service.core.options import SECRET_SEED_LENGTH, check_seat
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


CONTRIBUTION = r"^[0-9a-f]{64}$"


class ContributeRequest(StrictSchema):
    state = StateField(required=True)
    seat_token = SEAT_TOKEN
    contribution = fields.String(required=True, validate=validate.Regexp(CONTRIBUTION))


class ViewRequest(StrictSchema):
    state = StateField(required=True)
    seat = StrictInteger(validate=validate.Range(0, 3), allow_none=True)
    seat_token = SEAT_TOKEN


class DeckSchema(StrictSchema):
    commitment = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{64}$"))
    server_seed = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{32}$"))
    contributions = ShortList(fields.String(allow_none=True, validate=validate.Regexp(CONTRIBUTION)),
                              required=True, validate=validate.Length(2, 4))


class RecordSchema(StrictSchema):
    game_id = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{32}$"))
    options = fields.Dict(load_default=dict)
    first_dealer = StrictInteger(required=True, validate=validate.Range(0, 3))
    actions = ShortList(fields.String(validate=validate.Length(1, 120)), required=True,
                          validate=validate.Length(max=5000))
    seal = fields.String(validate=validate.Regexp(r"^rs\.[0-9a-f]{8}\.[A-Za-z0-9_-]{43}$"))
    deck = fields.Nested(DeckSchema)


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

    def __init__(self, sealer: Sealer | None, cache_size: int = 2048, writes: int = VERSION) -> None:
        self.sealer = sealer
        self.writes = writes
        """The state format written (``CRIBBAGE_STATE_FORMAT``): 2, or 3 once every replica reads it."""
        self._cache: LRUCache[str | bytes, tuple[GameState, Carried]] | None = (
            LRUCache(cache_size) if cache_size > 0 else None)
        self._lock = threading.Lock()  # gthread workers answer on several threads

    @property
    def keeps_records(self) -> bool:
        """Whether a new game's state keeps its finished deals' records: a sealed game's, in format 3."""
        return self.sealer is not None and self.writes >= 3

    def _verified(self, key: str | bytes) -> tuple[GameState, Carried]:
        if self._cache is None:
            return self._verify(key)
        with self._lock:
            hit = self._cache.get(key)
        if hit is None:
            hit = self._verify(key)
            with self._lock:
                self._cache[key] = hit
        return hit

    def wire(self, state: GameState, carried: Carried = NOTHING) -> Any:
        """The state as it leaves the service (sealed or plain), remembered for its return."""
        # A state that carries something (read as format 3, which every replica of this release
        # reads) stays format 3 whatever this replica writes new games in: nothing is dropped.
        data = state_to_json(state, carried, max(self.writes, NEXT) if carried != NOTHING else self.writes)
        if self.sealer is not None:
            token: Any = self.sealer.seal(data, state.game_id, state.seq)
            key: str | bytes = token
        else:
            token = data
            key = orjson.dumps(data) if self._cache is not None else b""
        if self._cache is not None:
            with self._lock:
                self._cache[key] = (state, carried)
        return token

    def read_state(self, raw: Any) -> GameState:
        """The state a client sent, verified by replaying it."""
        return self.read_held(raw)[0]

    def read_held(self, raw: Any) -> tuple[GameState, Carried]:
        """The state a client sent and what it carries, verified."""
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

    def _verify(self, raw: str | bytes) -> tuple[GameState, Carried]:
        if self.sealer is not None:
            opened = self.sealer.unseal(raw)
            with located("state"):
                held = held_from_json(opened.state)
            if (opened.game_id, opened.seq) != (held[0].game_id, held[0].seq):
                raise MalformedError("the sealed header does not match the state", at=("state",))
            return held
        with located("state"):
            return held_from_json(orjson.loads(raw))


class GameResource:
    """What every resource on a game shares: reading the state a request carries (plain or
    sealed), telling which seat is asking, and answering with the state, its events and its
    sealed record."""

    def __init__(self, reader: StateReader) -> None:
        self.reader = reader
        self.sealer = reader.sealer

    def read_state(self, raw: Any) -> GameState:
        return self.reader.read_state(raw)

    def read_held(self, raw: Any) -> tuple[GameState, Carried]:
        return self.reader.read_held(raw)

    def seat(self, state: GameState, data: dict[str, Any], plain_key: str) -> Viewer:
        """Who is asking: a seat proven by its token (sealed), or the seat the
        platform names (plain; :data:`EVERYONE` when it names none)."""
        n = state.options.players
        if self.sealer is None:
            if "seat_token" in data:
                raise MalformedError("seat tokens belong to sealed games", at=("seat_token",))
            seat = data.get(plain_key)
            return EVERYONE if seat is None else check_seat(n, seat, (plain_key,))
        if data.get(plain_key) is not None:
            raise forbidden(f"a sealed game names its seat by seat_token, not by {plain_key!r}", f"/{plain_key}")
        token = data.get("seat_token")
        return None if token is None else self.token_seat(state, token)  # None: a spectator

    def bot_seat(self, state: GameState, data: dict[str, Any]) -> int:
        """The seat a bot acts for: named by ``seat`` (plain, where it must be named), or proven by
        ``seat_token`` (sealed, where a ``seat`` also given must be the token's)."""
        if self.sealer is None:
            if "seat_token" in data:
                raise MalformedError("seat tokens belong to sealed games", at=("seat_token",))
            if "seat" not in data:
                raise MalformedError("name the seat the bot plays", at=("seat",))
            return check_seat(state.options.players, data["seat"], ("seat",))
        if "seat_token" not in data:
            raise forbidden("a suggestion in a sealed game needs the seat's seat_token")
        seat = self.token_seat(state, data["seat_token"])
        if "seat" in data and data["seat"] != seat:
            raise forbidden(f"this seat token is seat {seat}'s; it cannot ask for seat {data['seat']}", "/seat")
        return seat

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
                seat: Viewer, seat_tokens: list[str] | None = None, carried: Carried = NOTHING,
                records: bool = False) -> None:
        """``records``: a view's answer, which gives a state's finished deals' records (public:
        each came once its crib was counted) to whoever looks, so every seat has them."""
        answer = game_json(state, self.reader.wire(state, carried), events, seat, self.asking(seat), seat_tokens)
        deck = self.deck(state, carried)
        if deck is not None:
            answer["deck"] = deck
        if records and self.sealer is not None and carried.records is not None:
            answer["deal_records"] = deal_records_json(carried.records)
        record = self.sealed_record(state, carried)
        if record is not None:
            answer["record"] = record
        resp.media = answer

    def sealed_record(self, state: GameState, carried: Carried) -> dict[str, Any] | None:
        """A finished sealed game's whole record, sealed (None while it goes on, or when its
        state kept no records): every card in it is public once the game is over."""
        if self.sealer is None or carried.records is None or state.phase != "over":
            return None
        record = whole_record(state, carried.records)
        deck = self.deck(state, carried)
        if deck is not None:
            record["deck"] = deck
        record["seal"] = self.sealer.record_seal(record)
        return record

    def server_seed(self, state: GameState, carried: Carried) -> str | None:
        """A committed game's server seed (None for a game that took no commitment): the one of the
        deployment's secrets (current, previous) whose seed gives the state's deck seed."""
        if self.sealer is None or carried.contributions is None or state.deck_seed is None:
            return None
        for seed in self.sealer.server_seeds(state.game_id):
            if mixed_seed(state.game_id, seed, carried.contributions) == state.deck_seed:
                return seed
        return None

    def deck(self, state: GameState, carried: Carried) -> dict[str, Any] | None:
        """A committed game's ``deck``: the commitment to its packs, the seats' contributions and,
        once the game is over (every pack dealt), the server seed that opens the commitment."""
        seed = self.server_seed(state, carried)
        if seed is None or carried.contributions is None:
            return None
        return deck_json(state.game_id, seed, carried.contributions, state.phase == "over")


class GameStart(GameResource):
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
        game_id = secrets.token_hex(16)
        contributions: tuple[str | None, ...] | None = None
        if self.sealer is not None and self.reader.keeps_records and options.deck == "random":
            # Committed: the packs come from a server seed committed to now, and the seats'
            # contributions mixed in before the first deal (docs/deals.md).
            contributions = (None,) * options.players
            deck_seed = mixed_seed(game_id, self.sealer.server_seeds(game_id)[0], contributions)
        state, events = new_game(options, dealer=data.get("dealer"), cuts=data.get("cuts"),
                                 deck_seed=deck_seed, game_id=game_id)
        if data.get("view") is not None:
            check_seat(options.players, data["view"], ("view",))
        seat: Viewer = data.get("view", EVERYONE) if self.sealer is None else None
        tokens = None
        if self.sealer is not None:
            tokens = [self.sealer.seat_token(state.game_id, s) for s in range(options.players)]
        carried = Carried(records=(), contributions=contributions) if self.reader.keeps_records else NOTHING
        self.respond(resp, state, events, EVERYONE if seat is None and self.sealer is None else seat,
                     seat_tokens=tokens, carried=carried)
        resp.status = falcon.HTTP_201


class GameAdvance(GameResource):
    _schema = AdvanceRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        state, carried = self.read_held(data["state"])
        action = game_action_from(data["action"])
        seat = self.seat(state, data, "view")
        if self.sealer is not None:
            if seat is None:
                raise forbidden("an action in a sealed game needs the acting seat's seat_token")
            if action.seat != seat:
                raise forbidden(f"this seat token is seat {seat}'s; it cannot act for seat {action.seat}")
        try:
            after, events = apply_action(state, action)
        except IllegalError as exc:
            legal = legal_json(state, legal_in_error(exc, self.asking(seat)))
            raise from_core_error(exc.within("action"), legal) from None
        except CribbageError as exc:
            raise exc.within("action")
        self.respond(resp, after, events, seat, carried=carried_after(carried, state, after, events))


class GameView(GameResource):
    _schema = ViewRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        state, carried = self.read_held(data["state"])
        self.respond(resp, state, [], self.seat(state, data, "seat"), carried=carried, records=True)


class GameContribute(GameResource):
    """A seat's entropy for a committed game's packs, before the first deal (docs/deals.md)."""

    _schema = ContributeRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        if self.sealer is None:
            raise MalformedError("a plain game's platform sees its deck seed: contributions belong to sealed games",
                                 at=("contribution",))
        state, carried = self.read_held(data["state"])
        if "seat_token" not in data:
            raise forbidden("a contribution needs the contributing seat's seat_token")
        seat = self.token_seat(state, data["seat_token"])
        given = carried.contributions
        if given is None or self.server_seed(state, carried) is None:
            raise MalformedError("this game takes no contributions: only a sealed game with a random deck, "
                                 "started while the service writes state format 3, is committed",
                                 at=("contribution",))
        if state.seq != 0:
            raise MalformedError("contributions close at the first deal: this game has been dealt",
                                 at=("contribution",))
        if given[seat] is not None:
            raise MalformedError(f"seat {seat} has contributed already", at=("contribution",))
        server_seed = self.server_seed(state, carried)
        assert server_seed is not None
        contributions = given[:seat] + (data["contribution"],) + given[seat + 1:]
        dealt = restore(state.game_id, state.options, state.first_dealer,
                        mixed_seed(state.game_id, server_seed, contributions), state.deal, state.dealer,
                        state.pegs, state.deal_seq, state.history, ())
        self.respond(resp, dealt, [], seat, carried=carried._replace(contributions=contributions))


def check_seal(sealer: Sealer | None, record: dict[str, Any], *where: Step) -> None:
    """A record that carries a ``seal`` must be one this deployment sealed, unaltered (a 422
    naming the seal otherwise); a record without one is replayed as any record is."""
    if "seal" not in record:
        return
    if sealer is None:
        raise MalformedError("this service has no secret: it seals no records and cannot check a seal",
                             at=(*where, "seal"))
    unsealed = {k: v for k, v in record.items() if k != "seal"}
    if not sealer.record_sealed(unsealed, record["seal"]):
        raise MalformedError("the record was altered after it was sealed, or sealed by another deployment",
                             at=(*where, "seal"))


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


def check_deck(record: dict[str, Any], *where: Step) -> None:
    """A record with a ``deck`` (a committed game's): the server seed must open the commitment,
    and every deal's cards and starter must be what the pack of the deck seed it and the
    contributions make deals (a 422 naming the first deal that is not)."""
    if "deck" not in record:
        return
    try:
        check_packs(record)
    except CribbageError as exc:
        raise exc.within(*where) from None


class GameReplay:
    """Replay a whole game's record and verify it (a record is public; a sealed one's seal is
    checked with the deployment's secret)."""

    _schema = ReplayRequest()

    def __init__(self, sealer: Sealer | None = None) -> None:
        self.sealer = sealer

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))["record"]
        check_seal(self.sealer, data, "record")
        check_deck(data, "record")
        state, after = replayed(data, "record")
        resp.media = replay_json(state, after)
