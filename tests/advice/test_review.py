"""The review of a game (service/advice/review.py) and the luck of the cards (service/advice/luck.py).

Expectations come from references written here, differently: the end of a play
searched exhaustively over every hand the other seat may hold (the rules of the
play written again below), a famous hand's count, the arithmetic of muggins, and
the summaries added up from the decisions.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from functools import lru_cache
from itertools import combinations

import pytest

from service.advice import bot
from service.advice.luck import AVERAGE_BEST_DISCARD, MODES, average_best_discard, cut_luck
from service.advice.review import (CATEGORIES, THRESHOLDS, category, decision_values, record_steps, review_record,
                                   review_state, review_steps)
from service.core.cards import CARDS, Card
from service.core.engine import kernel
from service.core.errors import MalformedError
from service.core.game.hidden import UNIFORM
from service.core.game import (Count, Go, PlayCard, apply_action, legal, new_game, notation, parse_action,
                               replay_record)
from service.core.options import GameOptions

GAME_ID = "0" * 32


def steps_of(lines: list[str], options: GameOptions = GameOptions()):
    return record_steps(options, 0, GAME_ID, [parse_action(x) for x in lines])


def decision(review, index):
    (d,) = [d for d in review.decisions if d.index == index]
    return d


# -- a blunder: a 5 making the count 21 when a safe card was held ----------------------------------

BLUNDER = ["deal 0 6S5HAC9DKCQD.7C3D8HTSJH4C/", "discard 0 KCQD", "discard 1 JH4C", "cut 1 2D",
           "play 1 7C", "play 0 6S", "play 1 3D", "play 0 5H"]
"""The dealer (seat 0) holds 5H, AC and 9D at a count of 16 (7C 6S 3D) and plays the 5: any ten-card
the pone holds makes 31."""

_VALUE = {r: min(r, 10) for r in range(1, 14)}


def _pegged(seq: tuple[int, ...], count: int) -> int:
    """The points of the last card of ``seq`` (ranks since the count began), written from the rules:
    fifteen and thirty-one 2, the pair, pair royal and double pair royal 2, 6, 12, the longest run
    of 3 or more among the last cards, whatever their order."""
    points = 2 if count in (15, 31) else 0
    same = 1
    while same < len(seq) and seq[-1 - same] == seq[-1]:
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for n in range(len(seq), 2, -1):
        last = sorted(seq[-n:])
        if all(b - a == 1 for a, b in zip(last, last[1:])):
            points += n
            break
    return points


@lru_cache(maxsize=None)
def _rest(hands: tuple[tuple[int, ...], tuple[int, ...]], turn: int, count: int, seq: tuple[int, ...],
          last: int) -> tuple[int, int]:
    """Each seat's points from here to the end of a 2-player play, both hands known, each seat
    playing to its points less the other's (the go and the last card written again)."""
    fits = sorted({r for r in hands[turn] if count + _VALUE[r] <= 31})
    if not fits:
        other = 1 - turn
        if any(count + _VALUE[r] <= 31 for r in hands[other]):
            return _rest(hands, other, count, seq, last)  # a go: the other plays on
        go = [0, 0]
        go[last] += 1  # the go (or the last card)
        if not hands[0] and not hands[1]:
            return go[0], go[1]
        after = _rest(hands, 1 - last, 0, (), last)
        return go[0] + after[0], go[1] + after[1]
    best: tuple[int, int] | None = None
    for r in fits:
        left = list(hands[turn])
        left.remove(r)
        held = (tuple(left), hands[1]) if turn == 0 else (hands[0], tuple(left))
        c = count + _VALUE[r]
        now = [0, 0]
        now[turn] += _pegged(seq + (r,), c)
        if c == 31:
            after = (0, 0) if not held[0] and not held[1] else _rest(held, 1 - turn, 0, (), turn)
        elif not held[0] and not held[1]:
            now[turn] += 1  # the last card
            after = (0, 0)
        else:
            after = _rest(held, 1 - turn, c, seq + (r,), turn)
        total = (now[0] + after[0], now[1] + after[1])
        if best is None or total[turn] - total[1 - turn] > best[turn] - best[1 - turn]:
            best = total
    assert best is not None
    return best


