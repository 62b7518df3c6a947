"""orjson for request and response bodies, and reading a JSON object body."""

from __future__ import annotations

from typing import Any

import falcon
import falcon.media
import orjson

from .problems import ProblemError


def _dumps(obj: Any) -> bytes:
    # Error dicts from marshmallow have int keys for list items.
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS)


JSON_HANDLER = falcon.media.JSONHandler(dumps=_dumps, loads=orjson.loads)


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
