"""The show: counting a hand or the crib, four cards plus the starter.

=======================  ============================================
fifteen                  2 for each distinct set of cards summing to 15
pair                     2 for each two cards of one rank
run                      1 a card for each run of 3+ at full length,
                         once per combination of duplicate cards
flush (hand)             4 for the four hand cards of one suit, 5 with the starter
flush (crib)             5, only when all five cards are one suit
nobs                     1 for the jack of the starter's suit among the four
=======================  ============================================

Two paths give the same numbers: :func:`show_total` is the hot path (a table
lookup on the rank multiset plus the flush and nobs checks) and
:func:`score_show` lists every scoring combination so a client can draw it.

>>> hand = parse_cards(["4D", "5C", "5H", "JS"])
>>> s = score_show(hand, Card.parse("6S"))
>>> s.total, show_total(hand, Card.parse("6S"))
(17, 17)
>>> s.call
'fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten, and a double run is sixteen, and his nobs is seventeen'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Sequence

from .cards import CARDS, JACK, Card, ensure_distinct, parse_cards
from .errors import MalformedError

KINDS = ("fifteen", "pair", "run", "flush", "nobs")

NUMBER_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
    "seventeen", "eighteen", "nineteen", "twenty", "twenty-one", "twenty-two",
    "twenty-three", "twenty-four", "twenty-five", "twenty-six", "twenty-seven",
    "twenty-eight", "twenty-nine", "thirty", "thirty-one",
)


@dataclass(frozen=True, slots=True)
class ScoringItem:
    """One scoring combination: its kind, the cards it uses and its points."""

    kind: str
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class ShowScore:
    """A counted hand or crib with every scoring combination."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    items: tuple[ScoringItem, ...]
    total: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", sum(i.points for i in self.items))

    @property
    def subtotals(self) -> dict[str, int]:
        """Points per kind, every kind present (0 when it scores nothing)."""
        out = dict.fromkeys(KINDS, 0)
        for item in self.items:
            out[item.kind] += item.points
        return out

    @property
    def call(self) -> str:
        """The count as a player says it aloud, fifteens first and nobs last."""
        return _call(self)


# ---------------------------------------------------------------------------
# The hot path: rank multiset -> points for fifteens, pairs and runs.