def _expected_net(card: str, held: str = "5H AC 9D", seen: str = "6S 5H AC 9D KC QD 2D 7C 3D",
                  seq: tuple[int, ...] = (7, 6, 3), pone_holds: int = 2) -> float:
    """The dealer's net points from laying ``card`` (of the cards it ``held``) on the count of ``seq``,
    over every hand of ``pone_holds`` cards the pone may hold (each equally likely: the cards the dealer
    has not ``seen``)."""
    unseen = [c for c in CARDS if c not in {Card.parse(x) for x in seen.split()}]
    rank = {c: kernel.RANK[c] for c in CARDS}
    mine = [rank[Card.parse(c)] for c in held.split() if c != card]
    r = rank[Card.parse(card)]
    count = sum(_VALUE[x] for x in seq) + _VALUE[r]
    now = _pegged(seq + (r,), count)
    total = 0.0
    hands = list(combinations(unseen, pone_holds))
    for hand in hands:
        rest = _rest((tuple(mine), tuple(rank[c] for c in hand)), 1, count, seq + (r,), 0)
        total += now + rest[0] - rest[1]
    return total / len(hands)


def test_a_five_making_21_is_flagged_with_its_cost():
    # the pone's cards dealt alike, as the reference deals them, over many worlds
    review = review_steps(GAME_ID, GameOptions(), steps_of(BLUNDER), samples=300, model=UNIFORM)
    d = decision(review, 7)
    assert (d.kind, notation(d.taken), notation(d.best)) == ("play", "play 0 5H", "play 0 9D")
    reference = {c: _expected_net(c) for c in ("5H", "AC", "9D")}
    assert max(reference, key=reference.get) == "9D"
    cost = reference["9D"] - reference["5H"]
    assert cost > 1.5  # the reference's own word: a real blunder
    # the review samples the pone's cards (300 worlds): within its sampling error (its points count the
    # rest of the deal, the show too, which is the same whatever card is played)
    assert d.loss_points == pytest.approx(cost, abs=0.6)
    assert d.category in ("bad", "very_bad")
    assert d.loss_win > 0.03
    shipped = decision(review_steps(GAME_ID, GameOptions(), steps_of(BLUNDER)), 7)  # read as strong throws
    assert shipped.category in ("bad", "very_bad") and notation(shipped.best) == "play 0 9D"


def test_a_five_onto_a_count_of_10_makes_fifteen_and_is_not_flagged():
    """A 5 laid on a count of 10 pegs fifteen two: the best play here by the exhaustive reference
    (some 1.5 points ahead of the next), and the review agrees."""
    lines = ["deal 0 6S5HAC9DKCQD.KH3D8HTSJH4C/", "discard 0 KCQD", "discard 1 JH4C", "cut 1 2D",
             "play 1 KH", "play 0 5H"]
    reference = {c: _expected_net(c, "5H 9D AC 6S", "6S 5H AC 9D KC QD 2D KH", (13,), 3)
                 for c in ("5H", "9D", "AC", "6S")}
    assert max(reference, key=reference.get) == "5H"
    assert reference["5H"] - max(v for c, v in reference.items() if c != "5H") > 1
    d = decision(review_steps(GAME_ID, GameOptions(), steps_of(lines), samples=300, model=UNIFORM), 5)
    assert (notation(d.best), d.loss_points, d.category) == ("play 0 5H", 0.0, "ok")
    assert decision(review_steps(GAME_ID, GameOptions(), steps_of(lines)), 5).category == "ok"  # as shipped
    # every other card's cost against the five, as the reference counts it (the show is the same for all)
    *_, (before, _, _, _) = steps_of(lines)
    values, worlds = decision_values(before, 0, 300, UNIFORM)
    points = {notation(a).split()[-1]: p for a, p, _ in values}
    assert worlds == 300
    for c in ("9D", "AC", "6S"):
        assert points["5H"] - points[c] == pytest.approx(reference["5H"] - reference[c], abs=0.6)


def test_the_safe_card_is_not_flagged():
    review = review_steps(GAME_ID, GameOptions(), steps_of(BLUNDER[:-1] + ["play 0 9D"]))
    d = decision(review, 7)
    assert (notation(d.best), d.loss_points, d.loss_win, d.category) == ("play 0 9D", 0.0, 0.0, "ok")


