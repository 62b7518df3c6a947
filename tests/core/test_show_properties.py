"""Properties of the show, checked with hypothesis against a reference scorer.

The reference (tests/reference/show.py) is written from docs/rules.md ("The
show"), not from service/core/show.py, and works differently on purpose:
fifteens by walking the 32 subsets as bit masks, pairs as n*(n-1)/2 per rank,
runs as the one streak of 3+ consecutive ranks present, scored length x (product
of the multiplicities), with one run item per choice of one card from each rank.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

from hypothesis import given, settings
from hypothesis import strategies as st
from reference.cards import cards_for
from reference.show import (SUITS, rank, reference, reference_rank_points, reference_total,
                            reference_total_fast, suit, value)

from service.core.cards import CARDS, Card
import orjson

from service.boundary.show import plain_show_json, show_json, show_json_bytes
from service.core.show import KINDS, score_show, show_items, show_total

IMPOSSIBLE = {19, 25, 26, 27}
# no deadline: on a loaded machine a slow example is not a wrong one
RELAXED = settings(deadline=None)


def test_reference_on_known_hands() -> None:
    """The reference itself, on hands from the seeds (sanity of the oracle)."""
    def total(hand: str, starter: str, crib: bool = False) -> int:
        return reference_total(tuple(Card.parse(t) for t in hand.split()), Card.parse(starter), crib)

    assert total("4D 5C 5H JS", "6S") == 17
    assert total("5H 5C 5S JD", "5D") == 29
    assert total("4S 5S 6S 9S", "JH") == 13
    assert total("4S 5S 6S 9S", "JH", crib=True) == 9
    assert total("5H 6C 7D 7S", "8C") == 14
    assert total("7S 8H 6D 7C", "2H") == 16
    assert total("QC KD AH 2S", "3C") == 7
    assert total("2C 4D 6H 8S", "TC") == 0
    assert total("4S 5S 9S JS", "7S") == 8
    assert total("4S 5S 9S JS", "2H") == 8
    assert total("4S 5S 9S JS", "2H", crib=True) == 4
    assert reference_rank_points((1, 1, 2, 2, 3)) == 16
    assert reference_rank_points((1, 2, 2, 2, 3)) == 15
    assert reference_rank_points((5, 5, 5, 5, 11)) == 28


# ---------------------------------------------------------------------------
# Strategies.

any_five = st.lists(st.sampled_from(CARDS), min_size=5, max_size=5, unique=True)


@st.composite
def suited_five(draw: st.DrawFn) -> list[Card]:
    """Four hand cards of one suit (flush territory) and any other starter."""
    suit = draw(st.integers(0, 3))
    ranks = draw(st.lists(st.integers(1, 13), min_size=4, max_size=4, unique=True))
    hand = [Card.from_rank_suit(r, suit) for r in ranks]
    starter = draw(st.sampled_from([c for c in CARDS if c not in hand]))
    return hand + [starter]


@st.composite
def jack_five(draw: st.DrawFn) -> list[Card]:
    """A jack in the hand, the starter often of its suit (nobs territory)."""
    jack = Card.from_rank_suit(11, draw(st.integers(0, 3)))
    others = draw(st.lists(st.sampled_from([c for c in CARDS if c != jack]),
                           min_size=4, max_size=4, unique=True))
    pos = draw(st.integers(0, 3))
    return others[:pos] + [jack] + others[pos:3] + [others[3]]


deals = st.one_of(any_five, suited_five(), jack_five())


def split(five: list[Card]) -> tuple[tuple[Card, ...], Card]:
    return tuple(five[:4]), five[4]


def item_set(score) -> Counter:
    return Counter((i.kind, frozenset(i.cards), i.points) for i in score.items)


# ---------------------------------------------------------------------------
# Properties.


def reference_subtotals(hand: tuple[Card, ...], starter: Card, crib: bool) -> dict[str, int]:
    out = dict.fromkeys(("fifteen", "pair", "run", "flush", "nobs"), 0)
    for kind, _, points in reference(hand, starter, crib):
        out[kind] += points
    return out


@RELAXED
@given(deals, st.booleans())
def test_totals_and_subtotals_are_the_reference_s(five: list[Card], crib: bool) -> None:
    hand, starter = split(five)
    s = score_show(hand, starter, crib)
    expected = reference_subtotals(hand, starter, crib)
    assert s.subtotals == expected
    assert list(s.subtotals) == list(KINDS) == list(expected)
    assert s.total == sum(expected.values())
    assert show_total(hand, starter, crib) == s.total
    assert show_total([int(c) for c in hand], int(starter), crib) == s.total  # plain ints too


@RELAXED
@given(deals, st.booleans())
def test_items_are_well_formed(five: list[Card], crib: bool) -> None:
    hand, starter = split(five)
    s = score_show(hand, starter, crib)
    order = [KINDS.index(i.kind) for i in s.items]
    assert order == sorted(order)  # spoken order
    for i in s.items:
        assert set(i.cards) <= set(five)
        assert len(set(i.cards)) == len(i.cards)
        assert list(i.cards) == sorted(i.cards, key=lambda c: (rank(c), SUITS.index(suit(c))))
        if i.kind == "fifteen":
            assert i.points == 2 and sum(value(c) for c in i.cards) == 15
        elif i.kind == "pair":
            assert i.points == 2 and len(i.cards) == 2 and rank(i.cards[0]) == rank(i.cards[1])
        elif i.kind == "run":
            assert i.points == len(i.cards) >= 3
        elif i.kind == "flush":
            assert (i.points, len(i.cards)) in {(4, 4), (5, 5)}
        elif i.kind == "nobs":
            assert i.points == 1 and rank(i.cards[0]) == 11 and i.cards[0] != starter
    # no scoring combination is listed twice
    assert len(item_set(s)) == len(s.items)


@RELAXED
@given(deals, st.booleans(), st.permutations(range(4)))
def test_hand_order_does_not_matter(five: list[Card], crib: bool, perm: list[int]) -> None:
    hand, starter = split(five)
    a = score_show(hand, starter, crib)
    b = score_show(tuple(hand[i] for i in perm), starter, crib)
    assert a.total == b.total
    assert a.subtotals == b.subtotals
    assert item_set(a) == item_set(b)
    assert a.call == b.call


@RELAXED
@given(deals)
def test_crib_never_beats_the_hand(five: list[Card]) -> None:
    hand, starter = split(five)
    h = score_show(hand, starter, False)
    c = score_show(hand, starter, True)
    assert c.total <= h.total
    # they differ only by the four-card flush, which the crib does not score
    four_flush = len({suit(x) for x in hand}) == 1 and suit(starter) != suit(hand[0])
    assert h.total - c.total == (4 if four_flush else 0)
    assert h.total - show_total(hand, starter, True) == (4 if four_flush else 0)


@RELAXED
@given(deals, st.booleans())
def test_total_is_possible(five: list[Card], crib: bool) -> None:
    hand, starter = split(five)
    total = score_show(hand, starter, crib).total
    assert 0 <= total <= 29
    assert total not in IMPOSSIBLE


@RELAXED
@given(deals, st.booleans())
def test_agrees_with_reference(five: list[Card], crib: bool) -> None:
    hand, starter = split(five)
    s = score_show(hand, starter, crib)
    ref = Counter(reference(hand, starter, crib))
    assert item_set(s) == ref
    assert Counter((k, frozenset(c), p) for k, c, p in show_items(hand, starter, crib)) == ref  # the game's path
    doc = show_json(s)  # the API's document: canonical spellings
    assert Counter((i["kind"], frozenset(i["cards"]), i["points"]) for i in doc["breakdown"]) == Counter(
        (k, frozenset(str(c) for c in cs), p) for k, cs, p in ref)
    assert doc["total"] == s.total == sum(p for _, _, p in ref)
    assert doc["subtotals"] == reference_subtotals(hand, starter, crib)
    assert doc["call"] == s.call
    assert reference_total_fast(hand, starter, crib) == s.total  # the two oracles agree
    assert show_total(hand, starter, crib) == s.total


@RELAXED
@given(deals, st.booleans())
def test_the_documents_templates_write_what_a_dict_dumps(five: list[Card], crib: bool) -> None:
    """The boundary writes a show's document from kept templates (the hot path of
    hands/score and the batch); dumped from a dict of the count's own parts it is
    the same bytes, on both of its paths."""
    hand, starter = split(five)
    s = score_show(hand, starter, crib)
    expected = orjson.dumps({
        "cards": [str(c) for c in hand], "starter": str(starter), "crib": crib, "total": s.total,
        "breakdown": [{"kind": k, "cards": [str(c) for c in cs], "points": p} for k, cs, p in s.items],
        "subtotals": s.subtotals, "call": s.call})
    assert show_json_bytes(s) == expected
    assert plain_show_json(*hand, starter, crib) == expected


@RELAXED
@given(deals, st.booleans())
def test_call_ends_with_the_total(five: list[Card], crib: bool) -> None:
    from service.core.show_text import NUMBER_WORDS

    hand, starter = split(five)
    s = score_show(hand, starter, crib)
    if s.total:
        assert s.call.endswith(NUMBER_WORDS[s.total])
        # one "fifteen N" per fifteen, counting up by two
        n = s.subtotals["fifteen"] // 2
        for k in range(1, n + 1):
            assert f"fifteen {NUMBER_WORDS[2 * k]}" in s.call


# ---------------------------------------------------------------------------
# Exhaustive where cheap.


def test_every_rank_multiset_against_reference() -> None:
    """All 6,175 five-card rank multisets (five of a kind cannot be dealt);
    each card in turn as the starter for the fast total."""
    n = 0
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if ranks[0] == ranks[4]:
            continue
        n += 1
        five = cards_for(ranks)
        expected_rank_points = reference_rank_points(ranks)
        for k in range(5):
            hand = tuple(five[:k] + five[k + 1:])
            starter = five[k]
            for crib in (False, True):
                assert show_total(hand, starter, crib) == reference_total_fast(hand, starter, crib), (
                    [str(c) for c in hand], str(starter), crib
                )
        s = score_show(tuple(five[:4]), five[4])
        assert s.subtotals["fifteen"] + s.subtotals["pair"] + s.subtotals["run"] == expected_rank_points, ranks
        assert Counter(reference(tuple(five[:4]), five[4], False)) == item_set(s), ranks
    assert n == 6175


def test_every_four_card_flush_with_every_starter() -> None:
    """All 4 x C(13, 4) one-suit hands with each of the 48 starters, hand and
    crib: total against the reference (flush and nobs are where suits matter)."""
    from itertools import combinations

    n = 0
    for suit in range(4):
        for ranks in combinations(range(1, 14), 4):
            hand = tuple(Card.from_rank_suit(r, suit) for r in ranks)
            for starter in CARDS:
                if starter in hand:
                    continue
                n += 1
                for crib in (False, True):
                    assert show_total(hand, starter, crib) == reference_total_fast(hand, starter, crib)
    assert n == 4 * 715 * 48
