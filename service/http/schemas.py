"""marshmallow request schemas, strict: no silent coercion anywhere.

marshmallow 4 is lenient by default in ways the OpenAPI document is not:
``Boolean`` takes ``0``/``"yes"``, ``Integer`` takes ``"5"``.  The fields here
accept exactly what ``openapi.yaml`` documents; unknown fields raise.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from marshmallow import RAISE, Schema, ValidationError, fields

from service.core.cards import Card
from service.core.errors import MalformedCardError

from .problems import invalid_request, json_pointer

# Kept identical to components.schemas.Card.pattern in openapi.yaml (a test
# checks).  Spaces and tabs only around the card, so that Python and
# ECMA-262 regex engines agree on what matches; the closing ``$`` is read as
# ECMA-262 reads it (end of string, not "before a final newline").
CARD_PATTERN = r"^[ \t]*(?:[AaTtJjQqKk2-9]|10|1)[CDHScdhs♣♦♥♠♧♢♡♤][ \t]*$"
_CARD_RE = re.compile(CARD_PATTERN.removesuffix("$") + r"\Z")


class StrictBoolean(fields.Boolean):
    """Only JSON ``true`` and ``false``."""

    default_error_messages = {"invalid": "expected true or false"}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if value is True or value is False:
            return value
        raise self.make_error("invalid")


class StrictInteger(fields.Integer):
    """Only JSON integers: no strings, no booleans, no fractions (``1.0`` is 1, as in JSON Schema)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool):
            raise self.make_error("invalid")
        if isinstance(value, float) and value.is_integer():
            # JSON Schema (and so openapi.yaml) counts 1.0 as an integer.
            value = int(value)
        return super()._deserialize(value, attr, data, **kwargs)


class CardField(fields.Field):
    """A card in any common spelling (``5H``, ``10h``, ``TH``, ``5♥``), loaded as :class:`Card`.

    Dumps the canonical spelling (``TH``).  Reports
    :meth:`Card.parse`'s own message for a spelling that names no card.
    """

    default_error_messages = {
        "type": "expected a string such as '5H' or 'TH'",
        "spelling": (
            "{input!r} is not a card: write rank then suit, e.g. '5H', 'TH', '10H' or '5♥'"
            " (only spaces or tabs may surround it)"
        ),
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Card:
        if not isinstance(value, str):
            raise self.make_error("type")
        try:
            card = Card.parse(value)
        except MalformedCardError as err:
            raise ValidationError(err.message) from err
        if not _CARD_RE.search(value):
            raise self.make_error("spelling", input=value)
        return card

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else str(value)


def exact_length(n: int, what: str):
    """A list validator that raises (marshmallow 4 ignores a ``False`` return)."""

    def validate(value: list[Any]) -> None:
        if len(value) != n:
            raise ValidationError(f"{what} has exactly {n} cards, not {len(value)}")

    return validate


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


class HandScoreRequest(StrictSchema):
    """``POST /v1/hands/score``: four cards, the starter, hand or crib."""

    cards = fields.List(CardField(), required=True, validate=exact_length(4, "a hand or crib"))
    starter = CardField(required=True)
    crib = StrictBoolean(load_default=False)


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
        return schema.load(data)
    except ValidationError as err:
        raise invalid_request(flatten_errors(err.messages)) from err
