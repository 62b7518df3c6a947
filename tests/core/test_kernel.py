"""The rules kernel, interpreted and compiled, against the reference rules of the tests.

Every test here runs on both kernels: the interpreted one (the package ``service/core/kernel/``,
the reference) and the compiled one (the installed ``cribbage_kernel`` when it was
built from this package, else one built by mypyc into a temporary directory for
this run; skipped, with the reason in the summary, when none can be built).  The
expectations come from the references written from RULES.md in
``tests/reference/show.py`` (the show: subsets by bit mask, pairs by rank,
runs by streak) and ``tests/reference/play.py`` (what a card pegs from the
count's tail; the play refereed seat by seat), never from the kernel itself:
exhaustively where small, on hypothesis's random deals elsewhere.
"""

from __future__ import annotations

import copy
import hashlib
import random
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from itertools import combinations_with_replacement, product
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference.cards import cards_for
from reference.play import Referee, rank_sequences, ref_peg
from reference.show import reference_rank_points, reference_total_fast

from service.core import engine, kernel_source
from service.core import kernel as interpreted
from service.core.cards import CARDS, Card
from service.core.play import Go, PlayCard

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TEST_NAME = "kernel_under_test"


def _build_compiled() -> ModuleType:
    """The compiled kernel of this kernel package: the installed one when current, else one built here."""
    module, which, why = engine.choose()
    if which == "compiled":
        return module
    source = kernel_source.compiled_source()  # the kernel package as the install compiles it: one module
    where = Path(tempfile.gettempdir()) / "cribbage-kernel-test" / hashlib.sha256(source).hexdigest()[:16]
    built = list(where.glob(f"{TEST_NAME}.*.so"))
    if not built:
        if importlib.util.find_spec("mypyc") is None or shutil.which("cc") is None and shutil.which("gcc") is None:
            pytest.skip(f"no compiled kernel: {why}; and mypyc or a C compiler is missing to build one here")
        where.mkdir(parents=True, exist_ok=True)
        (where / f"{TEST_NAME}.py").write_bytes(source)
        done = subprocess.run([sys.executable, "-m", "mypyc", f"{TEST_NAME}.py"], cwd=where, capture_output=True,
                              text=True, timeout=900)
        built = list(where.glob(f"{TEST_NAME}.*.so"))
        if done.returncode or not built:
            pytest.fail(f"mypyc could not compile the kernel:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    spec = importlib.util.spec_from_file_location(TEST_NAME, built[0])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def compiled() -> ModuleType:
    return _build_compiled()


@pytest.fixture(scope="module", params=["interpreted", "compiled"])
def k(request: pytest.FixtureRequest) -> ModuleType:
    if request.param == "interpreted":
        return interpreted
    module = request.getfixturevalue("compiled")
    assert str(module.__file__).endswith(".so"), module  # really the extension, not the package again
    return module


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


# -- what a card pegs -----------------------------------------------------------------


def kernel_peg(k: ModuleType, count_cards: list[Card]) -> Counter:
    """What the last of ``count_cards`` pegs by the kernel, as the reference writes it."""
    count = sum(c.value for c in count_cards)
    points, same, run = k.pegs(tuple(count_cards), count)
    out: Counter = Counter()
    if points:
        out[("fifteen" if count == 15 else "thirty_one", points, tuple(count_cards))] += 1
    if same > 1:
        kind = {2: "pair", 3: "pair_royal", 4: "double_pair_royal"}[same]
        out[(kind, k.PAIR_POINTS[same], tuple(count_cards[-same:]))] += 1
    if run:
        out[("run", run, tuple(count_cards[-run:]))] += 1
    return out


def test_every_count_of_up_to_four_cards_pegs_as_the_reference(k: ModuleType) -> None:
    n = 0
    for ranks in rank_sequences(4):
        count_cards = cards_for(ranks)
        assert kernel_peg(k, count_cards) == ref_peg(count_cards), ranks
        assert k.peg_points(k.rank_sequence(tuple(count_cards[:-1])), ranks[-1], sum(c.value for c in count_cards)) \
            == sum(p * m for (_, p, _), m in ref_peg(count_cards).items())
        n += 1
    assert n > 20_000


@SETTINGS
@given(st.lists(st.integers(1, 13), min_size=1, max_size=13), st.lists(st.integers(1, 13), max_size=6))
def test_what_a_count_keeps_scores_as_the_whole_count(k: ModuleType, ranks: list[int], later: list[int]) -> None:
    """Every later card pegs the same on the kept tail as on the whole count (its reason to exist)."""
    whole = 0
    for r in ranks:
        whole = (whole << 4) | r
    _, _, kept = k.lay(whole >> 4, ranks[-1])
    nibbles = (kept.bit_length() + 3) // 4  # ranks are never 0: the top nibble of a tail is a card
    assert kept == whole & ((1 << 4 * nibbles) - 1)  # a tail of the count
    for r in later:
        same_w, run_w, whole = k.lay(whole, r)
        same_k, run_k, kept = k.lay(kept, r)
        assert (same_w, run_w) == (same_k, run_k)


@SETTINGS
@given(st.integers(0, 31), st.sampled_from(CARDS))
def test_what_fits(k: ModuleType, count: int, card: Card) -> None:
    assert k.FITS[count][card] == (count + card.value <= 31)
    assert k.FITS_RANK[count][card.rank] == (count + card.value <= 31)
    assert k.room(count) == 31 - count


def test_the_go_and_the_renege(k: ModuleType) -> None:
    for count in range(31):
        for able in range(5):
            for tournament in (False, True):
                assert k.may_go(count, able, tournament) == (count > 0 and (able == 0 or tournament))
        assert k.playable_unseen(count, 3) == (3 if count <= 21 else 0)
    assert [k.renege_points(n) for n in range(5)] == [0, 2, 4, 6, 8]


# -- the play of a deal ------------------------------------------------------------------


class KernelTable:
    """A deal played on the kernel's primitives alone (plain ints), the way the search plays it."""

    def __init__(self, k: ModuleType, players: int, pone: int, hands: list[list[Card]], tournament: bool) -> None:
        self.k, self.players, self.tournament = k, players, tournament
        self.hands = [list(h) for h in hands]
        self.turn, self.count, self.count_cards, self.passed, self.last = pone, 0, (), 0, -1
        self.scores = [0] * players

    def legal(self) -> set:
        fit = self.k.FITS[self.count]
        plays = {PlayCard(self.turn, c) for c in self.hands[self.turn] if fit[c]}
        if self.k.may_go(self.count, len(plays), self.tournament):
            plays.add(Go(self.turn))
        return plays

    def step(self, action: PlayCard | Go) -> Counter:
        k, seat, got = self.k, action.seat, Counter()
        if type(action) is PlayCard:
            self.hands[seat].remove(action.card)
            self.count += action.card.value
            self.count_cards += (action.card,)
            for (kind, pts, _), n in kernel_peg(k, list(self.count_cards)).items():
                got[(seat, kind, pts)] += n
            self.last = seat
        else:
            able = sum(1 for c in self.hands[seat] if k.FITS[self.count][c])
            if able:
                got[((seat + 1) % self.players, "renege", k.renege_points(able))] += 1
            self.passed |= 1 << seat
        holding = sum(1 << s for s in range(self.players) if self.hands[s])
        turn, reset, go_to = k.after(self.players, seat, self.count, holding, self.passed, self.last)
        if go_to >= 0:
            got[(go_to, "go" if holding else "last_card", k.GO_POINTS)] += 1
        if reset:
            self.count, self.count_cards, self.passed, self.last = 0, (), 0, -1
        self.turn = turn
        for (s, _, pts), n in got.items():
            self.scores[s] += pts * n
        return got


@st.composite
def deals(draw: st.DrawFn) -> tuple[int, int, list[list[Card]], bool]:
    players = draw(st.integers(2, 4))
    deck = draw(st.permutations(CARDS))
    return players, draw(st.integers(0, players - 1)), [list(deck[4 * i:4 * i + 4]) for i in range(players)], \
        draw(st.booleans())


@SETTINGS
@given(deals(), st.data())
def test_a_deal_played_on_the_kernel_is_the_referees(k: ModuleType, deal, data: st.DataObject) -> None:
    players, pone, hands, tournament = deal
    table, referee = KernelTable(k, players, pone, hands, tournament), Referee(players, pone, hands, tournament)
    while referee.turn is not None:
        assert table.turn == referee.turn
        legal = table.legal()
        assert legal == referee.legal()
        action = data.draw(st.sampled_from(sorted(legal, key=str)))
        assert table.step(action) == referee.step(action), action
        assert table.scores == referee.scores
    assert table.turn == -1


# -- the search -------------------------------------------------------------------------


def _near_the_end(ref: Referee, data: st.DataObject) -> Referee:
    """The referee's play advanced at random until few cards are left (a search small enough to check
    against every line)."""
    players = ref.n
    while ref.turn is not None and sum(len(h) for h in ref.hands) > 2 * players + (players == 2) * 2:
        ref.step(data.draw(st.sampled_from(sorted(ref.legal(), key=str))))
    return ref


def referee_minimax(ref: Referee, side_of, sides: int) -> tuple[int, ...]:
    """Every line through the referee (no memo, every card its own move): the points each side pegs from
    here, each seat maximising its side's net, then its own, then the points themselves."""
    if ref.turn is None:
        return (0,) * sides
    best = None
    for action in sorted(ref.legal(), key=str):
        if type(action) is Go and ref.fits(action.seat):
            continue  # the search never reneges
        nxt = copy.deepcopy(ref)
        got = nxt.step(action)
        v = list(referee_minimax(nxt, side_of, sides))
        for (s, _, pts), n in got.items():
            v[side_of(s)] += pts * n
        side = side_of(ref.turn)
        key = (2 * v[side] - sum(v), v[side], tuple(v))
        if best is None or key > best:
            best = key
    assert best is not None
    return best[2]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals(), st.data())
