"""Pegging advice: the double-dummy value of the rest of a play, and a
perfect-information Monte Carlo advisor for a seat that sees only its own cards.

**Double dummy** (:func:`solve`): with every seat's cards known, the rest of
the play is searched to its end; each seat plays to maximise its side's net
pegging (its side's points less the other sides'), so with two sides this is
minimax; a count's cards are kept only as far back as they can still
score (:func:`_what_scores`); ties are broken by the side's own points, then by the points
vector itself, so every equal choice gives the same value.  The pegging rules depend on ranks only (suits never score in the
play), so hands are searched as sorted rank tuples and cards of one rank are
one move; positions are memoised.  The rules are those of
:mod:`service.core.play` (a seat unable to play says go; the last card of a
count scores the go, or the last-card point, unless it made 31) and the test
holds the values equal to an exhaustive minimax over :class:`~service.core.play.Play`.

**Advice** (:func:`advise`): the unseen cards are dealt to the other seats at
random, consistently with everything the seat knows (the cards it holds,
kept and thrown, the starter, every card played, and that a seat which said
go at count ``c`` holds nothing worth ``31 - c`` or less), each deal is
solved double dummy, and each legal action's points to the end of the hand
are averaged.  Seeded; the number of deals is the caller's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from service.core.cards import CARDS, RANK, VALUE, Card
from service.core.errors import MalformedError
from service.core.options import side_of
from service.core.play import Go, Play, PlayCard

MAX_COUNT = 31
_VALUE_OF_RANK = (0,) + tuple(min(r, 10) for r in range(1, 14))


_STEP_CACHE: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}


def _step(seq: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """For ranks ``seq`` of a count whose last card was just laid: what that card
    scores for pairs and runs, and the part of ``seq`` that can still score
    (see :func:`_what_scores`); kept, as the same counts recur in every search."""
    hit = _STEP_CACHE.get(seq)
    if hit is None:
        if len(_STEP_CACHE) > 500_000:  # bounded: a long-lived worker sees many counts
            _STEP_CACHE.clear()
        hit = _STEP_CACHE[seq] = (_what_scores(seq), _peg_points_of(seq, 0))
    return hit


def _what_scores(seq: tuple[int, ...]) -> tuple[int, ...]:
    """The suffix of a count's ranks that later cards can still score with: a
    pair needs the trailing cards of one rank, a run only cards of distinct
    ranks (a run through two cards of one rank is none), so the longer of the
    trailing same-rank cards and the longest suffix of distinct ranks.
    Positions that differ only before it are the same for the rest of the play.

    >>> _what_scores((3, 9, 4, 5)), _what_scores((9, 4, 4)), _what_scores((4, 5, 4, 6))
    ((3, 9, 4, 5), (4, 4), (5, 4, 6))
    """
    n = len(seq)
    same = 1
    while same < n and seq[-1 - same] == seq[-1]:
        same += 1
    distinct = 1
    while distinct < n and seq[-1 - distinct] not in seq[-distinct:]:
        distinct += 1
    return seq[-max(same, distinct):]


def _peg_points_of(seq: tuple[int, ...], count: int) -> int:
    pts = 2 if count == 15 or count == MAX_COUNT else 0
    n = len(seq)
    if n < 2:
        return pts
    last = seq[-1]
    same = 1
    while same < n and seq[-1 - same] == last:
        same += 1
    if same > 1:
        return pts + (2, 6, 12)[same - 2]
    for k in range(n, 2, -1):
        tail = seq[-k:]
        if len(set(tail)) == k and max(tail) - min(tail) == k - 1:
            return pts + k
    return pts


class PositionCapReached(Exception):
    """A solver searched its ``cap`` of positions (raised from inside the search)."""


class Solver:
    """Double-dummy values of play positions, memoised across calls (one solver per request).
    With a ``cap``, the search stops with :class:`PositionCapReached` at that many positions."""

    def __init__(self, players: int, cap: int | None = None) -> None:
        self.cap = cap
        self.players = players
        self.sides = 2 if players == 4 else players
        self.side = tuple(side_of(players, s) for s in range(players))
        self.memo: dict[tuple, tuple[int, ...]] = {}
        self.nodes = 0

    def _after(self, hands, seat, count, seq, passed, last, played: bool):
        """The position after ``seat`` played (``played``) or said go: (turn, count, seq, passed, last, go point seat)."""
        players = self.players
        if count < MAX_COUNT:
            for i in range(1, players + 1):
                s = (seat + i) % players
                if hands[s] and not passed >> s & 1:
                    return s, count, seq, passed, last, -1
        # The count is over: 31, or nobody holding cards can play on.
        go_to = last if count != MAX_COUNT else -1
        for i in range(1, players + 1):
            s = (last + i) % players
            if hands[s]:
                return s, 0, (), 0, -1, go_to
        return -1, 0, (), 0, -1, go_to

    def moves(self, hands, turn, count, seq, passed, last):
        """Each legal move (a rank, or 0 for go) with its immediate points (seat, points) and the next position."""
        out = []
        room = MAX_COUNT - count
        mine = hands[turn]
        for i, r in enumerate(mine):
            if _VALUE_OF_RANK[r] > room or (i and mine[i - 1] == r):
                continue
            c2 = count + _VALUE_OF_RANK[r]
            s2, pts = _step(seq + (r,))
            if c2 == 15 or c2 == MAX_COUNT:
                pts += 2
            h2 = hands[:turn] + (mine[:i] + mine[i + 1:],) + hands[turn + 1:]
            nt, nc, ns, np, nl, go_to = self._after(h2, turn, c2, s2, passed, turn, True)
            out.append((r, pts, go_to, (h2, nt, nc, ns, np, nl)))
        if not out:
            nt, nc, ns, np, nl, go_to = self._after(hands, turn, count, seq, passed | (1 << turn), last, False)
            out.append((0, 0, go_to, (hands, nt, nc, ns, np, nl)))
        return out

    def value(self, hands, turn, count, seq, passed, last) -> tuple[int, ...]:
        """Points each side pegs from this position to the end of the hand, both sides playing their best."""
        if turn < 0:
            return (0,) * self.sides
        key = (hands, turn, count, seq, passed, last)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if self.cap is not None and self.nodes >= self.cap:
            raise PositionCapReached(self.cap)
        self.nodes += 1
        side = self.side[turn]
        best = None
        best_key = None
        sides = self.side
        for _, pts, go_to, nxt in self.moves(hands, turn, count, seq, passed, last):
            if nxt[1] < 0:
                v = [0] * self.sides
            else:
                v = self.memo.get(nxt)
                v = list(v if v is not None else self.value(*nxt))
            v[side] += pts
            if go_to >= 0:
                v[sides[go_to]] += 1
            v = tuple(v)
            # its side's net, then its own points, then the points themselves: a total order, so
            # the value does not depend on the order moves are tried in
            k = (2 * v[side] - sum(v), v[side], v)
            if best is None or k > best_key:
                best, best_key = v, k
        self.memo[key] = best
        return best

    def line_value(self, seat: int, pts: int, go_to: int, nxt) -> tuple[int, ...]:
        v = list(self.value(*nxt))
        v[self.side[seat]] += pts
        if go_to >= 0:
            v[self.side[go_to]] += 1
        return tuple(v)


def _position(play: Play) -> tuple:
    hands = tuple(tuple(sorted(RANK[c] for c in h)) for h in play.held)
    passed = 0
    for s in play.passed:
        passed |= 1 << s
    last = -1 if play.last_player is None else play.last_player
    return (hands, play.turn, play.count, tuple(RANK[c] for c in play.count_cards), passed, last)


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


def solve(play: Play, solver: Solver | None = None) -> list[PlayOption]:
    """The exact double-dummy value of each legal action, best first (``play`` must know every hand)."""
    if play.held is None:
        raise MalformedError("a double-dummy solve needs every seat's cards", field="hands")
    if play.turn is None:
        return []
    solver = solver or Solver(play.players)
    pos = _position(play)
    turn = play.turn
    by_rank = {r: solver.line_value(turn, pts, go_to, nxt) for r, pts, go_to, nxt in solver.moves(*pos)}
    side = solver.side[turn]
    out = []
    for action in play.legal_actions():
        r = 0 if type(action) is Go else RANK[action.card]
        if r in by_rank:  # a go the rules allow beside a playable card (tournament) is never solved: a renege
            out.append(PlayOption(action, tuple(float(x) for x in by_rank[r]), side))
    return _ordered(out)


def _ordered(options: list[PlayOption]) -> list[PlayOption]:
    return sorted(options, key=lambda o: (-o.net, -o.own, type(o.action) is Go,
                                          -VALUE[o.action.card] if type(o.action) is PlayCard else 0))


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


def knowledge(players: int, pone: int, seat: int, kept: Sequence[Card], actions: Sequence[PlayCard | Go],
              seen: Sequence[Card] = (), tournament: bool = False) -> SeatKnowledge:
    """Replay ``actions`` (the play so far) and gather what ``seat`` knows.

    Raises :class:`MalformedError` (``field`` ``plays/<i>``, ``hand``) when the
    play contradicts the seat's own cards, or when it is not ``seat``'s turn."""
    from service.core.errors import IllegalError
    from service.core.play import replay

    play = Play.start(players, pone, tournament=tournament)
    limits = [0] * players
    for i, a in enumerate(actions):
        if type(a) is Go:
            # under tournament rules a go may be a renege: it proves nothing about the cards
            if not tournament:
                limits[a.seat] = max(limits[a.seat], MAX_COUNT - play.count)
        elif a.seat == seat and a.card not in kept:
            raise MalformedError(f"seat {seat} played {a.card}, which is not in its hand", field=f"plays/{i}")
        elif a.seat != seat and a.card in kept:
            raise MalformedError(f"{a.card} is in seat {seat}'s hand, not seat {a.seat}'s", field=f"plays/{i}")
        try:
            play, _ = replay(play, [a])
        except IllegalError as exc:
            raise MalformedError(exc.message, field=f"plays/{i}") from None
    if play.turn is None:
        raise MalformedError("the play is over: every card has been laid", field="plays")
    if play.turn != seat:
        raise MalformedError(f"it is seat {play.turn}'s turn, not seat {seat}'s", field="plays")
    if not tournament and any(VALUE[c] <= limits[seat] for c in kept if c not in play.played):
        raise MalformedError(f"seat {seat} said go while holding a card that fitted", field="plays")
    return SeatKnowledge(play, seat, tuple(kept), tuple(seen), tuple(limits))


def _deal_unseen(k: SeatKnowledge, rng: random.Random, tries: int = 64) -> tuple[tuple[Card, ...], ...]:
    """One random deal of the unseen cards to the other seats' unplayed hands, consistent with their goes."""
    play = k.play
    out_of_play = set(k.kept) | set(k.seen) | set(play.played)
    unseen = [c for c in CARDS if c not in out_of_play]
    others = [s for s in range(play.players) if s != k.seat]
    need = {s: play.left[s] for s in others}
    fits = {s: [c for c in unseen if VALUE[c] > k.go_limits[s]] for s in others}
    for s in others:
        if len(fits[s]) < need[s]:
            raise MalformedError(f"no unseen cards fit the goes seat {s} said", field="plays")
    mine = tuple(c for c in k.kept if c not in play.played)
    for _ in range(tries):  # uniform over the consistent deals: deal at random, keep one that fits
        cards = rng.sample(unseen, sum(need.values()))
        hands, at = {}, 0
        for s in others:
            hands[s] = tuple(cards[at:at + need[s]])
            at += need[s]
        if all(VALUE[c] > k.go_limits[s] for s in others for c in hands[s]):
            return tuple(mine if s == k.seat else hands[s] for s in range(play.players))
    # Rarely (several tight goes): the most constrained seat first, each from what fits it.
    left = set(unseen)
    hands = {}
    for s in sorted(others, key=lambda s: len(fits[s])):
        pool = [c for c in fits[s] if c in left]
        if len(pool) < need[s]:
            raise MalformedError("no deal of the unseen cards fits the goes said", field="plays")
        hands[s] = tuple(rng.sample(pool, need[s]))
        left -= set(hands[s])
    return tuple(mine if s == k.seat else hands[s] for s in range(play.players))


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
than this (a request's work is bounded: about a second here), checked inside
the search: a deal cut short by it is left out, and the answer says how many
deals were solved.  (One deal alone never needed so many in a search for the
worst: under 100,000 at a 4-player lead; an exact solve, or a first deal,
that would is a 422.)"""


def _over_cap(field: str) -> MalformedError:
    return MalformedError(f"the play from here needs more than {NODE_CAP:,} positions searched", field=field)


def advise(k: SeatKnowledge, samples: int | None = None, seed: int | str = 0,
           node_budget: int = DEFAULT_NODE_BUDGET) -> PeggingAdvice:
    """Perfect-information Monte Carlo: ``samples`` consistent deals (None:
    until ``node_budget`` positions are searched), each solved double dummy."""
    play = k.play
    rng = random.Random(f"pegging-advice/{seed}")
    solver = Solver(play.players, cap=NODE_CAP)
    totals: dict[tuple[str, int], list[float]] = {}
    actions: dict[tuple[str, int], PlayCard | Go] = {}
    side = solver.side[k.seat]
    done = 0
    while done < (samples if samples is not None else MAX_DEFAULT_SAMPLES):
        if done and (solver.nodes >= NODE_CAP or (samples is None and solver.nodes >= node_budget)):
            break
        held = _deal_unseen(k, rng)
        full = play._replace(held=held)
        try:
            solved = solve(full, solver)
        except PositionCapReached:
            if not done:
                raise _over_cap("plays") from None
            break  # the cap, inside this deal: the deals solved are the answer
        done += 1
        for opt in solved:
            key = ("go", 0) if type(opt.action) is Go else ("play", int(opt.action.card))
            actions[key] = opt.action
            acc = totals.setdefault(key, [0.0] * solver.sides)
            for i, p in enumerate(opt.points):
                acc[i] += p
        if len(solver.memo) > 400_000:  # bound a request's memory
            solver.memo.clear()
    options = [PlayOption(actions[key], tuple(p / done for p in acc), side) for key, acc in totals.items()]
    return PeggingAdvice(tuple(_ordered(options)), done, False, solver.nodes)


def solve_known(play: Play) -> PeggingAdvice:
    """The exact double-dummy value of each action with every hand known (tournament analysis)."""
    solver = Solver(play.players, cap=NODE_CAP)
    try:
        return PeggingAdvice(tuple(solve(play, solver)), 1, True, solver.nodes)
    except PositionCapReached:
        raise _over_cap("hands") from None


def greedy_action(play: Play, seat: int, held: Sequence[Card]) -> tuple[PlayCard | Go, int]:
    """The play scoring most points now (pairs, runs, 15, 31), the highest card on a tie; go when none fits."""
    from service.core.play import peg_scores

    room = MAX_COUNT - play.count
    best, best_pts = None, -1
    for c in sorted(held, key=lambda c: (-VALUE[c], -RANK[c], int(c))):
        if VALUE[c] > room:
            continue
        pts = sum(s.points for s in peg_scores(play.count_cards + (c,), seat, play.count + VALUE[c]))
        if pts > best_pts:
            best, best_pts = c, pts
    if best is None:
        return Go(seat), 0
    return PlayCard(seat, best), best_pts