_RANK_KEY = tuple(1 << (3 * (i // 4)) for i in range(52))
"""Adding the keys of five cards gives a unique code of their rank multiset
(3 bits a rank suffice: no rank appears more than 4 times)."""

_JACK_OF_SUIT = tuple((JACK - 1) * 4 + s for s in range(4))


def _rank_items_of(ranks: Sequence[int]) -> tuple[tuple[str, tuple[int, ...], int], ...]:
    """Fifteens, pairs and runs of five sorted ranks, as positions into them:
    the one place these three rules are counted."""
    values = [min(r, 10) for r in ranks]
    positions = range(len(ranks))
    items: list[tuple[str, tuple[int, ...], int]] = []
    for n in range(2, 6):
        items.extend(("fifteen", combo, 2) for combo in combinations(positions, n)
                     if sum(values[i] for i in combo) == 15)
    items.extend(("pair", (a, b), 2) for a, b in combinations(positions, 2) if ranks[a] == ranks[b])
    for n in (5, 4, 3):
        runs = [combo for combo in combinations(positions, n) if _consecutive([ranks[i] for i in combo])]
        if runs:
            items.extend(("run", combo, n) for combo in runs)
            break
    return tuple(items)


def _consecutive(ranks: Sequence[int]) -> bool:
    s = sorted(ranks)
    return all(s[i + 1] == s[i] + 1 for i in range(len(s) - 1))


def _build_rank_items() -> dict[int, tuple[tuple[str, tuple[int, ...], int], ...]]:
    from itertools import combinations_with_replacement

    table = {}
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if ranks[0] == ranks[4]:
            continue  # five of a kind cannot be dealt
        table[sum(1 << (3 * (r - 1)) for r in ranks)] = _rank_items_of(ranks)
    return table


RANK_ITEMS = _build_rank_items()
"""Fifteens, pairs and runs (as positions into the five sorted cards) for each
of the 6,175 five-card rank multisets, keyed by the sum of :data:`_RANK_KEY`."""

RANK_POINTS: dict[int, int] = {key: sum(p for _, _, p in items) for key, items in RANK_ITEMS.items()}
"""Points from fifteens, pairs and runs for each rank multiset."""


def show_total(hand: Sequence[int], starter: int, crib: bool = False) -> int:
    """Total of a hand (or crib) without the breakdown: a lookup plus two checks.

    ``hand`` holds four cards (ints 0..51 or :class:`Card`); nothing is validated.

    >>> show_total(parse_cards(["5H", "5C", "5S", "JD"]), Card.parse("5D"))
    29
    """
    a, b, c, d = hand
    k = _RANK_KEY
    pts = RANK_POINTS[k[a] + k[b] + k[c] + k[d] + k[starter]]
    suit = a & 3
    if suit == b & 3 == c & 3 == d & 3:
        if starter & 3 == suit:
            pts += 5
        elif not crib:
            pts += 4
    if _JACK_OF_SUIT[starter & 3] in hand:
        pts += 1
    return pts


# ---------------------------------------------------------------------------
# The full breakdown.


def show_items(hand: Sequence[Card], starter: Card, crib: bool = False) -> list[tuple[str, tuple[Card, ...], int]]:
    """Every scoring combination of four distinct cards and the starter, as
    (kind, cards, points) in the spoken order; nothing is validated."""
    five = sorted((*hand, starter))
    k = _RANK_KEY
    items = [(kind, tuple([five[i] for i in combo]), points)
             for kind, combo, points in RANK_ITEMS[k[five[0]] + k[five[1]] + k[five[2]] + k[five[3]] + k[five[4]]]]
    suit = hand[0] & 3
    if all(c & 3 == suit for c in hand):
        if starter & 3 == suit:
            items.append(("flush", tuple(five), 5))
        elif not crib:
            items.append(("flush", tuple(sorted(hand)), 4))
    nobs = _JACK_OF_SUIT[starter & 3]
    if nobs in hand:
        items.append(("nobs", (CARDS[nobs],), 1))
    return items


def score_show(hand: Sequence[Card], starter: Card, crib: bool = False) -> ShowScore:
    """Count four cards and the starter, listing every scoring combination.

    Runs are counted at their longest length only; each combination of
    duplicate cards is its own run (a double run is two runs and a pair).

    >>> s = score_show(parse_cards(["AC", "2C", "2D", "3H"]), Card.parse("4S"))
    >>> [(i.kind, i.points) for i in s.items]
    [('pair', 2), ('run', 4), ('run', 4)]
    """
    hand = tuple(hand)
    if len(hand) != 4:
        raise MalformedError(f"a hand or crib has 4 cards, not {len(hand)}", field="cards")
    ensure_distinct((*hand, starter))
    items = tuple(ScoringItem(kind, cards, points) for kind, cards, points in show_items(hand, starter, crib))
    return ShowScore(hand=hand, starter=starter, crib=crib, items=items)


def score_show_text(cards: Sequence[str], starter: str, crib: bool = False) -> ShowScore:
    """Convenience for callers holding spellings; a card given twice is an error."""
    hand = parse_cards(cards)
    return score_show(hand, Card.parse(starter), crib)


# ---------------------------------------------------------------------------
# Saying the count aloud.

_RUN_MULTIPLES = {1: "a run of {n}", 2: "a double run of {n}", 3: "a triple run of {n}",
                  4: "a double double run of {n}"}
_LENGTH_WORDS = {3: "three", 4: "four", 5: "five"}


def _pairs_phrase(items: Sequence[ScoringItem]) -> str:
    by_rank: dict[int, int] = {}
    for item in items:
        by_rank[item.cards[0].rank] = by_rank.get(item.cards[0].rank, 0) + 1
    names = {1: "a pair", 3: "a pair royal", 6: "a double pair royal"}
    parts = sorted((names[n] for n in by_rank.values()), key=lambda p: -len(p))
    if parts == ["a pair", "a pair"]:
        return "two pairs"
    return " and ".join(parts)


def _runs_phrase(items: Sequence[ScoringItem]) -> str:
    n = len(items[0].cards)
    phrase = _RUN_MULTIPLES[len(items)].format(n=_LENGTH_WORDS[n])
    # "a double run" means one of three in play; name the length only when longer
    return phrase.replace(" of three", "") if len(items) > 1 else phrase


def _call(score: ShowScore) -> str:
    if score.total == 0:
        return "no points"  # not "nineteen": that table joke reads as a claim of 19
    parts: list[str] = []
    running = 0
    by_kind = {k: [i for i in score.items if i.kind == k] for k in KINDS}
    for item in by_kind["fifteen"]:
        running += item.points
        parts.append(f"fifteen {NUMBER_WORDS[running]}")
    groups = (
        ("pair", _pairs_phrase),
        ("run", _runs_phrase),
        ("flush", lambda its: f"a flush of {NUMBER_WORDS[len(its[0].cards)]}"),
        ("nobs", lambda its: "his nobs"),
    )
    for kind, phrase in groups:
        its = by_kind[kind]
        if its:
            running += sum(i.points for i in its)
            text = f"{phrase(its)} is {NUMBER_WORDS[running]}"
            parts.append(f"and {text}" if parts else text)
    return ", ".join(parts)