def test_the_search_is_a_minimax_of_the_referees_play(k: ModuleType, deal, data: st.DataObject) -> None:
    players, pone, hands, _ = deal
    ref = _near_the_end(Referee(players, pone, hands), data)
    if ref.turn is None:
        return
    side_of = (lambda s: s % 2) if players == 4 else (lambda s: s)
    sides = 2 if players == 4 else players
    search = k.Search(players, tuple(side_of(s) for s in range(players)))
    hands_packed = 0
    for seat in reversed(range(players)):
        hands_packed = (hands_packed << k.HAND_BITS) | k.pack_hand(tuple(ref.hands[seat]))
    seq = k.rank_sequence(tuple(ref.count))
    passed = sum(1 << s for s in ref.passed)
    last = -1 if ref.last is None else ref.last
    value = search.value(hands_packed, ref.turn, sum(c.value for c in ref.count), seq, passed, last)
    assert search.points(value) == referee_minimax(ref, side_of, sides)
    lines = dict(search.lines(hands_packed, ref.turn, sum(c.value for c in ref.count), seq, passed, last))
    assert max(lines.values(), key=lambda v: _order(search, v, side_of(ref.turn))) == value


@SETTINGS
@given(deals(), st.lists(st.integers(1, 40), min_size=2, max_size=2), st.integers(-1, 3))
def test_the_greedy_play_is_the_referees_greediest_line(k: ModuleType, deal, need: list[int], lead: int) -> None:
    """Every seat lays the card that pegs most at once as the referee counts it (the higher rank on a tie;
    go when none fits): each side's points, and the first side to reach what it needs.  With a first
    move given (the pone leads its ``lead``-th card by rank; -1: none), that card is laid and the rest is greedy."""
    players, pone, hands, _ = deal
    side_of = (lambda s: s % 2) if players == 4 else (lambda s: s)
    sides = 2 if players == 4 else players
    needs = tuple((need * 2)[:sides])
    led = sorted(hands[pone], key=lambda c: (c.rank, str(c)))[lead] if lead >= 0 else None
    led_rank = led.rank if led is not None else -1
    ref = Referee(players, pone, hands)
    pts, first = [0] * sides, -1
    while ref.turn is not None:
        fits = ref.fits(ref.turn)
        if led is not None:
            fits, led = [led], None
        if fits:
            def now(card: Card) -> int:
                return sum(p * n for (_, p, _), n in ref_peg(ref.count + [card]).items())
            best = max(fits, key=lambda c: (now(c), c.rank))
            action: PlayCard | Go = PlayCard(ref.turn, best)
        else:
            action = Go(ref.turn)
        for (seat, _, got), n in ref.step(action).items():
            side = side_of(seat)
            pts[side] += got * n
            if first < 0 and got and pts[side] >= needs[side]:
                first = side
    packed = 0
    for seat in reversed(range(players)):
        packed = (packed << k.HAND_BITS) | k.pack_hand(tuple(hands[seat]))
    assert k.greedy_play(players, tuple(side_of(s) for s in range(players)), packed, pone, 0, 0, 0, -1,
                         needs, led_rank) == (tuple(pts), first)


