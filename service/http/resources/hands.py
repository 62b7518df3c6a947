"""``POST /v1/hands/score``: count a hand or crib (four cards and the starter).

Parse (:class:`~service.http.schemas.HandScoreRequest`: spellings, four
cards, no card twice), call the core (:func:`~service.core.show.score_show`),
answer its document (:func:`service.boundary.show.plain_show_json`).

The answer depends only on (cards in request order, starter, crib), so each
worker keeps the bytes of the last ``CRIBBAGE_HAND_CACHE`` answers (default
4096, about 3 MB; 0 turns it off).  A table replaying a hand, an app drawing
the same hand again or a tournament rechecking a count gets the answer from
there; a stream of distinct random hands does not (26 million (hand,
starter, crib) in request order: nearly every one is a miss), so the path
without the cache is the one made lean, and ``bench/run.py`` measures both.

A body with a ``claim`` (and perhaps ``muggins``, ``players``, ``seat``) is a
judged claim (:func:`~service.core.claims.judge`): the same document with a
``claim`` member added, the ruling (:func:`service.boundary.show.with_claim`).
:func:`answer` is the one function both this endpoint and ``POST
/v1/hands/score-batch`` answer an item with.
"""

from __future__ import annotations

import functools

from typing import Any, Callable

import falcon

from service.boundary.show import plain_show_json, show_json_bytes, with_claim
from service.core.cards import Card
from service.core.claims import check_muggins_call, settle
from service.core.options import side_of
from service.core.show import score_show

from ..media import read_json_object
from ..schemas import CLAIM_FIELDS, HandClaimRequest, HandScoreRequest, load


def show_body(hand: tuple[Card, ...], starter: Card, crib: bool) -> bytes:
    """The response body of a validated request: the show's document (by its
    template when the four cards and the starter are distinct, as a validated
    body's are; else the core says what is wrong)."""
    if len(hand) == 4:
        a, b, c, d = hand
        if len({a, b, c, d, starter}) == 5:
            return plain_show_json(a, b, c, d, starter, crib)
    return show_json_bytes(score_show(hand, starter, crib))


def judged_body(body: bytes, data: dict[str, Any]) -> bytes:
    """The show's document ``body`` with the ruling on the claim in ``data`` added."""
    seat = data["seat"]
    show = score_show(data["cards"], data["starter"], data["crib"])
    scores = show.pegged(seat)
    players = data["players"]
    before = data["scores"][side_of(players, seat)] if data.get("scores") is not None else None
    settled = settle(players, seat, scores, data["claim"], muggins=data["muggins"], show=True,
                     called=data.get("muggins_called"), tournament=data["tournament"], before=before,
                     target=data["target"])
    return with_claim(body, settled)


def answer(data: dict[str, Any], body: Callable[[tuple[Card, ...], Card, bool], bytes] = show_body) -> bytes:
    """The answer to one validated hands/score body (a plain count or a judged claim)."""
    if "muggins_called" in data:
        check_muggins_call(data["muggins_called"], data["muggins"], data.get("claim"))
    out = body(data["cards"], data["starter"], data["crib"])
    return out if "claim" not in data else judged_body(out, data)


class HandScore:
    _schema = HandScoreRequest()
    _claim_schema = HandClaimRequest()

    def __init__(self, cache_size: int = 4096) -> None:
        self.cached = cache_size > 0
        self.body = functools.lru_cache(maxsize=cache_size)(show_body) if self.cached else show_body

    def load(self, media: Any) -> dict[str, Any]:
        """A validated body: the plain count's lean schema unless it carries a claim's fields."""
        if type(media) is dict and not CLAIM_FIELDS.isdisjoint(media):
            return load(self._claim_schema, media)
        return load(self._schema, media)

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = self.load(read_json_object(req))
        # Any error of the core (a CribbageError) is mapped to 422 by the app.
        resp.data = answer(data, self.body)
        resp.content_type = falcon.MEDIA_JSON
