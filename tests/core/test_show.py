"""The show: exact vectors from the seed rule texts and docs/rules.md, each checked
for its total *and* its full breakdown (kind, cards, points per item).

Seeds: 000 = the rules page with the worked 17-point hand and the "third
chart"; 002 = the "Counted examples" page; 003 = the Observatory Almanac.
Expected values are counted by hand from docs/rules.md ("The show"), never read
off the implementation.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from service.core.cards import Card
from service.core.errors import DuplicateCardError, MalformedError
from service.boundary.show import show_json, show_json_text
from service.core.show import KINDS, ShowScore, score_show, show_total

Item = tuple[str, tuple[str, ...], int]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def item(kind: str, text: str, points: int) -> Item:
    """An expected item; its cards in canonical deck order (rank, then suit)."""
    return (kind, tuple(str(c) for c in sorted(cards(text))), points)


def breakdown(score: ShowScore) -> list[Item]:
    return [(i.kind, tuple(str(c) for c in sorted(i.cards)), i.points) for i in score.items]


def count(hand: str, starter: str, crib: bool = False) -> ShowScore:
    score = score_show(cards(hand), Card.parse(starter), crib)
    check_consistent(score)
    return score


def check_consistent(score: ShowScore) -> None:
    """Invariants every counted show must satisfy."""
    assert score.total == sum(i.points for i in score.items)
    assert score.total == show_total(score.hand, score.starter, score.crib)
    assert sum(score.subtotals.values()) == score.total
    assert list(score.subtotals) == list(KINDS)
    # spoken order: fifteens, pairs, runs, flush, nobs
    order = [KINDS.index(i.kind) for i in score.items]
    assert order == sorted(order)
    five = set(score.hand) | {score.starter}
    for i in score.items:
        assert set(i.cards) <= five


def same_items(score: ShowScore, expected: list[Item]) -> None:
    assert Counter(breakdown(score)) == Counter(expected)


# ---------------------------------------------------------------------------
# Seed 000: the worked example, "counting one hand", compared item by item in
# the order the seed's table lists them (which is also the spoken order).

HAND_17 = ("4D 5C 5H JS", "6S")
ITEMS_17 = [
    item("fifteen", "5C JS", 2),
    item("fifteen", "5H JS", 2),
    item("fifteen", "4D 5C 6S", 2),
    item("fifteen", "4D 5H 6S", 2),
    item("pair", "5C 5H", 2),
    item("run", "4D 5C 6S", 3),
    item("run", "4D 5H 6S", 3),
    item("nobs", "JS", 1),
]


def test_seed000_seventeen_item_by_item() -> None:
    s = count(*HAND_17)
    assert s.total == 17
    assert breakdown(s) == ITEMS_17
    assert s.subtotals == {"fifteen": 8, "pair": 2, "run": 6, "flush": 0, "nobs": 1}
    assert s.call == (
        "fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten, "
        "and a double run is sixteen, and his nobs is seventeen"
    )
    assert [str(c) for c in s.hand] == ["4D", "5C", "5H", "JS"]
    assert str(s.starter) == "6S"
    assert s.crib is False


def test_seed000_seventeen_as_crib_is_also_seventeen() -> None:
    # No flush involved, and nobs counts in the crib too.
    s = count(*HAND_17, crib=True)
    assert s.total == 17
    assert breakdown(s) == ITEMS_17


# ---------------------------------------------------------------------------
# Seed 002, "Thirteen in the hand": "Four spades, a run, and three separate
# fifteens. ... Fifteens are 4+5+6, 9+6 and 5+J. The run is 4-5-6. The four
# spades add 4 -- the starter is a heart, so the flush stops at four cards."
# The seed shows the cards only as images, so the deal is our choice: the
# five ranks are 4 5 6 9 J, four spades in the hand and a heart starter.
# We take hand 4S 5S 6S 9S with starter JH as the main vector (a jack starter
# is his heels for the dealer at the cut, not part of the show, so no nobs),
# and also check that every other choice of which rank is the heart starter
# gives the same 13 (a J of spades in the hand is not nobs: the starter is a
# heart).  "The same cards as a crib" = 9: the four-card flush disappears.

THIRTEEN = ("4S 5S 6S 9S", "JH")
ITEMS_13_CRIB = [
    item("fifteen", "6S 9S", 2),
    item("fifteen", "5S JH", 2),
    item("fifteen", "4S 5S 6S", 2),
    item("run", "4S 5S 6S", 3),
]
ITEMS_13 = ITEMS_13_CRIB + [item("flush", "4S 5S 6S 9S", 4)]


def test_seed002_thirteen_in_the_hand() -> None:
    s = count(*THIRTEEN)
    assert s.total == 13
    same_items(s, ITEMS_13)
    assert s.subtotals == {"fifteen": 6, "pair": 0, "run": 3, "flush": 4, "nobs": 0}
    assert s.call == (
        "fifteen two, fifteen four, fifteen six, and a run of three is nine, "
        "and a flush of four is thirteen"
    )


def test_seed002_same_cards_as_a_crib() -> None:
    s = count(*THIRTEEN, crib=True)
    assert s.total == 9
    same_items(s, ITEMS_13_CRIB)
    assert s.subtotals == {"fifteen": 6, "pair": 0, "run": 3, "flush": 0, "nobs": 0}
    assert s.call == "fifteen two, fifteen four, fifteen six, and a run of three is nine"


@pytest.mark.parametrize("starter_rank", "4569J")
def test_seed002_thirteen_whichever_card_is_the_heart_starter(starter_rank: str) -> None:
    hand = " ".join(r + "S" for r in "4569J" if r != starter_rank)
    starter = starter_rank + "H"
    assert count(hand, starter).total == 13
    assert count(hand, starter, crib=True).total == 9
    hand_items = breakdown(count(hand, starter))
    assert ("nobs" not in {k for k, _, _ in hand_items})


def test_seed002_duplicate_doubles_a_run() -> None:
    # "5-6-7-8 counts once with each seven, so the run is worth 8 rather than 4.
    # The pair adds 2, and 7+8 makes fifteen twice for 4."  Suits unstated:
    # chosen mixed so there is no flush and no jack.
    s = count("5H 6C 7D 7S", "8C")
    assert s.total == 14
    same_items(s, [
        item("fifteen", "7D 8C", 2),
        item("fifteen", "7S 8C", 2),
        item("pair", "7D 7S", 2),
        item("run", "5H 6C 7D 8C", 4),
        item("run", "5H 6C 7S 8C", 4),
    ])
    assert s.subtotals == {"fifteen": 4, "pair": 2, "run": 8, "flush": 0, "nobs": 0}
    assert s.call == "fifteen two, fifteen four, and a pair is six, and a double run of four is fourteen"


PERFECT_29_ITEMS = [
    item("fifteen", "5C JD", 2),
    item("fifteen", "5D JD", 2),
    item("fifteen", "5H JD", 2),
    item("fifteen", "5S JD", 2),
    item("fifteen", "5C 5D 5H", 2),
    item("fifteen", "5C 5D 5S", 2),
    item("fifteen", "5C 5H 5S", 2),
    item("fifteen", "5D 5H 5S", 2),
    item("pair", "5C 5D", 2),
    item("pair", "5C 5H", 2),
    item("pair", "5C 5S", 2),
    item("pair", "5D 5H", 2),
    item("pair", "5D 5S", 2),
    item("pair", "5H 5S", 2),
    item("nobs", "JD", 1),
]


def test_seed002_perfect_29() -> None:
    s = count("5H 5C 5S JD", "5D")
    assert s.total == 29
    same_items(s, PERFECT_29_ITEMS)
    assert s.subtotals == {"fifteen": 16, "pair": 12, "run": 0, "flush": 0, "nobs": 1}
    assert s.call == (
        "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
        "fifteen fourteen, fifteen sixteen, and a double pair royal is twenty-eight, "
        "and his nobs is twenty-nine"
    )
    # the 29 is also 29 as a crib (no flush is involved)
    assert count("5H 5C 5S JD", "5D", crib=True).total == 29


@pytest.mark.parametrize("suit", "CDHS")
def test_29_in_every_suit(suit: str) -> None:
    fives = [f"5{s}" for s in "CDHS" if s != suit]
    assert count(" ".join(fives + [f"J{suit}"]), f"5{suit}").total == 29


# ---------------------------------------------------------------------------
# Seed 003: "Example hand: 7♠ 8♥ 6♦ 7♣, starter: 2♥ ... = 8 points for
# fifteens alone."  The seed stops at the fifteens; by the rules the full
# count adds the pair of sevens (2) and 6-7-8 once with each seven (a double
# run, 2 x 3 = 6): 8 + 2 + 6 = 16.  No flush (four suits), no jack.

def test_seed003_fifteens_example_full_count() -> None:
    s = count("7S 8H 6D 7C", "2H")
    assert s.subtotals["fifteen"] == 8  # as the seed states
    assert s.total == 16  # derived: 8 fifteens + 2 pair + 6 double run
    same_items(s, [
        item("fifteen", "7S 8H", 2),
        item("fifteen", "7C 8H", 2),
        item("fifteen", "6D 7S 2H", 2),
        item("fifteen", "6D 7C 2H", 2),
        item("pair", "7C 7S", 2),
        item("run", "6D 7S 8H", 3),
        item("run", "6D 7C 8H", 3),
    ])
    assert s.call == (
        "fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten, "
        "and a double run is sixteen"
    )


def test_seed003_double_run_4_4_5_6() -> None:
    # "4-4-5-6 = two runs of 3 (6 pts) + one pair (2 pts) = 8 pts."  A show
    # needs a fifth card: the starter 8 adds no fifteen, pair or run.  The 4s,
    # 5 and 6 themselves make 4+5+6 twice, so the whole hand is 8 + 4 = 12.
    s = count("4C 4D 5H 6S", "8C")
    assert s.subtotals["pair"] + s.subtotals["run"] == 8
    assert s.total == 12
    same_items(s, [
        item("fifteen", "4C 5H 6S", 2),
        item("fifteen", "4D 5H 6S", 2),
        item("pair", "4C 4D", 2),
        item("run", "4C 5H 6S", 3),
        item("run", "4D 5H 6S", 3),
    ])
    assert s.call == "fifteen two, fifteen four, and a pair is six, and a double run is twelve"


def test_seed003_triple_run_4_4_4_5_6() -> None:
    # "4-4-4-5-6 = three runs of 3 (9 pts) + three of a kind (6 pts) = 15 pts."
    # The seed leaves out the fifteens: 4+5+6 with each of the three 4s, 3 x 2.
    s = count("4C 4D 4H 5S", "6C")
    assert s.subtotals["pair"] + s.subtotals["run"] == 15
    assert s.total == 21
    same_items(s, [
        item("fifteen", "4C 5S 6C", 2),
        item("fifteen", "4D 5S 6C", 2),
        item("fifteen", "4H 5S 6C", 2),
        item("pair", "4C 4D", 2),
        item("pair", "4C 4H", 2),
        item("pair", "4D 4H", 2),
        item("run", "4C 5S 6C", 3),
        item("run", "4D 5S 6C", 3),
        item("run", "4H 5S 6C", 3),
    ])
    assert s.call == (
        "fifteen two, fifteen four, fifteen six, and a pair royal is twelve, "
        "and a triple run is twenty-one"
    )


# ---------------------------------------------------------------------------
# Seed 000, the third chart ("The totals in the third chart leave out 15s").

def test_seed000_chart_double_run_of_four() -> None:
    # A, 2, 2, 3, 4 = 10: two runs of 4 and a pair; the values sum to 12, no 15s.
    s = count("AC 2D 2H 3S", "4C")
    assert s.total == 10
    same_items(s, [
        item("pair", "2D 2H", 2),
        item("run", "AC 2D 3S 4C", 4),
        item("run", "AC 2H 3S 4C", 4),
    ])
    assert s.call == "a pair is two, and a double run of four is ten"


def test_seed000_chart_triple_run() -> None:
    # A, 2, 2, 2, 3 = 15: three runs of 3 and three of a kind; sum 10, no 15s.
    s = count("AC 2D 2H 2S", "3C")
    assert s.total == 15
    same_items(s, [
        item("pair", "2D 2H", 2),
        item("pair", "2D 2S", 2),
        item("pair", "2H 2S", 2),
        item("run", "AC 2D 3C", 3),
        item("run", "AC 2H 3C", 3),
        item("run", "AC 2S 3C", 3),
    ])
    assert s.call == "a pair royal is six, and a triple run is fifteen"


def test_seed000_chart_double_double_run() -> None:
    # A, A, 2, 2, 3 = 16: four runs of 3 and two pairs; sum 9, no 15s.
    s = count("AC AD 2H 2S", "3C")
    assert s.total == 16
    same_items(s, [
        item("pair", "AC AD", 2),
        item("pair", "2H 2S", 2),
        item("run", "AC 2H 3C", 3),
        item("run", "AC 2S 3C", 3),
        item("run", "AD 2H 3C", 3),
        item("run", "AD 2S 3C", 3),
    ])
    assert s.call == "two pairs is four, and a double double run is sixteen"


# A, 2, 2, 3 is charted as 8 (a double run: two runs of 3 and a pair), but a
# show always has five cards.  Hand AC 2D 2H 3S with each possible starter
# rank; expected totals counted by hand:
#   A -> A A 2 2 3 (double double run) 16; 2 -> triple run 15;
#   3 -> A 2 2 3 3, four runs of 3 and two pairs, sum 11, 16;
#   4 -> double run of four 10;
#   5, 6 -> nothing added: no subset of {1,2,2,3} makes 10 or 9, so 8;
#   7 -> 7+1+2+2+3, one fifteen, 10;  8 -> 8+2+2+3, one fifteen, 10;
#   9 -> 9+1+2+3 with either 2, two fifteens, 12;
#   T J Q K -> 10+2+3 twice and 10+1+2+2, three fifteens, 14
#   (a jack starter is never nobs).
A223_WITH = {
    "AD": 16, "2C": 15, "3C": 16, "4C": 10, "5C": 8, "6C": 8, "7C": 10,
    "8C": 10, "9C": 12, "TC": 14, "JC": 14, "QC": 14, "KC": 14,
}


@pytest.mark.parametrize("starter, total", sorted(A223_WITH.items()))
def test_seed000_chart_a223_with_a_fifth_card(starter: str, total: int) -> None:
    s = count("AC 2D 2H 3S", starter)
    assert s.total == total
    assert count("AC 2D 2H 3S", starter, crib=True).total == total  # no flush, no nobs


def test_a223_with_a_five_is_exactly_the_charted_double_run() -> None:
    s = count("AC 2D 2H 3S", "5C")
    same_items(s, [
        item("pair", "2D 2H", 2),
        item("run", "AC 2D 3S", 3),
        item("run", "AC 2H 3S", 3),
    ])


def test_seed002_two_card_and_three_card_fifteens() -> None:
    # "9♠+6♦ · K♣+5♥ · 7♦+5♠+3♣ — each one is 2 points": all three in one show.
    # 9 6 K 5 7 5 3 is seven cards, so check them in two shows.
    s = count("9S 6D KC 5H", "2C")
    assert item("fifteen", "9S 6D", 2) in breakdown(s)
    assert item("fifteen", "KC 5H", 2) in breakdown(s)
    s = count("7D 5S 3C KH", "AC")
    assert item("fifteen", "7D 5S 3C", 2) in breakdown(s)


def test_seed002_run_held_twice() -> None:
    # "4♣ 5♦ 6♠ is a run for 3. Add a second five and you hold that run twice,
    # for 6."  The fifth card (a king) adds only fifteens K+5 with each five.
    one = count("4C 5D 6S KH", "9D")
    assert one.subtotals["run"] == 3
    two = count("4C 5D 6S 5H", "KH")
    assert two.subtotals["run"] == 6
    assert two.subtotals["pair"] == 2


# ---------------------------------------------------------------------------
# Flushes: docs/rules.md "flush in a hand: 4 hand cards one suit: 4, or 5 if the
# starter matches; flush in the crib: only all 5 cards one suit: 5".


def test_seed002_flush_hand_4_crib_0() -> None:
    # "4♠ 5♠ 9♠ J♠ scores 4 in your hand and nothing at all in the crib."
    # Starter 2H (off-suit, and the lowest card of the five):
    # fifteens 5+J and 2+4+9; no pair, no run (2 4 5 misses the 3); no nobs.
    hand = count("4S 5S 9S JS", "2H")
    crib = count("4S 5S 9S JS", "2H", crib=True)
    base = [item("fifteen", "5S JS", 2), item("fifteen", "2H 4S 9S", 2)]
    same_items(hand, base + [item("flush", "4S 5S 9S JS", 4)])
    same_items(crib, base)
    assert (hand.subtotals["flush"], crib.subtotals["flush"]) == (4, 0)
    assert (hand.total, crib.total) == (8, 4)


@pytest.mark.parametrize("starter", ["AD", "2H", "3C", "KD", "8C", "QH"])
@pytest.mark.parametrize("order", [(0, 1, 2, 3), (3, 2, 1, 0), (2, 0, 3, 1)])
def test_four_card_flush_with_off_suit_starter(starter: str, order: tuple[int, ...]) -> None:
    # The off-suit starter may sort first, last or in the middle of the five;
    # the hand may be given in any order.
    hand = ["4S", "5S", "9S", "JS"]
    text = " ".join(hand[i] for i in order)
    h = count(text, starter)
    c = count(text, starter, crib=True)
    flushes = [i for i in breakdown(h) if i[0] == "flush"]
    assert flushes == [item("flush", "4S 5S 9S JS", 4)]
    assert "flush" not in {k for k, _, _ in breakdown(c)}
    assert h.total == c.total + 4


def test_five_card_flush_scores_5_in_hand_and_crib_with_nobs() -> None:
    # 4S 5S 9S JS with the 7 of spades: fifteen 5+J only (7+4+... never 15),
    # flush of five, and the jack of the starter's suit is nobs: 2 + 5 + 1.
    for crib in (False, True):
        s = count("4S 5S 9S JS", "7S", crib=crib)
        same_items(s, [
            item("fifteen", "5S JS", 2),
            item("flush", "4S 5S 7S 9S JS", 5),
            item("nobs", "JS", 1),
        ])
        assert s.total == 8
    assert count("4S 5S 9S JS", "7S").call == (
        "fifteen two, and a flush of five is seven, and his nobs is eight"
    )


def test_all_even_five_card_flush() -> None:
    # 2 4 6 8 10 of hearts: every value even, so no fifteen; no run; flush 5.
    for crib in (False, True):
        s = count("2H 4H 6H 8H", "TH", crib=crib)
        assert breakdown(s) == [item("flush", "2H 4H 6H 8H TH", 5)]
        assert s.call == "a flush of five is five"


def test_three_hand_cards_and_matching_starter_are_no_flush() -> None:
    # 3H 4H 6H KC, starter 8H: only 3+4+8 makes 15; no run, no flush.
    for crib in (False, True):
        s = count("3H 4H 6H KC", "8H", crib=crib)
        assert breakdown(s) == [item("fifteen", "3H 4H 8H", 2)]
        assert s.total == 2


# ---------------------------------------------------------------------------
# Nobs and his heels.


def test_jack_starter_is_not_nobs() -> None:
    # The 28 hand: four fives and a jack starter.  His heels (2 to the dealer
    # at the cut) is not part of the show.
    s = count("5C 5D 5H 5S", "JH")
    assert s.total == 28
    assert s.subtotals == {"fifteen": 16, "pair": 12, "run": 0, "flush": 0, "nobs": 0}
    assert s.call == (
        "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
        "fifteen fourteen, fifteen sixteen, and a double pair royal is twenty-eight"
    )


def test_jack_starter_with_a_jack_of_another_suit_in_hand() -> None:
    # 5C 5D 5S JC + JH: each 5 with each J (6 fifteens) and 5+5+5 -> 14;
    # three 5s (6) and two jacks (2) -> 8; JC is not the starter's suit.
    s = count("5C 5D 5S JC", "JH")
    assert s.total == 22
    assert s.subtotals == {"fifteen": 14, "pair": 8, "run": 0, "flush": 0, "nobs": 0}
    assert s.call == (
        "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
        "fifteen fourteen, and a pair royal and a pair is twenty-two"
    )


def test_jack_of_another_suit_is_not_nobs() -> None:
    # JC 2D 3H 9S + 4D: fifteens J+2+3, 2+4+9; run 2-3-4; JC is not a diamond.
    s = count("JC 2D 3H 9S", "4D")
    same_items(s, [
        item("fifteen", "2D 3H JC", 2),
        item("fifteen", "2D 4D 9S", 2),
        item("run", "2D 3H 4D", 3),
    ])
    assert s.total == 7


@pytest.mark.parametrize("crib", [False, True])
def test_nobs_in_hand_and_crib(crib: bool) -> None:
    # 2C 3D 4H JS + KS: fifteens 2+3+J, 2+3+K; run 2-3-4; nobs JS.
    s = count("2C 3D 4H JS", "KS", crib=crib)
    assert s.total == 8
    same_items(s, [
        item("fifteen", "2C 3D JS", 2),
        item("fifteen", "2C 3D KS", 2),
        item("run", "2C 3D 4H", 3),
        item("nobs", "JS", 1),
    ])
    assert s.call == "fifteen two, fifteen four, and a run of three is seven, and his nobs is eight"


# ---------------------------------------------------------------------------
# Runs and pairs go by rank.


def test_double_double_run_6_6_7_7_8() -> None:
    # 7+8 twice (4), two pairs (4), four runs of three (12).
    s = count("6C 6D 7H 7S", "8C")
    assert s.total == 20
    same_items(s, [
        item("fifteen", "7H 8C", 2),
        item("fifteen", "7S 8C", 2),
        item("pair", "6C 6D", 2),
        item("pair", "7H 7S", 2),
        item("run", "6C 7H 8C", 3),
        item("run", "6C 7S 8C", 3),
        item("run", "6D 7H 8C", 3),
        item("run", "6D 7S 8C", 3),
    ])
    assert s.call == "fifteen two, fifteen four, and two pairs is eight, and a double double run is twenty"


def test_run_of_five_counts_once_not_as_shorter_runs() -> None:
    # A 2 3 4 5: one run of 5, not also runs of 3 or 4.  The values 1..5 sum
    # to 15, and no smaller subset does (the four largest make only 14).
    s = count("AC 2D 3H 4S", "5C")
    same_items(s, [item("fifteen", "AC 2D 3H 4S 5C", 2), item("run", "AC 2D 3H 4S 5C", 5)])
    assert s.total == 7
    assert s.call == "fifteen two, and a run of five is seven"


def test_runs_never_wrap_q_k_a_2_3() -> None:
    # Q K A 2 3 is not a run of five: only A-2-3 (3); fifteens Q+2+3, K+2+3.
    s = count("QC KD AH 2S", "3C")
    same_items(s, [
        item("fifteen", "2S 3C QC", 2),
        item("fifteen", "2S 3C KD", 2),
        item("run", "AH 2S 3C", 3),
    ])
    assert s.total == 7


def test_runs_never_wrap_j_q_k_a() -> None:
    # J Q K A + 4D: J-Q-K is a run of 3, the ace does not extend it;
    # fifteens 10+1+4 with each court card; JC is not a diamond (no nobs).
    s = count("JC QD KH AS", "4D")
    same_items(s, [
        item("fifteen", "AS 4D JC", 2),
        item("fifteen", "AS 4D QD", 2),
        item("fifteen", "AS 4D KH", 2),
        item("run", "JC QD KH", 3),
    ])
    assert s.total == 9


def test_king_and_queen_are_not_a_pair() -> None:
    # K Q 5 2 9: fifteens K+5 and Q+5 only; no pair, no run.
    s = count("KC QD 5H 2S", "9C")
    same_items(s, [item("fifteen", "5H KC", 2), item("fifteen", "5H QD", 2)])
    assert s.total == 4
    # queen with queen is a pair
    assert count("QC QD 5H 2S", "9C").subtotals["pair"] == 2


def test_zero_hand_call_is_honest() -> None:
    # 2 4 6 8 10: all values even, so no fifteen; no pair, run, flush or nobs.
    # The "nineteen hand" is a table joke; a breakdown must not claim 19.
    s = count("2C 4D 6H 8S", "TC")
    assert s.total == 0
    assert s.items == ()
    assert s.subtotals == dict.fromkeys(KINDS, 0)
    assert "nineteen" not in s.call
    assert "zero" in s.call or "no points" in s.call


def test_zero_hand_q_k_a_7_9() -> None:
    # Another nothing: Q K A 7 9 (no wrap run, no 15, no pair).
    s = count("QC KD AH 7S", "9C")
    assert s.total == 0
    assert s.items == ()


# ---------------------------------------------------------------------------
# Input checks (docs/rules.md, "Cards": a card given twice is an error naming it).


@pytest.mark.parametrize(
    "hand, starter, twice",
    [
        (["5H", "5C", "5h", "JD"], "5D", "5H"),
        (["5H", "5C", "5S", "JD"], "5♣", "5C"),
        (["TH", "10H", "5S", "JD"], "5D", "TH"),
    ],
)
def test_duplicate_card_is_an_error(hand: list[str], starter: str, twice: str) -> None:
    with pytest.raises(DuplicateCardError) as info:
        score_show(tuple(Card.parse(h) for h in hand), Card.parse(starter))
    assert twice in str(info.value)
    assert str(info.value.card) == twice


@pytest.mark.parametrize("n", [0, 3, 5])
def test_a_hand_has_four_cards(n: int) -> None:
    hand = cards("AC 2C 3C 4C 5C")[:n]
    with pytest.raises(MalformedError) as info:
        score_show(hand, Card.parse("KH"))
    assert isinstance(info.value, ValueError)
    assert info.value.field == "cards"
    assert f"not {n}" in str(info.value)


def test_any_iterable_of_four_cards() -> None:
    # a list or a generator counts like a tuple; the hand is kept as given
    s = score_show(list(cards("4D 5C 5H JS")), Card.parse("6S"))
    assert s.hand == cards("4D 5C 5H JS") and s.total == 17
    assert score_show((c for c in cards("4D 5C 5H JS")), Card.parse("6S")).total == 17


# ---------------------------------------------------------------------------
# The API document (service.boundary.show), against the hand-counted vectors above.


def json_items(doc: dict) -> list[Item]:
    return [(i["kind"], tuple(i["cards"]), i["points"]) for i in doc["breakdown"]]


@pytest.mark.parametrize("hand, starter, crib, expected, total", [
    (*HAND_17, False, ITEMS_17, 17),
    (*THIRTEEN, False, ITEMS_13, 13),
    (*THIRTEEN, True, ITEMS_13_CRIB, 9),
    ("5H 5C 5S JD", "5D", False, PERFECT_29_ITEMS, 29),
    ("2C 4D 6H 8S", "TC", False, [], 0),
])
def test_to_json_is_the_hand_counted_breakdown(hand: str, starter: str, crib: bool,
                                               expected: list[Item], total: int) -> None:
    doc = show_json(score_show(cards(hand), Card.parse(starter), crib))
    assert list(doc) == ["cards", "starter", "crib", "total", "breakdown", "subtotals", "call"]
    assert doc["cards"] == hand.split() and doc["starter"] == starter and doc["crib"] is crib
    assert doc["total"] == total == sum(p for _, _, p in expected)
    # each item's cards in canonical deck order (rank, then suit C D H S), as in the README;
    # the items in the spoken order
    assert Counter(json_items(doc)) == Counter(expected)
    assert [i[0] for i in json_items(doc)] == sorted((i[0] for i in expected), key=KINDS.index)
    by_kind = dict.fromkeys(KINDS, 0)
    for kind, _, points in expected:
        by_kind[kind] += points
    assert doc["subtotals"] == by_kind


def test_to_json_29_is_the_readme_example() -> None:
    # README "Score a hand": the 29 hand's answer, item by item in that order
    text = show_json_text(score_show(cards("5H 5C 5S JD"), Card.parse("5D")))
    doc = json.loads(text)
    assert text == json.dumps(doc, separators=(",", ":"))  # compact, keys in the documented order
    assert list(doc) == ["cards", "starter", "crib", "total", "breakdown", "subtotals", "call"]
    assert (doc["cards"], doc["starter"], doc["crib"], doc["total"]) == (["5H", "5C", "5S", "JD"], "5D", False, 29)
    assert doc["subtotals"] == {"fifteen": 16, "pair": 12, "run": 0, "flush": 0, "nobs": 1}
    assert [i["cards"] for i in doc["breakdown"]] == [
        ["5C", "JD"], ["5D", "JD"], ["5H", "JD"], ["5S", "JD"],
        ["5C", "5D", "5H"], ["5C", "5D", "5S"], ["5C", "5H", "5S"], ["5D", "5H", "5S"],
        ["5C", "5D"], ["5C", "5H"], ["5C", "5S"], ["5D", "5H"], ["5D", "5S"], ["5H", "5S"],
        ["JD"],
    ]
    assert doc["call"] == (
        "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
        "fifteen fourteen, fifteen sixteen, and a double pair royal is twenty-eight, "
        "and his nobs is twenty-nine"
    )


@pytest.mark.parametrize("hand, starter, crib, flush, nobs", [
    ("4S 5S 9S JS", "7S", False, 5, "JS"),    # five-card flush and the jack of the starter's suit
    ("4S 5S 9S JS", "7S", True, 5, "JS"),
    ("4S 5S 9S JS", "2H", False, 4, None),    # four-card flush in a hand ...
    ("4S 5S 9S JS", "2H", True, 0, None),     # ... is nothing in the crib
    ("3H 4H 6H KC", "8H", False, 0, None),    # three hand cards and the starter: no flush
    ("5C 5D 5S JC", "JH", False, 0, None),    # a starter jack is never nobs
    ("2C 3D 4H JS", "KS", True, 0, "JS"),     # nobs counts in the crib
])
def test_flush_and_nobs_of_a_show(hand: str, starter: str, crib: bool, flush: int, nobs: str | None) -> None:
    s = score_show(cards(hand), Card.parse(starter), crib)
    assert s.subtotals["flush"] == flush and s.subtotals["nobs"] == (nobs is not None)
    assert [i.points for i in s.items if i.kind == "flush"] == ([flush] if flush else [])
    assert [str(i.cards[0]) for i in s.items if i.kind == "nobs"] == ([nobs] if nobs else [])
