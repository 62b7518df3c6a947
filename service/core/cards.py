"""Cards: the 52 immutable card values and their spellings (docs/rules.md, "Cards").

A card is an ``int`` from 0 to 51 (``(rank - 1) * 4 + suit``), so it can index
precomputed tables directly on the hot path, yet it prints and parses like a
card.  There are exactly 52 instances; :meth:`Card.parse` returns them.

The spellings a client may use are one table here, :data:`SPELLINGS`: a rank
(``A`` ``2``-``10`` ``T`` ``J`` ``Q`` ``K``, or ``1`` for the ace, either
case) then a suit (``C D H S`` either case, or a black or white suit symbol),
with spaces or tabs around it.  :data:`CARD_PATTERN` is the same language as
a regular expression, built from the same lists, for the API description.

>>> Card.parse("10h")
Card.parse('TH')
>>> str(Card.parse("5♥")), Card.parse("AS").rank, Card.parse("KD").value
('5H', 1, 10)
"""

from __future__ import annotations

from typing import Iterable, TypeVar

from .engine import kernel
from .errors import DuplicateCardError, MalformedCardError

RANK_SYMBOLS = "A23456789TJQK"
SUIT_SYMBOLS = "CDHS"
JACK = kernel.JACK

# Every way of writing each rank and each suit, the canonical one first; some
# software writes the ace as 1, and both the black and the white suit symbols
# are in common use.
_RANK_WRITINGS = (("A", "a", "1"), ("2",), ("3",), ("4",), ("5",), ("6",), ("7",), ("8",), ("9",),
                  ("T", "t", "10"), ("J", "j"), ("Q", "q"), ("K", "k"))
_SUIT_GLYPHS = ("♣♧", "♦♢", "♥♡", "♠♤")
_SUIT_WRITINGS = tuple((s, s.lower(), *glyphs) for s, glyphs in zip(SUIT_SYMBOLS, _SUIT_GLYPHS))
assert tuple(w[0] for w in _RANK_WRITINGS) == tuple(RANK_SYMBOLS)
_SPACE = " \t"
"""Only spaces and tabs may surround a card (so that every regex engine reading
:data:`CARD_PATTERN` agrees with :meth:`Card.parse`)."""


class Card(int):
    """One of the 52 cards; an int 0..51 ordered by rank, then suit (C D H S)."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """1 (ace) to 13 (king): the order used for runs, pairs and the cut."""
        return kernel.RANK[self]

    @property
    def suit(self) -> int:
        """0..3 for clubs, diamonds, hearts, spades."""
        return kernel.SUIT[self]

    @property
    def value(self) -> int:
        """Pip value for fifteens and the count: ace 1, court cards 10."""
        return kernel.VALUE[self]

    @classmethod
    def from_rank_suit(cls, rank: int, suit: int) -> Card:
        if not (1 <= rank <= 13 and 0 <= suit <= 3):
            raise MalformedCardError(f"no card has rank {rank} and suit {suit}")
        return CARDS[(rank - 1) * 4 + suit]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read any spelling of :data:`SPELLINGS`: ``5H``, ``5h``, ``10H``, ``TH``, ``5♥``, ``AS``.

        >>> [str(Card.parse(s)) for s in ("th", "10♠", "q♦", " 2c ")]
        ['TH', 'TS', 'QD', '2C']
        >>> Card.parse("11H")
        Traceback (most recent call last):
        ...
        service.core.errors.MalformedCardError: '11H' is not a card: unknown rank '11' (use A 2-10 T J Q K)
        """
        card = SPELLINGS.get(text) if type(text) is str else None
        if card is None:
            card = SPELLINGS.get(text.strip(_SPACE)) if isinstance(text, str) else None
            if card is None:
                raise MalformedCardError(_why_not_a_card(text))
        return card

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card.parse({_TEXT[self]!r})"

    def __format__(self, spec: str) -> str:
        return format(_TEXT[self], spec)