def test_a_forced_play_is_forced():
    # at 21 the pone holds 8H and TS (both fit); after its 31 the dealer holds 9D and AC
    lines = BLUNDER + ["play 1 TS", "play 0 9D", "play 1 8H", "play 0 AC"]
    review = review_steps(GAME_ID, GameOptions(), steps_of(lines))
    assert decision(review, 10).forced and decision(review, 10).category == "ok"  # the pone's last card
    assert decision(review, 11).forced  # the dealer's last card
    seat1 = review.seats[1]
    assert seat1.forced == 1 and seat1.decisions == 4  # a discard, 7C, 3D and TS (TS or 8H)


# -- claims --------------------------------------------------------------------------------------

TWENTY_NINE = ["deal 0 5H5C5SJDKCQD.7C3D8HTS2H4C/", "discard 0 KCQD", "discard 1 2H4C", "cut 1 5D",
               "play 1 7C", "play 0 5H", "play 1 3D", "play 0 5C", "play 1 8H", "go 0", "go 1",
               "play 0 5S", "play 1 TS", "play 0 JD"]
"""The dealer keeps 5H 5C 5S JD and the starter is the 5 of the jack's suit: 29, the best hand."""


@pytest.mark.parametrize("muggins, claim, loss", [
    (True, 29, 0), (True, 28, 2), (True, 20, 18),  # muggins: the opponent takes what was missed
    (False, 28, 1), (False, 0, 29),  # tournament rules: an under-claim stands, the rest is lost
])
def test_a_count_under_claim_is_flagged_with_its_cost(muggins, claim, loss):
    options = GameOptions(muggins=muggins, tournament=not muggins)
    lines = TWENTY_NINE + [f"count 1 ={_pone_show(options)}", f"count 0 ={claim}"]
    review = review_steps(GAME_ID, options, steps_of(lines, options))
    d = decision(review, len(lines) - 1)
    assert (d.kind, d.seat, notation(d.best)) == ("count", 0, "count 0 =29")
    assert d.loss_points == loss
    # its chance is the position's it reached, the same worlds for both claims: any loss of points loses
    # some of the chance, and the category is the loss's
    assert (d.loss_win > 0) == (loss > 0) and d.loss_win >= 0
    assert d.category == category(d.loss_win)
    # the dealer leads by some 35 points after its 29 in the first deal: a point is worth about 0.012 of
    # the chance there, under the doubtful threshold (0.015): one point missed is ok, two are not (before
    # this release the chance was the table's at the deal's start, 0-0, where a point weighs more)
    assert (d.category == "ok") == (loss <= 1)
    assert decision(review, len(lines) - 2).loss_points == 0  # the pone claimed its true count


def _pone_show(options: GameOptions) -> int:
    state = None
    for _, _, after, _ in steps_of(TWENTY_NINE, options):
        state = after
    c = state.position.hands[1]
    return kernel.show_total(c[0], c[1], c[2], c[3], state.position.starter, False)


def test_an_unjudged_claim_decides_nothing():
    """Without muggins or tournament rules the true count is pegged whatever is said."""
    lines = TWENTY_NINE + ["count 1", "count 0 =3"]
    review = review_steps(GAME_ID, GameOptions(), steps_of(lines))
    assert not [d for d in review.decisions if d.kind == "count"]


# -- whole games: the strong level against itself, and the summaries --------------------------------


def _bot_game(seed: str, levels: dict[int, str], **options) -> tuple[GameOptions, object, list]:
    o = GameOptions(deck="seeded", seed=seed, **options)
    state, _ = new_game(o, dealer=0, game_id=hashlib.sha256(seed.encode()).hexdigest()[:32])
    record = []
    while state.phase != "over":
        seat = state.to_act()[0]
        state, events = apply_action(state, bot.suggest(bot.seat_view(state, seat), levels[seat]).action)
        record += [line for e in events if e.type == "deal_record" for line in e.record]
    return o, state, [parse_action(x) for x in record]


BOUND_GAMES = 18
"""Games a side for the bounds below: a game's decisions are flagged together (one late game's discards
all weigh), so six games were one draw of a wide spread: in six-game batches the strong level against
itself was flagged 34, 24, 17, 17, 15 and 16 times in some 395 decisions (36 games: 123 of 2,362, 5.2 %)."""


