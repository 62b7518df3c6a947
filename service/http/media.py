"""orjson for request and response bodies, and reading a JSON object body."""

from __future__ import annotations

import json
from typing import Any

import falcon
import falcon.media
import orjson

from .problems import ProblemError, invalid_request, json_pointer


def _dumps(obj: Any) -> bytes:
    # Error dicts from marshmallow have int keys for list items.
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS)


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as its key-value pairs in order, duplicates kept."""


def _duplicate(root: Any) -> tuple[tuple[str | int, ...], str] | None:
    """A key given twice in one object, with that object's path (a loop, not recursion: orjson reads
    1,024 levels, more than Python's stack)."""
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), root)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, _Pairs):
            seen: set[str] = set()
            for key, value in node:
                if key in seen:
                    return path, key
                seen.add(key)
                stack.append(((*path, key), value))
        elif isinstance(node, list):
            stack.extend(((*path, n), value) for n, value in enumerate(node))
    return None


class _DuplicateKey(Exception):
    """A key came twice in one object (where is found on the error path only)."""


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) < len(pairs):
        raise _DuplicateKey()
    return obj


_CHECKING = json.JSONDecoder(object_pairs_hook=_once)


def _loads(text: str) -> Any:
    """orjson's parse (the strict one: no NaN, no lone surrogates), then the text read again for a key given
    twice in one object: orjson (like most parsers) keeps the last silently, and a client that sent two
    values must be told one is not read.  The check's parse builds nothing to walk (a third of the cost of
    keeping every pair); only a body that has a duplicate is read a third time, to name where."""
    obj = orjson.loads(text)
    if not isinstance(obj, (dict, list)):
        return obj
    try:
        _CHECKING.decode(text)
        return obj
    except RecursionError:
        # nested past the standard parser's stack (some 1,000 levels, orjson reads 1,024): no schema of the
        # contract goes a tenth as deep, so the body is rejected by its schema whatever a key says
        return obj
    except _DuplicateKey:
        found = _duplicate(json.loads(text, object_pairs_hook=_Pairs))
    assert found is not None
    path, key = found
    raise invalid_request([{"field": json_pointer(*path, key),
                            "reason": f"the key {key!r} is given more than once in one object; give it once"}])


JSON_HANDLER = falcon.media.JSONHandler(dumps=_dumps, loads=_loads)


def install(app: falcon.App[falcon.Request, falcon.Response]) -> None:
    """Only JSON in (anything else is 415), orjson out."""
    app.req_options.media_handlers = falcon.media.Handlers({falcon.MEDIA_JSON: JSON_HANDLER})
    app.resp_options.media_handlers = falcon.media.Handlers({falcon.MEDIA_JSON: JSON_HANDLER})
    app.req_options.default_media_type = falcon.MEDIA_JSON
    app.resp_options.default_media_type = falcon.MEDIA_JSON


def read_json_object(req: falcon.Request) -> dict[str, Any]:
    """The body as a JSON object, or a 400/415 problem.

    A missing ``Content-Type`` is read as JSON; any other type than JSON is 415
    (raised by falcon); an empty or malformed body is 400 (see
    :mod:`.problems`); valid JSON that is not an object is 400 too.
    """
    media = req.get_media()
    if not isinstance(media, dict):
        kind = type(media).__name__
        kind = {"list": "an array", "str": "a string", "NoneType": "null", "bool": "a boolean",
                "int": "a number", "float": "a number"}.get(kind, kind)
        raise ProblemError(
            400,
            "body-not-object",
            "The request body is not a JSON object",
            f"the body is {kind}; send a JSON object",
            errors=[{"field": "", "reason": f"expected a JSON object, got {kind}"}],
        )
    return media
