"""The show's score document as JSON text: what ``POST /v1/hands/score`` and each batch item answer.

The core counts (:func:`service.core.show.score_show`: the cards, the total
and the pattern of fifteens, pairs and runs, the flush and his nobs); this
writes the document: ``cards`` (as given) and ``starter`` in canonical
spelling, ``crib``, ``total``, the ``breakdown`` in the spoken order (each
item's cards in deck order), ``subtotals`` and ``call``.  A judged claim is
the same document with the ruling added as its ``claim`` member
(:func:`with_claim`).

It is the hot path of hands/score and the batch, so a document is written as
text, not dumped from a dict: per pattern (one of 6,175 rank multisets) the
breakdown is kept as a template with a slot for each card, and the tail
(subtotals and call) for each flush and nobs that can go with it, both made
on first use; a document is then those pieces with the five cards' names put
in (``bench/run.py`` and ``bench/batch.py`` measure it).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

import orjson

from service.core.cards import CARDS
from service.core.claims import Settled
from service.core.show import NOBS_POINTS, ShowPattern, ShowScore, suit_items

from .scores import ruling_json

_QUOTED = tuple(orjson.dumps(str(c)).decode() for c in CARDS)
"""Each card's canonical spelling as a JSON string."""
_ITEM = '{"kind":"%s","cards":[%s],"points":%d}'

Template = tuple[str, "itemgetter[Any] | None"]
_TEMPLATES: dict[ShowPattern, Template] = {}
_TAILS: dict[tuple[ShowPattern, int, int], str] = {}


def breakdown_template(pattern: ShowPattern) -> Template:
    """The pattern's fifteens, pairs and runs as JSON with a ``%s`` for each
    card, and what picks those cards, in order, out of the five sorted (kept)."""
    template = _TEMPLATES.get(pattern)
    if template is None:
        parts: list[str] = []
        slots: list[int] = []
        for kind, positions, points in pattern.items:
            parts.append(_ITEM % (kind, ",".join(["%s"] * len(positions)), points))
            slots.extend(positions)
        template = _TEMPLATES[pattern] = (",".join(parts), itemgetter(*slots) if slots else None)
    return template


def _tail(pattern: ShowPattern, flush: int, nobs: int) -> str:
    """The end of a document: the subtotals and the call (kept)."""
    text = _TAILS.get((pattern, flush, nobs))
    if text is None:
        subtotals = (pattern.fifteen, pattern.pair, pattern.run, flush, nobs)
        call = orjson.dumps(pattern.call(flush, nobs)).decode()
        text = _TAILS[pattern, flush, nobs] = (
            '],"subtotals":{"fifteen":%d,"pair":%d,"run":%d,"flush":%d,"nobs":%d},"call":%s}' % (*subtotals, call))
    return text


def show_json_text(score: ShowScore) -> str:
    """The document of a counted hand or crib, as compact JSON text."""
    flush, nobs = score.flush_and_nobs()
    q = _QUOTED
    hand = score.hand
    pattern = score.pattern
    template, pick = breakdown_template(pattern)
    five = sorted((*hand, score.starter))
    names = [q[c] for c in five]
    body = [template % pick(names)] if pick is not None else []
    if flush or nobs is not None:
        body += [_ITEM % (kind, ",".join([q[c] for c in cards]), points)
                 for kind, cards, points in suit_items(hand, five, flush, nobs)]
    a, b, c, d = hand
    return '{"cards":[%s,%s,%s,%s],"starter":%s,"crib":%s,"total":%d,"breakdown":[%s%s' % (
        q[a], q[b], q[c], q[d], q[score.starter], "true" if score.crib else "false", score.total, ",".join(body),
        _tail(pattern, flush, NOBS_POINTS if nobs is not None else 0))


def show_json(score: ShowScore) -> dict[str, Any]:
    """:func:`show_json_text` as a dict."""
    document: dict[str, Any] = orjson.loads(show_json_text(score))
    return document


def with_claim(document: bytes, settled: Settled) -> bytes:
    """A show's ``document`` (:func:`show_json_text`, as bytes) with the ruling
    on its claim added as the ``claim`` member."""
    return (document[:-1] + b',"claim":'
            + orjson.dumps(ruling_json(settled.ruling, false_claim=settled.false_claim)) + b"}")