@pytest.fixture(scope="module")
def strong_and_greedy():
    """Eighteen seeded games of the strong level against itself, and the same packs strong against greedy."""
    out = {}
    for pairing, levels in (("self", {0: "strong", 1: "strong"}), ("greedy", {0: "strong", 1: "greedy"})):
        reviews = []
        for g in range(BOUND_GAMES):
            o, final, actions = _bot_game(f"review-{g}", levels)
            reviews.append(review_record(o, 0, final.game_id, actions, final))
        out[pairing] = reviews
    return out


def _flagged(reviews, seats):
    decisions = sum(r.seats[s].decisions for r in reviews for s in seats)
    errors = sum(r.seats[s].errors for r in reviews for s in seats)
    return errors, decisions


def test_the_strong_level_against_itself_is_flagged_rarely(strong_and_greedy):
    """The strong level's plays are the pegging advisor's own best choices, its discards the discard
    advisor's (hand and crib, the play and the board left out): at most 1 in 12 is flagged (75 of 1,174
    here, 6.4 %: the review values the whole deal, the pegging too, and the chance of winning, so a
    discard that keeps a point or two less for the play, or goes for points near the end of the game, is
    doubtful or worse; 9 of 407 in six games when the review valued discards by the advisor itself), and
    at most 1 in 100 very bad (discards near the end of a game); the greedy level's, in games of the same
    packs, at least twice as often (79 of 556 here, 14.2 %)."""
    errors, decisions = _flagged(strong_and_greedy["self"], (0, 1))
    assert decisions > 300
    assert errors <= decisions / 12, (errors, decisions)
    very_bad = sum(r.seats[s].categories["very_bad"] for r in strong_and_greedy["self"] for s in (0, 1))
    assert very_bad <= decisions / 100, (very_bad, decisions)
    greedy_errors, greedy_decisions = _flagged(strong_and_greedy["greedy"], (1,))
    assert greedy_errors / greedy_decisions >= 2 * max(errors, 1) / decisions, (greedy_errors, greedy_decisions)
    strong_errors, strong_decisions = _flagged(strong_and_greedy["greedy"], (0,))
    assert strong_errors <= strong_decisions / 12


def _random_game(seed: int, options: GameOptions):
    """A game of random legal actions (claims random too), to the end."""
    rng = random.Random(seed)
    state, _ = new_game(options, dealer=0, game_id=f"{seed:032x}")
    record = []
    while state.phase != "over":
        action = rng.choice(legal(state))
        if type(action) in (Count, PlayCard, Go) and rng.random() < 0.5:
            action = dataclasses.replace(action, claim=rng.randint(0, 12))
        state, events = apply_action(state, action)
        record += [line for e in events if e.type == "deal_record" for line in e.record]
    return state, [parse_action(x) for x in record]


@pytest.mark.parametrize("seed, options", [
    (1, GameOptions(deck="seeded", seed="sum-1", target=61, muggins=True, muggins_in_play=True)),
    (2, GameOptions(deck="seeded", seed="sum-2", players=4, target=61, tournament=True)),
    # reneges valued beside the engine's plays (2 players within 60 of the target: all game long)
    (3, GameOptions(deck="seeded", seed="sum-3", target=61, tournament=True, muggins=True)),
    (4, GameOptions(deck="seeded", seed="sum-4", target=61, tournament=True)),
])
def test_the_summaries_add_up(seed, options):
    final, actions = _random_game(seed, options)
    review = review_record(options, 0, final.game_id, actions, final)
    assert {d.kind for d in review.decisions} >= {"discard", "play", "count"}
    assert len(review.deals) == final.deal
    for s in review.seats:
        mine = [d for d in review.decisions if d.seat == s.seat]
        free = [d for d in mine if not d.forced]
        assert s.decisions == len(free) and s.forced == len(mine) - len(free)
        assert sum(s.categories.values()) == s.decisions
        for c in CATEGORIES:
            assert s.categories[c] == sum(d.category == c for d in free)
        assert s.errors == s.decisions - s.categories["ok"]
        assert s.loss_points == pytest.approx(sum(d.loss_points for d in free))
        assert s.loss_win == pytest.approx(sum(d.loss_win for d in free))
        assert s.dealt_luck == pytest.approx(sum(d.dealt[s.seat] for d in review.deals))
        assert s.cut_luck == pytest.approx(sum(d.cut[s.seat] for d in review.deals))
    for d in review.decisions:
        assert d.loss_win >= 0
        # the best is the best for the game: more points for less chance of winning is a loss
        assert d.loss_points >= 0 or d.loss_win > 0
        assert d.category == ("ok" if d.forced else category(d.loss_win))
        assert 0 <= d.taken_value.win <= 1 and 0 <= d.best_value.win <= 1
    # one decision an action of the seat that decides, in the record's order
    indices = [d.index for d in review.decisions]
    assert indices == sorted(indices)


