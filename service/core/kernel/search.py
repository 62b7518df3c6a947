"""The searches of the play, every hand known (double dummy), on packed hands.

A hand for a search is its ranks sorted, four bits each, lowest first
(:func:`pack_hand`); :func:`play_move` is the one move generator every
search steps through: the points search (:class:`Search`, the strong level's
model of a deal), the game search (:class:`WinSearch`), the greedy playout
(:func:`greedy_play`) and the advice's reply search.
"""

from __future__ import annotations

from typing import Callable, Final

from .rules import FITS_RANK, GO_POINTS, RANK, RANK_VALUE, after, card_points, lay

# ---------------------------------------------------------------------------
# The rest of a play searched to its end, every hand known (double dummy).
#
# A position: ``hands`` (each seat's hand packed by :func:`pack_hand`, 16 bits
# a seat, seat 0 lowest), ``turn``, ``count``, ``seq`` (the count's rank
# sequence), ``passed`` (bits) and ``last`` (-1: no card yet in this count).
# Cards of one rank are one move: the play scores ranks only.  A value is the
# points each side pegs from a position to the end of the hand, SIDE_BITS a
# side with side 0 highest, so that values compare as ints the way tuples of
# the sides' points compare.

HAND_BITS: Final = 16
HAND_MASK: Final = (1 << HAND_BITS) - 1
SIDE_BITS: Final = 10
SIDE_MASK: Final = (1 << SIDE_BITS) - 1


def pack_hand(cards: tuple[int, ...]) -> int:
    """A hand for the search: its cards' ranks in ascending order, 4 bits each, the lowest first."""
    ranks = sorted([RANK[c] for c in cards])
    packed = 0
    for i in range(len(ranks) - 1, -1, -1):
        packed = (packed << 4) | ranks[i]
    return packed


PlayMove = tuple[int, int, int, int, int, int]
"""A move in a packed play position, as :func:`play_move` gives it: ``(card, rank, hands, count, seq,
points)`` -- where the card laid lay in the hand (1 for the first; -1 for a go, 0: no move left), the
rank laid (0: go), the packed hands, the count and the rank sequence after it, and what the card pegs
at once (the go or last-card point is :func:`play_on`'s)."""


def play_move(hands: int, turn: int, count: int, seq: int, after: int) -> PlayMove:
    """The one move generator of every search of the play: the move of the seat to act after its card
    ``after`` (0: its first move).  The moves are a card of each rank it holds that fits the count, once,
    in the order held (its first card of that rank leaves the hand); or, when none fits, go.  A search
    never reneges.  Asked again with the ``card`` it answered, it answers the next move; ``card`` 0 once
    there is none.  (An iterator in all but name: compiled, its answer is a C struct, not a tuple.)"""
    at = HAND_BITS * turn
    hand = (hands >> at) & HAND_MASK
    fits = FITS_RANK[count]
    i = after if after > 0 else 0
    prev = (hand >> (4 * (i - 1))) & 15 if i > 0 else 0
    x = hand >> (4 * i)
    while x:
        rank = x & 15
        x >>= 4
        i += 1
        if rank == prev or not fits[rank]:
            prev = rank
            continue
        now = count + RANK_VALUE[rank]
        same, run, kept = lay(seq, rank)
        low = (1 << (4 * (i - 1))) - 1
        rest = (hand & low) | ((hand >> (4 * i)) << (4 * (i - 1)))
        return i, rank, (hands & ~(HAND_MASK << at)) | (rest << at), now, kept, card_points(same, run, now)
    if after == 0:
        return -1, 0, hands, count, seq, 0  # no card fits: go
    return 0, 0, hands, count, seq, 0


def play_moves(hands: int, turn: int, count: int, seq: int) -> list[PlayMove]:
    """Every move of :func:`play_move`, as a list (for what is not compiled)."""
    out: list[PlayMove] = []
    card = 0
    while True:
        move = play_move(hands, turn, count, seq, card)
        card = move[0]
        if card == 0:
            return out
        out.append(move)
        if card < 0:
            return out


def play_on(players: int, hands: int, seat: int, count: int, passed: int, last: int) -> tuple[int, int, int]:
    """:func:`after` in a packed play position, once ``seat`` has moved: who holds cards read from
    ``hands``; ``passed`` and ``last`` as the move left them (a go adds the seat to ``passed``, a card
    makes it ``last``)."""
    holding = 0
    for s in range(players):
        if (hands >> (HAND_BITS * s)) & HAND_MASK:
            holding |= 1 << s
    return after(players, seat, count, holding, passed, last)


class PositionCapReached(Exception):
    """A search reached its ``cap`` of positions (raised from inside the search)."""