def _order(search, value: int, side: int) -> tuple[int, int, int]:
    points = search.points(value)
    return 2 * points[side] - sum(points), points[side], value


# -- the show ----------------------------------------------------------------------------


def test_every_rank_multiset_scores_as_the_reference(k: ModuleType) -> None:
    n = 0
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if ranks[0] == ranks[4]:
            continue
        n += 1
        assert k.RANK_POINTS[k.rank_key(ranks)] == reference_rank_points(ranks), ranks
        a, b, c, d, s = cards_for(ranks)
        assert k.rank_points(a, b, c, d, s) == reference_rank_points(ranks)
    assert n == len(k.FIVE_RANKS) == len(k.RANK_POINTS) == 6175


def test_every_suit_pattern_scores_as_the_reference(k: ModuleType) -> None:
    """The flush and nobs depend on the suits and on which cards are jacks: every suit of each of the
    five cards, each card a jack or not (ranks otherwise distinct, so no two cards coincide), hand and crib."""
    n = 0
    for suits in product(range(4), repeat=5):
        for jacks in range(32):
            ranks = [11 if jacks >> i & 1 else 2 + i for i in range(5)]
            five = [Card.from_rank_suit(r, s) for r, s in zip(ranks, suits)]
            if len(set(five)) < 5:
                continue
            hand, starter = tuple(five[:4]), five[4]
            for crib in (False, True):
                assert k.show_total(*hand, starter, crib) == reference_total_fast(hand, starter, crib)
                n += 1
    # jacks of distinct suits: sum over j jacks of C(5, j) 4^(5-j) 4!/(4-j)!, hand and crib
    assert n == 2 * (1024 + 5 * 256 * 4 + 10 * 64 * 12 + 10 * 16 * 24 + 5 * 4 * 24)


