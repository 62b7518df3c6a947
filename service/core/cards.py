"""Cards: the 52 immutable card values and their spellings.

A card is an ``int`` from 0 to 51 (``(rank - 1) * 4 + suit``), so it can index
precomputed tables directly on the hot path, yet it prints and parses like a
card.  There are exactly 52 instances; :meth:`Card.parse` returns them.

>>> Card.parse("10h")
Card.parse('TH')
>>> str(Card.parse("5♥")), Card.parse("AS").rank, Card.parse("KD").value
('5H', 1, 10)
"""

from __future__ import annotations

from typing import Iterable

from .errors import DuplicateCardError, MalformedCardError

RANK_SYMBOLS = "A23456789TJQK"
SUIT_SYMBOLS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)

ACE, JACK, QUEEN, KING = 1, 11, 12, 13

_RANK_SPELLINGS = {s: i + 1 for i, s in enumerate(RANK_SYMBOLS)}
_RANK_SPELLINGS["10"] = 10
_RANK_SPELLINGS["1"] = 1  # some software writes the ace as 1
_SUIT_SPELLINGS = {s: i for i, s in enumerate(SUIT_SYMBOLS)}
# Both the white and the black suit symbols are in common use.
for _i, _symbols in enumerate(("♣♧", "♦♢", "♥♡", "♠♤")):
    for _sym in _symbols:
        _SUIT_SPELLINGS[_sym] = _i


class Card(int):
    """One of the 52 cards; an int 0..51 ordered by rank, then suit (C D H S)."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """1 (ace) to 13 (king): the order used for runs, pairs and the cut."""
        return int(self) // 4 + 1

    @property
    def suit(self) -> int:
        """0..3 for clubs, diamonds, hearts, spades."""
        return int(self) % 4

    @property
    def value(self) -> int:
        """Pip value for fifteens and the count: ace 1, court cards 10."""
        return min(int(self) // 4 + 1, 10)

    @property
    def suit_symbol(self) -> str:
        return SUIT_SYMBOLS[int(self) % 4]

    @property
    def rank_symbol(self) -> str:
        return RANK_SYMBOLS[int(self) // 4]

    @property
    def name(self) -> str:
        """English name, e.g. 'five of hearts'."""
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[self.suit]}"

    @classmethod
    def from_rank_suit(cls, rank: int, suit: int) -> Card:
        if not (1 <= rank <= 13 and 0 <= suit <= 3):
            raise MalformedCardError(f"no card has rank {rank} and suit {suit}")
        return CARDS[(rank - 1) * 4 + suit]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read any common spelling: ``5H``, ``5h``, ``10H``, ``TH``, ``5♥``, ``AS``.

        >>> [str(Card.parse(s)) for s in ("th", "10♠", "q♦", " 2c ")]
        ['TH', 'TS', 'QD', '2C']
        >>> Card.parse("11H")
        Traceback (most recent call last):
        ...
        service.core.errors.MalformedCardError: '11H' is not a card: unknown rank '11' (use A 2-10 T J Q K)
        """
        if not isinstance(text, str):
            raise MalformedCardError(f"{text!r} is not a card: expected a string such as '5H'")
        s = text.strip().upper()
        if len(s) < 2 or len(s) > 3:
            raise MalformedCardError(
                f"{text!r} is not a card: write rank then suit, e.g. '5H', 'TH', '10H' or '5♥'"
            )
        rank = _RANK_SPELLINGS.get(s[:-1])
        suit = _SUIT_SPELLINGS.get(s[-1])
        if rank is None:
            raise MalformedCardError(
                f"{text!r} is not a card: unknown rank {s[:-1]!r} (use A 2-10 T J Q K)"
            )
        if suit is None:
            raise MalformedCardError(
                f"{text!r} is not a card: unknown suit {s[-1]!r} (use C D H S or ♣ ♦ ♥ ♠)"
            )
        return CARDS[(rank - 1) * 4 + suit]

    def __str__(self) -> str:
        return RANK_SYMBOLS[int(self) // 4] + SUIT_SYMBOLS[int(self) % 4]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
"""The deck in canonical order: AC AD AH AS 2C ... KS."""

# Tables indexed by card, for hot paths where a property call costs too much.
RANK: tuple[int, ...] = tuple(c // 4 + 1 for c in range(52))
VALUE: tuple[int, ...] = tuple(min(c // 4 + 1, 10) for c in range(52))
SUIT: tuple[int, ...] = tuple(c % 4 for c in range(52))


def parse_cards(texts: Iterable[str], *, distinct: bool = True) -> tuple[Card, ...]:
    """Parse several cards; with ``distinct`` a card given twice is an error.

    >>> parse_cards(["5h", "5♥"])
    Traceback (most recent call last):
    ...
    service.core.errors.DuplicateCardError: 5H is given twice
    """
    cards = tuple(Card.parse(t) for t in texts)
    if distinct:
        ensure_distinct(cards)
    return cards


def ensure_distinct(cards: Iterable[Card]) -> None:
    """Raise :class:`DuplicateCardError` naming the first card seen twice."""
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise DuplicateCardError(f"{c} is given twice", card=c)
        seen.add(c)


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]
