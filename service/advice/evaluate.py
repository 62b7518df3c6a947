"""The one evaluation engine: every legal action of a seat, valued in points and in the chance of winning.

gnubg's model: one evaluation under play, hints and analysis.  The computer
opponent's ``board`` level (:mod:`.bot`) plays the action this module ranks
first; the game review values every decision with it.

From what the seat may see only (:class:`~service.advice.view.SeatView`),
the cards it cannot see are dealt at random, consistently with what it
knows (*worlds*; the play's goes bound what a seat can hold, as the pegging
advisor's sampler does), and in each world the rest of the deal is played
out for every action alike (common random numbers: the actions' differences
are measured on the same cards):

* the other seats discard as the strong level does (the ``tuned`` advisor);
* the starter, if a jack, pegs his heels for the dealer;
* the play is solved double dummy: for points by the kernel's search
  (:class:`~service.core.kernel.Search`), and, when a side could reach the
  target in this deal, for the game by :class:`~service.core.kernel.WinSearch`, where the
  first side to reach the target wins at once (for a bot that meets the
  strong level, ``points_reply``: against the replies of the points search,
  :class:`.reply.PointsReply`; and, ``infer_throws``, with the other seat's
  cards in the play drawn from what that level keeps and throws);
* the show is counted in its order (the pone's hand first, the dealer's,
  the crib), and the first side to reach the target wins;
* a deal that ends the game nowhere is valued by the board: the chance of
  winning from the next deal's start, :func:`service.advice.odds.board_odds`.

An action's ``points`` is the mean net points of the seat's side over the
rest of the deal (its side's points less the other sides'), its ``win`` the
mean chance that its side wins the game.  Two players are valued this way;
with three or four (whose double-dummy play is too large to solve in many
worlds) ``points`` is today's advisors' net and ``win`` the board's value
with it added (:func:`_table_values`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb

from service.core.cards import CARDS, Card
from service.core.engine import kernel
from service.core.game import Count, Cut, Deal, Discard, GameState, Phase
from service.core.game.actions import GameAction
from service.core.options import side_of, sides_of
from service.core.play import PlayCard

from .discards import analyse_discards, strong_throw
from .odds import board_odds
from .pegging import BOT_NODE_BUDGET, READ_TRIES, Solver, _count, _Dealer, _hands, _moves, advise, knowledge
from .reply import PointsReply
from .view import SeatView, routine_action, seat_view

SAMPLES = 24
"""Worlds a decision is valued over (the same worlds for every action)."""
REFINE_TOP = 4
"""The discards valued over more worlds when asked to refine."""
PEG_BOUND = 30
"""Where each side's score, its show in a world and this many pegging points stay short of the target,
nobody wins in that world's deal: the play is solved for points (cheaper) and the board values the end
of the deal.  A side pegs 3-5 points in a 2-player play on average; 30 or more is a freak (a world
that has one while the bound says otherwise is valued as if the deal ended nobody's game)."""


@dataclass(frozen=True, slots=True)
class ActionValue:
    action: GameAction
    points: float
    """Expected net points for the seat's side over the rest of the deal."""
    win: float
    """The seat's side's chance of winning the game after this action."""


def action_values(state: GameState, seat: int, *, seed: int | str = 0,
                  samples: int = SAMPLES) -> list[ActionValue]:
    """Every legal action of ``seat`` now, valued from what the seat may see only; best (win) first.
    Empty when the seat has nothing to do."""
    return view_values(seat_view(state, seat), seed=seed, samples=samples)


def view_values(v: SeatView, *, seed: int | str = 0, samples: int = SAMPLES, refine: int = 0,
                exact_points: bool = True, infer_throws: bool = False, points_reply: bool = False) -> list[ActionValue]:
    """:func:`action_values` from a seat's view; ``refine``: more worlds for the best few discards.
    ``exact_points`` False (a bot ranking by the chance): a discard's worlds where the play is searched
    for the game skip the search for points, and its ``points`` there count the show and the heels only
    (the pegging left out): the points then only break ties of the chance, and the worlds cost about half.
    ``infer_throws`` (a bot playing the strong level): in the play, the other seat's cards are drawn from
    the hands the strong level keeps, and its two crib cards are its throw (:meth:`_Deal2._inferred`).
    ``points_reply`` (the same): in the play, the other seat replies as the points search does
    (:class:`.reply.PointsReply`: the strong level pegs for points), not as a minimax for the game."""
    if v.seat not in v.to_act:
        return []
    if v.players != 2:
        return _table_values(v)
    rng = random.Random(f"evaluate/{seed}/{v.state_key}")
    ev = _Deal2(v, exact_points, infer_throws, points_reply)
    if v.phase is Phase.PLAY:
        values = ev.play(rng, samples)
    elif v.phase is Phase.SHOW:
        values = ev.show(rng, samples)
    else:
        values = ev.before_play(rng, samples, refine)
    return ranked(values)


def ranked(values: Sequence[ActionValue]) -> list[ActionValue]:
    """Best first: the chance of winning, then the points (the win is certain, or lost, either way)."""
    return sorted(values, key=lambda a: (-round(a.win, 12), -a.points))


@lru_cache(maxsize=65_536)
def _board(players: int, target: int, scores: tuple[int, ...], dealer: int, five_and_two: bool) -> tuple[float, ...]:
    return board_odds(players, target, scores, dealer, five_and_two)


class _Deal2:
    """The rest of a 2-player deal from one seat's view, played out in sampled worlds."""

    def __init__(self, v: SeatView, exact_points: bool = True, infer_throws: bool = False,
                 points_reply: bool = False) -> None:
        self.v = v
        self.points_reply = points_reply
        self.exact_points = exact_points
        self.infer_throws = infer_throws and not v.five_and_two and not v.tournament
        self.me = v.seat
        self.dealer = v.dealer
        self.pone = v.pone
        self.target = v.target
        self.scores = tuple(v.scores)
        self.solver = Solver(2)

    # -- the end of a deal, and what the board makes of it ------------------------------------------------

    def _finish(self, scores: Sequence[int], show: Sequence[tuple[int, int]]) -> float:
        """The seat's chance once the play is over with ``scores``, the ``show`` (side, points) still to
        count in its order: the first to reach the target wins, else the board at the next deal."""
        s = list(scores)
        for side, pts in show:
            s[side] += pts
            if s[side] >= self.target:
                return 1.0 if side == self.me else 0.0
        v = self.v
        return _board(2, self.target, tuple(s), (self.dealer + 1) % 2, v.five_and_two)[self.me]

    def _near(self, scores: Sequence[int], show: Sequence[tuple[int, int]]) -> bool:
        """Whether a side could reach the target in what is left of this deal (then the play is searched
        for the game)."""
        reach = list(scores)
        for side, pts in show:
            reach[side] += pts
        return any(r + PEG_BOUND >= self.target for r in reach)

    def _show(self, hands: Sequence[Sequence[Card]], crib: Sequence[Card], starter: Card,
              start: int = 0) -> list[tuple[int, int]]:
        """The show in its order from its ``start``-th count: (side, points)."""
        order = [self.pone, self.dealer]
        out = []
        for s in order:
            a, b, c, d = hands[s]
            out.append((s, kernel.show_total(a, b, c, d, starter, False)))
        a, b, c, d = crib
        out.append((self.dealer, kernel.show_total(a, b, c, d, starter, True)))
        return out[start:]

    def _win_search(self, scores: Sequence[int], show: Sequence[tuple[int, int]],
                    reply: bool = False) -> kernel.WinSearch | PointsReply:
        """The play searched for the game from ``scores``, the ``show`` to count after it; ``reply``: the
        other side replying as the points search does (:class:`.reply.PointsReply`), not as a minimax."""
        s0, s1 = scores[0], scores[1]

        def terminal(p0: int, p1: int) -> float:
            return self._finish((s0 + p0, s1 + p1), show)

        if reply:
            return PointsReply(self.solver, self.me, self.target - s0, self.target - s1, terminal)
        return kernel.WinSearch(2, (0, 1), self.me, self.target - s0, self.target - s1, terminal)

    def _net(self, pts: Sequence[float]) -> float:
        return pts[self.me] - pts[1 - self.me]

    def _whole_play(self, hands: Sequence[Sequence[Card]], crib: Sequence[Card], starter: Card,
                    scores: Sequence[int]) -> tuple[float, float]:
        """The net points and the chance of the rest of the deal from before the play (heels first)."""
        s = list(scores)
        heels = kernel.heels(starter)
        if heels:
            s[self.dealer] += heels
            if s[self.dealer] >= self.target:
                return (heels if self.dealer == self.me else -heels), (1.0 if self.dealer == self.me else 0.0)
        show = self._show(hands, crib, starter)
        packed = _hands(hands)
        position = (self.pone, 0, 0, 0, -1)
        own_heels = heels if self.dealer == self.me else -heels
        show_net = sum(p if side == self.me else -p for side, p in show)
        if not self.exact_points and self._near(s, show):
            return show_net + own_heels, self._win_search((s[0], s[1]), show).value(packed, *position, 0, 0)
        val = self.solver.value(packed, *position)
        pts = self.solver.points(val)
        net = self._net(pts) + show_net + own_heels
        if self._near(s, show):
            base = (s[0], s[1])
            search = self._win_search(base, show)
            win = search.value(packed, *position, 0, 0)
        else:
            win = self._finish((s[0] + pts[0], s[1] + pts[1]), show)
        if len(self.solver.memo) > 400_000:
            self.solver.memo.clear()
        return net, win

    # -- the phases ------------------------------------------------------------------------------------------

    def before_play(self, rng: random.Random, samples: int, refine: int = 0) -> list[ActionValue]:
        """The deal, the discard or the cut: worlds of the unseen dealt cards and starter; the other seat
        discards as the strong level does; each of the seat's discards (or the one it made) played out;
        with ``refine``, the :data:`REFINE_TOP` best after ``samples`` worlds are valued over that many more."""
        v = self.v
        dealt = 5 if v.five_and_two else 6
        to_crib = 2 if v.five_and_two else 0
        throw = dealt - 4
        opp = 1 - self.me
        if v.phase is Phase.DEAL:
            mine: tuple[Card, ...] | None = None
            actions: list[tuple[GameAction, tuple[Card, ...] | None]] = [(Deal(self.me), None)]
        elif v.phase is Phase.DISCARD:
            mine = v.hand
            actions = [(Discard(self.me, d), d) for d in combinations(v.hand, throw)]
        else:  # the cut
            mine = tuple(v.hand) + tuple(v.discards)
            actions = [(Cut(self.me), tuple(v.discards))]
        seen = set(mine or ())
        unseen = [c for c in CARDS if c not in seen]
        # the starters spread over the unseen cards (each once before any twice): the hands' shows, most of
        # a discard's value, are then nearly exact over the worlds
        starters = rng.sample(unseen, len(unseen))
        worlds = 0

        def add(which: Sequence[int], n: int) -> None:
            nonlocal worlds
            for _ in range(n):
                starter = starters[worlds % len(starters)]
                worlds += 1
                cards = rng.sample([c for c in unseen if c != starter],
                                   dealt * (1 if mine is not None else 2) + to_crib)
                own = mine if mine is not None else tuple(cards[dealt:2 * dealt])
                theirs = tuple(cards[:dealt])
                dealt_crib = tuple(cards[len(cards) - to_crib:])
                their_throw = strong_throw(theirs, opp == self.dealer)
                for i in which:
                    d = actions[i][1]
                    d = d if d is not None else strong_throw(own, self.me == self.dealer)
                    hands: list[tuple[Card, ...]] = [(), ()]
                    hands[self.me] = tuple(c for c in own if c not in d)
                    hands[opp] = tuple(c for c in theirs if c not in their_throw)
                    net, win = self._whole_play(hands, tuple(d) + their_throw + dealt_crib, starter, self.scores)
                    sums[i][0] += net
                    sums[i][1] += win
                    counts[i] += 1

        sums = [[0.0, 0.0] for _ in actions]
        counts = [0] * len(actions)
        add(range(len(actions)), samples)
        if refine and len(actions) > REFINE_TOP:
            # the closest calls get more worlds (the same ones for each): the choice among them is the one
            # sampling would otherwise leave to chance
            top = sorted(range(len(actions)), key=lambda i: (-sums[i][1], -sums[i][0]))[:REFINE_TOP]
            add(top, refine)
        return [ActionValue(a, p / n, w / n) for (a, _), (p, w), n in zip(actions, sums, counts)]

    def play(self, rng: random.Random, samples: int) -> list[ActionValue]:
        """A play: worlds of the other seat's unplayed cards (consistent with its goes) and of the crib's
        cards the seat has not seen; each legal move played out, the rest solved double dummy."""
        v = self.v
        assert v.starter is not None
        k = knowledge(2, v.pone, self.me, v.hand, v.plays, (*v.discards, v.starter), v.tournament)
        play = k.play
        dealer = _Dealer(k)
        opp = 1 - self.me
        played_by = [tuple(a.card for a in v.plays if isinstance(a, PlayCard) and a.seat == s) for s in (0, 1)]
        to_crib = 4 - len(v.discards)
        position = _count(play)
        sums: dict[int, list[float]] = {}
        worlds = self._inferred(dealer, rng, samples) if self.infer_throws else []
        if not worlds:
            for held in _holdings(dealer, opp, rng, samples):
                rest = [c for c in dealer.unseen if c not in held[opp]]
                worlds.append((held, tuple(rng.sample(rest, to_crib))))
        for held, thrown in worlds:
            crib = tuple(v.discards) + thrown
            hands = [played_by[s] + tuple(c for c in held[s]) for s in (0, 1)]
            hands[self.me] = tuple(v.hand)
            for r, net, win in self._lines(held, hands, crib, v.starter, position):
                acc = sums.setdefault(r, [0.0, 0.0])
                acc[0] += net
                acc[1] += win
        mine = tuple(c for c in v.hand if c not in play.played)
        moves = _moves(play._replace(held=tuple(mine if s == self.me else () for s in (0, 1))))
        n = len(worlds)
        return [ActionValue(a, sums[r][0] / n, sums[r][1] / n) for a, r in moves if r in sums]

    def _inferred(self, dealer: _Dealer, rng: random.Random,
                  samples: int) -> list[tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]]:
        """``samples`` worlds of the other seat's unplayed cards and its two cards in the crib, drawn from
        what it would have thrown (:meth:`.pegging._Dealer.read_throw`: what a strong player keeps, fives,
        pairs and runs, not any four cards).  Empty when too few fit in :data:`.pegging.READ_TRIES` deals a
        world (then the draw is uniform)."""
        opp = 1 - self.me
        out: list[tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]] = []
        for _ in range(READ_TRIES * samples):
            read = dealer.read_throw(rng)
            if read is None:
                continue
            held, thrown = read
            out.append((tuple(held if s == opp else dealer.mine for s in (0, 1)), thrown))
            if len(out) == samples:
                return out
        return out if len(out) * 2 >= samples else []

    def _lines(self, held: Sequence[Sequence[Card]], hands: Sequence[Sequence[Card]], crib: Sequence[Card],
               starter: Card, position: tuple[int, int, int, int, int]) -> list[tuple[int, float, float]]:
        """Each move of the seat at the play ``position`` (a rank, 0 for go) in one world (the cards
        ``held``; the show counts the whole ``hands``): the net points of the rest of the deal, the chance."""
        show = self._show(hands, crib, starter)
        packed = _hands(held)
        show_net = sum(p if s == self.me else -p for s, p in show)
        lines = self.solver.lines(packed, *position)
        scores = self.scores
        out = []
        if self._near(scores, show):
            search = self._win_search(scores, show, self.points_reply)
            wins = dict(search.lines(packed, *position, 0, 0))
            for r, val in lines:
                out.append((r, self._net(self.solver.points(val)) + show_net, wins[r]))
        else:
            for r, val in lines:
                pts = self.solver.points(val)
                out.append((r, self._net(pts) + show_net,
                            self._finish((scores[0] + pts[0], scores[1] + pts[1]), show)))
        if len(self.solver.memo) > 400_000:
            self.solver.memo.clear()
        return out

    def show(self, rng: random.Random, samples: int) -> list[ActionValue]:
        """A count: every hand was laid in the play, so only the crib's cards the seat has not seen are
        sampled (when the crib is still to count)."""
        v = self.v
        assert v.starter is not None
        hands = [tuple(a.card for a in v.plays if isinstance(a, PlayCard) and a.seat == s) for s in (0, 1)]
        hands[self.me] = tuple(v.hand)
        start = 2 if v.counting_crib else (0 if self.me == self.pone else 1)
        seen = set(hands[0]) | set(hands[1]) | set(v.discards) | {v.starter}
        rest = [c for c in CARDS if c not in seen]
        to_crib = 4 - len(v.discards)
        a, b, c, d = v.hand
        own_total = kernel.show_total(a, b, c, d, v.starter, False)
        action = Count(self.me) if v.counting_crib else Count(self.me, claim=own_total)
        net = win = 0.0
        n = samples if to_crib else 1
        for _ in range(n):
            crib = tuple(v.discards) + tuple(rng.sample(rest, to_crib))
            show = self._show(hands, crib, v.starter, start)
            net += sum(p if s == self.me else -p for s, p in show)
            win += self._finish(self.scores, show)
        return [ActionValue(action, net / n, win / n)]


