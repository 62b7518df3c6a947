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
from typing import Any, Callable

import orjson

from service.core.cards import CARDS, Card
from service.core.claims import Settled
from service.core.engine import kernel
from service.core.show import NOBS_POINTS, PATTERNS, RANK_KEY, ShowPattern, ShowScore, score_show, suit_items

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


Document = tuple[bytes, Callable[[tuple[bytes, ...]], tuple[bytes, ...]], int]
_DOCUMENTS: dict[int, Document] = {}
_QUOTED_BYTES = tuple(q.encode() for q in _QUOTED)


def document_template(rank_key: int, crib: bool) -> Document:
    """The whole document of a show whose suits score nothing, for a rank
    multiset (its :data:`~service.core.show.RANK_KEY` sum) and hand or crib:
    the text with a ``%s`` for each card name, what picks those names out of
    the five cards' (hand in request order, starter, then the five sorted),
    and the total (kept).  Bytes: formatting bytes is about twice as fast as
    formatting text, and the answer is bytes."""
    document = _DOCUMENTS.get(rank_key * 2 + crib)
    if document is None:
        pattern = PATTERNS[rank_key]
        parts = [_ITEM % (kind, ",".join(["%s"] * len(positions)), points) for kind, positions, points in pattern.items]
        slots = [5 + p for _, positions, _ in pattern.items for p in positions]
        head = '{"cards":[%%s,%%s,%%s,%%s],"starter":%%s,"crib":%s,"total":%d,"breakdown":[' % (
            "true" if crib else "false", pattern.points)
        text = head + ",".join(parts) + _tail(pattern, 0, 0).replace("%", "%%")
        document = _DOCUMENTS[rank_key * 2 + crib] = (text.encode(), itemgetter(0, 1, 2, 3, 4, *slots), pattern.points)
    return document


def plain_show_json(a: Card, b: Card, c: Card, d: Card, starter: Card, crib: bool) -> bytes:
    """:func:`show_json_text` of four distinct cards and the starter, encoded
    (nothing is validated): the hot path of hands/score and the batch.  A
    show whose suits score nothing (no flush, no nobs: most) is one template
    lookup and one format."""
    k = RANK_KEY
    key = k[a] + k[b] + k[c] + k[d] + k[starter]
    text, pick, points = _DOCUMENTS.get(key * 2 + crib) or document_template(key, crib)
    if kernel.show_total(a, b, c, d, starter, crib) != points:  # a flush or his nobs
        return show_json_text(score_show((a, b, c, d), starter, crib)).encode()
    q = _QUOTED_BYTES
    v, w, x, y, z = sorted((a, b, c, d, starter))
    return text % pick((q[a], q[b], q[c], q[d], q[starter], q[v], q[w], q[x], q[y], q[z]))


def show_json(score: ShowScore) -> dict[str, Any]:
    """:func:`show_json_text` as a dict."""
    document: dict[str, Any] = orjson.loads(show_json_text(score))
    return document


def with_claim(document: bytes, settled: Settled) -> bytes:
    """A show's ``document`` (:func:`show_json_text`, as bytes) with the ruling
    on its claim added as the ``claim`` member."""
    return (document[:-1] + b',"claim":'
            + orjson.dumps(ruling_json(settled.ruling, false_claim=settled.false_claim)) + b"}")
