"""``POST /v1/hands/score-batch``: up to ``MAX_ITEMS`` hands/score bodies in one request.

Each item is what ``POST /v1/hands/score`` takes (a plain count, or a claim
to judge) and its result is exactly what that endpoint answers for it: both
call :func:`~.hands.answer`, through the same answer cache.  An item that is
invalid is answered in place by its own problem object (status 422, each
field a JSON pointer into the batch, ``/items/3/cards/2``); the others are
scored all the same.  Only a body that is not ``{"items": [...]}`` of 1 to
``MAX_ITEMS`` items fails as a whole.

The answer is written as JSON text from the items' bytes, joined once.  A
well-formed plain item (keys among cards, starter, crib; four known
spellings and a starter; no card twice) skips the schema and, without the
answer cache, goes straight to its document's template
(:func:`service.boundary.show.plain_show_json`): the measured cost is close
to scoring in-process (``bench/run.py``, "batch").
"""

from __future__ import annotations

from typing import Any

import falcon
import orjson

from service.boundary.show import batch_json, plain_show_json
from service.core.cards import SPELLINGS
from service.core.errors import CribbageError

from ..media import read_json_object
from ..problems import ProblemError, from_core_error, invalid_request, json_pointer, problem_body
from .hands import HandScore, answer

MAX_ITEMS = 1000


class HandScoreBatch:
    def __init__(self, hands: HandScore) -> None:
        self.hands = hands

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        media = read_json_object(req)
        items = media.get("items")
        if media.keys() != {"items"}:
            errors = [{"field": json_pointer(k), "reason": "unknown field"} for k in media if k != "items"]
            if "items" not in media:
                errors.append({"field": "/items", "reason": "required field is missing"})
            raise invalid_request(errors)
        if type(items) is not list or not 1 <= len(items) <= MAX_ITEMS:
            reason = (f"a batch has 1 to {MAX_ITEMS} items, not {len(items)}" if type(items) is list
                      else "expected an array of hands/score bodies")
            raise invalid_request([{"field": "/items", "reason": reason}])
        body = self.hands.body if self.hands.cached else None
        text = plain_show_json
        spell = SPELLINGS.__getitem__  # a KeyError for no spelling, a TypeError for a list or dict
        out: list[bytes] = []
        append = out.append
        for i, item in enumerate(items):
            # The plain count, well formed: straight to the answer (the schema would say the same).
            # Its keys: cards and starter, and perhaps crib (two keys, or three with crib).
            if type(item) is dict and 2 <= (n := len(item)) <= 3:
                try:
                    cards = item["cards"]
                    starter = spell(item["starter"])
                    crib = item["crib"] if n == 3 else False
                    if type(cards) is list and (crib is True or crib is False):
                        a, b, c, d = map(spell, cards)  # a ValueError for other than four
                        if len({a, b, c, d, starter}) == 5:
                            # without the answer cache, the document's template directly
                            append(text(a, b, c, d, starter, crib) if body is None
                                   else body((a, b, c, d), starter, crib))
                            continue
                except (KeyError, TypeError, ValueError):  # a field missing, not four cards, a value no spelling
                    pass
            append(self._item(req, i, item))
        resp.data = batch_json(out)
        resp.content_type = falcon.MEDIA_JSON

    def _item(self, req: falcon.Request, index: int, item: Any) -> bytes:
        """One item the fast path did not take: its answer, or its problem in place."""
        try:
            if type(item) is not dict:
                raise invalid_request([{"field": "", "reason": "expected a JSON object"}])
            return answer(self.hands.load(item), self.hands.body)
        except ProblemError as exc:
            problem = exc
        except CribbageError as exc:
            problem = from_core_error(exc)
        doc = problem_body(req, problem)
        doc.pop("request_id", None)
        prefix = json_pointer("items", index)
        for e in doc["errors"]:
            e["field"] = prefix + e["field"]
        doc["detail"] = "; ".join(f"{e['field']}: {e['reason']}" for e in doc["errors"]) or doc["detail"]
        return orjson.dumps(doc)
