"""Pegging advice: the double-dummy value of the rest of a play, and a
perfect-information Monte Carlo advisor for a seat that sees only its own cards.

**Double dummy** (:func:`solve`): with every seat's cards known, the rest of
the play is searched to its end; each seat plays to maximise its side's net
pegging (its side's points less the other sides'), so with two sides this is
minimax; ties are broken by the side's own points, then by the points
vector itself, so every equal choice gives the same value.  The search is
the kernel's (:class:`service.core.kernel.Search`, on the kernel's rules of
the play); this module maps a :class:`~service.core.play.Play` to it and its
values back to actions, and the test holds the values equal to an
exhaustive minimax over :class:`~service.core.play.Play`.

**Advice** (:func:`advise`): the unseen cards are dealt to the other seats at
random, consistently with everything the seat knows (the cards it holds,
kept and thrown, the starter, every card played, and that a seat which said
go at count ``c`` holds nothing worth ``31 - c`` or less), each deal is
solved double dummy, and each legal action's points to the end of the hand
are averaged.  Seeded; the number of deals is the caller's.  With ``read_throw``
(the strong bot, the game review: 2 players dealt six) the other seat's cards
are drawn from what a strong player keeps, not uniformly (:meth:`_Dealer.read_throw`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from service.core.cards import CARDS, RANK, VALUE, Card
from service.core.engine import kernel
from service.core.errors import IllegalError, MalformedError
from service.core.options import side_of
from service.core.play import Go, Play, PlayCard, replay

from .discards import strong_throw

BOT_NODE_BUDGET = 3_000
"""Positions the strong computer opponent searches a play: a quarter of the advice endpoint's default (a
play decision about 5 ms CPU on average here, p99 about 33 ms, reading the other seat's throw with the
compiled kernel)."""

def Solver(players: int, cap: int = 0) -> kernel.Search:
    """A double-dummy search for a table of ``players`` (one per request: its memo is kept across
    deals); with a ``cap`` (0: none) it stops at that many positions, inside a deal too."""
    return kernel.Search(players, tuple(side_of(players, s) for s in range(players)), cap)


def _moves(play: Play) -> list[tuple[PlayCard | Go, int]]:
    """The legal actions of a play whose hands are known, each with its move in the search: the
    card's rank (cards of one rank are one move), 0 for a go."""
    return [(a, RANK[a.card] if isinstance(a, PlayCard) else 0) for a in play.legal_actions()
            if isinstance(a, (PlayCard, Go))]


def _hands(held: Sequence[Sequence[Card]]) -> int:
    """Every seat's cards as the kernel searches them."""
    hands = 0
    for cards in reversed(held):
        hands = (hands << kernel.HAND_BITS) | kernel.pack_hand(tuple(cards))
    return hands


def _count(play: Play) -> tuple[int, int, int, int, int]:
    """The rest of the position as the kernel searches it: (turn, count, rank sequence, passed, last)."""
    assert play.turn is not None
    passed = 0
    for s in play.passed:
        passed |= 1 << s
    last = -1 if play.last_player is None else play.last_player
    return play.turn, play.count, kernel.rank_sequence(play.count_cards), passed, last


@dataclass(frozen=True, slots=True)
class PlayOption:
    """One legal action and the points each side pegs from it to the end of the hand (means)."""

    action: PlayCard | Go
    points: tuple[float, ...]
    """Per side (a player, or a partnership with four), this action's points included."""
    side: int
    """The acting seat's side."""

    @property
    def own(self) -> float:
        return self.points[self.side]

    @property
    def others(self) -> float:
        return sum(self.points) - self.points[self.side]

    @property
    def net(self) -> float:
        return self.own - self.others


