"""RFC 9457 problem details (``application/problem+json``) for every error.

Every error response of the service, whether raised here, by the rules core
or by falcon itself (404, 405, 413, 415), has the body::

    {"type": "https://cribbage.example/problems/invalid-request",
     "title": "The request is invalid", "status": 422,
     "detail": "/cards/2: 'XX' is not a card: ...",
     "instance": "/v1/hands/score", "request_id": "...",
     "errors": [{"field": "/cards/2", "reason": "'XX' is not a card: ..."}]}

``errors`` is always present (possibly empty); each ``field`` is a JSON pointer
(RFC 6901) into the request body, ``""`` meaning the body as a whole.  Rule
violations (:class:`service.core.errors.IllegalError`) add ``rule`` and
``legal``; a game state of a version newer than this replica reads
(:class:`service.core.errors.NewerVersionError`) is ``newer-state-version``
with ``version`` and ``readable_versions``.

Status codes: 400 the body is not JSON / not a JSON object / empty, or could
not be read (a bad chunk, shorter than its Content-Length); 404, 405; 408 the
request did not arrive in time; 413 body over the limit; 414 URL too long; 415
not JSON; 422 JSON that breaks the schema or the rules (unknown card, wrong
count, a card twice, an illegal move); 431 a header too large; 500 a bug; 503
the server is overloaded (with ``Retry-After``).  408, 414, 431, 503 and
gunicorn's own 400s are written by the worker (:mod:`.worker`) in this shape:
the document and the headers every answer carries are :mod:`.answers`', for both.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

import falcon
import orjson

from service.boundary.actions import legal_json
from service.boundary.pointers import json_pointer as json_pointer  # the pointer of a request path, for callers here
from service.boundary.pointers import pointer
from service.core.errors import CribbageError, IllegalError, NewerVersionError

from .answers import ECHO_LIMIT as ECHO_LIMIT  # callers here name them from this module
from .answers import PROBLEM_BASE as PROBLEM_BASE
from .answers import PROBLEM_JSON as PROBLEM_JSON
from .answers import bounded as bounded
from .answers import problem_document

# Slug and title per status for errors that carry no slug of their own
# (falcon's built-in errors).
_STATUS_PROBLEMS: dict[int, tuple[str, str]] = {
    400: ("bad-request", "Bad request"),
    403: ("seat-forbidden", "Not this seat's to do or see"),
    404: ("not-found", "Not found"),
    405: ("method-not-allowed", "Method not allowed"),
    406: ("not-acceptable", "Not acceptable"),
    408: ("request-timeout", "Request timeout"),
    411: ("length-required", "Length required"),
    413: ("content-too-large", "Content too large"),
    414: ("uri-too-long", "URI too long"),
    415: ("unsupported-media-type", "Unsupported media type"),
    417: ("expectation-failed", "Expectation failed"),
    422: ("invalid-request", "The request is invalid"),
    431: ("header-fields-too-large", "Request header fields too large"),
    500: ("internal-error", "Internal server error"),
    503: ("overloaded", "Service unavailable"),
}


class ProblemError(falcon.HTTPError):
    """An HTTP error rendered as problem+json.

    ``errors`` is a list of ``{"field": <JSON pointer>, "reason": <text>}``;
    extra keyword arguments become extension members of the body.
    """

    def __init__(
        self,
        status: int,
        slug: str,
        title: str,
        detail: str | None = None,
        *,
        errors: Iterable[Mapping[str, str]] = (),
        headers: Mapping[str, str] | None = None,
        **extensions: Any,
    ) -> None:
        super().__init__(status, title=title, description=detail, headers=headers)
        self.slug = slug
        self.errors = [dict(e) for e in errors]
        self.extensions = extensions


def field_errors_detail(errors: list[dict[str, str]]) -> str:
    """One line naming every bad field, for ``detail``."""
    return "; ".join(f"{e['field'] or '(body)'}: {e['reason']}" for e in errors)


def invalid_request(errors: list[dict[str, str]], **extensions: Any) -> ProblemError:
    """422: JSON that the schema or the rules reject, naming each bad field."""
    return ProblemError(
        422,
        "invalid-request",
        "The request is invalid",
        field_errors_detail(errors),
        errors=errors,
        **extensions,
    )


def from_core_error(err: CribbageError, legal: list[Any] | None = None) -> ProblemError:
    """Map a rules-core error to a 422 problem, its location as the ``field`` pointer.

    ``legal`` is an illegal move's legal actions as the endpoint writes them
    (those its caller may be told, in the notation it sends moves in); by
    default every one, in the play's or the game's notation.
    """
    errors = [{"field": pointer(err.at), "reason": err.message}]
    if isinstance(err, NewerVersionError):
        # 422 as before (a request refused anyway gets a new type: the README's compatibility
        # policy), a type of its own: a replica of the newer release reads it, so retry there.
        return ProblemError(422, "newer-state-version", "The state was written by a newer release",
                            field_errors_detail(errors), errors=errors, version=err.version,
                            readable_versions=list(err.reads))
    if isinstance(err, IllegalError):
        return ProblemError(
            422,
            "rule-violation",
            "Not allowed by the rules",
            err.message,
            errors=errors,
            rule=err.rule,
            legal=[legal_json(x) for x in err.legal] if legal is None else legal,
        )
    return invalid_request(errors)


def problem_body(req: falcon.Request, exc: falcon.HTTPError) -> dict[str, Any]:
    """The problem document for any falcon HTTP error."""
    status = exc.status_code
    errors: list[dict[str, str]] = []
    extensions: dict[str, Any] = {}
    if isinstance(exc, ProblemError):
        slug, title, detail = exc.slug, exc.title, exc.description
        errors, extensions = exc.errors, exc.extensions
    elif isinstance(exc, falcon.MediaNotFoundError):
        slug, title = "empty-body", "The request body is empty"
        detail = "send a JSON object"
        errors = [{"field": "", "reason": "the body is empty; send a JSON object"}]
    elif isinstance(exc, falcon.MediaMalformedError):
        slug, title = "malformed-json", "The request body is not valid JSON"
        cause = exc.__cause__
        detail = f"could not parse the body as JSON: {cause}" if cause else "could not parse the body as JSON"
        errors = [{"field": "", "reason": detail}]
    else:
        slug, title = _STATUS_PROBLEMS.get(status, ("about:blank", exc.title or ""))
        detail = exc.description
        if detail is None and status == 404:
            detail = f"there is no resource at {req.path}"
        elif detail is None and status == 405:
            allow = dict(exc.headers or {}).get("Allow")
            detail = f"{req.method} is not allowed here; allowed: {allow}" if allow else None
    return problem_document(status, slug, title, detail, instance=req.path,
                            rid=getattr(req.context, "request_id", None), errors=errors,
                            extensions=extensions)


def render_problem(req: falcon.Request, resp: falcon.Response, exc: falcon.HTTPError) -> None:
    """Falcon error serializer: always problem+json, whatever the Accept header."""
    resp.content_type = PROBLEM_JSON
    resp.data = orjson.dumps(problem_body(req, exc), option=orjson.OPT_NON_STR_KEYS)
