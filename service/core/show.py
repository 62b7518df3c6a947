"""The show: counting a hand or the crib, four cards plus the starter (docs/rules.md, "The show").

=======================  ============================================
fifteen                  2 for each distinct set of cards summing to 15
pair                     2 for each two cards of one rank
run                      1 a card for each run of 3+ at full length,
                         once per combination of duplicate cards
flush (hand)             4 for the four hand cards of one suit, 5 with the starter
flush (crib)             5, only when all five cards are one suit
nobs                     1 for the jack of the starter's suit among the four
=======================  ============================================

Each rule has one home: fifteens, pairs and runs are :func:`rank_items` (they
depend on the five ranks only), the flush is :func:`flush_points`, nobs is
:func:`his_nobs`, and his heels (a starter jack, scored at the cut, never in
the show) is :func:`his_heels`.  Everything else is derived from them.

The count depends only on the pattern of the five cards: the rank multiset
(6,175 of them, each a :class:`ShowPattern` computed once, at import), which
hand cards share a suit with each other and with the starter, and which jack
matches the starter's suit.  So :func:`show_total` is two table lookups, and
:func:`score_show` answers a :class:`ShowScore` holding the cards, the total
and a reference to the pattern, without an object per scoring item: the
breakdown (:attr:`ShowScore.items`), the subtotals, the call and the JSON
document (:mod:`.show_text`) are built from the pattern when asked for.

>>> hand = parse_cards(["4D", "5C", "5H", "JS"])
>>> s = score_show(hand, Card.parse("6S"))
>>> s.total, show_total(hand, Card.parse("6S"))
(17, 17)
>>> s.call
'fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten, and a double run is sixteen, and his nobs is seventeen'
"""

from __future__ import annotations

import json
from functools import partial
from itertools import combinations, combinations_with_replacement
from operator import itemgetter
from typing import Any, NamedTuple, Sequence

from . import show_text
from .cards import CARDS, JACK, RANK, Card, ensure_distinct, parse_cards  # noqa: F401  (the doctests use parse_cards)
from .errors import MalformedError

KINDS = ("fifteen", "pair", "run", "flush", "nobs")
"""The kinds of scoring item, in the order a player says them."""

FIFTEEN_POINTS = PAIR_POINTS = 2
NOBS_POINTS = 1
HEELS_POINTS = 2

class ScoringItem(NamedTuple):
    """One scoring combination: its kind, the cards it uses and its points."""

    kind: str
    cards: tuple[Card, ...]
    points: int


# ---------------------------------------------------------------------------
# The rules, one function each.


_SUBSETS = tuple(combo for n in range(2, 6) for combo in combinations(range(5), n))
_SUBSET_OF = tuple(itemgetter(*combo) for combo in _SUBSETS)
_TWOS = tuple(combinations(range(5), 2))
_RUNS = {n: tuple((combo, itemgetter(*combo)) for combo in combinations(range(5), n)) for n in (3, 4, 5)}


def rank_items(ranks: Sequence[int]) -> list[tuple[str, tuple[int, ...], int]]:
    """Fifteens, pairs and runs of five ranks in ascending order, as
    ``(kind, positions into the ranks, points)`` in the spoken order.

    * a fifteen is each distinct set of 2 to 5 cards whose values (ace 1,
      court cards 10) sum to 15;
    * a pair is each two cards of one rank;
    * a run is each set of 3 or more cards of consecutive ranks, counted at
      its longest length only, once per combination of duplicate cards (a
      double run is two runs and a pair); runs never wrap (Q K A is none).

    >>> rank_items([1, 2, 2, 3, 4])
    [('pair', (1, 2), 2), ('run', (0, 1, 3, 4), 4), ('run', (0, 2, 3, 4), 4)]
    """
    values = [min(r, 10) for r in ranks]
    items = [("fifteen", combo, FIFTEEN_POINTS) for combo, cards in zip(_SUBSETS, _SUBSET_OF)
             if sum(cards(values)) == 15]
    items += [("pair", (a, b), PAIR_POINTS) for a, b in _TWOS if ranks[a] == ranks[b]]
    # the longest streak of consecutive ranks held is the length of the runs
    longest = streak = 1
    for a, b in zip(ranks, ranks[1:]):
        if b == a + 1:
            streak += 1
            longest = max(longest, streak)
        elif b != a:
            streak = 1
    if longest >= 3:
        # the ranks are in order, so n cards are a run when n distinct ranks span n
        items += [("run", combo, longest) for combo, cards in _RUNS[longest]
                  if len(set(run := cards(ranks))) == longest and run[-1] - run[0] == longest - 1]
    return items