def solve(play: Play, solver: kernel.Search | None = None) -> list[PlayOption]:
    """The exact double-dummy value of each legal action, best first (``play`` must know every hand)."""
    if play.held is None:
        raise MalformedError("a double-dummy solve needs every seat's cards", field="hands")
    if play.turn is None:
        return []
    solver = solver or Solver(play.players)
    by_rank = dict(solver.lines(_hands(play.held), *_count(play)))
    side = solver.side[play.turn]
    # a go the rules allow beside a playable card (tournament) is never solved: a renege
    return _ordered([PlayOption(action, tuple(float(x) for x in solver.points(by_rank[r])), side)
                     for action, r in _moves(play) if r in by_rank])


def _ordered(options: list[PlayOption]) -> list[PlayOption]:
    return sorted(options, key=lambda o: (-o.net, -o.own, isinstance(o.action, Go),
                                          -VALUE[o.action.card] if isinstance(o.action, PlayCard) else 0))


@dataclass(frozen=True, slots=True)
class SeatKnowledge:
    """What one seat knows in the play: the position (without the others'
    cards), its own four cards for the play, and every other card it has
    seen (its discards, the starter, cards named as known elsewhere)."""

    play: Play
    seat: int
    kept: tuple[Card, ...]
    seen: tuple[Card, ...]
    go_limits: tuple[int, ...]
    """Per seat, the highest card value it cannot hold (from the goes it said), 0 for none."""
    pone: int
    played_by: tuple[tuple[Card, ...], ...]
    """Per seat, the cards it has laid in this play."""


def knowledge(players: int, pone: int, seat: int, kept: Sequence[Card], actions: Sequence[PlayCard | Go],
              seen: Sequence[Card] = (), tournament: bool = False) -> SeatKnowledge:
    """Replay ``actions`` (the play so far) and gather what ``seat`` knows.

    Raises :class:`MalformedError` (``field`` ``plays/<i>``, ``hand``) when the
    play contradicts the seat's own cards, or when it is not ``seat``'s turn."""
    play = Play.start(players, pone, tournament=tournament)
    limits = [0] * players
    played_by: list[tuple[Card, ...]] = [()] * players
    for i, a in enumerate(actions):
        if isinstance(a, Go):
            # under tournament rules a go may be a renege: it proves nothing about the cards
            if not tournament:
                limits[a.seat] = max(limits[a.seat], kernel.MAX_COUNT - play.count)
        elif a.seat == seat and a.card not in kept:
            raise MalformedError(f"seat {seat} played {a.card}, which is not in its hand", field=f"plays/{i}")
        elif a.seat != seat and a.card in kept:
            raise MalformedError(f"{a.card} is in seat {seat}'s hand, not seat {a.seat}'s", field=f"plays/{i}")
        try:
            play, _ = replay(play, [a])
        except IllegalError as exc:
            raise MalformedError(exc.message, field=f"plays/{i}") from None
        if isinstance(a, PlayCard):
            played_by[a.seat] += (a.card,)
    if play.turn is None:
        raise MalformedError("the play is over: every card has been laid", field="plays")
    if play.turn != seat:
        raise MalformedError(f"it is seat {play.turn}'s turn, not seat {seat}'s", field="plays")
    if not tournament and any(VALUE[c] <= limits[seat] for c in kept if c not in play.played):
        raise MalformedError(f"seat {seat} said go while holding a card that fitted", field="plays")
    return SeatKnowledge(play, seat, tuple(kept), tuple(seen), tuple(limits), pone, tuple(played_by))


