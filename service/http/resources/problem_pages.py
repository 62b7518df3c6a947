"""``GET /problems/{slug}``: the page each problem ``type`` URI names.

Every problem the service (or the nginx in front of it, deploy/kubernetes)
answers has the type ``https://cribbage.example/problems/<slug>``; the host
stands for wherever the service runs, and the service serves a page for
each slug at ``/problems/<slug>``: what the problem means, its status, and
what to do.  The ``rule-violation`` page lists every ``rule`` code a rule
violation can carry, each with a sentence (the same sentences as the
``RuleCode`` enum of openapi.yaml; tests/http/test_meta.py holds the
two equal, and both equal to the codes the code can raise).
"""

from __future__ import annotations

import html
from typing import NamedTuple

import falcon

from ..problems import PROBLEM_BASE


class ProblemKind(NamedTuple):
    status: int
    title: str
    description: str


PROBLEMS: dict[str, ProblemKind] = {
    "bad-request": ProblemKind(400, "Bad request", (
        "The request is not valid HTTP for this service: a bad Content-Length, a broken chunked "
        "body, or a request the server could not read. Fix the request; sending it again as is "
        "fails the same way.")),
    "malformed-json": ProblemKind(400, "The request body is not valid JSON", (
        "The body could not be parsed as JSON; detail quotes the parser. Send one JSON object "
        "encoded in UTF-8.")),
    "empty-body": ProblemKind(400, "The request body is empty", (
        "The operation needs a JSON object as its body and none was sent.")),
    "body-not-object": ProblemKind(400, "The request body is not a JSON object", (
        "The body is valid JSON but an array, a string, a number, a boolean or null; every "
        "operation takes a JSON object.")),
    "seat-forbidden": ProblemKind(403, "Not this seat's to do or see", (
        "In sealed mode (the service has a state secret) a seat acts and looks only as itself: "
        "the seat token is missing, is not this game's, or names another seat than the one "
        "acting.")),
    "body-unreadable": ProblemKind(400, "The request body could not be read", (
        "The body ended before its Content-Length, was badly chunked, or came in a transfer coding "
        "other than chunked. Send the whole body, with a correct Content-Length or chunked.")),
    "not-found": ProblemKind(404, "Not found", (
        "There is no resource at this path (instance names it). The API lives under /v1; "
        "/openapi.yaml describes every path.")),
    "method-not-allowed": ProblemKind(405, "Method not allowed", (
        "The path exists but not with this method; the Allow header lists the methods it "
        "takes.")),
    "not-acceptable": ProblemKind(406, "Not acceptable", (
        "The Accept header rules out every media type the operation can answer with.")),
    "request-timeout": ProblemKind(408, "Request timeout", (
        "The request (its head, or its body) did not arrive within the server's read timeout (5 s "
        "unless the operator set GUNICORN_READ_TIMEOUT); the connection is closed. Send whole "
        "requests promptly.")),
    "length-required": ProblemKind(411, "Length required", (
        "A request with a body must send Content-Length or use the chunked transfer coding.")),
    "content-too-large": ProblemKind(413, "Content too large", (
        "The body is over the limit (65536 bytes unless the operator set "
        "CRIBBAGE_MAX_BODY_BYTES); no request of this API needs that much.")),
    "uri-too-long": ProblemKind(414, "URI too long", (
        "The request line is over 4096 bytes.")),
    "unsupported-media-type": ProblemKind(415, "Unsupported media type", (
        "The Content-Type is not application/json (a request without one is read as JSON).")),
    "unsupported-content-encoding": ProblemKind(415, "Unsupported content encoding", (
        "The body has a Content-Encoding (gzip, br, deflate or any other) and the service reads "
        "only unencoded bodies: header names the header, read_encodings what is read (identity), "
        "and the answer's Accept-Encoding says the same. Send the JSON without a Content-Encoding.")),
    "expectation-failed": ProblemKind(417, "Expectation failed", (
        "The Expect header asks for something other than 100-continue, the only expectation the "
        "server meets.")),
    "header-fields-too-large": ProblemKind(431, "Request header fields too large", (
        "More than 50 header fields, or one over 8190 bytes (answered by gunicorn; the nginx in "
        "front answers the same with request-header-fields-too-large).")),
    "request-header-fields-too-large": ProblemKind(431, "Request header fields too large", (
        "A header line is over 4096 bytes, or all of them together over the proxy's buffers "
        "(answered by the nginx in front of the service).")),
    "invalid-request": ProblemKind(422, "The request is invalid", (
        "The body is a JSON object that breaks the operation's schema or what cards can be: a "
        "missing, unknown or mistyped field, a value out of bounds, no such card, a card given "
        "twice, a game state that does not replay. errors names each bad field with a JSON "
        "pointer (RFC 6901) and the reason.")),
    "newer-state-version": ProblemKind(422, "The state was written by a newer release", (
        "The game state (plain, or sealed) is of a format version newer than this replica "
        "reads: a later release wrote it, and during a rolling upgrade this replica is not "
        "upgraded yet. version is the state's, readable_versions those this replica reads. The "
        "state is not bad: send the same request again, to a replica of the newer release (or "
        "after the rollout). 422 as any unreadable state was before, with a type of its own so "
        "that a client can tell it from invalid-request (a state that is bad everywhere).")),
    "rule-violation": ProblemKind(422, "Not allowed by the rules", (
        "The request is well formed, but the rules of cribbage forbid it. rule is a short "
        "stable code (the table below), legal lists what would have been legal instead, and "
        "errors names the offending field. Pick one of the legal moves.")),
    "internal-error": ProblemKind(500, "Internal server error", (
        "The service failed to answer: a fault of the service, not of the request. It is "
        "logged with the request id; quote request_id when reporting it.")),
    "not-implemented": ProblemKind(501, "Not implemented", (
        "A Transfer-Encoding other than chunked (answered by the nginx in front of the "
        "service).")),
    "bad-gateway": ProblemKind(502, "Bad gateway", (
        "The proxy in front of the service could not reach it (starting or restarting). Try "
        "again after Retry-After seconds.")),
    "service-unavailable": ProblemKind(503, "Service unavailable", (
        "The service is overloaded or not accepting this request now. Try again after "
        "Retry-After seconds.")),
    "overloaded": ProblemKind(503, "Service unavailable", (
        "Every thread of the worker that took the connection is busy and its queue is full: the "
        "request was not started, so it is safe to send again, after Retry-After seconds (or to "
        "another replica).")),
    "not-ready": ProblemKind(503, "Not ready", (
        "Answered by GET /readyz while this process should not be sent traffic: it is shutting "
        "down (finishing the requests it has, taking no new ones) or could not warm up. Load "
        "balancers and Kubernetes take it out of rotation; clients never need to see it.")),
    "gateway-timeout": ProblemKind(504, "Gateway timeout", (
        "The service did not answer the proxy within 35 s.")),
}
"""Every problem slug, with its status, title and meaning."""