class Search:
    """Double-dummy values of play positions, memoised across calls (one search per request).

    Each seat plays to maximise its side's net pegging (its side's points
    less the other sides'); ties go to the side's own points, then to the
    values themselves, a total order, so every equal choice gives the same
    value.  ``side`` is each seat's side (a player, or a partnership);
    ``nodes`` counts the positions searched (memo hits excluded); with a
    ``cap`` (0: none) the search stops with :class:`PositionCapReached` before
    it would search more, inside a deal as well as between deals.
    """

    def __init__(self, players: int, side: tuple[int, ...], cap: int = 0) -> None:
        self.cap = cap
        self.players = players
        self.side = side
        self.sides = max(side) + 1
        self.shift = tuple([SIDE_BITS * (self.sides - 1 - side[s]) for s in range(players)])
        self.memo: dict[int, int] = {}
        self.nodes = 0

    def points(self, value: int) -> tuple[int, ...]:
        """A value as each side's points, side 0 first."""
        return tuple([(value >> (SIDE_BITS * (self.sides - 1 - i))) & SIDE_MASK for i in range(self.sides)])

    def value(self, hands: int, turn: int, count: int, seq: int, passed: int, last: int) -> int:
        """The value of a position (0 once the hand is over, ``turn`` -1)."""
        if turn < 0:
            return 0
        key = ((((((seq << 5) | count) << 2 | turn) << 4 | passed) << 3 | (last + 1)) << (HAND_BITS * self.players)
               | hands)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if self.cap and self.nodes >= self.cap:
            raise PositionCapReached()
        self.nodes += 1
        best = self._best(hands, turn, count, seq, passed, last, None)
        self.memo[key] = best
        return best

    def lines(self, hands: int, turn: int, count: int, seq: int, passed: int,
              last: int) -> list[tuple[int, int]]:
        """Each move of the seat to act (a rank, or 0 for go) and the value of the
        line it begins; the position itself is neither counted nor kept."""
        out: list[tuple[int, int]] = []
        self._best(hands, turn, count, seq, passed, last, out)
        return out

    def _after(self, hands: int, seat: int, count: int, seq: int, passed: int, last: int) -> int:
        """The value once ``seat`` has moved, the go or last-card point included."""
        turn, reset, go_to = play_on(self.players, hands, seat, count, passed, last)
        if reset:
            v = self.value(hands, turn, 0, 0, 0, -1)
        else:
            v = self.value(hands, turn, count, seq, passed, last)
        if go_to >= 0:
            v += GO_POINTS << self.shift[go_to]
        return v

    def _best(self, hands: int, turn: int, count: int, seq: int, passed: int, last: int,
              lines: list[tuple[int, int]] | None) -> int:
        mine = self.shift[turn]
        best = -1
        best_net = 0
        best_own = 0
        card = 0
        while True:
            card, rank, after_hands, now, kept, pts = play_move(hands, turn, count, seq, card)
            if card == 0:
                break
            if rank:
                v = self._after(after_hands, turn, now, kept, passed, turn) + (pts << mine)
            else:  # no card fits: go
                v = self._after(hands, turn, count, seq, passed | (1 << turn), last)
            if lines is not None:
                lines.append((rank, v))
            own = (v >> mine) & SIDE_MASK
            total = 0
            y = v
            while y:
                total += y & SIDE_MASK
                y >>= SIDE_BITS
            net = 2 * own - total
            if best < 0 or net > best_net or (net == best_net and (own > best_own or (own == best_own and v > best))):
                best = v
                best_net = net
                best_own = own
            if card < 0:
                break
        return best


def greedy_play(players: int, side: tuple[int, ...], hands: int, turn: int, count: int, seq: int, passed: int,
                last: int, need: tuple[int, ...], move: int = -1) -> tuple[tuple[int, ...], int]:
    """The rest of a play (as :class:`Search` positions it) with every seat laying the card that pegs most
    at once (the higher rank on a tie), go when none fits: each side's points, and the first side to peg
    the points it ``need``\\ s (-1: none; ``need`` empty: never asked).  A cheap stand-in for the search
    where a play is valued many times over (the evaluation's discards).  ``move``: the first move of the
    seat to act, as :meth:`Search.lines` names it (a rank it holds that fits, 0 for go; -1: greedy too)."""
    pts = [0] * (max(side) + 1)
    first = -1
    while turn >= 0:
        best_rank = 0
        best_pts = -1
        best_hands = hands
        best_count = count
        best_seq = seq
        card = 0
        while move != 0:  # (a first move of go: no card)
            card, rank, after_hands, now, kept, p = play_move(hands, turn, count, seq, card)
            if card <= 0:
                break
            if move > 0 and rank != move:
                continue
            if p >= best_pts:  # ranks ascend: the higher rank wins a tie
                best_rank, best_pts, best_hands, best_count, best_seq = rank, p, after_hands, now, kept
        seat = turn
        move = -1
        if best_rank:
            hands, count, seq = best_hands, best_count, best_seq
            mine = side[seat]
            pts[mine] += best_pts
            last = seat
            if need and first < 0 and best_pts and pts[mine] >= need[mine]:
                first = mine
        else:
            passed |= 1 << seat
        turn, reset, go_to = play_on(players, hands, seat, count, passed, last)
        if go_to >= 0:
            pts[side[go_to]] += GO_POINTS
            if need and first < 0 and pts[side[go_to]] >= need[side[go_to]]:
                first = side[go_to]
        if reset:
            count = 0
            seq = 0
            passed = 0
            last = -1
    return tuple(pts), first