_TEXT = tuple(RANK_SYMBOLS[i // 4] + SUIT_SYMBOLS[i % 4] for i in range(52))

CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
"""The deck in canonical order: AC AD AH AS 2C ... KS."""

CANONICAL: dict[str, Card] = {_TEXT[c]: c for c in CARDS}
"""Each card by its canonical spelling (``TH``), and nothing else: for notations
that allow one spelling."""

SPELLINGS: dict[str, Card] = {
    r + s: CARDS[rank * 4 + suit]
    for rank, rs in enumerate(_RANK_WRITINGS) for r in rs
    for suit, ss in enumerate(_SUIT_WRITINGS) for s in ss
}
"""Every accepted spelling of every card, without the spaces or tabs that may surround it."""


def _card_pattern() -> str:
    writings = [w for ws in _RANK_WRITINGS for w in ws]
    letters = "".join(w for w in writings if w.isalpha())
    pips = [w for w in writings if w.isdigit() and len(w) == 1 and w != "1"]
    assert pips == [str(n) for n in range(2, 10)]  # written as the range 2-9
    numbers = sorted((w for w in writings if w.isdigit() and w not in pips), key=len, reverse=True)
    suits = "".join(ws[0] for ws in _SUIT_WRITINGS) + "".join(ws[1] for ws in _SUIT_WRITINGS)
    glyphs = "".join(g[0] for g in _SUIT_GLYPHS) + "".join(g[1] for g in _SUIT_GLYPHS)
    space = "[" + _SPACE.replace("\t", "\\t") + "]*"
    rank = f"(?:[{letters}2-9]|{'|'.join(numbers)})"
    return f"^{space}{rank}[{suits}{glyphs}]{space}$"


CARD_PATTERN = _card_pattern()
""":data:`SPELLINGS` with the spaces or tabs around them, as a regular
expression in the common subset of Python and ECMA-262 (``$`` meaning the end
of the text): what openapi.yaml's ``Card`` schema gives as its ``pattern``.

>>> CARD_PATTERN
'^[ \\\\t]*(?:[AaTtJjQqKk2-9]|10|1)[CDHScdhs♣♦♥♠♧♢♡♤][ \\\\t]*$'
"""


def _why_not_a_card(text: object) -> str:
    if not isinstance(text, str):
        return f"{text!r} is not a card: expected a string such as '5H'"
    s = text.strip(_SPACE)
    if not 2 <= len(s) <= 3 or s != s.strip():
        return (f"{text!r} is not a card: write rank then suit, e.g. '5H', 'TH', '10H' or '5♥'"
                " (only spaces or tabs may surround it)")
    if not any(s[:-1] in ws for ws in _RANK_WRITINGS):
        return f"{text!r} is not a card: unknown rank {s[:-1]!r} (use A 2-10 T J Q K)"
    return f"{text!r} is not a card: unknown suit {s[-1]!r} (use C D H S or ♣ ♦ ♥ ♠)"


# Tables indexed by card, for hot paths where a property call costs too much (the kernel's).
RANK: tuple[int, ...] = kernel.RANK
VALUE: tuple[int, ...] = kernel.VALUE


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    """Parse several cards (whoever uses them checks that none is given twice).

    >>> parse_cards(["5h", "10♠", "5♥"])
    (Card.parse('5H'), Card.parse('TS'), Card.parse('5H'))
    """
    return tuple(Card.parse(t) for t in texts)


Where = TypeVar("Where")
"""However a caller names where a card was given (a path, an index ...)."""


def repeated_cards(named: Iterable[tuple[Where, Card]]) -> list[tuple[Where, Card, Where]]:
    """The rule "no card twice" (docs/rules.md, "Cards"), for cards named by
    where they were given: ``(where, card, where first)`` for every card given
    again, in order; the first sighting of a card is fine.

    >>> repeated_cards([("cards/0", Card.parse("5H")), ("starter", Card.parse("5h"))])
    [('starter', Card.parse('5H'), 'cards/0')]
    """
    first: dict[int, Where] = {}
    out: list[tuple[Where, Card, Where]] = []
    for where, card in named:
        if card in first:
            out.append((where, card, first[card]))
        else:
            first[card] = where
    return out


def ensure_distinct(cards: Iterable[Card]) -> None:
    """Raise :class:`DuplicateCardError` naming the first card given again."""
    cards = tuple(cards)
    if len(set(cards)) != len(cards):
        _, card, _ = repeated_cards((str(i), c) for i, c in enumerate(cards))[0]
        raise DuplicateCardError(f"{card} is given twice", card=CARDS[card])
