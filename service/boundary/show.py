"""The show's score document as JSON text: what ``POST /v1/hands/score`` and each batch item
answer (and the batch's own answer, :func:`batch_json`).

The core counts (:func:`service.core.show.score_show`: the cards, the total
and the pattern of fifteens, pairs and runs, the flush and his nobs); this
writes the document: ``cards`` (as given) and ``starter`` in canonical
spelling, ``crib``, ``total``, the ``breakdown`` in the spoken order (each
item's cards in deck order), ``subtotals`` and ``call``.  A judged claim is
the same document with the ruling added as its ``claim`` member
(:func:`with_claim`).

It is the hot path of hands/score and the batch, so a document is written as
bytes, not dumped from a dict: per pattern (one of 6,175 rank multisets), hand
or crib, and the flush and nobs that go with it, the whole document is kept as
a template with a slot for each card name, made on first use; a document is
then one lookup and one format with the cards' names put in
(:func:`plain_show_json` spares even the count's object when the suits score
nothing; ``bench/run.py`` and ``bench/batch.py`` measure it).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable, Sequence

import orjson

from service.core.cards import CARDS, Card
from service.core.claims import Settled
from service.core.engine import kernel
from service.core.show import (NOBS_POINTS, PATTERNS, RANK_KEY, ScoringItem, ShowPattern, ShowScore, flush_points,
                                his_nobs, suit_items)

from .scores import ruling_json

_QUOTED = tuple(orjson.dumps(str(c)).decode() for c in CARDS)
"""Each card's canonical spelling as a JSON string."""
_ITEM = '{"kind":"%s","cards":[%s],"points":%d}'

_TAILS: dict[tuple[ShowPattern, int, int], str] = {}


def _tail(pattern: ShowPattern, flush: int, nobs: int) -> str:
    """The end of a document: the subtotals and the call (kept)."""
    text = _TAILS.get((pattern, flush, nobs))
    if text is None:
        subtotals = (pattern.fifteen, pattern.pair, pattern.run, flush, nobs)
        call = orjson.dumps(pattern.call(flush, nobs)).decode()
        text = _TAILS[pattern, flush, nobs] = (
            '],"subtotals":{"fifteen":%d,"pair":%d,"run":%d,"flush":%d,"nobs":%d},"call":%s}' % (*subtotals, call))
    return text


Document = tuple[bytes, Callable[[tuple[bytes, ...]], tuple[bytes, ...]], int]
"""A show's whole document as bytes with a ``%s`` for each card name, what
picks those names, in order, out of the cards' (the hand in request order,
the starter, the five sorted, then the flush's and nobs' cards), and the total."""
_DOCUMENTS: dict[int, Document] = {}
_SUIT_DOCUMENTS: dict[tuple[int, bool, int, int], Document] = {}
_QUOTED_BYTES = tuple(q.encode() for q in _QUOTED)


def _document(pattern: ShowPattern, crib: bool, flush: int, nobs: int, suit: Sequence[ScoringItem]) -> Document:
    """The document of ``pattern`` with these suits' points and items (``suit``:
    :func:`~service.core.show.suit_items`; only how many cards each names matters)."""
    parts = [_ITEM % (kind, ",".join(["%s"] * len(positions)), points) for kind, positions, points in pattern.items]
    parts += [_ITEM % (kind, ",".join(["%s"] * len(cards)), points) for kind, cards, points in suit]
    slots = [5 + p for _, positions, _ in pattern.items for p in positions]
    slots += range(10, 10 + sum(len(cards) for _, cards, _ in suit))
    total = pattern.points + flush + nobs
    head = '{"cards":[%%s,%%s,%%s,%%s],"starter":%%s,"crib":%s,"total":%d,"breakdown":[' % (
        "true" if crib else "false", total)
    text = head + ",".join(parts) + _tail(pattern, flush, nobs).replace("%", "%%")
    return text.encode(), itemgetter(0, 1, 2, 3, 4, *slots), total


def document_template(rank_key: int, crib: bool) -> Document:
    """The document of a show whose suits score nothing, for a rank multiset
    (its :data:`~service.core.show.RANK_KEY` sum) and hand or crib (kept:
    at most 12,350)."""
    document = _DOCUMENTS.get(rank_key * 2 + crib)
    if document is None:
        document = _DOCUMENTS[rank_key * 2 + crib] = _document(PATTERNS[rank_key], crib, 0, 0, ())
    return document


def show_json_bytes(score: ShowScore) -> bytes:
    """The document of a counted hand or crib, as compact JSON (bytes)."""
    flush, jack = score.flush_and_nobs()
    return _write(score.hand, score.starter, score.crib, flush, jack)


def _write(hand: Sequence[int], starter: int, crib: bool, flush: int, jack: Card | None) -> bytes:
    """The document of four cards and the starter whose suits score ``flush``
    and ``jack`` (his nobs, or None): its template with the cards' names put in."""
    k = RANK_KEY
    a, b, c, d = hand
    key = k[a] + k[b] + k[c] + k[d] + k[starter]
    five = sorted((*hand, starter))
    if not flush and jack is None:
        text, pick, _ = document_template(key, crib)
        cards: tuple[int, ...] = (*hand, starter, *five)
    else:
        suit = suit_items(hand, five, flush, jack)
        nobs = NOBS_POINTS if jack is not None else 0
        document = _SUIT_DOCUMENTS.get((key, crib, flush, nobs))
        if document is None:
            document = _SUIT_DOCUMENTS[key, crib, flush, nobs] = _document(PATTERNS[key], crib, flush, nobs, suit)
        text, pick, _ = document
        cards = (*hand, starter, *five, *[card for _, used, _ in suit for card in used])
    q = _QUOTED_BYTES
    return text % pick(tuple([q[card] for card in cards]))


def show_json_text(score: ShowScore) -> str:
    """:func:`show_json_bytes` as text."""
    return show_json_bytes(score).decode()


def plain_show_json(a: Card, b: Card, c: Card, d: Card, starter: Card, crib: bool) -> bytes:
    """:func:`show_json_bytes` of four distinct cards and the starter (nothing
    is validated): the hot path of hands/score and the batch.  A show whose
    suits score nothing (no flush, no nobs: most) is one template lookup and
    one format; formatting bytes is about twice as fast as formatting text."""
    k = RANK_KEY
    key = k[a] + k[b] + k[c] + k[d] + k[starter]
    text, pick, total = _DOCUMENTS.get(key * 2 + crib) or document_template(key, crib)
    if kernel.show_total(a, b, c, d, starter, crib) != total:  # a flush or his nobs
        hand = (a, b, c, d)
        return _write(hand, starter, crib, flush_points(hand, starter, crib), his_nobs(hand, starter))
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


def batch_json(items: list[bytes]) -> bytes:
    """``POST /v1/hands/score-batch``'s answer: each item's document (or its
    problem, in place) as written, in order, joined once."""
    return b'{"results":[' + b",".join(items) + b"]}"
