"""Game options as JSON: an object holding the options that differ from the defaults.

The core's :class:`~service.core.options.GameOptions` checks every value and
combination; this module reads a JSON object into one (each value of its
field's declared type, read from the annotations themselves) and writes one
back.  Errors are located at the option (``("seed",)``), relative to the
options object: whoever read it from a request says where it sits.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import asdict, fields
from functools import lru_cache
from typing import Any, get_type_hints

from service.core.errors import MalformedError
from service.core.options import GameOptions

_TYPES: dict[str, Any] = {f.name: get_type_hints(GameOptions)[f.name] for f in fields(GameOptions)}
"""Each option's type, from the annotations themselves (``str | None`` is a union isinstance reads)."""
_TYPE_NAMES: dict[Any, str] = {bool: "true or false", int: "an integer", str: "a string",
                               str | None: "a string or null"}
assert set(_TYPES.values()) <= set(_TYPE_NAMES), _TYPES
_DEFAULTS = asdict(GameOptions())


@lru_cache(maxsize=512)
def _differences(options: GameOptions) -> tuple[tuple[str, Any], ...]:
    return tuple((k, v) for k, v in asdict(options).items() if _DEFAULTS[k] != v)


def options_to_json(options: GameOptions, *, hidden: Collection[str] = ()) -> dict[str, Any]:
    """The options that differ from the defaults (a fresh dict), without the
    ``hidden`` ones: what :func:`options_from_json` reads back to ``options``.

    >>> options_to_json(GameOptions(players=3, skunk=True))
    {'players': 3, 'skunk': True}
    """
    return {k: v for k, v in _differences(options) if k not in hidden}


def options_from_json(data: Any) -> GameOptions:
    """Options from JSON: an object of known fields, each of its declared
    type (``true``/``false`` for a bool, an integer that is no bool for an
    int, a string, or null where allowed), every value checked; the
    fields left out take their defaults.

    >>> options_from_json({"players": True})
    Traceback (most recent call last):
    ...
    service.core.errors.MalformedError: option 'players' is an integer
    """
    if not isinstance(data, dict):
        raise MalformedError("options must be an object")
    for key, value in data.items():
        expected = _TYPES.get(key)
        if expected is None:
            raise MalformedError(f"unknown option {key!r}", at=(key,))
        if not isinstance(value, expected) or (type(value) is bool and expected is not bool):
            raise MalformedError(f"option {key!r} is {_TYPE_NAMES[expected]}", at=(key,))
    return GameOptions(**data)
