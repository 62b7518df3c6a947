"""The play (pegging), property-based: random deals played out by random legal
choices, checked against invariants and against a small reference referee
(tests/reference/play.py, which states the rules it follows) written from
RULES.md ("The play") independently of ``service/core/play.py``.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference.cards import cards_for
from reference.play import Referee, rank_sequences, ref_peg

from service.core.cards import CARDS, Card
from service.core.errors import IllegalError
from service.core.go import rule_on_go
from service.core.play import AnyCard, Go, Play, PlayCard, peg_scores, replay

SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
GO_KINDS = {"go", "last_card", "thirty_one"}


# -- scoring of one card, against the reference ------------------------------


def core_peg(count_cards, seat=0) -> Counter:
    got = peg_scores(list(count_cards), seat)
    assert all(s.seat == seat for s in got)
    return Counter((s.kind, s.points, tuple(s.cards)) for s in got)


def test_peg_scores_exhaustive_up_to_four_cards():
    """All 24,982 rank sequences of 1 to 4 cards (suits irrelevant)."""
    n = 0
    for ranks in rank_sequences(4):
        cc = cards_for(ranks)
        assert core_peg(cc) == ref_peg(cc), [str(c) for c in cc]
        n += 1
    assert n == 24_982


@pytest.mark.slow
def test_peg_scores_exhaustive_five_cards():
    """All 157,605 rank sequences of exactly 5 cards within 31 (about 10 s)."""
    n = 0
    for ranks in rank_sequences(5):
        if len(ranks) == 5:
            cc = cards_for(ranks)
            assert core_peg(cc) == ref_peg(cc), [str(c) for c in cc]
            n += 1
    assert n == 157_605


@st.composite
def count_sequences(draw):
    """A random sequence of distinct cards whose total stays within 31, biased
    towards low cards so long counts (runs, pairs) are common."""
    deck = list(CARDS)
    low = [c for c in deck if c.rank <= 5]
    seq: list[Card] = []
    total = 0
    while True:
        pool = [c for c in (low if draw(st.booleans()) else deck)
                if c not in seq and total + c.value <= 31]
        if not pool or (seq and draw(st.integers(0, 9)) == 0):
            break
        c = draw(st.sampled_from(pool))
        seq.append(c)
        total += c.value
    return seq


@SETTINGS
@given(count_sequences(), st.integers(0, 3))
def test_peg_scores_against_reference(seq, seat):
    assert core_peg(seq, seat) == ref_peg(seq)


# -- random hands played out -------------------------------------------------------


@st.composite
def deals(draw, tournament=False):
    players = draw(st.integers(2, 4))
    deck = draw(st.permutations(CARDS))
    hands = [list(deck[4 * i: 4 * i + 4]) for i in range(players)]
    pone = draw(st.integers(0, players - 1))
    return players, pone, hands


def scored(event) -> Counter:
    return Counter((s.seat, s.kind, s.points) for s in event.scores)


def expected_rule(play: Play, seat: int, card: Card) -> str:
    if card in play.played:
        return "card_already_played"
    if card not in play.held[seat]:
        return "card_not_held"
    return "count_over_31"


def refusal(play: Play, action) -> IllegalError:
    try:
        play.check(action)
    except IllegalError as err:
        return err
    raise AssertionError(f"{action} was not refused")


def play_out(data, players, pone, hands, tournament):
    """Play a hand by random legal choices, checking every step against the
    referee; return the actions, events and final position."""
    play = Play.start(players, pone, hands=hands, tournament=tournament)
    ref = Referee(players, pone, hands, tournament)
    actions, events = [], []
    dealt = {c for h in hands for c in h}
    while not play.hand_over:
        seat = play.turn
        assert ref.turn == seat
        assert play.left[seat] > 0  # seats out of cards are skipped
        legal = play.legal_actions()
        assert len(set(legal)) == len(legal)
        assert set(legal) == ref.legal()
        for a in legal:
            assert play.can(a), a
        # every other card (the dealt ones and a few nobody holds) is refused
        legal_cards = {a.card for a in legal if isinstance(a, PlayCard)}
        probes = [c for h in hands for c in h] + [c for c in CARDS[::13] if c not in dealt]
        for c in probes:
            if c not in legal_cards:
                err = refusal(play, PlayCard(seat, c))
                assert err.rule == expected_rule(play, seat, c)
                assert set(err.legal) == set(legal)
        if Go(seat) not in legal:
            err = refusal(play, Go(seat))
            assert err.rule == "go_while_able"
            assert err.legal == legal
        for other in range(players):
            if other != seat:
                assert not play.can(Go(other))
        action = data.draw(st.sampled_from(legal))
        if isinstance(action, Go) and play.count_cards:
            # rule_on_go agrees with the position (and prices a renege)
            ruling = rule_on_go(play.count, play.held[seat], tournament=tournament)
            fits = ref.fits(seat)  # the referee's, from RULES.md
            assert set(ruling.playable) == set(fits) == set(play.playable(seat))
            assert ruling.legal == (not fits)
            assert ruling.penalty == (2 * len(fits) if tournament else 0)
        play, event = play.apply(action)
        if isinstance(action, Go) and tournament:
            renege = [s for s in event.scores if s.kind == "renege"]
            assert sum(s.points for s in renege) == ruling.penalty
        want = ref.step(action)
        assert scored(event) == want, (action, event)
        assert event.action == action
        assert 0 <= event.count <= 31
        assert 0 <= play.count <= 30
        assert play.turn == ref.turn
        assert list(play.scores) == ref.scores
        actions.append(action)
        events.append(event)
    assert ref.turn is None and not any(ref.hands)
    return actions, events, play


def check_hand(players, hands, actions, events, play):
    # the count never passes 31; a card laid at 31 is the count's last
    for e in events:
        assert 0 <= e.count <= 31
        if e.count == 31:
            assert e.reset
    # each reset event carries exactly one of go 1, last_card 1, thirty_one 2;
    # no other event carries any of them
    for e in events:
        kinds = [s for s in e.scores if s.kind in GO_KINDS]
        if e.reset:
            assert len(kinds) == 1, e
            k = kinds[0]
            assert (k.kind, k.points) in {("go", 1), ("last_card", 1), ("thirty_one", 2)}
            assert (k.kind == "thirty_one") == (e.count == 31)
        else:
            assert kinds == [], e
    # go / last card to whoever laid the last card of the count; 31 to its maker
    last_layer = None
    for a, e in zip(actions, events):
        if isinstance(a, PlayCard):
            last_layer = a.seat
        for s in e.scores:
            if s.kind in GO_KINDS:
                assert s.seat == last_layer
        if e.reset:
            last_layer = None
    # the hand ends exactly once, on the last event, with last_card or a 31
    assert [e.hand_over for e in events] == [False] * (len(events) - 1) + [True]
    final = [s.kind for s in events[-1].scores if s.kind in GO_KINDS]
    assert final in (["last_card"], ["thirty_one"])
    assert all(s.kind != "last_card" for e in events[:-1] for s in e.scores)
    # per-event points add up to the position's scores
    totals = [0] * players
    for e in events:
        for s in e.scores:
            totals[s.seat] += s.points
        assert e.points == sum(s.points for s in e.scores)
    assert list(play.scores) == totals
    # every one of the 4n cards played exactly once, each by its holder
    dealt = [c for h in hands for c in h]
    assert len(play.played) == 4 * players == len(set(play.played))
    assert sorted(play.played) == sorted(dealt)
    assert [a.card for a in actions if isinstance(a, PlayCard)] == list(play.played)
    for a in actions:
        if isinstance(a, PlayCard):
            assert a.card in hands[a.seat]
    assert play.left == (0,) * players and play.turn is None
    if players == 4:
        assert play.team_scores() == (totals[0] + totals[2], totals[1] + totals[3])


@SETTINGS
@given(deals(), st.data())
def test_random_hands(deal, data):
    players, pone, hands = deal
    actions, events, play = play_out(data, players, pone, hands, tournament=False)
    check_hand(players, hands, actions, events, play)

    # The same actions without hands: same events, same scores.
    blind = Play.start(players, pone)
    for a in actions:
        assert blind.can(a), a
        legal = blind.legal_actions()
        if isinstance(a, PlayCard):
            assert AnyCard(a.seat, min(31 - blind.count, 10)) in legal
        blind, _ = blind.apply(a)
    blind_end, blind_events = replay(Play.start(players, pone), actions)
    assert blind_end.scores == play.scores
    assert [(scored(e), e.count, e.reset, e.hand_over) for e in blind_events] == \
        [(scored(e), e.count, e.reset, e.hand_over) for e in events]
    assert blind_end.played == play.played


@SETTINGS
@given(deals(), st.data())
def test_random_tournament_hands(deal, data):
    """Tournament rules: random choices include reneges (a go while able, once
    the count has begun); the go stands and the next seat pegs 2 a playable card."""
    players, pone, hands = deal
    actions, events, play = play_out(data, players, pone, hands, tournament=True)
    check_hand(players, hands, actions, events, play)
    for e in events:
        for s in e.scores:
            if s.kind == "renege":
                assert isinstance(e.action, Go)
                assert s.seat == (e.action.seat + 1) % players
                # 2 a playable card (1 to 4 of them); the cards themselves stay hidden
                assert s.points in (2, 4, 6, 8) and s.cards == ()
                if players == 4:
                    assert s.seat % 2 != e.action.seat % 2


@SETTINGS
@given(st.integers(2, 4), st.data())
def test_random_blind_hands(players, data):
    """Without hands: random cards chosen from what fits (AnyCard), random gos
    where allowed; the hand still ends after 4n cards with one go-or-31 per count."""
    pone = data.draw(st.integers(0, players - 1))
    play = Play.start(players, pone)
    unplayed = list(CARDS)
    events = []
    while not play.hand_over:
        seat = play.turn
        legal = play.legal_actions()
        anycard = [a for a in legal if isinstance(a, AnyCard)]
        assert len(anycard) == 1 and anycard[0].seat == seat
        room = 31 - play.count
        assert anycard[0].max_value == min(room, 10)
        assert (Go(seat) in legal) == (room < 10) == play.can(Go(seat))
        fitting = [c for c in unplayed if c.value <= room]
        choice = data.draw(st.sampled_from(fitting + ([None] if Go(seat) in legal else [])))
        action = Go(seat) if choice is None else PlayCard(seat, choice)
        assert play.can(action)
        too_big = [c for c in unplayed if c.value > room]
        if too_big:
            assert not play.can(PlayCard(seat, too_big[0]))
        play, event = play.apply(action)
        if choice is not None:
            unplayed.remove(choice)
        events.append(event)
    assert len(play.played) == 4 * players
    for e in events:
        kinds = [s.kind for s in e.scores if s.kind in GO_KINDS]
        assert len(kinds) == (1 if e.reset else 0)
    assert sum(e.points for e in events) == sum(play.scores)