class _Dealer:
    """Random deals of the unseen cards to the other seats' unplayed hands, consistent with their goes;
    with ``read_throw`` (2 players, six cards dealt), the other seat's cards drawn from what a strong
    player keeps (:meth:`read_throw`)."""

    def __init__(self, k: SeatKnowledge, read_throw: bool = False) -> None:
        play = k.play
        out_of_play = set(k.kept) | set(k.seen) | set(play.played)
        self.unseen = [c for c in CARDS if c not in out_of_play]
        self.seat, self.players = k.seat, play.players
        self.others = [s for s in range(play.players) if s != k.seat]
        self.need = {s: play.left[s] for s in self.others}
        self.dealt = sum(self.need.values())
        self.limits = k.go_limits
        self.fits = {s: [c for c in self.unseen if VALUE[c] > k.go_limits[s]] for s in self.others}
        for s in self.others:
            if len(self.fits[s]) < self.need[s]:
                raise MalformedError(f"no unseen cards fit the goes seat {s} said", field="plays")
        self.mine = tuple(c for c in k.kept if c not in play.played)
        self.reads = read_throw and self.players == 2
        self.other = self.others[0]
        self.other_played = k.played_by[self.other]
        self.other_crib = self.other != k.pone  # 2 players: the seat that is not pone deals

    def read_throw(self, rng: random.Random) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
        """One try at the other seat's cards (2 players, six dealt) as a strong player holds them: six cards
        dealt to it at random, the ones it has laid among them, kept only when the strong level's
        discard of them (:func:`.discards.strong_throw`) throws none it has laid and keeps none its goes
        rule out.  Its unplayed cards and its throw, or None.

        Why: players keep fives, pairs and runs, not any four cards; a uniform deal of the unseen cards
        misreads what the other seat can peg (the strong level measured ahead of itself with this read,
        bench/advice.py's duplicate match)."""
        other = self.other
        cards = rng.sample(self.unseen, self.need[other] + 2)
        thrown = strong_throw(self.other_played + tuple(cards), self.other_crib)
        if any(c in self.other_played for c in thrown):
            return None
        held = tuple(c for c in cards if c not in thrown)
        if any(VALUE[c] <= self.limits[other] for c in held):
            return None
        return held, thrown

    def deal(self, rng: random.Random, tries: int = 64) -> tuple[tuple[Card, ...], ...]:
        need, limits = self.need, self.limits
        if self.reads:
            for _ in range(READ_TRIES):
                read = self.read_throw(rng)
                if read is not None:
                    return tuple(self.mine if s == self.seat else read[0] for s in range(self.players))
            # none fitted: a uniform deal (the other seat played cards a strong player rarely keeps)
        for _ in range(tries):  # uniform over the consistent deals: deal at random, keep one that fits
            cards = rng.sample(self.unseen, self.dealt)
            hands, at = {}, 0
            for s in self.others:
                hands[s] = tuple(cards[at:at + need[s]])
                at += need[s]
            if all(VALUE[c] > limits[s] for s in self.others for c in hands[s]):
                return tuple(self.mine if s == self.seat else hands[s] for s in range(self.players))
        # Rarely (several tight goes): the most constrained seat first, each from what fits it.
        left = set(self.unseen)
        hands = {}
        for s in sorted(self.others, key=lambda s: len(self.fits[s])):
            pool = [c for c in self.fits[s] if c in left]
            if len(pool) < need[s]:
                raise MalformedError("no deal of the unseen cards fits the goes said", field="plays")
            hands[s] = tuple(rng.sample(pool, need[s]))
            left -= set(hands[s])
        return tuple(self.mine if s == self.seat else hands[s] for s in range(self.players))


READ_TRIES = 12
"""Deals tried a world when the other seat's cards are read from its throw, before a uniform deal (most
fit: its throw avoids its played cards in a half to a fifth of the deals)."""


def _deal_unseen(k: SeatKnowledge, rng: random.Random, tries: int = 64) -> tuple[tuple[Card, ...], ...]:
    """One random deal of the unseen cards to the other seats' unplayed hands, consistent with their goes."""
    return _Dealer(k).deal(rng, tries)


@dataclass(frozen=True, slots=True)
class PeggingAdvice:
    options: tuple[PlayOption, ...]
    """Every legal action, best first."""
    samples: int
    exact: bool
    nodes: int


