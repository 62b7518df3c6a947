"""``POST /v1/hands/score``: count a hand or crib (four cards and the starter).

Parse (:class:`~service.http.schemas.HandScoreRequest`: spellings, four
cards, no card twice), call the core (:func:`~service.core.show.score_show`),
answer its document, which the core writes as JSON text once.

The answer depends only on (cards in request order, starter, crib), so each
worker keeps the bytes of the last ``CRIBBAGE_HAND_CACHE`` answers (default
4096, about 3 MB; 0 turns it off).  A table replaying a hand, an app drawing
the same hand again or a tournament rechecking a count gets the answer from
there; a stream of distinct random hands does not (26 million (hand,
starter, crib) in request order: nearly every one is a miss), so the path
without the cache is the one made lean, and ``bench/run.py`` measures both.
"""

from __future__ import annotations

import functools

import falcon

from service.core.cards import Card
from service.core.show import score_show

from ..media import read_json_object
from ..schemas import HandScoreRequest, load


def show_body(hand: tuple[Card, ...], starter: Card, crib: bool) -> bytes:
    """The response body of a validated request: the core's document, already JSON."""
    return score_show(hand, starter, crib).to_json_text().encode()


class HandScore:
    _schema = HandScoreRequest()

    def __init__(self, cache_size: int = 4096) -> None:
        self.body = functools.lru_cache(maxsize=cache_size)(show_body) if cache_size > 0 else show_body

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        # Any error of the core (a CribbageError) is mapped to 422 by the app.
        resp.data = self.body(data["cards"], data["starter"], data["crib"])
        resp.content_type = falcon.MEDIA_JSON