RULES: dict[str, str] = {
    "card_already_played": "The card was already laid earlier in this hand's play.",
    "card_in_use": "The starter named in a cut is already dealt to a hand or to the crib.",
    "card_not_held": "The seat does not hold that card: a play or a discard of a card not in its hand.",
    "cards_not_expected": "The service deals this game (deck service): a deal or a cut must not give cards.",
    "cards_required": ("The client deals this game (deck client): the deal must give every seat's cards "
                       "and the cut the starter."),
    "count_over_31": "Laying that card would take the count past 31, which it may never pass.",
    "game_over": "The game is over: no action is possible.",
    "go_while_able": ("A seat said go while holding a card it could lay without passing 31, or at the "
                      "lead (under tournament rules a renege stands instead and costs ACC 7.3's penalty)."),
    "hand_not_complete": "The plays are said to be the whole hand (complete), but a seat still holds cards.",
    "hand_over": "The play of this hand is over: every card has been laid.",
    "no_such_seat": "The seat is not at this table (seats are 0 to players - 1).",
    "out_of_turn": "It is not this seat's turn: another seat is to act.",
    "wrong_count": "The count names the hand when the crib is counted next, or the other way round.",
    "wrong_deal": "The deal gives the wrong number of hands, or of cards to a hand or to the crib.",
    "wrong_discard": "A discard of the wrong number of cards for this game's options.",
    "wrong_phase": "That kind of action is not possible in this phase of the deal (a discard during the play).",
}
"""Every ``rule`` code of a ``rule-violation`` problem, with a sentence."""

_STYLE = ("body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;"
          "line-height:1.5}code{background:#f3f3f3;padding:0 .2em}table{border-collapse:collapse}"
          "td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}")


def render(slug: str) -> bytes:
    """The HTML page of one problem slug."""
    kind = PROBLEMS[slug]
    e = html.escape
    rows = ""
    if slug == "rule-violation":
        rows = ("<h2>Rule codes</h2>\n<table>\n<tr><th><code>rule</code></th><th>meaning</th></tr>\n"
                + "".join(f'<tr id="{e(code)}"><td><code>{e(code)}</code></td><td>{e(text)}</td></tr>\n'
                          for code, text in sorted(RULES.items()))
                + "</table>\n")
    page = (f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{e(kind.title)} ({e(slug)}) - Cribbage rules service</title>\n"
            f"<style>{_STYLE}</style>\n</head>\n<body>\n"
            f"<h1>{e(kind.title)}</h1>\n"
            f"<p>Problem type <code>{e(PROBLEM_BASE + slug)}</code>, HTTP status {kind.status}.</p>\n"
            f"<p>{e(kind.description)}</p>\n{rows}"
            f"<p>Every error of this service is an RFC 9457 problem (<code>application/problem+json</code>) "
            f"with <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>, "
            f"<code>instance</code>, <code>request_id</code> and <code>errors</code> (each bad field as a "
            f'JSON pointer and the reason). <a href="/docs">API documentation</a>.</p>\n'
            f"</body>\n</html>\n")
    return page.encode()


class ProblemPage:
    """``GET /problems/{slug}``: the page of a problem type; 404 for an unknown slug."""

    def __init__(self) -> None:
        self.pages = {slug: render(slug) for slug in PROBLEMS}

    def on_get(self, req: falcon.Request, resp: falcon.Response, slug: str) -> None:
        page = self.pages.get(slug)
        if page is None:
            raise falcon.HTTPNotFound(description=f"there is no problem type {slug!r}; see /problems/not-found")
        resp.data = page
        resp.content_type = "text/html; charset=utf-8"
        resp.cache_control = ["public", "max-age=86400"]
