"""marshmallow request schemas, strict: no silent coercion anywhere.

marshmallow 4 is lenient by default in ways the OpenAPI document is not:
``Boolean`` takes ``0``/``"yes"``, ``Integer`` takes ``"5"``.  The fields here
accept exactly what ``openapi.yaml`` documents; unknown fields raise.

Each request check has one home here:

* a card's spelling: :class:`CardField` (the spellings themselves are the
  core's :data:`~service.core.cards.SPELLINGS`; openapi.yaml's ``Card``
  pattern is :data:`~service.core.cards.CARD_PATTERN`, a test compares);
* how many cards an array holds: :class:`Cards` (``least`` to ``most``);
* no card twice in one request: :class:`DistinctCardsSchema`, over the
  fields it names, in request order (the rule is the core's
  :func:`~service.core.cards.repeated_cards`).

The hot fields are lean by design (measured by ``bench/run.py``, "schema"):
:meth:`CardField.deserialize`, :meth:`Cards.deserialize` and
:meth:`StrictBoolean.deserialize` answer a well-formed value with one dict
lookup per card and no further marshmallow machinery (they have no
validators to run); anything else takes marshmallow's full path, which
names every error.  No nested schemas: a nested schema costs a whole
``Schema.load`` per item.
"""

from __future__ import annotations

from typing import Any, Mapping

from marshmallow import RAISE, Schema, ValidationError, fields, missing, validate
from marshmallow.decorators import POST_LOAD, PRE_LOAD, VALIDATES, VALIDATES_SCHEMA

from service.boundary.pointers import json_pointer
from service.core.cards import SPELLINGS, Card, repeated_cards
from service.core.errors import MalformedCardError
from service.core.claims import MAX_CLAIM
from service.core.options import PLAYERS, TARGETS, sides_of

from .problems import invalid_request

_BLANKS = " \t"


def card_of(value: Any) -> Card:
    """The card a request spells, or a :class:`ValidationError` with the core's reason."""
    if type(value) is str:
        card = SPELLINGS.get(value) or SPELLINGS.get(value.strip(_BLANKS))
        if card is not None:
            return card
    if not isinstance(value, str):
        raise ValidationError("expected a string such as '5H' or 'TH'")
    try:
        return Card.parse(value)  # raises with the reason
    except MalformedCardError as err:
        raise ValidationError(err.message) from err


