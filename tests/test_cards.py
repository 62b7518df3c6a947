"""Cards: spellings, the canonical form, the 52 distinct cards, bad input.

RULES.md, "Cards": 52 cards; A = 1, 2..10 face, J Q K = 10; A low, K high;
accept 5H 10H TH 5♥ AS QC ... case-insensitive; answer in one canonical form;
a card given twice is an error naming the card.
"""

from __future__ import annotations

import pytest

from service.core.cards import CARDS, Card, ensure_distinct, format_cards, parse_cards
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
    assert card.rank_symbol == text[0]
    assert card.suit_symbol == text[1]


def test_values_of_every_card() -> None:
    for card in CARDS:
        assert card.value == (card.rank if card.rank <= 10 else 10)
        assert 1 <= card.rank <= 13


def test_names() -> None:
    assert Card.parse("5H").name == "five of hearts"
    assert Card.parse("AS").name == "ace of spades"
    assert Card.parse("KD").name == "king of diamonds"
    assert Card.parse("TC").name == "ten of clubs"


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
    assert format_cards(cards) == ["5H", "TS", "AS", "QD"]
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
        parse_cards(texts)
    err = info.value
    assert isinstance(err, ValueError)
    assert str(err.card) == twice
    assert twice in str(err)
    assert err.extra.get("card") == twice


def test_duplicates_allowed_when_not_distinct() -> None:
    assert format_cards(parse_cards(["5H", "5h"], distinct=False)) == ["5H", "5H"]


def test_ensure_distinct() -> None:
    ensure_distinct(CARDS)  # the whole deck is fine
    with pytest.raises(DuplicateCardError) as info:
        ensure_distinct([Card.parse("2C"), Card.parse("3C"), Card.parse("2c")])
    assert str(info.value.card) == "2C"


def test_malformed_card_inside_a_list() -> None:
    with pytest.raises(MalformedCardError):
        parse_cards(["5H", "5Z"])
