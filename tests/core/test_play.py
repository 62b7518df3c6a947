"""The play (pegging): worked examples from the seeds, the tricky cases, errors.

RULES.md, "The play":

* play goes clockwise (seat + 1), pone first; the count never passes 31;
* the card that makes it scores 15 (2), 31 (2), pair 2 / 3rd of a rank 6 / 4th 12,
  a run of the last k >= 3 cards of the count in any order (k, no duplicate rank
  inside the window);
* go / last card of a count or of the hand, if not 31: 1 (never on top of 31);
* the next count is led by the next seat after the one who laid the last card;
  seats out of cards are skipped;
* a go while holding a playable card is rejected, naming the playable cards;
  under tournament rules it stands and costs 2 a playable card.

Design decisions of the core (see the brief and ``service/core/play.py``): go is
an explicit action, even for the seat that laid the last card when every other
seat has passed; seats out of cards are skipped automatically; the renege
penalty goes to the next seat (with 4 players that is always the other
partnership); without hands, a go is only refused at a count of 21 or less.

Scripts below are written ``"seat:card seat:card seat:go ..."``.  Where a script
does not play every card, each seat's hand is filled up to four cards with
ten-value cards that are never played: a ten-value card fits at every count of
21 or less and at no count of 22 or more, so fillers never change whether a go
in the script is legal (a go is never legal at 21 or less).
"""

from __future__ import annotations

from collections import Counter

import pytest

from service.core.cards import Card
from service.core.errors import CribbageError, DuplicateCardError, IllegalError, MalformedError
from service.core.go import GoRuling, count_of, rule_on_go
from service.core.play import (
    AnyCard,
    Go,
    Play,
    PlayCard,
    Score,
    peg_scores,
    replay,
)


# -- helpers -------------------------------------------------------------------