def test_categories_follow_the_thresholds():
    assert [name for name, _ in THRESHOLDS] == ["very_bad", "bad", "doubtful"]
    assert category(0.0) == category(0.0149) == "ok"
    assert category(0.015) == category(0.0299) == "doubtful"
    assert category(0.03) == category(0.0599) == "bad"
    assert category(0.06) == category(1.0) == "very_bad"


# -- finished games only -------------------------------------------------------------------------


def test_an_unfinished_game_is_refused():
    options = GameOptions()
    actions = [parse_action(x) for x in BLUNDER]
    final, _ = replay_record(options, 0, GAME_ID, actions)
    with pytest.raises(MalformedError, match="once it is over"):
        review_record(options, 0, GAME_ID, actions, final)
    with pytest.raises(MalformedError, match="once it is over"):
        review_state(final)


def test_a_finished_state_reviews_its_last_deal():
    o, final, actions = _bot_game("review-state", {0: "strong", 1: "greedy"}, target=61)
    whole = review_record(o, 0, final.game_id, actions, final)
    last = review_state(final)
    assert not last.whole_game and whole.whole_game
    assert {d.deal for d in last.decisions} == {final.deal}
    # the same decisions as the whole game's review of that deal: the same seeds, the same view
    assert last.decisions == tuple(d for d in whole.decisions if d.deal == final.deal)
    assert last.deals == whole.deals[-1:]


# -- luck ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode, players, dealt", MODES)
def test_the_average_deal_is_what_the_table_ships(mode, players, dealt):
    """The shipped averages (10,000 deals) against 400 other deals: within 4 standard errors."""
    for own in (True, False):
        mean, err = average_best_discard(players, dealt, own, deals=400, seed="test")
        shipped, shipped_err = AVERAGE_BEST_DISCARD[mode, own]
        assert abs(mean - shipped) <= 4 * (err ** 2 + shipped_err ** 2) ** 0.5, (mode, own, mean, shipped)


def test_the_cut_is_no_luck_on_average():
    """Over every starter that could be turned, the cut's luck averages 0 (hands, the crib, his heels)."""
    rng = random.Random(7)
    for _ in range(5):
        cards = rng.sample(CARDS, 12)
        hand, crib = cards[:4], cards[4:8]
        starters = [c for c in CARDS if c not in cards]
        for counted, heels in ((([hand, False],), False), (([hand, False], [crib, True]), True)):
            mean = sum(cut_luck(counted, s, cards, heels) for s in starters) / len(starters)
            assert mean == pytest.approx(0, abs=1e-9)
    # 5H 5C 5S JD: the fourth 5 turned (29, the best hand) against a 2 (14: four fifteens, a pair royal)
    hand = [Card.parse(c) for c in ("5H", "5C", "5S", "JD")]
    five, two = (cut_luck([(hand, False)], Card.parse(s), hand, False) for s in ("5D", "2C"))
    assert five > 0 > two
    assert five - two == pytest.approx(29 - 14)


# -- the review and /v1/odds are one valuation; blunders flagged at every table ----------------------------


def test_a_decision_s_chance_is_what_the_odds_answer(strong_and_greedy):
    """For the action the strong level takes, a decision's ``win`` is what POST /v1/odds answers for that
    seat at that moment with as many worlds (and seed 0): one evaluation over one model."""
    from service.advice.odds_deal import estimate_now
    o, final, actions = _bot_game("review-0", {0: "strong", 1: "strong"})
    steps = list(record_steps(o, 0, final.game_id, actions))
    review = review_steps(final.game_id, o, iter(steps))
    checked = {"play": 0, "discard": 0}
    for d in review.decisions:
        if d.forced or d.kind not in checked or checked[d.kind] >= 12:
            continue
        before = next(s for s, *_ in steps if s.seq == d.index)
        odds = estimate_now(before, d.seat, d.worlds, 0, budget=1e9)
        assert odds.samples == d.worlds
        assert odds.chances[o.side_of(d.seat)] == pytest.approx(d.taken_value.win, abs=1e-12), (d.kind, d.index)
        checked[d.kind] += 1
    assert checked == {"play": 12, "discard": 12}