@SETTINGS
@given(st.lists(st.sampled_from(CARDS), min_size=5, max_size=5, unique=True), st.booleans())
def test_a_random_show_totals_as_the_reference(k: ModuleType, five: list[Card], crib: bool) -> None:
    hand, starter = tuple(five[:4]), five[4]
    assert k.show_total(*hand, starter, crib) == reference_total_fast(hand, starter, crib)
    assert k.heels(starter) == (2 if starter.rank == 11 else 0)


@SETTINGS
@given(st.lists(st.sampled_from(CARDS), min_size=4, max_size=4, unique=True))
def test_the_starters_tally_is_every_starter_counted(k: ModuleType, keep: list[Card]) -> None:
    starters = tuple(c for c in CARDS if c not in keep)
    want = Counter(reference_total_fast(tuple(keep), s, False) for s in starters)
    assert k.starter_tally(*keep, starters) == [want.get(t, 0) for t in range(30)]


@SETTINGS
@given(st.lists(st.sampled_from(CARDS), min_size=4, max_size=4, unique=True), st.sets(st.sampled_from(CARDS)))
def test_the_starters_total_is_every_starter_counted(k: ModuleType, keep: list[Card], gone: set[Card]) -> None:
    """Starters given by their rank and suit counts: any set of the cards not in the hand."""
    starters = [c for c in CARDS if c not in keep and c not in gone]
    ranks, suits = [0] * 14, [0] * 4
    for c in starters:
        ranks[c.rank] += 1
        suits[c & 3] += 1
    assert k.starter_total(*keep, tuple(ranks), tuple(suits)) == sum(
        reference_total_fast(tuple(keep), s, False) for s in starters)