def flush_points(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """The flush: four hand cards of one suit score 4, or 5 when the starter
    is of that suit too; in the crib only all five cards of one suit score (5).

    >>> flush_points(parse_cards(["4S", "5S", "9S", "JS"]), Card.parse("2H"))
    4
    >>> flush_points(parse_cards(["4S", "5S", "9S", "JS"]), Card.parse("2H"), crib=True)
    0
    """
    suit = hand[0].suit
    if any(c.suit != suit for c in hand):
        return 0
    if starter.suit == suit:
        return 5
    return 0 if crib else 4


def his_nobs(hand: Sequence[Card], starter: Card) -> Card | None:
    """Nobs: the jack of the starter's suit among the four cards (1 point), if
    there is one.  A starter jack is never nobs (it is :func:`his_heels`).

    >>> his_nobs(parse_cards(["5H", "5C", "5S", "JD"]), Card.parse("5D"))
    Card.parse('JD')
    """
    for c in hand:
        if c.rank == JACK and c.suit == starter.suit:
            return c
    return None


def his_heels(starter: Card) -> int:
    """His heels: a jack turned as the starter pegs 2 for the dealer at once
    (at the cut, before the play; never part of the show).

    >>> his_heels(Card.parse("JD")), his_heels(Card.parse("5D"))
    (2, 0)
    """
    return HEELS_POINTS if starter.rank == JACK else 0


def suit_points(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """What the suits add to the ranks' points: the flush and his nobs."""
    return flush_points(hand, starter, crib) + (NOBS_POINTS if his_nobs(hand, starter) is not None else 0)


# ---------------------------------------------------------------------------
# Patterns: everything about a show that depends on its ranks only.

RANK_KEY: tuple[int, ...] = tuple(1 << (3 * (c // 4)) for c in range(52))
"""Adding the keys of five cards gives a unique code of their rank multiset
(3 bits a rank suffice: no rank appears more than 4 times)."""


class ShowPattern:
    """The fifteens, pairs and runs of one rank multiset, precomputed: its
    items as positions into the five cards sorted and their points by kind;
    the call, the JSON breakdown and the JSON tail for each flush and nobs
    that can go with them are made on first use and kept."""

    __slots__ = ("ranks", "items", "fifteen", "pair", "run", "points", "getters", "_json", "_text")

    def __init__(self, ranks: tuple[int, ...]) -> None:
        self.ranks = ranks
        self.items = tuple(rank_items(ranks))
        by_kind = dict.fromkeys(KINDS, 0)
        for kind, _, points in self.items:
            by_kind[kind] += points
        self.fifteen, self.pair, self.run = by_kind["fifteen"], by_kind["pair"], by_kind["run"]
        self.points = self.fifteen + self.pair + self.run
        # (kind, what picks the item's cards out of the five sorted, points)
        self.getters = tuple((kind, itemgetter(*positions), points) for kind, positions, points in self.items)
        self._json: tuple[str, Any] | None = None
        self._text: dict[tuple[str, int, int], str] = {}

    def __repr__(self) -> str:
        return f"ShowPattern({self.ranks})"

    def call(self, flush: int, nobs: int) -> str:
        """The count said aloud with this flush (0, 4 or 5) and nobs (0 or 1)."""
        text = self._text.get(("call", flush, nobs))
        if text is None:
            text = self._text["call", flush, nobs] = show_text.say(self, flush, nobs)
        return text

    def json_breakdown(self) -> tuple[str, Any]:
        if self._json is None:
            self._json = show_text.breakdown_template(self)
        return self._json

    def json_tail(self, flush: int, nobs: int) -> str:
        text = self._text.get(("tail", flush, nobs))
        if text is None:
            text = self._text["tail", flush, nobs] = show_text.tail(self, flush, nobs)
        return text


PATTERNS: dict[int, ShowPattern] = {
    sum(1 << (3 * (r - 1)) for r in ranks): ShowPattern(ranks)
    for ranks in combinations_with_replacement(range(1, 14), 5)
    if ranks[0] != ranks[4]  # five of a kind cannot be dealt
}
"""The 6,175 five-card rank multisets, keyed by the sum of :data:`RANK_KEY`."""

RANK_POINTS: dict[int, int] = {k: p.points for k, p in PATTERNS.items()}
"""Points from fifteens, pairs and runs of each rank multiset."""


# What the suits add, by the suits' pattern: for each card, one bit for its
# suit and, for a jack, one for the jack's suit; the four hand cards' bits
# or'ed, with the starter's suit above them, index a table of suit_points
# built from the rules themselves on a hand of each pattern.
_SUIT_KEY = tuple((1 << (c & 3)) | ((16 << (c & 3)) if RANK[c] == JACK else 0) for c in range(52))
_STARTER_KEY = tuple((c & 3) << 8 for c in range(52))


def _suit_table(crib: bool) -> bytes:
    table = bytearray(1024)
    for suits in range(1, 16):  # the set of suits in the hand
        held = [s for s in range(4) if suits >> s & 1]
        for jacks in range(16):  # the suits of the jacks in the hand
            if jacks & ~suits:
                continue
            # one card of each suit held (its jack if there is one), then low cards of the first suit
            hand = [Card.from_rank_suit(JACK if jacks >> s & 1 else 1, s) for s in held]
            hand += [Card.from_rank_suit(2 + i, held[0]) for i in range(4 - len(held))]
            key = 0
            for c in hand:
                key |= _SUIT_KEY[c]
            for s in range(4):
                starter = Card.from_rank_suit(13, s)
                table[key | _STARTER_KEY[starter]] = suit_points(hand, starter, crib)
    return bytes(table)


_SUIT_POINTS = (_suit_table(False), _suit_table(True))
"""suit_points by suit pattern, for a hand (0) and a crib (1)."""


def show_total(hand: Sequence[int], starter: int, crib: bool = False) -> int:
    """Total of a hand (or crib) without the breakdown: two table lookups.

    ``hand`` holds four cards (ints 0..51 or :class:`Card`); nothing is validated.

    >>> show_total(parse_cards(["5H", "5C", "5S", "JD"]), Card.parse("5D"))
    29
    """
    a, b, c, d = hand
    k = RANK_KEY
    s = _SUIT_KEY
    return (RANK_POINTS[k[a] + k[b] + k[c] + k[d] + k[starter]]
            + _SUIT_POINTS[crib][s[a] | s[b] | s[c] | s[d] | _STARTER_KEY[starter]])


# ---------------------------------------------------------------------------
# The full breakdown.


class ShowScore(NamedTuple):
    """A counted hand or crib: the cards, the total and the pattern; the
    breakdown, the subtotals, the call and the JSON document are built from
    the pattern on each access (nothing per item is made until asked for)."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    total: int
    pattern: ShowPattern

    @property
    def items(self) -> tuple[ScoringItem, ...]:
        """Every scoring combination in the spoken order: fifteens, pairs, runs, flush, nobs."""
        return _items(self.hand, self.starter, self.pattern, *_flush_and_nobs(self))

    @property
    def subtotals(self) -> dict[str, int]:
        """Points per kind, every kind present (0 when it scores nothing)."""
        p = self.pattern
        flush, nobs = _flush_and_nobs(self)
        return {"fifteen": p.fifteen, "pair": p.pair, "run": p.run, "flush": flush,
                "nobs": NOBS_POINTS if nobs is not None else 0}

    @property
    def call(self) -> str:
        """The count as a player says it aloud, fifteens first and nobs last."""
        flush, nobs = _flush_and_nobs(self)
        return self.pattern.call(flush, NOBS_POINTS if nobs is not None else 0)

    def to_json_text(self) -> str:
        """The show as the API answers it (``POST /v1/hands/score``), as compact
        JSON: ``cards`` (as given) and ``starter`` in canonical spelling,
        ``crib``, ``total``, the ``breakdown`` in the spoken order,
        ``subtotals`` and ``call``."""
        flush, nobs = _flush_and_nobs(self)
        q = _QUOTED
        hand = self.hand
        five = [q[c] for c in sorted((*hand, self.starter))]
        return show_text.document(self.pattern, [q[c] for c in hand], q[self.starter], self.crib, self.total,
                                  five, _suit_items(hand, five, flush, nobs, q), flush,
                                  NOBS_POINTS if nobs is not None else 0)

    def to_json(self) -> dict[str, Any]:
        """:meth:`to_json_text` as a dict."""
        return json.loads(self.to_json_text())


_QUOTED = tuple(f'"{c}"' for c in CARDS)
"""Each card's canonical spelling as a JSON string."""
_item = partial(tuple.__new__, ScoringItem)


def _flush_and_nobs(score: ShowScore) -> tuple[int, Card | None]:
    if score.total == score.pattern.points:  # the suits add nothing: no flush, no nobs
        return 0, None
    hand = tuple(map(CARDS.__getitem__, score.hand))
    starter = CARDS[score.starter]
    return flush_points(hand, starter, score.crib), his_nobs(hand, starter)


def _suit_items(hand: Sequence[int], five: Sequence[Any], flush: int, nobs: Card | None,
                name: Sequence[Any]) -> list[tuple[str, tuple[Any, ...], int]]:
    """The flush (the four hand cards, or all five) and nobs as breakdown
    items, each card as ``name[card]``; ``five`` is the five so named, sorted."""
    items = []
    if flush:
        items.append(("flush", tuple(five) if flush == 5 else tuple([name[c] for c in sorted(hand)]), flush))
    if nobs is not None:
        items.append(("nobs", (name[nobs],), NOBS_POINTS))
    return items


_new = tuple.__new__


def _items(hand: Sequence[int], starter: int, pattern: ShowPattern, flush: int,
           nobs: Card | None) -> tuple[ScoringItem, ...]:
    five = sorted((*hand, starter))
    if type(five[0]) is not Card or type(five[4]) is not Card:
        five = [CARDS[c] for c in five]
    # one C-level tuple per item: a scoring item is the hot path's one allocation
    items = [_new(ScoringItem, (kind, get(five), points)) for kind, get, points in pattern.getters]
    if flush or nobs is not None:
        items += map(_item, _suit_items(hand, five, flush, nobs, CARDS))
    return tuple(items)


def show_items(hand: Sequence[Card], starter: Card, crib: bool = False) -> tuple[ScoringItem, ...]:
    """Every scoring combination of four distinct cards and the starter, in
    the spoken order; nothing is validated."""
    k = RANK_KEY
    a, b, c, d = hand
    pattern = PATTERNS[k[a] + k[b] + k[c] + k[d] + k[starter]]
    hand = tuple(map(CARDS.__getitem__, hand))
    starter = CARDS[starter]
    return _items(hand, starter, pattern, flush_points(hand, starter, crib), his_nobs(hand, starter))


def score_show(hand: Sequence[Card], starter: Card, crib: bool = False) -> ShowScore:
    """Count four cards and the starter; a hand of other than four cards or a
    card given twice is a :class:`MalformedError`.

    >>> s = score_show(parse_cards(["AC", "2C", "2D", "3H"]), Card.parse("4S"))
    >>> [(i.kind, i.points) for i in s.items]
    [('pair', 2), ('run', 4), ('run', 4)]
    """
    if type(hand) is not tuple:
        hand = tuple(hand)
    if len(hand) != 4:
        raise MalformedError(f"a hand or crib has 4 cards, not {len(hand)}", field="cards")
    a, b, c, d = hand
    if len({a, b, c, d, starter}) != 5:
        ensure_distinct((*hand, starter))
    k = RANK_KEY
    s = _SUIT_KEY
    pattern = PATTERNS[k[a] + k[b] + k[c] + k[d] + k[starter]]
    total = pattern.points + _SUIT_POINTS[crib][s[a] | s[b] | s[c] | s[d] | _STARTER_KEY[starter]]
    return tuple.__new__(ShowScore, (hand, starter, crib, total, pattern))