def _scripted(players: int, hands: list[str], starter: str, discards: list[str], plays: list[str]):
    """A client-deck first deal, seat 0 dealing: the steps of its deal, discards, cut and plays."""
    from service.core.cards import parse_cards
    from service.core.game import Cut, Deal, Discard
    o = GameOptions(players=players, deck="client")
    dealt = tuple(parse_cards(h.split()) for h in hands)
    crib = parse_cards(["QH"]) if players == 3 else ()
    actions = [Deal(0, dealt, crib)]
    actions += [Discard(s, parse_cards(d.split())) for s, d in enumerate(discards)]
    actions.append(Cut(1, Card.parse(starter)))
    for p in plays:
        seat, card = p.split()
        actions.append(PlayCard(int(seat), Card.parse(card)))
    return o, list(record_steps(o, 0, GAME_ID, actions))


# Seat 1 (the pone: the crib is the other side's) holds 5H 5C JD KS, ten points, and two odd cards.
BLUNDERS = {
    2: (["2D 3S 8C 9H QC AD", "5H 5C JD KS 2C 8S"], ["QC AD", "5H 5C"], "4H"),
    3: (["2D 3S 8C 9H QC", "5H 5C JD KS 2C", "4S 6C 7H TD AC"], ["QC", "5H", "AC"], "4H"),
    4: (["2D 3S 8C 9H QC", "5H 5C JD KS 2C", "4S 6C 7H TD AC", "3D 6D 8D 9D KH"], ["QC", "5H", "AC", "KH"],
        "4H"),
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fives_thrown_into_the_other_side_s_crib_are_flagged(players):
    """Ten points kept, or a five (two with two players) thrown into the other side's crib and a hand of
    little: a very bad discard, at every table."""
    hands, discards, starter = BLUNDERS[players]
    _, steps = _scripted(players, hands, starter, discards, [])
    review = review_steps(GAME_ID, GameOptions(players=players, deck="client"), iter(steps))
    (d,) = [d for d in review.decisions if d.kind == "discard" and d.seat == 1]
    assert d.category == "very_bad", d
    assert {c.rank for c in d.best.cards}.isdisjoint({5, 11, 13}) and d.loss_points > 5


PAIR_ROYAL = {  # (hands as dealt, discards last; the discards; the plays; the seat that passes the pair royal)
    2: (["7D KC 2H 3C QC AD", "7S 7H 9H 8C 5S 6S"], ["QC AD", "5S 6S"], ["1 7S", "0 7D", "1 9H"], 1),
    3: (["7D KC 2H 3C QC", "7S 4D 9H 8C 5S", "7H 2S 3H 4C 6S"], ["QC", "5S", "6S"], ["1 7S", "2 7H", "0 KC"], 0),
    4: (["9C 4S 5D 6D AH", "7S 4D 9H 8C 5S", "7H 2S 3H 4C 6S", "7D KC 2H 3C QC"], ["AH", "5S", "6S", "QC"],
        ["1 7S", "2 7H", "3 KC"], 3),
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_pair_royal_passed_up_is_flagged(players):
    """Two sevens on the count, the seat to play holds the third and lays a card that pegs nothing instead of
    the pair royal (6 points): flagged, the seven the best, at every table."""
    hands, discards, plays, seat = PAIR_ROYAL[players]
    _, steps = _scripted(players, hands, "JH", discards, plays)
    review = review_steps(GAME_ID, GameOptions(players=players, deck="client"), iter(steps))
    (d,) = [d for d in review.decisions if d.kind == "play" and d.seat == seat and d.index == len(steps) - 1]
    assert notation(d.best).endswith("7H" if players == 2 else "7D"), d
    # the pair royal pegs 6; with 3 and 4 at the table the seats after may pair on (a double pair royal)
    assert d.category in ("bad", "very_bad") and d.loss_points > (4 if players == 2 else 2), d
