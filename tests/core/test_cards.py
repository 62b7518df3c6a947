"""Cards: spellings, the canonical form, the 52 distinct cards, bad input.

docs/rules.md, "Cards": 52 cards; A = 1, 2..10 face, J Q K = 10; A low, K high;
accept 5H 10H TH 5♥ AS QC ... case-insensitive; answer in one canonical form;
a card given twice is an error naming the card.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
import yaml

from service.core import cards as core_cards
from service.core.cards import CANONICAL, CARD_PATTERN, CARDS, Card, ensure_distinct, parse_cards, repeated_cards
from service.core.errors import (
    CribbageError,
    DuplicateCardError,
    MalformedCardError,
    MalformedError,
)

SPELLINGS = [
    # (input, canonical)
    ("5H", "5H"),
    ("5h", "5H"),
    ("5♥", "5H"),
    ("5♡", "5H"),
    ("10H", "TH"),
    ("10h", "TH"),
    ("TH", "TH"),
    ("th", "TH"),
    ("t♥", "TH"),
    ("10♥", "TH"),
    ("10♠", "TS"),
    ("K♠", "KS"),
    ("k♤", "KS"),
    ("AS", "AS"),
    ("as", "AS"),
    ("a♠", "AS"),
    ("1S", "AS"),  # some software writes the ace as 1; Card.parse accepts it
    ("1♣", "AC"),
    ("QC", "QC"),
    ("qc", "QC"),
    ("q♦", "QD"),
    ("Q♢", "QD"),
    ("jd", "JD"),
    ("J♧", "JC"),
    ("2c", "2C"),
    (" 2c ", "2C"),
    ("9♦", "9D"),
    ("7s", "7S"),
]


@pytest.mark.parametrize("text, canonical", SPELLINGS)
def test_spellings_parse_to_canonical_card(text: str, canonical: str) -> None:
    card = Card.parse(text)
    assert str(card) == canonical
    assert card is Card.parse(canonical)  # one instance per card
    assert format(card, "") == canonical
    assert f"{card:>3}" == " " + canonical


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_canonical_form_round_trips(card: Card) -> None:
    s = str(card)
    assert len(s) == 2
    assert s[0] in "A23456789TJQK" and s[1] in "CDHS"
    assert Card.parse(s) is card
    assert Card.parse(s.lower()) is card
    assert Card.from_rank_suit(card.rank, card.suit) is card
    assert eval(repr(card), {"Card": Card}) is card  # noqa: S307 - repr is Card.parse('..')


def test_52_distinct_cards() -> None:
    assert len(CARDS) == 52
    assert len(set(CARDS)) == 52
    assert len({str(c) for c in CARDS}) == 52
    assert {(c.rank, c.suit) for c in CARDS} == {(r, s) for r in range(1, 14) for s in range(4)}
    assert list(CARDS) == sorted(CARDS)  # canonical order: by rank, then suit C D H S
    assert [str(c) for c in CARDS[:5]] == ["AC", "AD", "AH", "AS", "2C"]
    assert str(CARDS[-1]) == "KS"
    assert all(isinstance(c, Card) and isinstance(c, int) for c in CARDS)


@pytest.mark.parametrize(
    "text, rank, suit, value",
    [
        ("AC", 1, 0, 1),
        ("2D", 2, 1, 2),
        ("5H", 5, 2, 5),
        ("9S", 9, 3, 9),
        ("TC", 10, 0, 10),
        ("JD", 11, 1, 10),
        ("QH", 12, 2, 10),
        ("KS", 13, 3, 10),
    ],
)
def test_rank_suit_value(text: str, rank: int, suit: int, value: int) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit, card.value) == (rank, suit, value)


def test_values_of_every_card() -> None:
    for card in CARDS:
        assert card.value == (card.rank if card.rank <= 10 else 10)
        assert 1 <= card.rank <= 13


def test_king_and_queen_are_different_ranks_same_value() -> None:
    k, q = Card.parse("KC"), Card.parse("QC")
    assert k.value == q.value == 10
    assert k.rank != q.rank
    assert k != q


MALFORMED = [
    "",
    " ",
    "5",
    "H",
    "11H",
    "0H",
    "01H",
    "5X",
    "ZH",
    "5HH",
    "♥5",
    "H5",
    "10",
    "1",
    "JOKER",
    "1 0H",
    "5 H",
    "100H",
    "BH",
    # only spaces and tabs may surround a card (openapi.yaml's pattern)
    "5H\n",
    "\n5H",
    "5H\r",
    "\u00a05H",
    "5H\u2003",
    # no case mapping beyond ASCII: 'ſ'.upper() is 'S', 'ı'.upper() is 'I'
    "5ſ",
    "ıH",
]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_spellings(text: str) -> None:
    with pytest.raises(MalformedCardError) as info:
        Card.parse(text)
    err = info.value
    assert isinstance(err, ValueError)
    assert isinstance(err, MalformedError)
    assert isinstance(err, CribbageError)
    assert repr(text) in str(err)  # the message quotes what was given


@pytest.mark.parametrize("value", [5, None, 5.0, b"5H", ("5", "H")])
def test_non_strings_are_malformed(value: object) -> None:
    with pytest.raises(MalformedCardError):
        Card.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("rank, suit", [(0, 0), (14, 0), (1, 4), (5, -1)])
def test_from_rank_suit_out_of_range(rank: int, suit: int) -> None:
    with pytest.raises(MalformedCardError):
        Card.from_rank_suit(rank, suit)


def test_parse_cards() -> None:
    cards = parse_cards(["5h", "10♠", "as", "Q♦"])
    assert [str(c) for c in cards] == ["5H", "TS", "AS", "QD"]
    assert all(isinstance(c, Card) for c in cards)


@pytest.mark.parametrize(
    "texts, twice",
    [
        (["5H", "5H"], "5H"),
        (["5h", "5♥"], "5H"),  # two spellings of one card are still one card
        (["10H", "TH"], "TH"),
        (["AS", "2C", "1S"], "AS"),
        (["KD", "QC", "JH", "QC", "QC"], "QC"),
    ],
)
def test_duplicates_raise_naming_the_card(texts: list[str], twice: str) -> None:
    with pytest.raises(DuplicateCardError) as info:
        ensure_distinct(parse_cards(texts))
    err = info.value
    assert isinstance(err, ValueError)
    assert str(err.card) == twice
    assert twice in str(err)
    assert err.extra.get("card") == twice


def test_parse_cards_only_parses() -> None:
    # a card given twice is for whoever uses the cards to refuse (score_show, the play ...)
    assert [str(c) for c in parse_cards(["5H", "5h"])] == ["5H", "5H"]


def test_ensure_distinct() -> None:
    ensure_distinct(CARDS)  # the whole deck is fine
    with pytest.raises(DuplicateCardError) as info:
        ensure_distinct([Card.parse("2C"), Card.parse("3C"), Card.parse("2c")])
    assert str(info.value.card) == "2C"


def test_malformed_card_inside_a_list() -> None:
    with pytest.raises(MalformedCardError):
        parse_cards(["5H", "5Z"])


def test_repeated_cards_names_every_repeat_and_its_first_place() -> None:
    named = [("cards/0", Card.parse("5H")), ("cards/1", Card.parse("5C")), ("cards/2", Card.parse("5h")),
             ("cards/3", Card.parse("5H")), ("starter", Card.parse("5♣"))]
    assert [(w, str(c), f) for w, c, f in repeated_cards(named)] == [
        ("cards/2", "5H", "cards/0"), ("cards/3", "5H", "cards/0"), ("starter", "5C", "cards/1"),
    ]
    # the same label twice is still two places
    assert len(repeated_cards([("x", Card.parse("AS")), ("x", Card.parse("AS"))])) == 1
    assert repeated_cards(named[:2]) == []


def test_canonical_is_exactly_the_canonical_spellings() -> None:
    assert sorted(CANONICAL) == sorted(r + s for r in "A23456789TJQK" for s in "CDHS")
    assert all(str(c) == t for t, c in CANONICAL.items())
    assert "th" not in CANONICAL and "10H" not in CANONICAL


# openapi.yaml's Card pattern, read from the document the API publishes: the
# independent statement of the spellings the service accepts.
OPENAPI = Path(__file__).resolve().parents[2] / "openapi.yaml"


def _openapi_card_regex() -> re.Pattern[str]:
    spec = yaml.safe_load(OPENAPI.read_text(encoding="utf-8"))
    pattern = spec["components"]["schemas"]["Card"]["pattern"]
    # ECMA-262 reads the closing $ as the end of the text; Python's \Z does
    return re.compile(pattern.removesuffix("$") + r"\Z")


def test_card_pattern_is_the_api_description_s() -> None:
    spec = yaml.safe_load(OPENAPI.read_text(encoding="utf-8"))
    assert CARD_PATTERN == spec["components"]["schemas"]["Card"]["pattern"]


def test_card_parse_accepts_exactly_the_openapi_pattern() -> None:
    """Every text of up to three characters from an alphabet of good and bad
    characters, and every accepted spelling with spaces, tabs and newlines
    around it: Card.parse accepts it exactly when openapi.yaml's pattern matches."""
    regex = _openapi_card_regex()
    # one or two of each kind: blanks, ranks (letters, 1, 10's digits, a pip), suits, glyphs, junk
    alphabet = " \t\nAaTtk10295CDhs♣♡♤Xſı\u00a0"
    texts = ["".join(t) for n in range(1, 4) for t in itertools.product(alphabet, repeat=n)]
    texts += [f"{a}{s}{b}" for s in core_cards.SPELLINGS for a in ("", " ", "\t ", "\n") for b in ("", "  ", "\t", "\n")]
    for text in texts:
        try:
            Card.parse(text)
            parsed = True
        except MalformedCardError:
            parsed = False
        assert parsed == bool(regex.search(text)), repr(text)
    assert len(core_cards.SPELLINGS) == 20 * 16  # 13 ranks + a t 10 1 j q k, 4 suits x (2 cases + 2 glyphs)