class StrictBoolean(fields.Boolean):
    """Only JSON ``true`` and ``false``."""

    default_error_messages = {"invalid": "expected true or false"}

    def deserialize(self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any) -> Any:
        if value is True or value is False:
            return value
        return super().deserialize(value, attr, data, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if value is True or value is False:
            return value
        raise self.make_error("invalid")


class StrictInteger(fields.Integer):
    """Only JSON integers: no strings, no booleans, no numbers with a fraction or an
    exponent -- ``2.0`` too is refused, as the rules core refuses it in a game
    state (JSON Schema would count ``2.0`` an integer; a client that sends one
    has a bug worth hearing about).  Bounds are the field's ``validate.Range``."""

    default_error_messages = {"invalid": "expected a whole number (a JSON integer such as 2, not 2.0 or \"2\")"}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def deserialize(self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any) -> Any:
        if type(value) is int:  # the common case: the validators only
            try:
                for check in self.validators:
                    check(value)
            except ValidationError:
                pass  # the full path reports it
            else:
                return value
        return super().deserialize(value, attr, data, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if type(value) is float and abs(value) >= 2 ** 63:  # a JSON integer past 64 bits reads as a float
            raise ValidationError("a whole number far out of range (this field's bounds are in openapi.yaml)")
        if type(value) is not int:  # bool is an int subclass; floats are not integers here
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class CardField(fields.Field[Any]):
    """A card in any spelling of the core's (``5H``, ``10h``, ``TH``, ``5♥``), loaded as :class:`Card`.

    Dumps the canonical spelling (``TH``).  A spelling that names no card is
    reported with :meth:`Card.parse`'s own reason.
    """

    def deserialize(self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any) -> Any:
        card = SPELLINGS.get(value) if type(value) is str else None
        if card is not None and not self.validators:
            return card
        return super().deserialize(value, attr, data, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Card:
        return card_of(value)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else str(value)


class Cards(fields.Field[Any]):
    """A JSON array of ``least`` to ``most`` cards, loaded as a tuple of :class:`Card`.

    The one place where a request's number of cards is checked; ``what``
    names the array in the reason (``"a hand or crib has exactly 4 cards,
    not 3"``).  A card given twice is :class:`DistinctCardsSchema`'s to find.
    """

    default_error_messages = {"type": "expected an array of cards"}

    def __init__(self, least: int, most: int | None = None, *, what: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.least = least
        self.most = least if most is None else most
        self.what = what

    def deserialize(self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any) -> Any:
        if type(value) is list and self.least <= len(value) <= self.most and not self.validators:
            try:
                return tuple([SPELLINGS[v] for v in value])
            except (KeyError, TypeError):  # another spelling, or not a string: the full path
                pass
        return super().deserialize(value, attr, data, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> tuple[Card, ...]:
        if not isinstance(value, list):
            raise self.make_error("type")
        if len(value) > self.most:  # before reading any card: a long array costs nothing
            self._check_count(len(value))
        cards, errors = [], {}
        for i, item in enumerate(value):
            try:
                cards.append(card_of(item))
            except ValidationError as err:
                errors[i] = err.messages
        if errors:
            raise ValidationError(errors)
        self._check_count(len(value))
        return tuple(cards)

    def _check_count(self, n: int) -> None:
        if not self.least <= n <= self.most:
            if self.least == self.most:
                raise ValidationError(f"{self.what} has exactly {self.least} cards, not {n}")
            if n < self.least:
                raise ValidationError(f"{self.what} has at least {self.least} card{'s' * (self.least > 1)}, not {n}")
            raise ValidationError(f"{self.what} has at most {self.most} cards, not {n}")

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> list[str] | None:
        return None if value is None else [str(c) for c in value]


class ArrayOf(fields.Field[Any]):
    """A JSON array of ``least`` to ``most`` items of ``inner`` (e.g. hands of
    :class:`Cards`), loaded as a tuple: ``fields.List`` without its per-item
    machinery when every item is well formed."""

    default_error_messages = {"type": "expected an array"}

    def __init__(self, inner: fields.Field[Any], least: int, most: int, *, what: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.inner, self.least, self.most, self.what = inner, least, most, what

    def deserialize(self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any) -> Any:
        if type(value) is list and self.least <= len(value) <= self.most and not self.validators:
            inner = self.inner.deserialize
            try:
                return tuple([inner(item) for item in value])
            except ValidationError:
                pass  # the full path names every bad item
        return super().deserialize(value, attr, data, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise self.make_error("type")
        if len(value) > self.most:  # before reading any item
            raise ValidationError(f"{self.what}: {self.least} to {self.most}, not {len(value)}")
        out, errors = [], {}
        for i, item in enumerate(value):
            try:
                out.append(self.inner.deserialize(item))
            except ValidationError as err:
                errors[i] = err.messages
        if errors:
            raise ValidationError(errors)
        if not self.least <= len(value) <= self.most:
            raise ValidationError(f"{self.what}: {self.least} to {self.most}, not {len(value)}")
        return tuple(out)


class ShortList(fields.List[Any]):
    """``fields.List`` that refuses an array longer than its ``validate.Length`` allows
    before reading a single item (``fields.List`` reads every item first: 10,000
    cards in a 64 KiB body cost 30-60 ms before the length was checked)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[Any]:
        if isinstance(value, list):
            for check in self.validators:
                if isinstance(check, validate.Length) and check.max is not None and len(value) > check.max:
                    check(value)  # raises with the validator's own message
        return super()._deserialize(value, attr, data, **kwargs)


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


_LOAD_HOOKS = (PRE_LOAD, POST_LOAD, VALIDATES, VALIDATES_SCHEMA)


class LeanSchema(StrictSchema):
    """A strict schema whose :meth:`load` first tries the lean path: the
    body's keys are all known and each field's own ``deserialize`` accepts
    its value -- the same field objects and the same result as
    :meth:`Schema.load`, without its per-load bookkeeping (an error store,
    a closure and a try per field, the partial and unknown machinery,
    hook passes), measured at about half the cost of ``Schema.load`` for
    ``HandScoreRequest``.  Anything else (an unknown key, a missing required
    field, any field's error) goes through :meth:`Schema.load`, which names
    every error.  Only for schemas without load hooks, ``data_key`` or
    ``attribute`` (tests/http/test_http_common.py compares the two paths)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        fields_ = self.load_fields
        self._lean = None
        if (not any(self._hooks[tag] for tag in _LOAD_HOOKS) and not self.many and self.partial is None
                and self.unknown == RAISE
                and all(f.data_key is None and f.attribute is None for f in fields_.values())):
            self._lean = tuple(fields_.items())
            self._names = frozenset(fields_)

    def load(self, data: Any, *, many: bool | None = None, partial: Any = None, unknown: Any = None) -> Any:
        lean = self._lean
        if lean is not None and type(data) is dict and many is None and partial is None and unknown is None:
            out = {}
            try:
                for name, field in lean:
                    value = field.deserialize(data.get(name, missing), name, data)
                    if value is not missing:
                        out[name] = value
            except ValidationError:
                pass  # Schema.load names it
            else:
                if data.keys() <= self._names:
                    return out
        return super().load(data, many=many, partial=partial, unknown=unknown)


def _named_cards(value: Any, path: tuple[Any, ...], out: list[tuple[tuple[Any, ...], Card]]) -> None:
    if type(value) is Card:
        out.append((path, value))
    else:
        for i, item in enumerate(value):
            _named_cards(item, (*path, i), out)


class DistinctCardsSchema(LeanSchema):
    """A schema whose fields named in ``distinct_fields`` (cards, or arrays of
    cards or of arrays of cards, in request order) together give no card
    twice: every card given again is an error at the place it is repeated
    (``/starter: 5H is given twice (also at /cards/0)``)."""

    distinct_fields: tuple[str, ...] = ()

    def load(self, data: Any, **kwargs: Any) -> Any:
        """:meth:`Schema.load`, then "no card twice" and :meth:`check`, once
        every field is valid (``validates_schema`` hooks would cost two hook
        passes a request)."""
        result = super().load(data, **kwargs)
        self._no_card_twice(result)
        self.check(result)
        return result

    def check(self, data: dict[str, Any]) -> None:
        """What the fields together must be (raise :class:`ValidationError`); nothing by default."""

    def _no_card_twice(self, data: dict[str, Any]) -> None:
        flat: list[Card] = []
        for name in self.distinct_fields:
            value = data.get(name)
            if value is None:
                continue
            if type(value) is Card:
                flat.append(value)
                continue
            for item in value:
                if type(item) is Card:
                    flat.append(item)
                else:
                    flat.extend(item)
        if len(set(flat)) == len(flat):
            return  # the common case: nothing to name
        named: list[tuple[tuple[Any, ...], Card]] = []
        for name in self.distinct_fields:
            if data.get(name) is not None:
                _named_cards(data[name], (name,), named)
        errors: dict[Any, Any] = {}
        for where, card, first in repeated_cards(named):
            node = errors
            for part in where[:-1]:
                node = node.setdefault(part, {})
            node.setdefault(where[-1], []).append(f"{card} is given twice (also at {json_pointer(*first)})")
        raise ValidationError(errors)


class HandScoreRequest(DistinctCardsSchema):
    """``POST /v1/hands/score``: four cards, the starter, hand or crib."""

    distinct_fields = ("cards", "starter")
    cards = Cards(4, what="a hand or crib", required=True)
    starter = CardField(required=True)
    crib = StrictBoolean(load_default=False)


class HandClaimRequest(HandScoreRequest):
    """``POST /v1/hands/score`` with a claim to judge: what the player announced,
    muggins on or off, and who counted at a table of how many (the muggins
    seat).  Only a body with one of these fields is loaded by this schema, so
    the plain count keeps its lean path."""

    claim = StrictInteger(validate=validate.Range(0, MAX_CLAIM))
    muggins = StrictBoolean(load_default=False)
    muggins_called = StrictInteger()
    """ACC 10.4.a: the opponent's "muggins for N"; he takes the lesser of N and the points missed
    (the core checks the call: :func:`service.core.claims.check_muggins_call`)."""
    players = StrictInteger(load_default=2, validate=validate.OneOf(PLAYERS))
    seat = StrictInteger(load_default=0, validate=validate.Range(0, 3))
    tournament = StrictBoolean(load_default=False)
    scores = fields.List(StrictInteger(validate=validate.Range(0, 120)), validate=validate.Length(2, 3))
    target = StrictInteger(load_default=121, validate=validate.OneOf(TARGETS))

    def check(self, data: dict[str, Any]) -> None:
        players = data["players"]
        if data["seat"] >= players:
            raise ValidationError({"seat": [f"seat {data['seat']} is not at a {players}-player table"]})
        scores = data.get("scores")
        if scores is not None:
            sides = sides_of(players)
            if len(scores) != sides:
                raise ValidationError({"scores": [f"a {players}-player game keeps {sides} scores, not {len(scores)}"]})
            late = [i for i, v in enumerate(scores) if v >= data["target"]]
            if late:
                raise ValidationError({"scores": {late[0]: [f"the game is over at {data['target']}"]}})


CLAIM_FIELDS = frozenset(("claim", "muggins", "muggins_called", "players", "seat", "tournament", "scores",
                          "target"))
"""The fields that make a hands/score body a judged claim."""


def flatten_errors(messages: Any, path: tuple[Any, ...] = ()) -> list[dict[str, str]]:
    """marshmallow's nested error messages as ``[{"field": pointer, "reason": text}]``.

    >>> flatten_errors({"cards": {2: ["bad"]}, "x": ["Unknown field."], "_schema": ["no"]})
    [{'field': '/cards/2', 'reason': 'bad'}, {'field': '/x', 'reason': 'unknown field'}, {'field': '', 'reason': 'no'}]
    """
    out: list[dict[str, str]] = []
    if isinstance(messages, Mapping):
        for key, sub in messages.items():
            sub_path = path if key == "_schema" else (*path, key)
            out.extend(flatten_errors(sub, sub_path))
    elif isinstance(messages, (list, tuple)):
        for m in messages:
            out.extend(flatten_errors(m, path))
    else:
        out.append({"field": json_pointer(*path), "reason": _reason(str(messages))})
    return out


_REASONS = {
    "Unknown field.": "unknown field",
    "Missing data for required field.": "required field is missing",
    "Field may not be null.": "may not be null",
    "Not a valid list.": "expected an array",
    "Invalid input type.": "expected a JSON object",
}


def _reason(message: str) -> str:
    return _REASONS.get(message, message)


def load(schema: Schema, data: Mapping[str, Any]) -> dict[str, Any]:
    """Validate ``data``; a :class:`ValidationError` becomes a 422 problem."""
    try:
        loaded: dict[str, Any] = schema.load(data)
        return loaded
    except ValidationError as err:
        raise invalid_request(flatten_errors(err.messages)) from err
