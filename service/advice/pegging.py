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

**Advice** (:func:`advise`): the other seats' unplayed cards are dealt again
by the core's one model of hidden cards (:mod:`service.core.game.hidden`),
consistently with everything the seat knows (the cards it holds, kept and
thrown, the starter, every card played, and that a seat which said go at
count ``c`` holds nothing worth ``31 - c`` or less) and weighted by how the
other seats chose their discards (``model``: any alike, or as the strong level
throws, :data:`.discards.STRONG_THROWS`), each world is solved double dummy,
and each legal action's points to the end of the hand are averaged (every
world, each with its chance, where they are few).  Seeded; the number of
worlds is the caller's, or as many as a budget of positions allows and never
fewer than :data:`MIN_WORLDS`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from service.core.cards import RANK, VALUE, Card
from service.core.engine import kernel
from service.core.errors import IllegalError, MalformedError
from service.core.options import side_of
from service.core.play import Go, Play, PlayCard, replay

from service.core.game import hidden
from service.core.game.hidden import UNIFORM, Observation, ThrowModel

BOT_NODE_BUDGET = 3_000
"""Positions the strong computer opponent searches a play: a quarter of the advice endpoint's default (a
play decision about 5 ms CPU on average here, p99 about 33 ms, reading the other seat's throw with the
compiled kernel)."""

def Solver(players: int, cap: int = 0) -> kernel.Search:
    """A double-dummy search for a table of ``players`` (one per request: its memo is kept across
    deals); with a ``cap`` (0: none) it stops at that many positions, inside a deal too."""
    return kernel.Search(players, tuple(side_of(players, s) for s in range(players)), cap)


def search_moves(play: Play) -> list[tuple[PlayCard | Go, int]]:
    """The legal actions of a play whose hands are known, each with its move in the search: the
    card's rank (cards of one rank are one move), 0 for a go."""
    return [(a, RANK[a.card] if isinstance(a, PlayCard) else 0) for a in play.legal_actions()
            if isinstance(a, (PlayCard, Go))]


def search_hands(held: Sequence[Sequence[Card]]) -> int:
    """Every seat's cards as the kernel searches them."""
    hands = 0
    for cards in reversed(held):
        hands = (hands << kernel.HAND_BITS) | kernel.pack_hand(tuple(cards))
    return hands


def search_position(play: Play) -> tuple[int, int, int, int, int]:
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
    by_rank = dict(solver.lines(search_hands(play.held), *search_position(play)))
    side = solver.side[play.turn]
    # a go the rules allow beside a playable card (tournament) is never solved: a renege
    return _ordered([PlayOption(action, tuple(float(x) for x in solver.points(by_rank[r])), side)
                     for action, r in search_moves(play) if r in by_rank])


def _ordered(options: list[PlayOption]) -> list[PlayOption]:
    return sorted(options, key=lambda o: (-o.net, -o.own, isinstance(o.action, Go),
                                          -VALUE[o.action.card] if isinstance(o.action, PlayCard) else 0))


@dataclass(frozen=True, slots=True)
class SeatKnowledge:
    """What one seat knows in the play: the position (without the others'
    cards), its own four cards for the play, and what it has seen of the deal
    as the model of hidden cards reads it (:mod:`service.core.game.hidden`)."""

    play: Play
    seat: int
    kept: tuple[Card, ...]
    observation: Observation


def knowledge(players: int, pone: int, seat: int, kept: Sequence[Card], actions: Sequence[PlayCard | Go],
              seen: Sequence[Card] = (), tournament: bool = False, *, discards: Sequence[Card] | None = None,
              observation: Observation | None = None) -> SeatKnowledge:
    """Replay ``actions`` (the play so far) and gather what ``seat`` knows: its four ``kept`` cards, the
    cards it has ``seen`` elsewhere (its discards, the starter, others), its ``discards`` when given apart
    (then the deal was of four cards and them), or the whole ``observation`` of a game's view.

    Raises :class:`MalformedError` (``field`` ``plays/<i>``, ``hand``) when the
    play contradicts the seat's own cards, or when it is not ``seat``'s turn."""
    play = Play.start(players, pone, tournament=tournament)
    for i, a in enumerate(actions):
        if isinstance(a, PlayCard) and a.seat == seat and a.card not in kept:
            raise MalformedError(f"seat {seat} played {a.card}, which is not in its hand", field=f"plays/{i}")
        if isinstance(a, PlayCard) and a.seat != seat and a.card in kept:
            raise MalformedError(f"{a.card} is in seat {seat}'s hand, not seat {a.seat}'s", field=f"plays/{i}")
        try:
            play, _ = replay(play, [a])
        except IllegalError as exc:
            raise MalformedError(exc.message, field=f"plays/{i}") from None
    if play.turn is None:
        raise MalformedError("the play is over: every card has been laid", field="plays")
    if play.turn != seat:
        raise MalformedError(f"it is seat {play.turn}'s turn, not seat {seat}'s", field="plays")
    if observation is None:
        dealt = 4 + len(discards) if discards and players == 2 else (6 if players == 2 else 5)
        to_crib = 1 if players == 3 else (2 if players == 2 and dealt == 5 else 0)
        observation = hidden.observe(
            players, (pone - 1) % players, seat, dealt=dealt, to_crib=to_crib, discarded=[True] * players,
            known=[tuple(kept) if s == seat else () for s in range(players)],
            thrown=[tuple(discards or ()) if s == seat else None for s in range(players)],
            plays=actions, starter=None, seen=seen, tournament=tournament)
    return SeatKnowledge(play, seat, tuple(kept), observation)