def C(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def parse_script(script: str) -> list[PlayCard | Go]:
    actions: list[PlayCard | Go] = []
    for token in script.split():
        seat, what = token.split(":")
        if what.lower() == "go":
            actions.append(Go(int(seat)))
        else:
            actions.append(PlayCard(int(seat), C(what)))
    return actions


FILLERS = cards(
    "TC TD TH TS JC JD JH JS QC QD QH QS KC KD KH KS"
)


def hands_for(players: int, actions, extra: dict[int, str] | None = None) -> list[list[Card]]:
    """Each seat's cards: those it plays in ``actions`` (+ ``extra``), filled to 4."""
    hands: list[list[Card]] = [[] for _ in range(players)]
    for a in actions:
        if isinstance(a, PlayCard):
            hands[a.seat].append(a.card)
    for seat, text in (extra or {}).items():
        hands[seat].extend(cards(text))
    used = {c for h in hands for c in h}
    spare = [c for c in FILLERS if c not in used]
    for h in hands:
        assert len(h) <= 4, "a script plays more than four cards for one seat"
        while len(h) < 4:
            h.append(spare.pop(0))
    return hands


def run(players: int, pone: int, script: str, *, known: bool = True,
        tournament: bool = False, extra: dict[int, str] | None = None):
    """Replay ``script``; with ``known`` the hands are given, else hands=None."""
    actions = parse_script(script)
    hands = hands_for(players, actions, extra) if known else None
    play = Play.start(players, pone, hands=hands, tournament=tournament)
    return replay(play, actions)


def scored(event) -> Counter:
    """What an event scored, as a multiset of (seat, kind, points)."""
    return Counter((s.seat, s.kind, s.points) for s in event.scores)


def table(events) -> list[Counter]:
    return [scored(e) for e in events]


def expect(*per_event) -> list[Counter]:
    """``expect([], [(0, "fifteen", 2)], ...)``: one list of scores per action."""
    return [Counter(e) for e in per_event]


KNOWN = pytest.mark.parametrize("known", [True, False], ids=["hands", "no_hands"])


# -- seed 000: "Example: a go, a 31 and a new count" ---------------------------------

# Non-dealer (pone, seat 1) holds 4S 5D 9H KD; the dealer (seat 0) 6H KC 3D 3S.
# The seed names "your 9 and your king" without suits: 9H and KD are chosen.
SEED_000 = "1:4S 0:6H 1:5D 0:KC 1:go 0:3D 0:3S 1:KD 1:9H"


@KNOWN
def test_seed000_go_31_and_new_count_per_card(known):
    play, events = run(2, 1, SEED_000, known=known)
    assert [e.count for e in events] == [4, 10, 15, 25, 25, 28, 31, 10, 19]
    assert table(events) == expect(
        [],                                   # 4S: 4
        [],                                   # 6H: 10
        [(1, "fifteen", 2), (1, "run", 3)],   # 5D: 15, and 4 6 5 out of order
        [],                                   # KC: 25
        [],                                   # pone: 9 and K both pass 31, go
        [],                                   # 3D: 28 (dealer plays on)
        [(0, "thirty_one", 2), (0, "pair", 2)],  # 3S: 31 and the pair, no go point
        [],                                   # new count, pone leads KD: 10
        [(1, "last_card", 1)],                # 9H: 19, last card of the hand
    )
    assert [e.reset for e in events] == [False] * 6 + [True, False, True]
    assert [e.hand_over for e in events] == [False] * 8 + [True]
    assert play.scores == (4, 6)  # dealer 4, non-dealer 6
    assert play.hand_over and play.turn is None


@KNOWN
def test_seed000_turns(known):
    """The dealer plays on after the go; the pone (who did not make 31) leads the
    new count and plays alone once the dealer is out of cards."""
    actions = parse_script(SEED_000)
    hands = hands_for(2, actions) if known else None
    play = Play.start(2, 1, hands=hands)
    turns = []
    for a in actions:
        turns.append(play.turn)
        play, _ = play.apply(a)
    assert turns == [a.seat for a in actions] == [1, 0, 1, 0, 1, 0, 0, 1, 1]


def test_seed000_event_cards():
    _, events = run(2, 1, SEED_000)
    fifteen, run_ = events[2].scores
    assert fifteen.cards == tuple(cards("4S 6H 5D"))
    assert run_.cards == tuple(cards("4S 6H 5D"))
    by_kind = {s.kind: s for s in events[6].scores}
    assert by_kind["pair"].cards == tuple(cards("3D 3S"))
    assert by_kind["thirty_one"].cards == tuple(cards("4S 6H 5D KC 3D 3S"))


# -- seed 002 ------------------------------------------------------------------------


@KNOWN
def test_seed002_seven_onto_ace_seven_is_fifteen_for_four(known):
    _, events = run(2, 0, "0:AD 1:7C 0:7H", known=known)
    assert table(events) == expect([], [], [(0, "fifteen", 2), (0, "pair", 2)])
    assert events[-1].points == 4 and events[-1].count == 15
    # spoken "fifteen for four": the fifteen is pegged before the pair
    assert [s.kind for s in events[-1].scores] == ["fifteen", "pair"]


@KNOWN
def test_seed002_eight_six_seven_scores_three(known):
    _, events = run(2, 0, "0:8C 1:6D 0:7S", known=known)
    assert table(events) == expect([], [], [(0, "run", 3)])
    assert events[-1].count == 21


# -- seed 003 ------------------------------------------------------------------------

# The seed's example ("7, 8 (15), 6, 4, 5, go") names only the fifteen and the
# go.  By RULES.md the 6 on 7 8 also makes a run of three (6 7 8) and the 5 on
# 7 8 6 4 a run of five (4 5 6 7 8).  Decision: RULES.md decides over a seed's
# incomplete example, so the test asserts the rule-correct points: non-dealer
# 3 + 5 + 1 = 9, dealer 2.  Hands: non-dealer (seat 0) 7S 6D 5H KD, dealer
# (seat 1) 8H 4C 9C QH; after the dealer's go the non-dealer cannot play either
# (KD at 30) and says go himself, scoring the point.
SEED_003 = "0:7S 1:8H 0:6D 1:4C 0:5H 1:go 0:go 1:9C 0:KD 1:QH"


@KNOWN
def test_seed003_seven_eight_six_four_five_go(known):
    play, events = run(2, 0, SEED_003, known=known)
    assert [e.count for e in events[:7]] == [7, 15, 21, 25, 30, 30, 30]
    assert table(events[:7]) == expect(
        [],
        [(1, "fifteen", 2)],
        [(0, "run", 3)],   # 7 8 6: the seed leaves this out
        [],
        [(0, "run", 5)],   # 7 8 6 4 5: the seed leaves this out
        [],                # dealer: go
        [(0, "go", 1)],    # non-dealer cannot play either: 1 for the go
    )
    assert events[6].reset
    after_go = [sum(s.points for e in events[:7] for s in e.scores if s.seat == seat)
                for seat in (0, 1)]
    assert after_go == [9, 2]  # non-dealer 3 + 5 + 1, dealer 2
    # the dealer, who said go, leads the next count: 9, K, Q (29) last card
    assert table(events[7:]) == expect([], [], [(1, "last_card", 1)])
    assert play.scores == (9, 3)


# -- the tricky list ---------------------------------------------------------------

TRICKY = [
    # id, players, pone, script, per-event scores
    ("run_out_of_order_4_6_5", 2, 0, "0:4S 1:6H 0:5D",
     [[], [], [(0, "fifteen", 2), (0, "run", 3)]]),
    ("run_keeps_growing_4_6_5_7", 2, 0, "0:4S 1:6H 0:5D 1:7C",
     [[], [], [(0, "fifteen", 2), (0, "run", 3)], [(1, "run", 4)]]),
    ("duplicate_breaks_run_6_7_7_8", 2, 0, "0:6S 1:7H 0:7D 1:8C",
     [[], [], [(0, "pair", 2)], []]),
    ("run_reformed_after_duplicate_3_4_3_5", 2, 0, "0:3S 1:4H 0:3D 1:5C",
     [[], [], [], [(1, "fifteen", 2), (1, "run", 3)]]),
    ("runs_of_3_4_5_6_7_in_order", 2, 0, "0:AS 1:2H 0:3D 1:4C 0:5S 1:6H 0:7D",
     [[], [], [(0, "run", 3)], [(1, "run", 4)], [(0, "fifteen", 2), (0, "run", 5)],
      [(1, "run", 6)], [(0, "run", 7)]]),
    # 3 A 2 (run 3), 5 (A 2 3 5: no run), 4 (15 and 1-5), 7 (no run: 6 missing),
    # 6 (1-7 in seven cards: run of 7)
    ("runs_out_of_order_with_gaps", 2, 0, "0:3S 1:AH 0:2D 1:5C 0:4S 1:7H 0:6D",
     [[], [], [(0, "run", 3)], [], [(0, "fifteen", 2), (0, "run", 5)], [],
      [(0, "run", 7)]]),
    ("J_Q_K_A_is_no_run_and_the_ace_makes_31", 2, 0, "0:JS 1:QH 0:KD 1:AC",
     [[], [], [(0, "run", 3)], [(1, "thirty_one", 2)]]),
    ("K_Q_is_no_pair", 2, 0, "0:KS 1:QH", [[], []]),
    ("ten_J_is_no_pair", 2, 0, "0:TS 1:JH 0:5D 1:5C",
     [[], [], [], [(1, "pair", 2)]]),
    ("pair_royal_and_31_on_one_card", 2, 0, "0:KS 1:7H 0:7D 1:7C",
     [[], [], [(0, "pair", 2)], [(1, "pair_royal", 6), (1, "thirty_one", 2)]]),
    ("pair_royal_and_fifteen_5_5_5", 2, 0, "0:5S 1:5H 0:5D",
     [[], [(1, "pair", 2)], [(0, "pair_royal", 6), (0, "fifteen", 2)]]),
    # A double pair royal with the count at 15 does exist: 7 then four 2s.
    ("double_pair_royal_and_fifteen_7_2_2_2_2", 2, 0, "0:7S 1:2H 0:2D 1:2C 0:2S",
     [[], [], [(0, "pair", 2)], [(1, "pair_royal", 6)],
      [(0, "double_pair_royal", 12), (0, "fifteen", 2)]]),
    ("double_pair_royal_and_31_3_7_7_7_7", 2, 0, "0:3S 1:7H 0:7D 1:7C 0:7S",
     [[], [], [(0, "pair", 2)], [(1, "pair_royal", 6)],
      [(0, "double_pair_royal", 12), (0, "thirty_one", 2)]]),
    ("double_pair_royal_of_3s_count_12", 2, 0, "0:3S 1:3H 0:3D 1:3C",
     [[], [(1, "pair", 2)], [(0, "pair_royal", 6)], [(1, "double_pair_royal", 12)]]),
    ("pair_only_with_the_previous_card", 2, 0, "0:5S 1:9H 0:5D",
     [[], [], []]),
    ("ace_is_low_A_2_3", 2, 0, "0:2S 1:AH 0:3D", [[], [], [(0, "run", 3)]]),
    ("Q_K_A_no_wrap", 2, 0, "0:QS 1:KH 0:AD", [[], [], []]),
    # Go, then the other player lays two cards and pairs his own card.
    # Seat 0: KS JD 7S 8S; seat 1: 6H 2C 2D KH.
    ("go_then_pair_own_card", 2, 0,
     "0:KS 1:6H 0:JD 1:2C 0:go 1:2D 1:go 0:7S 1:KH 0:8S",
     [[], [], [], [], [], [(1, "pair", 2)], [(1, "go", 1)], [], [],
      [(0, "last_card", 1)]]),
    # The last card of the hand makes 31: 2 for the 31, no last-card point.
    ("last_card_of_hand_makes_31", 2, 0,
     "0:KS 1:QH 0:5S 1:6H 0:KD 1:QC 0:6D 1:5C",
     [[], [], [], [(1, "thirty_one", 2)], [], [], [], [(1, "thirty_one", 2)]]),
    # Three players, pone seat 1.  Seat 1: TS 2S 8S 8C; seat 2: TH 9H 7H 6H;
    # seat 0 (dealer): TD 9D 7D 5D.
    # Count 1: T T T (pair, pair royal), then go, go, and the seat that laid the
    # last card must say go too: it scores the go.
    # Count 2 (seat 1 leads): 2 9 9 8 = 28, three gos, seat 1 scores the go.
    # Count 3 (seat 2 leads): 7 7 8 6 = 28 (pair; 7 8 6 a run); seats 1 and 2 are
    # now out, seat 0 says go and the go goes to seat 2, who is out of cards.
    # Count 4: seat 0 alone lays 5D, the last card.
    ("three_players_go_chains_two_seats_out", 3, 1,
     "1:TS 2:TH 0:TD 1:go 2:go 0:go "
     "1:2S 2:9H 0:9D 1:8S 2:go 0:go 1:go "
     "2:7H 0:7D 1:8C 2:6H 0:go "
     "0:5D",
     [[], [(2, "pair", 2)], [(0, "pair_royal", 6)], [], [], [(0, "go", 1)],
      [], [], [(0, "pair", 2)], [], [], [], [(1, "go", 1)],
      [], [(0, "pair", 2)], [], [(2, "run", 3)], [(2, "go", 1)],
      [(0, "last_card", 1)]]),
    # Four players, pone seat 1.  Seat 0: 9C TC QC KC; seat 1: AS 2S 3S 4S;
    # seat 2: AH 2H 3H 4H; seat 3: 5D 6D 9D KD.
    # Count 1: A A 5 9 2 2 6 (26), go, 3 (29), go, go, go: seat 1 scores the go.
    # Count 2 (seat 2 leads): 4 9 T 4 3 = 30; seats 1 and 2 are now out; seats 3
    # and 0 say go; the go is seat 2's although it holds no more cards.
    # Count 3 (seat 3 leads, seats 1 and 2 out): K Q K, last card to seat 0.
    ("four_players_go_chains_two_seats_out", 4, 1,
     "1:AS 2:AH 3:5D 0:9C 1:2S 2:2H 3:6D 0:go 1:3S 2:go 3:go 1:go "
     "2:4H 3:9D 0:TC 1:4S 2:3H 3:go 0:go "
     "3:KD 0:QC 0:KC",
     [[], [(2, "pair", 2)], [], [], [], [(2, "pair", 2)], [], [], [], [], [],
      [(1, "go", 1)],
      [], [], [], [], [], [], [(2, "go", 1)],
      [], [], [(0, "last_card", 1)]]),
]


@KNOWN
@pytest.mark.parametrize("players, pone, script, expected", [t[1:] for t in TRICKY],
                         ids=[t[0] for t in TRICKY])
def test_tricky(players, pone, script, expected, known):
    _, events = run(players, pone, script, known=known)
    assert table(events) == expect(*expected)


def test_tricky_run_cards_and_counts():
    _, events = run(2, 0, "0:3S 1:4H 0:3D 1:5C")
    by_kind = {s.kind: s for s in events[-1].scores}
    assert by_kind["run"].cards == tuple(cards("4H 3D 5C"))  # the window, not the first 3
    assert by_kind["fifteen"].cards == tuple(cards("3S 4H 3D 5C"))
    _, events = run(2, 0, "0:KS 1:7H 0:7D 1:7C")
    assert {s.kind: s.cards for s in events[-1].scores}["pair_royal"] == tuple(cards("7H 7D 7C"))
    assert events[-1].count == 31 and events[-1].reset


def test_31_resets_and_the_other_player_leads():
    play, events = run(2, 0, "0:JS 1:QH 0:KD 1:AC")
    assert events[-1].reset and not events[-1].hand_over
    assert play.count == 0 and play.count_cards == ()
    assert play.turn == 0  # seat 1 made 31: seat 0 leads


def test_pairs_and_runs_do_not_carry_into_the_next_count():
    # Count 1: K Q J A = 31 (no run: Q K A does not wrap).  In count 2, 2 3 4
    # is a run of 3 only (the A of count 1 no longer counts, else it would be 4).
    play, events = run(2, 0, "0:KS 1:QH 0:JD 1:AC 0:2S 1:3H 0:4D")
    assert table(events)[3] == Counter({(1, "thirty_one", 2): 1})
    assert table(events)[4:] == expect([], [], [(0, "run", 3)])  # 2 3 4 of the new count only
    play, events = run(2, 0, "0:KS 1:QH 0:9D 1:2C 0:2S")
    assert table(events)[3] == Counter({(1, "thirty_one", 2): 1})
    assert table(events)[4] == Counter()  # K Q 9 2 = 31; 2S leads anew: no pair with 2C


def test_go_point_goes_to_the_last_player_not_the_one_who_says_go():
    # seat 0 leads K, seat 1 K (20, pair), seat 0 Q (30); seat 1 can't: go;
    # seat 0 can't either (K): go -> seat 0 scores the go on its own go.
    play, events = run(2, 0, "0:KS 1:KH 0:QD 1:go 0:go", extra={0: "KD", 1: "QC"})
    assert table(events) == expect([], [(1, "pair", 2)], [], [], [(0, "go", 1)])
    assert events[-1].reset and play.turn == 1  # the one who said go leads


def test_go_and_a_new_count_led_by_the_seat_that_said_go():
    # Seat 0: 2S 3S KD KS; seat 1: TH 5H 6H 4C.
    # 2 (2), T (12), 3 (15: fifteen), 5 (20), K (30), 6? 36 no -> seat 1 go;
    # seat 0 holds KS only: go -> seat 0 scores the go.  Seat 1 (who said go)
    # leads 6H (6), seat 0 KS (16), seat 1 4C (20) last card.
    play, events = run(2, 0, "0:2S 1:TH 0:3S 1:5H 0:KD 1:go 0:go 1:6H 0:KS 1:4C")
    assert table(events) == expect(
        [], [], [(0, "fifteen", 2)], [], [], [], [(0, "go", 1)], [], [], [(1, "last_card", 1)])
    assert play.scores == (3, 1)


@KNOWN
def test_other_seat_out_and_next_card_would_pass_31(known):
    """Seed 000: "If the other player is out of cards and your next card would
    pass 31, that count is over.  Whoever played its last card scores 1 for the
    go, and you start a new count."  Seat 1 (pone): AH 2H 3H AD; seat 0: 2S 9S
    KD KS.  Seat 1 lays its last card at 28; seat 0 holds KS and says go (an
    explicit action); the go is seat 1's; seat 0 leads KS, the last card."""
    play, events = run(2, 1, "1:AH 0:2S 1:2H 0:9S 1:3H 0:KD 1:AD 0:go 0:KS", known=known)
    assert [e.count for e in events] == [1, 3, 5, 14, 17, 27, 28, 28, 10]
    assert table(events) == expect(
        [], [], [(1, "pair", 2)], [], [], [], [], [(1, "go", 1)], [(0, "last_card", 1)])
    assert [e.reset for e in events] == [False] * 7 + [True, True]
    assert play.scores == (1, 3)


# -- four players: partnerships --------------------------------------------------


def test_four_players_partnership_totals():
    # Pone seat 1: 5S (5), seat 2 5H (pair), seat 3 5D (15: pair royal and
    # fifteen), seat 0 5C (double pair royal; 20), seat 1 TS (30; no score),
    # then the remaining (ten-value) cards can't fit: go, go, go, go -> seat 1
    # scores the go.
    play, events = run(4, 1, "1:5S 2:5H 3:5D 0:5C 1:TS 2:go 3:go 0:go 1:go")
    assert table(events) == expect(
        [], [(2, "pair", 2)], [(3, "pair_royal", 6), (3, "fifteen", 2)],
        [(0, "double_pair_royal", 12)],
        [], [], [], [], [(1, "go", 1)])
    assert play.scores == (12, 1, 2, 8)
    assert play.team_scores() == (14, 9)  # seats 0+2, seats 1+3
    assert play.turn == 2  # next seat after seat 1


def test_four_player_hand_full_totals():
    play, events = run(4, 1, TRICKY[-1][3])
    assert sum(e.points for e in events) == sum(play.scores) == 7
    assert play.scores == (1, 1, 5, 0)
    assert play.team_scores() == (6, 1)
    assert play.hand_over and sorted(play.played) == sorted(
        c for a in parse_script(TRICKY[-1][3]) if isinstance(a, PlayCard) for c in [a.card])


def test_team_scores_only_for_four_players():
    assert Play.start(2, 0).team_scores() is None
    assert Play.start(3, 0).team_scores() is None
    assert Play.start(4, 0).team_scores() == (0, 0)


def test_three_player_full_hand_totals():
    play, events = run(3, 1, TRICKY[-2][3])
    assert play.scores == (12, 1, 6)
    assert play.hand_over
    assert sum(e.reset for e in events) == 4


# -- illegal actions ---------------------------------------------------------------


def _raises(play: Play, action) -> IllegalError:
    with pytest.raises(IllegalError) as info:
        play.check(action)
    assert not play.can(action)
    with pytest.raises(IllegalError):
        play.apply(action)
    return info.value


HANDS_2P = [cards("6H KC 3D 3S"), cards("4S 5D 9H KD")]  # dealer 0, pone 1 (seed 000)


@KNOWN
def test_out_of_turn(known):
    play = Play.start(2, 1, hands=HANDS_2P if known else None)
    err = _raises(play, PlayCard(0, C("6H")))
    assert err.rule == "out_of_turn"
    # the pone leads: any of its four cards, or (cards unknown) any card
    expected = [PlayCard(1, c) for c in cards("4S 5D 9H KD")] if known else [AnyCard(1, 10)]
    assert err.legal == expected == play.legal_actions()
    err = _raises(play, Go(0))
    assert err.rule == "out_of_turn"


@KNOWN
def test_count_past_31(known):
    play, _ = replay(Play.start(2, 1, hands=HANDS_2P if known else None),
                     parse_script("1:4S 0:6H 1:5D 0:KC"))  # 25
    err = _raises(play, PlayCard(1, C("KD")))
    assert err.rule == "count_over_31"
    if known:
        assert err.legal == [Go(1)]  # neither 9H nor KD fits at 25
    else:
        assert err.legal == [AnyCard(1, 6), Go(1)]
    err = _raises(play, PlayCard(1, C("9H")))
    assert err.rule == "count_over_31"


def test_count_past_31_legal_lists_the_cards_that_fit():
    hands = [cards("KS 7H 4D AS"), cards("KH QC 5H 2C")]
    play, _ = replay(Play.start(2, 0, hands=hands), parse_script("0:KS 1:KH 0:AS 1:5H"))
    assert play.count == 26
    err = _raises(play, PlayCard(0, C("7H")))
    assert err.rule == "count_over_31"
    assert err.legal == [PlayCard(0, C("4D"))]
    assert "31" in err.message


@KNOWN
def test_card_played_twice(known):
    play, _ = replay(Play.start(2, 1, hands=HANDS_2P if known else None),
                     parse_script("1:4S 0:6H"))
    err = _raises(play, PlayCard(1, C("4S")))
    assert err.rule == "card_already_played"
    # another seat's already-played card: still "already played" (not "not held")
    err = _raises(play, PlayCard(1, C("6H")))
    assert err.rule == "card_already_played"
    # count 10: every card the pone still holds fits (and a go is no choice)
    expected = [PlayCard(1, c) for c in cards("5D 9H KD")] if known else [AnyCard(1, 10)]
    assert err.legal == expected == play.legal_actions()


def test_card_not_held():
    play = Play.start(2, 1, hands=HANDS_2P)
    err = _raises(play, PlayCard(1, C("6H")))  # the dealer's card
    assert err.rule == "card_not_held"
    err = _raises(play, PlayCard(1, C("AC")))  # nobody's card
    assert err.rule == "card_not_held"
    assert err.legal == [PlayCard(1, c) for c in HANDS_2P[1]]


def test_card_not_held_is_unknowable_without_hands():
    play = Play.start(2, 1)
    assert play.can(PlayCard(1, C("AC")))


def test_go_while_holding_a_playable_card_names_the_playable_cards():
    hands = [cards("KS 5D AS KD"), cards("KH 5H 9C QC")]
    play, events = replay(Play.start(2, 0, hands=hands), parse_script("0:KS 1:5H 0:AS 1:KH"))
    assert play.count == 26 and play.turn == 0
    # seat 0 holds 5D (31 fits) and KD (36): go is a renege, rejected
    err = _raises(play, Go(0))
    assert err.rule == "go_while_able"
    assert err.legal == [PlayCard(0, C("5D"))]
    assert "5D" in err.message
    # after 5D (31, reset) ... the count is new; at 30 a seat holding 9C QC may go
    play, event = play.apply(PlayCard(0, C("5D")))
    assert scored(event) == Counter({(0, "thirty_one", 2): 1})
    play, _ = replay(play, parse_script("1:QC 0:KD"))  # 20
    assert play.count == 20 and not play.can(Go(1))  # 9C fits at 20
    play, _ = play.apply(PlayCard(1, C("9C")))      # 29, seat 0 out of cards
    assert play.hand_over  # both out: last card to seat 1


def test_go_while_able_at_the_lead():
    play = Play.start(2, 0, hands=HANDS_2P)
    err = _raises(play, Go(0))
    assert err.rule == "go_while_able"
    assert err.legal == [PlayCard(0, c) for c in HANDS_2P[0]]


def test_go_without_hands_only_refused_where_every_card_fits():
    play, _ = replay(Play.start(2, 0), parse_script("0:KS 1:AH 0:KD"))  # 21
    err = _raises(play, Go(1))
    assert err.rule == "go_while_able"
    assert err.legal == [AnyCard(1, 10)]
    play, _ = replay(play, parse_script("1:AC"))  # 22: a ten no longer fits
    assert play.can(Go(0))
    assert play.legal_actions() == [AnyCard(0, 9), Go(0)]


def test_acting_after_the_hand_is_over():
    play, _ = run(2, 1, SEED_000)
    for action in (PlayCard(1, C("9H")), PlayCard(0, C("AC")), Go(0), Go(1)):
        err = _raises(play, action)
        assert err.rule == "hand_over"
        assert err.legal == []
    assert play.legal_actions() == []


def test_no_such_seat():
    play = Play.start(3, 0)
    for action in (Go(3), PlayCard(5, C("AC")), Go(-1)):
        err = _raises(play, action)
        assert err.rule == "no_such_seat"
        assert err.legal == [AnyCard(0, 10)] == play.legal_actions()  # seat 0 leads, cards unknown


def test_replay_names_the_failing_play():
    with pytest.raises(IllegalError) as info:
        replay(Play.start(2, 1, hands=HANDS_2P), parse_script("1:4S 0:6H 1:5D 1:9H"))
    assert info.value.field == "plays/3"
    assert info.value.rule == "out_of_turn"
    with pytest.raises(IllegalError) as info:
        replay(Play.start(2, 1, hands=HANDS_2P), parse_script("1:4S 0:6H 1:go"))
    assert info.value.field == "plays/2"
    assert info.value.rule == "go_while_able"


def test_anycard_is_not_an_action():
    """``AnyCard`` (what ``legal_actions`` offers when the cards are unknown)
    is a description, not an action: handing it back must not be taken as a go.

    Found in 55f3c80 (still so at 6e476c9): ``check`` treats anything that is
    not a ``PlayCard`` as a ``Go``, so at a count of 22 without hands
    ``play.apply(AnyCard(1, 9))`` succeeds and marks seat 1 as having said go.
    Expected: refused (an ``IllegalError``/``MalformedError`` or a ``TypeError``).
    """
    play, _ = replay(Play.start(2, 0), parse_script("0:KS 1:KH 0:2S"))  # 22
    offered = play.legal_actions()[0]
    assert offered == AnyCard(1, 9)
    with pytest.raises((CribbageError, TypeError)):
        play.apply(offered)


def test_check_does_not_change_the_position():
    """Checking and applying leave the position they start from as it was: it
    still equals a position built apart from it, field by field as written here,
    and so do the caller's hands."""
    hands = [list(h) for h in HANDS_2P]
    play = Play.start(2, 1, hands=hands)
    assert play.can(PlayCard(1, C("4S"))) and not play.can(Go(1))
    play.check(PlayCard(1, C("4S")))
    with pytest.raises(IllegalError):
        play.check(Go(1))
    nxt, _ = play.apply(PlayCard(1, C("4S")))
    assert play == Play.start(2, 1, hands=[cards("6H KC 3D 3S"), cards("4S 5D 9H KD")])
    assert (play.turn, play.count, play.count_cards, play.passed, play.last_player) == (1, 0, (), frozenset(), None)
    assert play.held == (tuple(cards("6H KC 3D 3S")), tuple(cards("4S 5D 9H KD")))
    assert (play.left, play.played, play.scores) == ((4, 4), (), (0, 0))
    assert hands == [cards("6H KC 3D 3S"), cards("4S 5D 9H KD")]
    # ... while the next position has the card laid
    assert (nxt.turn, nxt.count, nxt.count_cards, nxt.last_player) == (0, 4, (C("4S"),), 1)
    assert nxt.held == (tuple(cards("6H KC 3D 3S")), tuple(cards("5D 9H KD")))
    assert (nxt.left, nxt.played) == ((4, 3), (C("4S"),))


def test_start_rejects_malformed_tables():
    with pytest.raises(MalformedError) as info:
        Play.start(5, 0)
    assert info.value.field == "players"
    with pytest.raises(MalformedError) as info:
        Play.start(2, 2)
    assert info.value.field == "pone"
    with pytest.raises(MalformedError) as info:
        Play.start(2, 0, hands=[cards("AS 2S 3S 4S")])
    assert info.value.field == "hands"
    with pytest.raises(MalformedError) as info:
        Play.start(2, 0, hands=[cards("AS 2S 3S 4S"), cards("AH 2H 3H")])
    assert info.value.field == "hands/1"
    with pytest.raises(DuplicateCardError):
        Play.start(2, 0, hands=[cards("AS 2S 3S 4S"), cards("AH 2H 3H 4S")])


# -- tournament: the renege penalty -----------------------------------------------


@pytest.mark.parametrize("players, reneger, beneficiary", [
    (2, 0, 1), (2, 1, 0),
    (3, 0, 1), (3, 1, 2), (3, 2, 0),
    (4, 0, 1), (4, 1, 2), (4, 2, 3), (4, 3, 0),
])
def test_renege_penalty_goes_to_the_next_seat(players, reneger, beneficiary):
    # The seat before the reneger leads a ten-value card (10); the reneger holds
    # four low cards, all of which fit: 2 x 4 playable = 8 to the next seat.
    # (A go at the lead itself is refused: see below.)
    leader = (reneger - 1) % players
    hands = [cards(h) for h in ("TS JS QS KS", "TH JH QH KH", "TD JD QD KD", "TC JC QC KC")[:players]]
    hands[reneger] = cards("6D AS 2C 3C") if reneger != 3 else cards("6H AD 2S 3S")
    play = Play.start(players, leader, hands=hands, tournament=True)
    lead = hands[leader][0]
    play, _ = play.apply(PlayCard(leader, lead))
    assert play.turn == reneger
    assert Go(reneger) in play.legal_actions()
    assert play.can(Go(reneger))
    play, event = play.apply(Go(reneger))
    assert scored(event) == Counter({(beneficiary, "renege", 8): 1})
    # ACC 7.3 needs only the number of playable cards: the event never shows them.
    assert event.scores[0].cards == ()
    assert play.scores[beneficiary] == 8 and sum(play.scores) == 8
    # the go stands: the reneger is out of this count
    assert reneger in play.passed
    if players == 4:
        assert beneficiary % 2 != reneger % 2  # the other partnership


def test_renege_two_points_per_playable_card_only():
    # count 25: seat 1 holds 6H (fits), AS (fits), KS (does not) -> 4 to seat 0
    hands = [cards("KC KD 5D 3S"), cards("QH 6H AS KS")]
    play, _ = replay(Play.start(2, 0, hands=hands, tournament=True),
                     parse_script("0:KC 1:QH 0:5D"))
    assert play.count == 25
    play, event = play.apply(Go(1))
    assert scored(event) == Counter({(0, "renege", 4): 1})
    assert event.scores[0].cards == ()  # 2 cards could have been played: 4 points, no cards shown
    assert play.turn == 0 and play.scores == (4, 0)
    # the go stands: seat 0 plays on alone, then says go and scores it
    play, event = play.apply(PlayCard(0, C("3S")))  # 28
    assert play.turn == 0
    play, event = play.apply(Go(0))
    assert scored(event) == Counter({(0, "go", 1): 1}) and event.reset
    assert play.scores == (5, 0) and play.turn == 1


def test_tournament_legal_go_costs_nothing():
    hands = [cards("KC KD QD 3S"), cards("KH 9H 8S 7S")]
    play, _ = replay(Play.start(2, 0, hands=hands, tournament=True),
                     parse_script("0:KC 1:KH 0:KD"))  # 30
    play, event = play.apply(Go(1))
    assert event.scores == ()


def test_tournament_renege_without_hands():
    # Unknown cards: at 21 or less every card fits, so a go costs 2 a card held.
    play, _ = replay(Play.start(2, 0, tournament=True), parse_script("0:KS"))
    play, event = play.apply(Go(1))
    assert scored(event) == Counter({(0, "renege", 8): 1})
    # above 21 nothing is known, so nothing is charged
    play, _ = replay(Play.start(2, 0, tournament=True), parse_script("0:KS 1:KH 0:2D"))  # 22
    play, event = play.apply(Go(1))
    assert event.scores == ()


def test_non_tournament_renege_is_rejected_not_penalised():
    hands = [cards("KC KD 5D 3S"), cards("QH 6H AS KS")]
    play, _ = replay(Play.start(2, 0, hands=hands), parse_script("0:KC 1:QH 0:5D"))
    err = _raises(play, Go(1))
    assert err.rule == "go_while_able"
    assert err.legal == [PlayCard(1, C("6H")), PlayCard(1, C("AS"))]
    assert play.scores == (0, 0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tournament_go_at_the_lead_is_refused(players):
    """The leader of a count must lay a card, even under tournament rules.

    Regression: in 55f3c80 ``Play.start(2, 0, tournament=True)`` then ``Go(0)``
    (renege, 8 to seat 1) and ``Go(1)`` raised ``AssertionError`` from
    ``Play._next_turn`` (a count ended with no card laid).  Since 6e476c9 a go
    at an empty count is refused (rule go_while_able) and is not offered by
    ``legal_actions``.
    """
    play = Play.start(players, 0, tournament=True)
    assert Go(0) not in play.legal_actions()
    err = _raises(play, Go(0))
    assert err.rule == "go_while_able"
    assert err.legal == [AnyCard(0, 10)]
    hands = [cards(h) for h in ("AS 2S 3S 4S", "AH 2H 3H 4H", "AD 2D 3D 4D", "AC 2C 3C 4C")[:players]]
    play = Play.start(players, 0, hands=hands, tournament=True)
    err = _raises(play, Go(0))
    assert err.rule == "go_while_able"
    assert err.legal == [PlayCard(0, c) for c in hands[0]]


def test_tournament_lone_seat_must_lead():
    """Same case with one seat left holding cards: seat 1 runs out and scores
    the go; seat 0 leads the next count alone and may not say go (in 55f3c80
    this renege was accepted and crashed the core)."""
    play, events = replay(Play.start(2, 0, tournament=True),
                          parse_script("0:KS 1:5H 0:QS 1:2H 0:go 1:2D 1:AH"))
    assert table(events) == expect([], [(1, "fifteen", 2)], [], [], [], [(1, "pair", 2)],
                                   [(1, "go", 1)])
    assert play.turn == 0 and play.left == (2, 0) and play.count == 0
    err = _raises(play, Go(0))
    assert err.rule == "go_while_able"
    play, _ = replay(play, parse_script("0:KD 0:JD"))
    assert play.hand_over and play.scores == (1, 5)  # 20, last card to seat 0


# -- rule_on_go -------------------------------------------------------------------


@pytest.mark.parametrize("count, held, tournament, legal, playable, penalty", [
    (25, "7H KS", False, True, "", 0),
    (25, "6H AS KS", True, False, "6H AS", 4),
    (25, "6H AS KS", False, False, "6H AS", 0),   # rejected, no penalty
    (30, "AS", False, False, "AS", 0),            # exactly 31 fits
    (30, "2S KD", True, True, "", 0),
    (21, "KS", False, False, "KS", 0),            # 31 exactly
    (22, "KS QS JS TS", True, True, "", 0),
    # (0, held, tournament=True) is left out on purpose: rule_on_go answers a
    # renege penalty of 2 a card, while Play (since 6e476c9) refuses a go at an
    # empty count outright -- reported to the core's owner as an inconsistency.
    (0, "AS", False, False, "AS", 0),
    (27, "4C 5C", True, False, "4C", 2),
])
def test_rule_on_go(count, held, tournament, legal, playable, penalty):
    ruling = rule_on_go(count, cards(held), tournament=tournament)
    assert ruling == GoRuling(legal=legal, count=count, playable=tuple(cards(playable)),
                              penalty=penalty)


@pytest.mark.parametrize("count, held", [(31, "KS"), (-1, "KS"), (40, "KS"), (10, ""),
                                         (10, "AS 2S 3S 4S 5S")])
def test_rule_on_go_malformed(count, held):
    with pytest.raises(MalformedError):
        rule_on_go(count, cards(held))


def test_rule_on_go_duplicate_card():
    with pytest.raises(DuplicateCardError):
        rule_on_go(20, cards("KS KS"))


def test_rule_on_go_agrees_with_the_play():
    hands = [cards("KC KD 5D 3S"), cards("QH 6H AS KS")]
    play, _ = replay(Play.start(2, 0, hands=hands), parse_script("0:KC 1:QH 0:5D"))
    # count 25; seat 1 holds 6H AS KS: 6H and AS fit, so a go is refused
    assert play.count == 25 and play.held[1] == tuple(cards("6H AS KS"))
    ruling = rule_on_go(play.count, play.held[1])
    assert ruling == GoRuling(legal=False, count=25, playable=tuple(cards("6H AS")), penalty=0)
    assert play.can(Go(1)) is False
    assert play.legal_actions() == [PlayCard(1, C("6H")), PlayCard(1, C("AS"))]


# -- peg_scores directly ------------------------------------------------------------


@pytest.mark.parametrize("seq, expected", [
    ("4S 6H 5D", {("fifteen", 2), ("run", 3)}),
    ("6H 7D 7C 8S", set()),
    ("3H 4D 3C 5S", {("fifteen", 2), ("run", 3)}),
    ("JS QH KD AC", {("thirty_one", 2)}),
    ("KS QH", set()),
    ("7S 2H 2D 2C 2S", {("double_pair_royal", 12), ("fifteen", 2)}),
    ("AS 2S 3S 4S 5S 6S 7S", {("run", 7)}),
    ("5S", set()),
    ("5S TS", {("fifteen", 2)}),
])
def test_peg_scores(seq, expected):
    got = peg_scores(cards(seq), 3)
    assert {(s.kind, s.points) for s in got} == expected
    assert len(got) == len(expected)
    assert all(isinstance(s, Score) and s.seat == 3 for s in got)


def test_peg_scores_never_scores_go():
    assert peg_scores(cards("KS QS 9S"), 0) == []  # 29, no go point here


def test_errors_are_value_errors():
    assert issubclass(IllegalError, CribbageError) and issubclass(IllegalError, ValueError)


# -- the whole hand, and a count from its cards ---------------------------------

def test_check_complete_names_what_each_seat_still_holds():
    play = Play.start(2, 1, [cards("5H 6H 7H 8H"), cards("5S 6S 7S 8S")])
    play, _ = play.apply(PlayCard(1, Card.parse("5S")))
    with pytest.raises(IllegalError) as err:
        play.check_complete()
    assert err.value.rule == "hand_not_complete"
    assert "seat 0 still holds 4, seat 1 still holds 3" in str(err.value)
    assert err.value.field == "plays"


def test_check_complete_passes_once_every_card_is_laid():
    play = Play.start(2, 1, [cards("AH 2H 3H 4H"), cards("AS 2S 3S 4S")])
    for name in "AS AH 2S 2H 3S 3H 4S 4H".split():
        play, _ = play.apply(PlayCard(play.turn, Card.parse(name)))
    play.check_complete()  # raises if not
    assert play.hand_over


@pytest.mark.parametrize("names, count", [("", 0), ("KH QS", 20), ("KH QS JD", 30)])
def test_count_of_adds_the_values(names, count):
    assert count_of(cards(names)) == count


def test_count_of_refuses_a_count_already_over():
    with pytest.raises(MalformedError) as err:
        count_of(cards("KH QS JD AC"))
    assert err.value.field == "count_cards" and "30 at most, not 31" in str(err.value)