ENUMERATE = 96
"""When the other seat's possible holdings are this few or fewer (late in a play), every one of them is
a world, each once: exact over its cards, where sampling would leave the choice to chance."""


def _holdings(dealer: _Dealer, opp: int, rng: random.Random, samples: int) -> list[tuple[tuple[Card, ...], ...]]:
    """The worlds of a play: every holding of the other seat consistent with its goes when they are at
    most :data:`ENUMERATE`, else ``samples`` random ones."""
    fits, need = dealer.fits[opp], dealer.need[opp]
    if comb(len(fits), need) <= ENUMERATE:
        return [tuple(dealer.mine if s != opp else hand for s in range(2)) for hand in combinations(fits, need)]
    return [dealer.deal(rng) for _ in range(samples)]




def _table_values(v: SeatView) -> list[ActionValue]:
    """Three or four players: today's advisors' net points (the tuned discards, the pegging advisor), and
    the board's chance with them: the seat's side credited with a gain, the other sides charged a loss
    evenly, at the next deal.  The deal, the cut and the count are one action each."""
    sides = sides_of(v.players)
    me = side_of(v.players, v.seat)
    values: list[tuple[GameAction, float]] = []
    if v.phase is Phase.DISCARD:
        own = side_of(v.players, v.dealer) == me
        for ch in analyse_discards(v.hand, v.players, own, model="tuned").choices:
            values.append((Discard(v.seat, ch.discard), ch.net))
    elif v.phase is Phase.PLAY:
        assert v.starter is not None
        k = knowledge(v.players, v.pone, v.seat, v.hand, v.plays, (*v.discards, v.starter), v.tournament)
        for o in advise(k, None, seed=v.state_key, node_budget=BOT_NODE_BUDGET).options:
            values.append((o.action, o.net))
    else:
        routine = routine_action(v)
        assert routine is not None  # a seat acts in no other phase
        values.append((routine, 0.0))
    out = []
    for action, net in values:
        s = list(v.scores)
        if net >= 0:
            s[me] += round(net)
        else:
            for other in range(sides):
                if other != me:
                    s[other] += round(-net / (sides - 1))
        if max(s) >= v.target:
            win = 1.0 if s[me] >= v.target else 0.0
        else:
            win = _board(v.players, v.target, tuple(s), (v.dealer + 1) % v.players, v.five_and_two)[me]
        out.append(ActionValue(action, net, win))
    return ranked(out)


__all__ = ["SAMPLES", "ActionValue", "action_values", "ranked", "view_values"]