# ---------------------------------------------------------------------------
# The rest of a play searched for the game (double dummy): the first side to
# reach the target wins at once.
#
# Two sides.  A value is the chance that side ``side`` wins, a float; the
# seats of that side maximise it, the others minimise it.  A position is the
# points search's plus the points each side has pegged since the root (the
# same cards reached with other points are another position for the game).
# Once the play is over ``terminal(p0, p1)`` values what each side pegged in
# it (the show and the board after it are the caller's).


class WinSearch:
    """Double-dummy values of play positions for the game, memoised (one search per deal and board).

    ``need``: the points each side still needs; ``nodes`` counts the positions searched.  A line
    that wins for the side to move (or loses, for its opponents) is not searched further: nothing
    beats it, so the value is exact."""

    def __init__(self, players: int, side_of_seat: tuple[int, ...], side: int, need0: int, need1: int,
                 terminal: Callable[[int, int], float]) -> None:
        self.players = players
        self.side_of_seat = side_of_seat
        self.side = side
        self.need0 = need0
        self.need1 = need1
        self.terminal = terminal
        self.memo: dict[int, float] = {}
        self.ends: dict[int, float] = {}
        self.nodes = 0

    def value(self, hands: int, turn: int, count: int, seq: int, passed: int, last: int, p0: int, p1: int) -> float:
        """The chance of ``side`` from a position, its sides having pegged ``p0`` and ``p1`` since the root."""
        if turn < 0:
            end = (p0 << 8) | p1
            got = self.ends.get(end)
            if got is not None:
                return got
            v = self.terminal(p0, p1)
            self.ends[end] = v
            return v
        key = ((((((((seq << 5) | count) << 2 | turn) << 4 | passed) << 3 | (last + 1)) << 16 | (p0 << 8) | p1)
                << (HAND_BITS * self.players)) | hands)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        best = self._best(hands, turn, count, seq, passed, last, p0, p1, None)
        self.memo[key] = best
        return best

    def lines(self, hands: int, turn: int, count: int, seq: int, passed: int, last: int, p0: int,
              p1: int) -> list[tuple[int, float]]:
        """Each move of the seat to act (a rank, or 0 for go) and the chance of the line it begins."""
        out: list[tuple[int, float]] = []
        self._best(hands, turn, count, seq, passed, last, p0, p1, out)
        return out

    def _won(self, side: int) -> float:
        return 1.0 if side == self.side else 0.0

    def _after(self, hands: int, seat: int, count: int, seq: int, passed: int, last: int, p0: int, p1: int) -> float:
        """The value once ``seat`` has moved (its points in ``p0``/``p1``): the go or last-card point
        pegged here, a side at its target the winner."""
        turn, reset, go_to = play_on(self.players, hands, seat, count, passed, last)
        if go_to >= 0:
            if self.side_of_seat[go_to] == 0:
                p0 += GO_POINTS
                if p0 >= self.need0:
                    return self._won(0)
            else:
                p1 += GO_POINTS
                if p1 >= self.need1:
                    return self._won(1)
        if reset:
            return self.value(hands, turn, 0, 0, 0, -1, p0, p1)
        return self.value(hands, turn, count, seq, passed, last, p0, p1)

    def _best(self, hands: int, turn: int, count: int, seq: int, passed: int, last: int, p0: int, p1: int,
              lines: list[tuple[int, float]] | None) -> float:
        mover = self.side_of_seat[turn]
        maximise = mover == self.side
        done = 1.0 if maximise else 0.0
        best = -1.0
        card = 0
        while True:
            card, rank, after_hands, now, kept, pts = play_move(hands, turn, count, seq, card)
            if card == 0:
                break
            if rank:
                if mover == 0:
                    q0 = p0 + pts
                    q1 = p1
                    won = pts > 0 and q0 >= self.need0
                else:
                    q0 = p0
                    q1 = p1 + pts
                    won = pts > 0 and q1 >= self.need1
                if won:
                    v = self._won(mover)
                else:
                    v = self._after(after_hands, turn, now, kept, passed, turn, q0, q1)
            else:  # no card fits: go
                v = self._after(hands, turn, count, seq, passed | (1 << turn), last, p0, p1)
            if lines is not None:
                lines.append((rank, v))
            if best < 0 or (v > best if maximise else v < best):
                best = v
            if card < 0 or (lines is None and best == done):
                break
        return best
