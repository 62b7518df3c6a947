"""The one evaluation engine: every legal action of a seat, valued in points and in the chance of winning.

gnubg's model: one evaluation under play, hints and analysis.  The computer
opponent's ``board`` level (:mod:`.bot`) plays the action this module ranks
first, the game review values every decision with it (:mod:`.review`), and
the chance of winning within a deal is its value of the position
(:func:`position_value`, ``POST /v1/odds``).

From what the seat may see only (:class:`~service.advice.view.SeatView`),
the cards it cannot see are dealt by the core's one model of hidden cards
(:mod:`service.core.game.hidden`; ``model``: how the other seats chose their
discards, by default as the strong level throws), as *worlds*: every world
with its chance where they are few, else a sample.  In each world the rest
of the deal is played out for every action alike (common random numbers:
the actions' differences are measured on the same cards):

* a seat yet to discard discards as the strong level does;
* the starter, if a jack, pegs his heels for the dealer;
* the play is solved double dummy: for points by the kernel's search
  (:class:`~service.core.kernel.Search`), and, with two players when a side
  could reach the target in this deal, for the game by
  :class:`~service.core.kernel.WinSearch`, where the first side to reach the
  target wins at once (for a bot that meets the strong level,
  ``points_reply``: against the replies of the points search,
  :class:`.reply.PointsReply`).  Valued from before the play with 3 or 4
  players (:data:`GREEDY_LEAD_PLAYERS`), whose lead takes some 40,000
  positions to search, the play is played out by every seat pegging the most
  it can at once instead;
* the show is counted in its order (the pone's hand first, round the table,
  the dealer's, the crib), and the first side to reach the target wins;
* a deal that ends the game nowhere is valued by the board: the chance of
  winning from the next deal's start, :func:`service.advice.odds.board_odds`
  (with 3 players, who have no table, :data:`GAMES_ON` games played on by
  drawing the shipped deals, the same draws for every action of a world).

An action's ``points`` is the mean net points of the seat's side over the
rest of the deal (its side's points less the other sides'), its ``win`` the
mean chance that its side wins the game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations

from service.core.cards import Card
from service.core.engine import kernel
from service.core.game import Count, Cut, Deal, Discard, GameState, Phase
from service.core.game import hidden
from service.core.game.actions import GameAction
from service.core.game.hidden import Observation, ThrowModel, World
from service.core.options import next_seat, side_of, sides_of
from service.core.play import Play, PlayCard, replay

from . import odds
from .discards import STRONG_THROWS, strong_throw
from .pegging import MIN_WORLDS, search_hands, search_moves, search_position
from .reply import PointsReply
from .view import SeatView, seat_view

SAMPLES = 24
"""Worlds a decision is valued over (the same worlds for every action)."""
REFINE_TOP = 4
"""The discards valued over more worlds when asked to refine."""
PEG_BOUND = 30
"""Where each side's score, its show in a world and this many pegging points stay short of the target,
nobody wins in that world's deal: the play is solved for points (cheaper) and the board values the end
of the deal.  A side pegs 3-5 points in a 2-player play on average; 30 or more is a freak (a world
that has one while the bound says otherwise is valued as if the deal ended nobody's game)."""
GREEDY_LEAD_PLAYERS = 4
"""From this many players a play valued from before it starts (a discard, the cut) is played out
greedily in each world, not searched: a 2-player lead takes a few hundred positions, a 3-player one
under 7,000, a 4-player one some 40,000 (25 ms a world, for each discard).  With ``lead_search`` False
(the review, the chance of winning: fifteen discards in every world) it is played out greedily at any
table: 14 microseconds a world against 360 for the search of a 2-player lead, and its mean net for the
dealer within the noise of the search's and of the strong level's own (1.28, 1.09 and 1.15 points over
400 deals, standard errors 0.09-0.16)."""
GREEDY_UNSEEN_PLAYERS = 3
"""From this many players, with ``lead_search`` False, a play the valuing seat does not act in is played
out greedily, not searched double dummy: there the seats to act would play each world as if they saw its
hidden cards.  Measured (bench/calibration.py, 1,000 first deals, asked after two plays): with 3 players
the search over-rated the dealer's side by 0.017-0.020 when the others asked, greedy play 0.003-0.006;
with 2 players the search was the closer (largest gap 0.011 against 0.015)."""
GREEDY_MOVE_PLAYERS = 4
"""From this many players, with ``lead_search`` False, a play after the valuing seat's own move is played
out greedily too, not searched double dummy (the other seats would play each world knowing its hidden
cards).  Measured (bench/calibration.py, 4 players, 600 first deals, asked after two plays): the seat to
act, its strong move then the search, under-rated its side by 0.018; its move then greedy, by 0.003 (and
every cell before the last card within 0.005).  With 3 players the search after the asker's move was
already within 0.006."""
GAMES_ON = 16
"""Three players have no table: a world's deal that ends nobody's game is valued by this many games played
on from the next deal's start, drawing the shipped deals (the same draws for every action of the world:
two actions' scores differ in what they win only where a game falls the other way, so one game a world
left the chance of a 4-point better play below the other's; 11 microseconds a game)."""
EXACT_HOLDINGS = 96
"""When the other seats' possible holdings are this few or fewer (late in a play), every one of them is
a world, each once with its chance: exact over their cards."""
MEMO_LIMIT = 400_000
"""Positions the search keeps before its memo is cleared (a decision's memory is bounded)."""

Pegged = tuple[float, ...]
"""Per side: points pegged over the rest of the deal."""
Chances = tuple[float, ...]
"""Per side: the chance of winning the game."""


@dataclass(frozen=True, slots=True)
class ActionValue:
    action: GameAction
    points: float
    """Expected net points for the seat's side over the rest of the deal."""
    win: float
    """The seat's side's chance of winning the game after this action."""
    worlds: int = 0
    """The worlds its values are means over."""


@dataclass(frozen=True, slots=True)
class PositionValue:
    """Each side's chance of winning from a position as one viewer sees it, and how it was valued."""

    chances: Chances
    standard_errors: tuple[float, ...]
    worlds: int
    exact: bool
    """Every world of the hidden cards taken, each with its chance (else sampled)."""
    action: GameAction | None
    """The viewer's action these chances follow (the strong level's), when it is the viewer's to act."""


def action_values(state: GameState, seat: int, *, seed: int | str = 0,
                  samples: int = SAMPLES) -> list[ActionValue]:
    """Every legal action of ``seat`` now, valued from what the seat may see only; best (win) first.
    Empty when the seat has nothing to do."""
    return view_values(seat_view(state, seat), seed=seed, samples=samples)


def view_values(v: SeatView, *, seed: int | str = 0, samples: int = SAMPLES, refine: int = 0,
                exact_points: bool = True, model: ThrowModel = STRONG_THROWS,
                points_reply: bool = False, lead_search: bool = True) -> list[ActionValue]:
    """:func:`action_values` from a seat's view; ``refine``: more worlds for the best few discards.
    ``exact_points`` False (a bot ranking by the chance): a discard's worlds where the play is searched
    for the game skip the search for points, and its ``points`` there count the show and the heels only
    (the pegging left out): the points then only break ties of the chance, and the worlds cost about half.
    ``model``: how the other seats' hidden cards are dealt (:mod:`service.core.game.hidden`).
    ``points_reply`` (a bot playing the strong level, 2 players): in the play, the other seat replies as
    the points search does (:class:`.reply.PointsReply`: the strong level pegs for points), not as a
    minimax for the game."""
    return evaluate(v, seed=seed, samples=samples, refine=refine, exact_points=exact_points, model=model,
                    points_reply=points_reply, lead_search=lead_search).values


@dataclass(frozen=True, slots=True)
class Evaluation:
    values: list[ActionValue]
    """Best first."""
    worlds: int
    """The worlds of the hidden cards the values are means over (0: none needed)."""
    exact: bool
    """Every world taken, each with its chance."""


def evaluate(v: SeatView, *, seed: int | str = 0, samples: int = SAMPLES, refine: int = 0,
             exact_points: bool = True, model: ThrowModel = STRONG_THROWS, points_reply: bool = False,
             lead_search: bool = True, among: Callable[[list[GameAction]], list[GameAction]] | None = None,
             also: GameAction | None = None) -> Evaluation:
    """:func:`view_values` with the number of worlds it took; ``lead_search`` False: a play valued from
    before it starts is played out greedily (:data:`GREEDY_LEAD_PLAYERS`); ``among``: which of the legal
    actions to value (the caller's bound on which can be best); ``also``: a discard refined with the
    best (the review's: the one taken)."""
    if v.seat not in v.to_act:
        return Evaluation([], 0, True)
    ev = _Deal(v, model, exact_points, points_reply, seed, lead_search)
    legal = ev.legal()
    values = ev.values(among(legal) if among is not None else legal, samples, refine, also)
    return Evaluation(ranked(values), ev.worlds_taken, ev.exact)


def position_value(v: SeatView, *, seed: int | str = 0, samples: int = SAMPLES, model: ThrowModel = STRONG_THROWS,
                   action: GameAction | None = None, budget: float | None = None,
                   lead_search: bool = True) -> PositionValue:
    """Each side's chance from the position as ``v.seat`` sees it: where the seat is to act, after
    ``action`` (its strong level's, say: the caller's); otherwise (or with no ``action``) every seat plays
    on as the evaluation plays them (the seats to discard as the strong level, the play double dummy;
    ``lead_search`` False: the play from its start, and with 3 or 4 players any play the seat does not act
    in, played out greedily).  ``budget``: seconds
    after which no more worlds are valued, once :data:`.pegging.MIN_WORLDS` are."""
    ev = _Deal(v, model, True, False, seed, lead_search)
    ev.deadline = None if budget is None else time.perf_counter() + budget
    got = ev.outcomes([action if v.seat in v.to_act else None], samples)[0]
    means = tuple(_mean(got, [c[i] for _, c in got.results]) for i in range(ev.sides))
    errors = _standard_errors(got, means, ev.sides)
    return PositionValue(means, errors, len(got.results), got.exact, action)


def _move(action: GameAction | None) -> int:
    """A play action as the kernel's search and greedy play name a move: the card's rank, 0 for go."""
    return kernel.RANK[action.card] if isinstance(action, PlayCard) else 0


def ranked(values: Sequence[ActionValue]) -> list[ActionValue]:
    """Best first: the chance of winning, then the points (the win is certain, or lost, either way)."""
    return sorted(values, key=lambda a: (-round(a.win, 12), -a.points))


@lru_cache(maxsize=65_536)
def _board(players: int, target: int, scores: tuple[int, ...], dealer: int, five_and_two: bool) -> tuple[float, ...]:
    return odds.board_odds(players, target, scores, dealer, five_and_two)


@dataclass(frozen=True, slots=True)
class _Results:
    """One action's outcome in each world (common to every action), with each world's chance."""

    results: list[tuple[Pegged, Chances]]
    weights: list[float]
    exact: bool


def _mean(r: _Results, xs: Sequence[float]) -> float:
    """The mean over the worlds: each weighed by its chance when they are every world, else alike."""
    if r.exact:
        return sum(w * x for w, x in zip(r.weights, xs))
    return sum(xs) / len(xs)


def _standard_errors(r: _Results, means: Sequence[float], sides: int) -> tuple[float, ...]:
    n = len(r.results)
    if r.exact or n < 2:
        return (0.0,) * sides
    out = []
    for i in range(sides):
        var = sum((c[i] - means[i]) ** 2 for _, c in r.results) / (n - 1)
        out.append((var / n) ** 0.5)
    return tuple(out)


class _Deal:
    """The rest of a deal from one seat's view, played out in the worlds of its hidden cards."""

    def __init__(self, v: SeatView, model: ThrowModel, exact_points: bool, points_reply: bool,
                 seed: int | str, lead_search: bool = True) -> None:
        self.v = v
        self.lead_search = lead_search
        self.obs: Observation = v.observation
        self.model = model
        self.exact_points = exact_points
        self.points_reply = points_reply and v.players == 2
        self.seed = seed
        self.n = n = v.players
        self.sides = sides_of(n)
        self.side = tuple(side_of(n, s) for s in range(n))
        self.me = v.seat
        self.mine = self.side[v.seat]
        self.dealer = v.dealer
        self.pone = v.pone
        self.target = v.target
        self.scores = tuple(v.scores)
        self.solver = kernel.Search(n, self.side, 0)
        self.show_order = [kernel.show_seat(n, v.dealer, i) for i in range(n)]
        self.worlds_taken = 0
        self.exact = False
        self.deadline: float | None = None

    # -- what the seat may do ---------------------------------------------------------------------------------

    def legal(self) -> list[GameAction]:
        v = self.v
        if v.phase is Phase.DISCARD:
            throw = self.obs.dealt - hidden.KEPT
            seen: set[frozenset[Card]] = set()
            out: list[GameAction] = []
            for d in combinations(v.hand, throw):
                if frozenset(d) not in seen:
                    seen.add(frozenset(d))
                    out.append(Discard(v.seat, d))
            return out
        if v.phase is Phase.PLAY:
            play = self._the_play()
            mine = tuple(c for c in v.hand if c not in play.played)
            held = tuple(mine if s == self.me else () for s in range(self.n))
            moves: list[GameAction] = [a for a, _ in search_moves(play._replace(held=held))]
            # a go beside a card that fits (tournament rules allow it) is a renege, never valued here
            cards: list[GameAction] = [a for a in moves if isinstance(a, PlayCard)]
            return cards if cards else moves
        if v.phase is Phase.DEAL:
            return [Deal(v.seat)]
        if v.phase is Phase.CUT:
            return [Cut(v.seat)]
        assert v.phase is Phase.SHOW
        if v.counting_crib:
            return [Count(v.seat)]
        h = v.hand
        assert v.starter is not None
        return [Count(v.seat, claim=kernel.show_total(h[0], h[1], h[2], h[3], v.starter, False))]

    # -- the worlds ---------------------------------------------------------------------------------------------

    def _rng(self, what: str) -> random.Random:
        return random.Random(f"evaluate/{what}/{self.seed}/{self.v.state_key}")

    def _worlds(self, rng: random.Random, n: int, stratify: bool) -> hidden.Worlds:
        """``n`` worlds (or every one, where few); ``stratify``: before the play, the starters spread over
        the unseen cards, each once before any twice (a discard's value is mostly the starter's: its
        shows are then nearly exact over the worlds).  Before any card is played the other seats' cards
        say nothing of the starter, so a world drawn given its starter keeps the model's chances."""
        obs = self.obs
        if obs.starter is not None:
            # late in a play every holding of the others may be few: each is a world, with its chance (the
            # crib's cards drawn given it), where sampling would leave the choice to chance
            listed = hidden.exact(obs, self.model, EXACT_HOLDINGS, crib=False)
            if listed is not None:
                return hidden.Worlds(tuple(hidden.complete(obs, w, rng, self.model) for w, _ in listed),
                                     tuple(p for _, p in listed), True)
        if not stratify or obs.starter is not None:
            return hidden.worlds(obs, rng, n, self.model, exact_limit=0)
        unseen = list(obs.unseen)
        starters = rng.sample(unseen, len(unseen))
        out = []
        for i in range(n):
            s = starters[i % len(starters)]
            out.append(hidden.sample(replace(obs, starter=s, seen=obs.seen | {s}), rng, self.model))
        return hidden.Worlds(tuple(out), (1.0 / n,) * n, False)

    # -- valuing ------------------------------------------------------------------------------------------------

    def values(self, actions: Sequence[GameAction], samples: int, refine: int = 0,
               also: GameAction | None = None) -> list[ActionValue]:
        """Each action's value; ``refine``: the best :data:`REFINE_TOP` discards (and ``also``, a discard
        to compare with them over the same worlds) over that many more worlds."""
        if len(actions) > REFINE_TOP and refine and self.v.phase is Phase.DISCARD:
            # the refined worlds continue the same draws: a discard's value over samples + refine worlds is
            # the one position_value gives over as many (so the review's chance is /v1/odds')
            first = self.outcomes(list(actions), samples, drawn=samples + refine)
            means = [self._means(r) for r in first]
            top = sorted(range(len(actions)), key=lambda i: (-means[i][1], -means[i][0]))[:REFINE_TOP]
            if isinstance(also, Discard):
                top += [i for i, a in enumerate(actions) if isinstance(a, Discard)
                        and set(a.cards) == set(also.cards) and i not in top]
            more = self.outcomes([actions[i] for i in top], refine, start=samples, drawn=samples + refine)
            out = [ActionValue(a, p, w, len(first[0].results)) for a, (p, w) in zip(actions, means)]
            for j, i in enumerate(top):
                merged = _Results(first[i].results + more[j].results, [], False)
                p, w = self._means(merged)
                out[i] = ActionValue(actions[i], p, w, len(merged.results))
            return out
        results = self.outcomes(list(actions), samples)
        return [ActionValue(a, *self._means(r), len(r.results)) for a, r in zip(actions, results)]

    def _means(self, r: _Results) -> tuple[float, float]:
        return (_mean(r, [self._net(p) for p, _ in r.results]),
                _mean(r, [c[self.mine] for _, c in r.results]))

    def _net(self, pegged: Pegged) -> float:
        return 2 * pegged[self.mine] - sum(pegged)

    def outcomes(self, actions: Sequence[GameAction | None], samples: int, start: int = 0,
                 drawn: int = 0) -> list[_Results]:
        """Each action's outcome in the same worlds (None: the position played on as the evaluation plays
        every seat): worlds ``start`` to ``start + samples`` of one sequence of ``drawn`` (at least as
        many; the first worlds of a longer sequence are those of a shorter one)."""
        v = self.v
        phase = v.phase
        if phase is Phase.DEAL:
            chances = self._board_now()
            self.exact = True
            return [_Results([((0.0,) * self.sides, chances)], [1.0], True) for _ in actions]
        rng = self._rng("worlds")
        every = self._worlds(rng, max(1, samples + start, drawn), phase in (Phase.DISCARD, Phase.CUT))
        self.exact = every.exact
        if every.exact:
            if start:
                return [_Results([], [], True) for _ in actions]
            ws = every
        else:
            ws = hidden.Worlds(every.worlds[start:start + samples], every.chances[start:start + samples], False)
        out = [_Results([], list(ws.chances), ws.exact) for _ in actions]
        for i, world in enumerate(ws.worlds, start if not ws.exact else 0):
            if self.deadline is not None and i >= MIN_WORLDS and not ws.exact and time.perf_counter() > self.deadline:
                for r in out:
                    del r.weights[i - start:]
                break
            world_rng = self._rng(f"worlds/{i}")
            keep = self.n == 3  # only a 3-player finish draws (a game played on): the same draws for every action
            state = world_rng.getstate() if keep else None
            if phase is Phase.PLAY:
                got = self._play(world, actions, world_rng)
            else:
                got = []
                base = self._others_throw(world) if phase is not Phase.SHOW else ([], [])
                for a in actions:
                    if state is not None:
                        world_rng.setstate(state)
                    got.append(self._before_play(world, base, a, world_rng) if phase is not Phase.SHOW
                               else self._show_now(world, world_rng))
            for r, g in zip(out, got):
                r.results.append(g)
            if not start:
                self.worlds_taken += 1
            if len(self.solver.memo) > MEMO_LIMIT:
                self.solver.memo.clear()
        return out

    def _board_now(self) -> Chances:
        v = self.v
        if max(self.scores) >= self.target:
            return tuple(1.0 if s >= self.target else 0.0 for s in self.scores)
        if self.n == 3:
            return odds.estimate(self.target, self.scores, self.dealer).chances
        return _board(self.n, self.target, self.scores, self.dealer, v.five_and_two)

    # -- the end of a deal --------------------------------------------------------------------------------------

    def _one_hot(self, side: int) -> Chances:
        return tuple(1.0 if s == side else 0.0 for s in range(self.sides))

    def _finish(self, scores: Sequence[int], show: Sequence[tuple[int, int]], rng: random.Random) -> Chances:
        """Each side's chance once the play is over with ``scores``, the ``show`` (side, points) still to
        count in its order: the first to reach the target wins, else the board at the next deal."""
        s = list(scores)
        for side, pts in show:
            s[side] += pts
            if s[side] >= self.target:
                return self._one_hot(side)
        nxt = next_seat(self.n, self.dealer)
        if self.n == 3:
            wins = [0.0, 0.0, 0.0]
            sample = odds.deals("three")
            for _ in range(GAMES_ON):
                wins[odds.play_out(3, self.target, s, nxt, sample, rng)] += 1.0 / GAMES_ON
            return (wins[0], wins[1], wins[2])
        return _board(self.n, self.target, tuple(s), nxt, self.v.five_and_two)

    def _show(self, kept: Sequence[Sequence[Card]], crib: Sequence[Card], starter: Card,
              start: int = 0) -> list[tuple[int, int]]:
        """The show in its order from its ``start``-th count: (side, points)."""
        out = []
        for s in self.show_order:
            a, b, c, d = kept[s]
            out.append((self.side[s], kernel.show_total(a, b, c, d, starter, False)))
        a, b, c, d = crib
        out.append((self.side[self.dealer], kernel.show_total(a, b, c, d, starter, True)))
        return out[start:]

    def _near(self, scores: Sequence[int], show: Sequence[tuple[int, int]]) -> bool:
        """Whether a side could reach the target in what is left of this deal (two players: then the play
        is searched for the game)."""
        if self.n != 2:
            return False
        reach = list(scores)
        for side, pts in show:
            reach[side] += pts
        return any(r + PEG_BOUND >= self.target for r in reach)

    def _win_search(self, scores: Sequence[int], show: Sequence[tuple[int, int]], rng: random.Random,
                    reply: bool = False) -> kernel.WinSearch | PointsReply:
        s0, s1 = scores[0], scores[1]

        def terminal(p0: int, p1: int) -> float:
            return self._finish((s0 + p0, s1 + p1), show, rng)[self.mine]

        if reply:
            return PointsReply(self.solver, self.mine, self.target - s0, self.target - s1, terminal)
        return kernel.WinSearch(2, (0, 1), self.mine, self.target - s0, self.target - s1, terminal)

    def _pair(self, win: float) -> Chances:
        return (win, 1.0 - win) if self.mine == 0 else (1.0 - win, win)

    def _after_play(self, scores: Sequence[int], pegged: Sequence[int], show: Sequence[tuple[int, int]],
                    rng: random.Random) -> Chances:
        """The chances once the play pegged ``pegged`` per side (searched for points: a side reaching the
        target in it wins; with two sides both there, the one that pegged more)."""
        after = [s + p for s, p in zip(scores, pegged)]
        there = [i for i in range(self.sides) if after[i] >= self.target]
        if there:
            return self._one_hot(max(there, key=lambda i: pegged[i]))
        return self._finish(after, show, rng)

    # -- the phases ---------------------------------------------------------------------------------------------

    def _others_throw(self, w: World) -> tuple[list[tuple[Card, ...]], list[tuple[Card, ...]]]:
        """The world's cards once every seat yet to discard but this one has thrown as the strong level
        does (the same for every action of the seat): each seat's kept cards and discards."""
        obs = self.obs
        held = list(w.held)
        thrown = list(w.thrown)
        for s in range(self.n):
            if obs.discarded[s] or s == self.me:
                continue
            d = strong_throw(held[s], self.n, obs.own_crib(s))
            thrown[s] = d
            held[s] = tuple(c for c in held[s] if c not in d)
        return held, thrown

    def _before_play(self, w: World, base: tuple[list[tuple[Card, ...]], list[tuple[Card, ...]]],
                     action: GameAction | None, rng: random.Random) -> tuple[Pegged, Chances]:
        """The deal from the discards or the cut: the seats yet to discard throw (``base``: the others as
        the strong level; the seat ``action``'s discard, or the strong level's), then the rest of the deal
        from the cut."""
        held, thrown = list(base[0]), list(base[1])
        me = self.me
        if not self.obs.discarded[me]:
            d = tuple(action.cards) if isinstance(action, Discard) else strong_throw(held[me], self.n,
                                                                                     self.obs.own_crib(me))
            thrown[me] = d
            held[me] = tuple(c for c in held[me] if c not in d)
        crib = tuple(c for t in thrown for c in t) + w.pack_crib
        assert w.starter is not None
        return self._from_cut(held, crib, w.starter, rng)

    def _from_cut(self, kept: Sequence[tuple[Card, ...]], crib: tuple[Card, ...], starter: Card,
                  rng: random.Random) -> tuple[Pegged, Chances]:
        scores = list(self.scores)
        pegged = [0.0] * self.sides
        heels = kernel.heels(starter)
        dside = self.side[self.dealer]
        if heels:
            scores[dside] += heels
            pegged[dside] += heels
            if scores[dside] >= self.target:
                return tuple(pegged), self._one_hot(dside)
        show = self._show(kept, crib, starter)
        for side, counted in show:
            pegged[side] += counted
        packed = search_hands(kept)
        position = (self.pone, 0, 0, 0, -1)
        if self.n >= GREEDY_LEAD_PLAYERS or not self.lead_search:
            return self._played_greedily(packed, position, scores, pegged, show, rng)
        if self._near(scores, show):
            win = self._win_search(scores, show, rng).value(packed, *position, 0, 0)
            if not self.exact_points:
                return tuple(pegged), self._pair(win)
            pts = self.solver.points(self.solver.value(packed, *position))
            return tuple(p + q for p, q in zip(pegged, pts)), self._pair(win)
        pts = self.solver.points(self.solver.value(packed, *position))
        return tuple(p + q for p, q in zip(pegged, pts)), self._after_play(scores, pts, show, rng)

    def _played_greedily(self, packed: int, position: tuple[int, int, int, int, int], scores: Sequence[int],
                         pegged: Sequence[float], show: Sequence[tuple[int, int]],
                         rng: random.Random, move: int = -1) -> tuple[Pegged, Chances]:
        """The rest of a play from ``position`` with every seat pegging the most it can at once
        (:func:`.kernel.greedy_play`; ``move``: the seat to act's first move, a rank or 0 for go), then
        the show and the board: ``pegged`` plus what each side pegged in it, and the chances (the first
        side to its target wins at once)."""
        pts, first = kernel.greedy_play(self.n, self.side, packed, *position,
                                        tuple(self.target - x for x in scores), move)
        total = tuple(p + q for p, q in zip(pegged, pts))
        if first >= 0:
            return total, self._one_hot(first)
        return total, self._finish([s + p for s, p in zip(scores, pts)], show, rng)

    def _play(self, w: World, actions: Sequence[GameAction | None],
              rng: random.Random) -> list[tuple[Pegged, Chances]]:
        """A play: each move of the seat (None: the seat to act moves as the search does) in world ``w``;
        ``rng``'s draws (a 3-player game played on) the same for every move."""
        obs = self.obs
        assert w.starter is not None
        position = search_position(self._the_play())
        held = tuple(w.unplayed(obs, s) for s in range(self.n))
        packed = search_hands(held)
        show = self._show(w.held, w.crib, w.starter)
        scores = self.scores
        so_far = [0.0] * self.sides
        for side, counted in show:
            so_far[side] += counted
        near = self._near(scores, show)
        start = rng.getstate() if self.n == 3 else None
        if list(actions) == [None]:
            if not self.lead_search and self.n >= GREEDY_UNSEEN_PLAYERS:
                # the asking seat is not to act: played out greedily, no seat's move is chosen knowing this
                # world's hidden cards (see GREEDY_UNSEEN_PLAYERS)
                return [self._played_greedily(packed, position, scores, so_far, show, rng)]
            pts = self.solver.points(self.solver.value(packed, *position))
            pegged = tuple(a + b for a, b in zip(so_far, pts))
            if near:
                win = self._win_search(scores, show, rng).value(packed, *position, 0, 0)
                return [(pegged, self._pair(win))]
            return [(pegged, self._after_play(scores, pts, show, rng))]
        if not self.lead_search and self.n >= GREEDY_MOVE_PLAYERS:
            # each move of the asking seat, then the rest played out greedily (see GREEDY_MOVE_PLAYERS)
            out = []
            for a in actions:
                if start is not None:
                    rng.setstate(start)
                out.append(self._played_greedily(packed, position, scores, so_far, show, rng, _move(a)))
            return out
        lines = dict(self.solver.lines(packed, *position))
        wins = dict(self._win_search(scores, show, rng, self.points_reply).lines(packed, *position, 0, 0)) \
            if near else None
        out = []
        for a in actions:
            r = _move(a)
            pts = self.solver.points(lines[r])
            pegged = tuple(x + y for x, y in zip(so_far, pts))
            if start is not None:
                rng.setstate(start)
            chances = self._pair(wins[r]) if wins is not None else self._after_play(scores, pts, show, rng)
            out.append((pegged, chances))
        return out

    def _the_play(self) -> Play:
        """The play so far, replayed without the hidden hands."""
        v = self.v
        play, _ = replay(Play.start(v.players, v.pone, tournament=v.tournament), v.plays)
        return play

    def _show_now(self, w: World, rng: random.Random) -> tuple[Pegged, Chances]:
        """A count: the rest of the show in its order (the crib's hidden cards from the world)."""
        v = self.v
        assert w.starter is not None
        if v.counting_crib:
            start = self.n
        else:
            start = self.show_order.index(v.to_act[0])
        show = self._show(w.held, w.crib, w.starter, start)
        pegged = [0.0] * self.sides
        for side, pts in show:
            pegged[side] += pts
        return tuple(pegged), self._finish(self.scores, show, rng)


__all__ = ["MIN_WORLDS", "SAMPLES", "ActionValue", "Evaluation", "PositionValue", "action_values", "evaluate",
           "position_value", "ranked", "view_values"]
