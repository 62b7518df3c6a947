"""The peer service of the side-by-side benchmark: Flask + PyPI ``cribbage-scorer``.

``bench.peer_flask:app`` answers ``POST /v1/hands/score`` with the same
request body as the service (``{"cards": [4 cards], "starter": card,
"crib": bool}``) by calling cribbage-scorer's ``show_calc_score``, which
returns the total and a text breakdown, and ``GET /healthz``.  It checks
what such a small service would: a JSON object, four distinct cards and a
starter of the canonical spelling (``5H``, ``TH``), a boolean ``crib``;
anything else is a 422 JSON error.

It runs in its own venv (bench/venvs.py: Flask, cribbage-scorer and
gunicorn, never the project's dependencies), under the repository's
``gunicorn.conf.py`` exactly like the service (bench/harness.py).
"""

from __future__ import annotations

from cribbage_scorer import cribbage_scorer
from flask import Flask, jsonify, request

RANKS = {r: i + 1 for i, r in enumerate("A23456789TJQK")}
SUITS = set("CDHS")

app = Flask(__name__)


def _card(text: object) -> tuple[int, str]:
    if not isinstance(text, str) or len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"{text!r} is not a card")
    return RANKS[text[0]], text[1]


@app.post("/v1/hands/score")
def score():
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return jsonify(error="send a JSON object"), 400
    try:
        cards = body.get("cards")
        if not isinstance(cards, list) or len(cards) != 4:
            raise ValueError("cards: give 4 cards")
        hand = [_card(c) for c in cards]
        starter = _card(body.get("starter"))
        crib = body.get("crib", False)
        if not isinstance(crib, bool):
            raise ValueError("crib: true or false")
        if len(set(hand + [starter])) != 5:
            raise ValueError("a card is given twice")
    except ValueError as err:
        return jsonify(error=str(err)), 422
    total, breakdown = cribbage_scorer.show_calc_score(starter, hand, crib)
    return jsonify(cards=cards, starter=body["starter"], crib=crib, total=total, breakdown=breakdown)


@app.get("/healthz")
def healthz():
    return jsonify(status="ok")
