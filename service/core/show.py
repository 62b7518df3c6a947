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

Each rule has one home, in the kernel (:mod:`.kernel`): fifteens, pairs and
runs are :func:`~.kernel.rank_items` (they depend on the five ranks only),
the flush is :func:`~.kernel.flush_points`, nobs is :func:`~.kernel.nobs`,
and his heels (a starter jack, scored at the cut, never in the show) is
:func:`~.kernel.heels`; the functions here give them in the cards and words
of the API.  Everything else is derived from them.

The count depends only on the pattern of the five cards: the rank multiset
(6,175 of them, each a :class:`ShowPattern` computed once, at import), which
hand cards share a suit with each other and with the starter, and which jack
matches the starter's suit.  So :func:`show_total` is two table lookups, and
:func:`score_show` answers a :class:`ShowScore` holding the cards, the total
and a reference to the pattern, without an object per scoring item: the
breakdown (:attr:`ShowScore.items`), the subtotals and the call
(:mod:`.show_text`) are built from the pattern when asked for.  The API's
document of a show is the JSON boundary's (:mod:`service.boundary.show`).

>>> hand = parse_cards(["4D", "5C", "5H", "JS"])
>>> s = score_show(hand, Card.parse("6S"))
>>> s.total, show_total(hand, Card.parse("6S"))
(17, 17)
>>> s.call
'fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten, and a double run is sixteen, and his nobs is seventeen'
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from operator import itemgetter
from typing import NamedTuple, Sequence, overload

from . import show_text
from .cards import CARDS, Card, ensure_distinct, parse_cards  # noqa: F401  (the doctests use parse_cards)
from .engine import kernel
from .errors import MalformedError
from .peg import Score

KINDS = ("fifteen", "pair", "run", "flush", "nobs")
"""The kinds of scoring item, in the order a player says them."""
_RANK_KINDS = {kernel.FIFTEEN_ITEM: "fifteen", kernel.PAIR_ITEM: "pair", kernel.RUN_ITEM: "run"}

FIFTEEN_POINTS = kernel.FIFTEEN_POINTS
PAIR_POINTS = kernel.PAIR_ITEM_POINTS
NOBS_POINTS = kernel.NOBS_POINTS
HEELS_POINTS = kernel.HEELS_POINTS


class ScoringItem(NamedTuple):
    """One scoring combination: its kind, the cards it uses and its points."""

    kind: str
    cards: tuple[Card, ...]
    points: int


class RankItem(NamedTuple):
    """A fifteen, pair or run of a rank multiset: its kind, where its cards sit
    among the five sorted (:attr:`ShowPattern.ranks`) and its points."""

    kind: str
    positions: tuple[int, ...]
    points: int


# ---------------------------------------------------------------------------
# The rules, in the API's cards and words (their home is the kernel).


def rank_items(ranks: Sequence[int]) -> list[tuple[str, tuple[int, ...], int]]:
    """Fifteens, pairs and runs of five ranks in ascending order, as
    ``(kind, positions into the ranks, points)`` in the spoken order
    (:func:`service.core.kernel.rank_items`).

    >>> rank_items([1, 2, 2, 3, 4])
    [('pair', (1, 2), 2), ('run', (0, 1, 3, 4), 4), ('run', (0, 2, 3, 4), 4)]
    """
    return [(_RANK_KINDS[kind], positions, points) for kind, positions, points in kernel.rank_items(tuple(ranks))]