MIN_WORLDS = 16
"""Worlds a decision is valued over at least (where there are more): with fewer, one unusual deal can
decide it (a 4-player lead searches some 40,000 positions a world, 25 ms here: 16 of them are its cost)."""


@dataclass(frozen=True, slots=True)
class PeggingAdvice:
    options: tuple[PlayOption, ...]
    """Every legal action, best first."""
    samples: int
    exact: bool
    nodes: int


DEFAULT_NODE_BUDGET = 6_000
"""Without a sample count, worlds are solved until this many positions have
been searched (at least :data:`MIN_WORLDS`, at most :data:`MAX_DEFAULT_SAMPLES`):
a 2-player lead takes a few hundred positions a world, a 4-player lead tens of
thousands (there the minimum decides)."""
MAX_DEFAULT_SAMPLES = 64
NODE_CAP = 1_000_000
"""Whatever the sample count asked for, no request searches more positions
than this (a request's work is bounded: about a second of CPU here), checked
inside the search: a world cut short by it is left out, and the answer says
how many worlds were solved.  It is :data:`MIN_WORLDS` of the largest
searches: one world of a 4-player lead never needed more than some 85,000;
an exact solve, or a first world, that would is a 422."""


def _over_cap(field: str) -> MalformedError:
    return MalformedError(f"the play from here needs more than {NODE_CAP:,} positions searched", field=field)


def advise(k: SeatKnowledge, samples: int | None = None, seed: int | str = 0,
           node_budget: int = DEFAULT_NODE_BUDGET, model: ThrowModel = UNIFORM,
           min_worlds: int = MIN_WORLDS) -> PeggingAdvice:
    """Perfect-information Monte Carlo: worlds of the other seats' unplayed cards drawn from the model of
    hidden cards (``model``: how they chose their discards, :mod:`service.core.game.hidden`), each solved
    double dummy; ``samples`` worlds, or (None) until ``node_budget`` positions are searched and at least
    ``min_worlds`` are solved; every world, each with its chance, where they are few enough to list."""
    play = k.play
    rng = random.Random(f"pegging-advice/{seed}")
    solver = Solver(play.players, NODE_CAP)
    side = solver.side[k.seat]
    # The seat's legal actions and its own hand are the same in every world; only the others' hands change.
    position = search_position(play)
    obs = k.observation
    listed = hidden.exact(obs, model, hidden.EXACT_WORLDS, crib=False)
    most = len(listed) if listed is not None else (samples if samples is not None else MAX_DEFAULT_SAMPLES)
    totals: list[tuple[PlayOption, int, list[float]]] = []
    done = 0
    weight = 0.0
    while done < most:
        if listed is None and done and (solver.nodes >= NODE_CAP or (
                samples is None and done >= min_worlds and solver.nodes >= node_budget)):
            break
        world, chance = listed[done] if listed is not None else (hidden.sample(obs, rng, model, starter=False), 1.0)
        held = tuple(world.unplayed(obs, s) for s in range(play.players))
        try:
            by_rank = dict(solver.lines(search_hands(held), *position))
        except kernel.PositionCapReached:
            if not done or listed is not None:
                raise _over_cap("plays") from None
            break  # the cap, inside this world: the worlds solved are the answer
        done += 1
        weight += chance
        if not totals:  # the first world's order, best first, is the order of the sums (and of ties at the end)
            moves = search_moves(play._replace(held=held))
            first = {PlayOption(a, tuple(float(x) for x in solver.points(by_rank[r])), side): r
                     for a, r in moves if r in by_rank}
            totals = [(o, first[o], [0.0] * solver.sides) for o in _ordered(list(first))]
        for _, r, acc in totals:
            for i, p in enumerate(solver.points(by_rank[r])):
                acc[i] += chance * float(p)
        if len(solver.memo) > 400_000:  # bound a request's memory
            solver.memo.clear()
    options = [PlayOption(o.action, tuple(p / weight for p in acc), side) for o, _, acc in totals]
    return PeggingAdvice(tuple(_ordered(options)), done, listed is not None, solver.nodes)


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