def test_weighted_rank_points_is_the_sum_it_names(k: ModuleType) -> None:
    thrown = k.rank_key((5, 5))
    keys = tuple(k.rank_key(r) for r in ((1, 2, 3), (10, 11, 12), (5, 6, 7)))
    weights = (3, 1, 2)
    assert k.weighted_rank_points(thrown, keys, weights) == sum(
        w * reference_rank_points(tuple(sorted((5, 5) + r)))
        for w, r in zip(weights, ((1, 2, 3), (10, 11, 12), (5, 6, 7))))


def test_the_compiled_kernel_is_built_from_this_source(compiled: ModuleType) -> None:
    """An installed compiled kernel records the SHA-256 of the kernel package it was built from (one built
    here for the test is this very source); the engine runs it only when that matches.  Every public name
    of the package is the compiled module's."""
    assert compiled.SOURCE_SHA256 == engine.source_sha256()
    assert set(interpreted.__all__) <= set(dir(compiled))
    assert compiled.RANK == interpreted.RANK and compiled.FITS == interpreted.FITS


def test_a_stale_compiled_kernel_is_never_run(monkeypatch: pytest.MonkeyPatch) -> None:
    stale = ModuleType(engine.COMPILED_NAME)
    stale.SOURCE_SHA256 = "0" * 64  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, engine.COMPILED_NAME, stale)
    module, which, why = engine.choose()
    assert module is interpreted and which == "interpreted" and "another kernel package" in why
    with pytest.raises(ImportError, match="another kernel package"):
        engine.choose("compiled")
    assert engine.choose("interpreted")[:2] == (interpreted, "interpreted")
    monkeypatch.setitem(sys.modules, engine.COMPILED_NAME, None)  # not installed at all
    module, which, why = engine.choose()
    assert module is interpreted and "no compiled kernel" in why


# -- the play searched for the game --------------------------------------------------------


def referee_win(ref: Referee, side_of, side: int, need: tuple[int, int], terminal, pegged: tuple[int, int]) -> float:
    """Every line through the referee, for the game: a side that reaches what it ``need``s wins at once
    (1.0 for ``side``, 0.0 for the other), a play over is worth ``terminal(p0, p1)``; ``side``'s seats
    maximise, the others minimise."""
    if ref.turn is None:
        return terminal(*pegged)
    values = [referee_line(ref, action, side_of, side, need, terminal, pegged)
              for action in sorted(ref.legal(), key=str)
              if not (type(action) is Go and ref.fits(action.seat))]  # the search never reneges
    return max(values) if side_of(ref.turn) == side else min(values)