def flush_points(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """The flush: four hand cards of one suit score 4, or 5 when the starter
    is of that suit too; in the crib only all five cards of one suit score (5).

    >>> flush_points(parse_cards(["4S", "5S", "9S", "JS"]), Card.parse("2H"))
    4
    >>> flush_points(parse_cards(["4S", "5S", "9S", "JS"]), Card.parse("2H"), crib=True)
    0
    """
    a, b, c, d = hand
    return kernel.flush_points(a, b, c, d, starter, crib)


def his_nobs(hand: Sequence[Card], starter: Card) -> Card | None:
    """Nobs: the jack of the starter's suit among the four cards (1 point), if
    there is one.  A starter jack is never nobs (it is :func:`his_heels`).

    >>> his_nobs(parse_cards(["5H", "5C", "5S", "JD"]), Card.parse("5D"))
    Card.parse('JD')
    """
    a, b, c, d = hand
    card = kernel.nobs(a, b, c, d, starter)
    return CARDS[card] if card >= 0 else None


def his_heels(starter: Card) -> int:
    """His heels: a jack turned as the starter pegs 2 for the dealer at once
    (at the cut, before the play; never part of the show).

    >>> his_heels(Card.parse("JD")), his_heels(Card.parse("5D"))
    (2, 0)
    """
    return kernel.heels(starter)


def suit_points(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """What the suits add to the ranks' points: the flush and his nobs."""
    return flush_points(hand, starter, crib) + (NOBS_POINTS if his_nobs(hand, starter) is not None else 0)


# ---------------------------------------------------------------------------
# Patterns: everything about a show that depends on its ranks only.

RANK_KEY: tuple[int, ...] = kernel.RANK_KEY
"""Adding the keys of five cards gives a unique code of their rank multiset
(3 bits a rank suffice: no rank appears more than 4 times)."""


class ShowPattern:
    """The fifteens, pairs and runs of one rank multiset, precomputed: its
    items as positions into the five cards sorted and their points by kind;
    the call for each flush and nobs that can go with them is made on first
    use and kept."""

    __slots__ = ("ranks", "items", "fifteen", "pair", "run", "points", "getters", "_calls")

    def __init__(self, ranks: tuple[int, ...]) -> None:
        self.ranks = ranks
        self.items: tuple[RankItem, ...] = tuple(
            RankItem(_RANK_KINDS[kind], positions, points)
            for kind, positions, points in kernel.RANK_ITEMS[kernel.rank_key(ranks)])
        by_kind = dict.fromkeys(KINDS, 0)
        for kind, _, points in self.items:
            by_kind[kind] += points
        self.fifteen, self.pair, self.run = by_kind["fifteen"], by_kind["pair"], by_kind["run"]
        self.points = self.fifteen + self.pair + self.run
        # (kind, what picks the item's cards out of the five sorted, points)
        self.getters = tuple((kind, itemgetter(*positions), points) for kind, positions, points in self.items)
        self._calls: dict[tuple[int, int], str] = {}

    def __repr__(self) -> str:
        return f"ShowPattern({self.ranks})"

    def call(self, flush: int, nobs: int) -> str:
        """The count said aloud with this flush (0, 4 or 5) and nobs (0 or 1)."""
        text = self._calls.get((flush, nobs))
        if text is None:
            text = self._calls[flush, nobs] = show_text.say(self, flush, nobs)
        return text


PATTERNS: dict[int, ShowPattern] = {kernel.rank_key(ranks): ShowPattern(ranks) for ranks in kernel.FIVE_RANKS}
"""The 6,175 five-card rank multisets, keyed by the sum of :data:`RANK_KEY`."""

RANK_POINTS: dict[int, int] = kernel.RANK_POINTS
"""Points from fifteens, pairs and runs of each rank multiset."""


def show_total(hand: Sequence[int], starter: int, crib: bool = False) -> int:
    """Total of a hand (or crib) without the breakdown: two table lookups
    (:func:`service.core.kernel.show_total`).

    ``hand`` holds four cards (ints 0..51 or :class:`Card`); nothing is validated.

    >>> show_total(parse_cards(["5H", "5C", "5S", "JD"]), Card.parse("5D"))
    29
    """
    a, b, c, d = hand
    return kernel.show_total(a, b, c, d, starter, crib)


# ---------------------------------------------------------------------------
# The full breakdown.


class ShowScore(NamedTuple):
    """A counted hand or crib: the cards, the total and the pattern; the
    breakdown, the subtotals and the call are built from the pattern on each
    access (nothing per item is made until asked for)."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    total: int
    pattern: ShowPattern

    @property
    def items(self) -> tuple[ScoringItem, ...]:
        """Every scoring combination in the spoken order: fifteens, pairs, runs, flush, nobs."""
        return _items(self.hand, self.starter, self.pattern, *self.flush_and_nobs())

    def pegged(self, seat: int) -> tuple[Score, ...]:
        """The count as ``seat`` pegs it: a score an item (:func:`pegged_items`)."""
        return pegged_items(seat, self.items)

    @property
    def subtotals(self) -> dict[str, int]:
        """Points per kind, every kind present (0 when it scores nothing)."""
        p = self.pattern
        flush, nobs = self.flush_and_nobs()
        return {"fifteen": p.fifteen, "pair": p.pair, "run": p.run, "flush": flush,
                "nobs": NOBS_POINTS if nobs is not None else 0}

    @property
    def call(self) -> str:
        """The count as a player says it aloud, fifteens first and nobs last."""
        flush, nobs = self.flush_and_nobs()
        return self.pattern.call(flush, NOBS_POINTS if nobs is not None else 0)

    def flush_and_nobs(self) -> tuple[int, Card | None]:
        """What the suits score: the flush's points (0, 4 or 5) and the jack that is
        his nobs, or None."""
        if self.total == self.pattern.points:  # the suits add nothing: no flush, no nobs
            return 0, None
        hand = tuple(map(CARDS.__getitem__, self.hand))
        starter = CARDS[self.starter]
        return flush_points(hand, starter, self.crib), his_nobs(hand, starter)


_item = partial(tuple.__new__, ScoringItem)


def suit_items(hand: Sequence[int], five: Sequence[int], flush: int, nobs: Card | None) -> list[ScoringItem]:
    """The flush (the four hand cards in deck order, or all five) and nobs as
    scoring items, from :meth:`ShowScore.flush_and_nobs`; ``five``: the five
    cards sorted."""
    items = []
    if flush:
        items.append(_item(("flush", tuple([CARDS[c] for c in (five if flush == 5 else sorted(hand))]), flush)))
    if nobs is not None:
        items.append(_item(("nobs", (CARDS[nobs],), NOBS_POINTS)))
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
        items += suit_items(hand, five, flush, nobs)
    return tuple(items)


def pegged_items(seat: int, items: Sequence[ScoringItem]) -> tuple[Score, ...]:
    """A counted hand's or crib's items as ``seat`` pegs them: one score an item, in the spoken order
    (what a claim on the count is settled against, in a game and in hands/score alike)."""
    return tuple([_new(Score, (seat, kind, points, used)) for kind, used, points in items])


def show_items(hand: Sequence[Card], starter: Card, crib: bool = False) -> tuple[ScoringItem, ...]:
    """Every scoring combination of four distinct cards and the starter, in
    the spoken order; nothing is validated."""
    k = RANK_KEY
    a, b, c, d = hand
    pattern = PATTERNS[k[a] + k[b] + k[c] + k[d] + k[starter]]
    hand = tuple(map(CARDS.__getitem__, hand))
    starter = CARDS[starter]
    return _items(hand, starter, pattern, flush_points(hand, starter, crib), his_nobs(hand, starter))


class CountedScores(Sequence[Score]):
    """A counted hand's or crib's scores for ``seat``, one per scoring item in
    the spoken order (:func:`show_items`), made when first read: a game pegs
    the show's ``total`` (:func:`service.core.kernel.show_total`) and reads the
    items only when something asks for them (an event answered to a client,
    a claim judged, a game won in the middle of a count)."""

    __slots__ = ("seat", "hand", "starter", "crib", "total", "_scores")

    def __init__(self, seat: int, hand: Sequence[Card], starter: Card, crib: bool, total: int) -> None:
        self.seat, self.hand, self.starter, self.crib, self.total = seat, hand, starter, crib, total
        self._scores: tuple[Score, ...] | None = None

    def scores(self) -> tuple[Score, ...]:
        if self._scores is None:
            self._scores = pegged_items(self.seat, show_items(self.hand, self.starter, self.crib))
        return self._scores

    @overload
    def __getitem__(self, i: int) -> Score: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Score, ...]: ...
    def __getitem__(self, i: int | slice) -> Score | tuple[Score, ...]:
        return self.scores()[i]

    def __len__(self) -> int:
        return len(self.scores())

    def __iter__(self) -> Iterator[Score]:
        return iter(self.scores())

    def __bool__(self) -> bool:
        return self.total > 0  # every item scores

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CountedScores):
            other = other.scores()
        return self.scores() == other if isinstance(other, tuple) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.scores())

    def __repr__(self) -> str:
        return repr(self.scores())


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
    pattern = PATTERNS[k[a] + k[b] + k[c] + k[d] + k[starter]]
    return tuple.__new__(ShowScore, (hand, starter, crib, kernel.show_total(a, b, c, d, starter, crib), pattern))
