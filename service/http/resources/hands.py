"""``POST /v1/hands/score``: count a hand or crib (four cards and the starter)."""

from __future__ import annotations

from typing import Any, Iterable

import falcon

from service.core.cards import Card
from service.core.show import ShowScore, score_show

from ..media import read_json_object
from ..problems import invalid_request
from ..schemas import HandScoreRequest, load


def duplicate_errors(named: Iterable[tuple[str, Card]]) -> list[dict[str, str]]:
    """Name every card given again, at the place it is repeated.

    ``named`` is ``(JSON pointer, card)`` in request order; the first sighting
    of a card is fine, each later one is the error.

    >>> duplicate_errors([("/cards/0", Card.parse("5H")), ("/starter", Card.parse("5h"))])
    [{'field': '/starter', 'reason': '5H is given twice (also at /cards/0)'}]
    """
    first: dict[Card, str] = {}
    errors = []
    for pointer, card in named:
        if card in first:
            errors.append({"field": pointer, "reason": f"{card} is given twice (also at {first[card]})"})
        else:
            first[card] = pointer
    return errors


def show_document(score: ShowScore) -> dict[str, Any]:
    """The response body: cards in canonical spelling, breakdown in spoken order."""
    return {
        "cards": [str(c) for c in score.hand],
        "starter": str(score.starter),
        "crib": score.crib,
        "total": score.total,
        "breakdown": [
            {"kind": item.kind, "cards": [str(c) for c in item.cards], "points": item.points}
            for item in score.items
        ],
        "subtotals": score.subtotals,
        "call": score.call,
    }


class HandScore:
    _schema = HandScoreRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        hand: list[Card] = data["cards"]
        starter: Card = data["starter"]
        named = [(f"/cards/{i}", c) for i, c in enumerate(hand)] + [("/starter", starter)]
        errors = duplicate_errors(named)
        if errors:
            raise invalid_request(errors)
        # Any other error of the core (a CribbageError) is mapped to 422 by the app.
        resp.media = show_document(score_show(hand, starter, data["crib"]))