DEFAULT_NODE_BUDGET = 6_000
"""Without a sample count, deals are solved until this many positions have
been searched (at least one deal, at most :data:`MAX_DEFAULT_SAMPLES`): about
100 ms here, whatever the stage of the play (a 2-player lead takes a few
hundred positions a deal, a 4-player lead tens of thousands)."""
MAX_DEFAULT_SAMPLES = 64
NODE_CAP = 150_000
"""Whatever the sample count asked for, no request searches more positions
than this (a request's work is bounded), checked inside the search: a deal
cut short by it is left out, and the answer says how many deals were solved.
(One deal alone never needed so many in a search for the worst: under 100,000
at a 4-player lead; an exact solve, or a first deal, that would is a 422.)"""


def _over_cap(field: str) -> MalformedError:
    return MalformedError(f"the play from here needs more than {NODE_CAP:,} positions searched", field=field)


def advise(k: SeatKnowledge, samples: int | None = None, seed: int | str = 0,
           node_budget: int = DEFAULT_NODE_BUDGET, read_throw: bool = False) -> PeggingAdvice:
    """Perfect-information Monte Carlo: ``samples`` consistent deals (None:
    until ``node_budget`` positions are searched), each solved double dummy; with ``read_throw`` (2
    players, six cards dealt) the other seat's cards are drawn from what a strong player keeps
    (:meth:`_Dealer.read_throw`), else uniformly."""
    play = k.play
    rng = random.Random(f"pegging-advice/{seed}")
    dealer = _Dealer(k, read_throw)
    solver = Solver(play.players, NODE_CAP)
    side = solver.side[k.seat]
    # The seat's legal actions and its own hand are the same in every deal; only the others' hands change.
    position = _count(play)
    totals: list[tuple[PlayOption, int, list[float]]] = []
    done = 0
    while done < (samples if samples is not None else MAX_DEFAULT_SAMPLES):
        if done and (solver.nodes >= NODE_CAP or (samples is None and solver.nodes >= node_budget)):
            break
        held = dealer.deal(rng)
        try:
            by_rank = dict(solver.lines(_hands(held), *position))
        except kernel.PositionCapReached:
            if not done:
                raise _over_cap("plays") from None
            break  # the cap, inside this deal: the deals solved are the answer
        done += 1
        if not totals:  # the first deal's order, best first, is the order of the sums (and of ties at the end)
            moves = _moves(play._replace(held=held))
            first = {PlayOption(a, tuple(float(x) for x in solver.points(by_rank[r])), side): r
                     for a, r in moves if r in by_rank}
            totals = [(o, first[o], [0.0] * solver.sides) for o in _ordered(list(first))]
        for _, r, acc in totals:
            for i, p in enumerate(solver.points(by_rank[r])):
                acc[i] += float(p)
        if len(solver.memo) > 400_000:  # bound a request's memory
            solver.memo.clear()
    options = [PlayOption(o.action, tuple(p / done for p in acc), side) for o, _, acc in totals]
    return PeggingAdvice(tuple(_ordered(options)), done, False, solver.nodes)


def solve_known(play: Play) -> PeggingAdvice:
    """The exact double-dummy value of each action with every hand known (tournament analysis)."""
    solver = Solver(play.players, NODE_CAP)
    try:
        return PeggingAdvice(tuple(solve(play, solver)), 1, True, solver.nodes)
    except kernel.PositionCapReached:
        raise _over_cap("hands") from None


def greedy_action(play: Play, seat: int, held: Sequence[Card]) -> tuple[PlayCard | Go, int]:
    """The play scoring most points now (pairs, runs, 15, 31), the highest card on a tie; go when none fits."""
    room = kernel.MAX_COUNT - play.count
    seq = kernel.rank_sequence(play.count_cards)
    best, best_pts = None, -1
    for c in sorted(held, key=lambda c: (-VALUE[c], -RANK[c], int(c))):
        if VALUE[c] > room:
            continue
        pts = kernel.peg_points(seq, RANK[c], play.count + VALUE[c])
        if pts > best_pts:
            best, best_pts = c, pts
    if best is None:
        return Go(seat), 0
    return PlayCard(seat, best), best_pts