def referee_line(ref: Referee, action, side_of, side: int, need: tuple[int, int], terminal,
                 pegged: tuple[int, int]) -> float:
    """:func:`referee_win` of the line ``action`` begins."""
    nxt = copy.deepcopy(ref)
    got = nxt.step(action)
    p = list(pegged)
    won = None
    for (s, _, pts), n in got.items():  # one side scores in a step: the mover, or the last to lay
        p[side_of(s)] += pts * n
        if p[side_of(s)] >= need[side_of(s)]:
            won = side_of(s)
    if won is not None:
        return 1.0 if won == side else 0.0
    return referee_win(nxt, side_of, side, need, terminal, (p[0], p[1]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals(), st.data(), st.integers(1, 24), st.integers(1, 24), st.integers(0, 1))
def test_the_win_search_is_a_minimax_of_the_referees_play(k: ModuleType, deal, data: st.DataObject, need0: int,
                                                         need1: int, side: int) -> None:
    players, pone, hands, _ = deal
    if players == 3:
        players, hands = 2, hands[:2]
        pone %= 2
    ref = _near_the_end(Referee(players, pone, hands), data)
    if ref.turn is None:
        return
    side_of = (lambda s: s % 2) if players == 4 else (lambda s: s)

    def terminal(p0: int, p1: int) -> float:  # any values will do: the search must carry them unchanged
        return ((7 * p0 + 13 * p1) % 17) / 17

    search = k.WinSearch(players, tuple(side_of(s) for s in range(players)), side, need0, need1, terminal)
    hands_packed = 0
    for seat in reversed(range(players)):
        hands_packed = (hands_packed << k.HAND_BITS) | k.pack_hand(tuple(ref.hands[seat]))
    position = (ref.turn, sum(c.value for c in ref.count), k.rank_sequence(tuple(ref.count)),
                sum(1 << s for s in ref.passed), -1 if ref.last is None else ref.last)
    expected = referee_win(ref, side_of, side, (need0, need1), terminal, (0, 0))
    assert search.value(hands_packed, *position, 0, 0) == pytest.approx(expected)
    lines = dict(search.lines(hands_packed, *position, 0, 0))
    for action in ref.legal():
        if type(action) is Go and ref.fits(action.seat):
            continue
        want = referee_line(ref, action, side_of, side, (need0, need1), terminal, (0, 0))
        assert lines[action.card.rank if type(action) is PlayCard else 0] == pytest.approx(want), action


@pytest.mark.parametrize("seed", range(20))
def test_the_one_move_generator_of_the_searches_is_the_rules(k: ModuleType, seed: int) -> None:
    """k.play_moves (what every search of the play steps through): each rank the seat to act holds
    that keeps the count at 31 or under, once, in the order held, one card of it leaving the hand; go
    (rank 0) only when none does; the other seat's cards untouched."""
    rng = random.Random(seed)
    for _ in range(200):
        held = [sorted(rng.choices(range(1, 14), k=rng.randint(0, 4))) for _ in range(2)]
        turn, count = rng.randrange(2), rng.randint(0, 31)
        packed = [sum(r << (4 * i) for i, r in enumerate(h)) for h in held]
        hands = packed[0] | packed[1] << k.HAND_BITS
        fitting = [r for i, r in enumerate(held[turn]) if count + min(r, 10) <= 31 and r not in held[turn][:i]]
        moves = k.play_moves(hands, turn, count, 0)
        assert [m[1] for m in moves] == (fitting or [0])
        for card, rank, after, now, _, points in moves:
            if rank == 0:
                assert (card, after, now, points) == (-1, hands, count, 0)
                continue
            rest = list(held[turn])
            rest.remove(rank)
            mine = (after >> (k.HAND_BITS * turn)) & k.HAND_MASK
            theirs = (after >> (k.HAND_BITS * (1 - turn))) & k.HAND_MASK
            assert [(mine >> (4 * i)) & 15 for i in range(len(rest))] == rest and mine >> (4 * len(rest)) == 0
            assert theirs == packed[1 - turn] and now == count + min(rank, 10)
            assert points == (2 if now in (15, 31) else 0)  # a first card: no pair, no run
