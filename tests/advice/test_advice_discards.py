"""The discard advisor: the ``random`` model against a brute-force enumeration,
the obvious throw first, every choice listed, the tuned table's shape."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.advice.discards import analyse_discards
from service.core.cards import CARDS, parse_cards
from service.core.errors import MalformedError
from service.core.show import show_total


def brute_force(cards, players, own_crib, known=()):
    """Every starter x every way the crib's unknown cards can fall, scored one by one."""
    unseen = [c for c in CARDS if c not in cards and c not in known]
    need = {6: 2, 5: 3}[len(cards)]  # the crib's four, less the seat's own throw
    out = {}
    for throw in combinations(cards, len(cards) - 4):
        keep = [c for c in cards if c not in throw]
        hand = [show_total(keep, s) for s in unseen]
        crib_sum = crib_n = 0
        for s in unseen:
            rest = [c for c in unseen if c != s]
            for others in combinations(rest, need):
                crib_sum += show_total(list(throw) + list(others), s, crib=True)
                crib_n += 1
        crib = crib_sum / crib_n
        out[frozenset(throw)] = (sum(hand) / len(hand), min(hand), max(hand), crib,
                                 sum(hand) / len(hand) + (crib if own_crib else -crib),
                                 {p: hand.count(p) for p in set(hand)})
    return out


CASES = [(6, 2, True, 0), (6, 2, False, 0), (5, 2, True, 3), (5, 3, False, 5), (5, 4, True, 8)]


@pytest.mark.parametrize("dealt,players,own,known_n", CASES)
def test_random_model_equals_brute_force(dealt, players, own, known_n):
    rng = random.Random(f"{dealt}-{players}-{own}-{known_n}")
    drawn = rng.sample(CARDS, dealt + known_n)
    cards, known = drawn[:dealt], drawn[dealt:]
    got = analyse_discards(cards, players, own, known, model="random")
    expected = brute_force(cards, players, own, known)
    assert len(got.choices) == len(expected)
    for ch in got.choices:
        mean, lo, hi, crib, net, counts = expected[frozenset(ch.discard)]
        assert ch.hand.mean == pytest.approx(mean, abs=1e-9)
        assert (ch.hand.min, ch.hand.max) == (lo, hi)
        assert dict(ch.hand.counts) == counts
        assert ch.crib == pytest.approx(crib, abs=1e-9)
        assert ch.net == pytest.approx(net, abs=1e-9)
    nets = [ch.net for ch in got.choices]
    assert nets == sorted(nets, reverse=True)


def test_random_model_flush_and_jacks():
    """A deal rich in one suit and jacks (flush and nobs terms) against brute force."""
    cards = parse_cards(["JH", "5H", "9H", "KH", "JC", "2H"])
    got = analyse_discards(cards, 2, True, model="random")
    expected = brute_force(cards, 2, True)
    for ch in got.choices:
        assert ch.crib == pytest.approx(expected[frozenset(ch.discard)][3], abs=1e-9)


@pytest.mark.parametrize("model", ["random", "tuned"])
@pytest.mark.parametrize("own", [True, False])
def test_the_obvious_throw_comes_first(model, own):
    """5-5-5-J kept (ACC: 29 with the fourth five cut), whoever deals."""
    cards = parse_cards(["5H", "5C", "5S", "JD", "2C", "9H"])
    best = analyse_discards(cards, 2, own, model=model).choices[0]
    assert set(best.keep) == set(parse_cards(["5H", "5C", "5S", "JD"]))
    assert best.hand.max == 29


def test_every_choice_listed():
    for dealt, players, n in ((6, 2, 15), (5, 2, 5), (5, 3, 5), (5, 4, 5)):
        got = analyse_discards(random.Random(dealt * players).sample(CARDS, dealt), players, False)
        assert len(got.choices) == n
        assert len({frozenset(ch.discard) for ch in got.choices}) == n
        for ch in got.choices:
            assert sum(n for _, n in ch.hand.counts) == 52 - dealt


def test_bad_deals_are_malformed():
    with pytest.raises(MalformedError):
        analyse_discards(parse_cards(["5H", "5C", "5S", "JD", "2C", "9H"]), 3, True)
    with pytest.raises(MalformedError):
        analyse_discards(parse_cards(["5H", "5C", "5S", "JD", "5H"]), 3, True)
    with pytest.raises(MalformedError):
        analyse_discards(parse_cards(["5H", "5C", "5S", "JD", "2C"]), 2, True, model="clever")



@settings(max_examples=40, deadline=None)
@given(data=st.data(), players=st.sampled_from([2, 3, 4]), own=st.booleans())
def test_random_model_equals_brute_force_with_many_cards_known(data, players, own):
    """Random deals with most of the pack known (so the brute force is quick):
    the closed forms still equal the enumeration, crib by crib."""
    dealt = data.draw(st.sampled_from([5, 6]) if players == 2 else st.just(5))
    to_crib = 1 if players == 3 else 2 if players == 2 and dealt == 5 else 0
    room = 52 - dealt - ((players - 1) * dealt + to_crib + 1)
    pack = data.draw(st.permutations(CARDS))
    known = pack[dealt:dealt + room - data.draw(st.integers(0, 3))]
    cards = pack[:dealt]
    got = analyse_discards(cards, players, own, known, model="random")
    expected = brute_force(cards, players, own, known)
    for ch in got.choices:
        mean, _, _, crib, net, _ = expected[frozenset(ch.discard)]
        assert ch.hand.mean == pytest.approx(mean, abs=1e-9)
        assert ch.crib == pytest.approx(crib, abs=1e-9)
        assert ch.net == pytest.approx(net, abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([(6, 2), (5, 2), (5, 3), (5, 4)]), st.booleans(), st.randoms(use_true_random=False))
def test_the_tuned_throw_is_the_analysis_first_choice(deal, own_crib, rng):
    """The advisors' fast throw (no analysis built) is exactly the tuned analysis's first choice."""
    from service.advice.discards import tuned_throw
    dealt, players = deal
    cards = rng.sample(CARDS, dealt)
    assert tuned_throw(cards, players, own_crib) == analyse_discards(cards, players, own_crib).choices[0].discard


def test_the_tuned_throw_breaks_ties_as_the_analysis_does():
    """Throws of equal net and hand (suits alike: 2S 3S vs 2H 3H kept or thrown) go to the first in order."""
    from service.advice.discards import tuned_throw
    for text in ("2S 3S 2H 3H KD KC", "2H 3H 2S 3S KD KC", "KD KC 2S 3S 2H 3H"):
        cards = parse_cards(text.split())
        for own in (True, False):
            assert tuned_throw(cards, 2, own) == analyse_discards(cards, 2, own).choices[0].discard


def test_the_strong_throw_does_not_depend_on_the_cards_order():
    from service.advice.discards import strong_throw
    rng = random.Random("strong-throw")
    for players, dealt in ((2, 6), (2, 5), (3, 5), (4, 5)):
        for _ in range(100):
            cards = rng.sample(CARDS, dealt)
            own = rng.random() < 0.5
            want = analyse_discards(sorted(cards), players, own).choices[0].discard
            assert strong_throw(cards, players, own) == strong_throw(list(reversed(cards)), players, own) == want
