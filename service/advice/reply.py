"""The rest of a 2-player play searched for the game against an opponent who plays for points.

:class:`~service.core.kernel.WinSearch` is a minimax for the game: the other
side is taken to see every card and to play to stop the seat winning.  The
strong level plays nothing like that: it pegs for points (it does not know
the target) and does not see the seat's cards.  :class:`PointsReply` keeps
the seat's side choosing the line with the best chance of winning, and lets
the other side play, at each of its turns, the move the double-dummy search
for points ranks first (:class:`~service.core.kernel.Search`, the strong
level's own model of a deal: its net pegging, then its own points, a card
before a go, the higher rank first) -- so the seat plans against the replies
it will meet, not against a perfect defender.

Same interface as ``WinSearch`` (``value``, ``lines``), over the kernel's
packed hands and count; a side reaching its target wins at once, and the end
of the play is the caller's ``terminal(p0, p1)`` (the show in its order, the
board).
"""

from __future__ import annotations

from collections.abc import Callable

from service.core.engine import kernel

_BITS = kernel.HAND_BITS
_MASK = kernel.HAND_MASK


class PointsReply:
    """The seat's side (``side``) maximises its chance; the other side replies as the points search does.

    ``solver``: the double-dummy search for points (its memo shared with the caller's); ``need0``/``need1``:
    the points each side still needs; ``terminal(p0, p1)``: the chance once the play is over, the sides
    having pegged ``p0`` and ``p1`` since the root."""

    def __init__(self, solver: kernel.Search, side: int, need0: int, need1: int,
                 terminal: Callable[[int, int], float]) -> None:
        self.solver = solver
        self.side = side
        self.need = (need0, need1)
        self.terminal = terminal
        self.memo: dict[int, float] = {}
        self.ends: dict[int, float] = {}

    def value(self, hands: int, turn: int, count: int, seq: int, passed: int, last: int, p0: int, p1: int) -> float:
        """The seat's chance from a position, the sides having pegged ``p0`` and ``p1`` since the root."""
        if turn < 0:
            end = (p0 << 8) | p1
            got = self.ends.get(end)
            if got is None:
                got = self.ends[end] = self.terminal(p0, p1)
            return got
        key = ((((((((seq << 5) | count) << 2 | turn) << 4 | passed) << 3 | (last + 1)) << 16 | (p0 << 8) | p1)
                << (2 * _BITS)) | hands)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if turn == self.side:
            best = max(v for _, v in self.lines(hands, turn, count, seq, passed, last, p0, p1))
        else:
            reply = self.reply(hands, turn, count, seq, passed, last)
            move = next(m for m in kernel.play_moves(hands, turn, count, seq) if m[1] == reply)
            best = self._move(turn, passed, last, p0, p1, move)
        self.memo[key] = best
        return best

    def lines(self, hands: int, turn: int, count: int, seq: int, passed: int, last: int, p0: int,
              p1: int) -> list[tuple[int, float]]:
        """Each move of the seat to act (a rank, or 0 for go) and the seat's chance after it."""
        return [(move[1], self._move(turn, passed, last, p0, p1, move))
                for move in kernel.play_moves(hands, turn, count, seq)]

    def reply(self, hands: int, turn: int, count: int, seq: int, passed: int, last: int) -> int:
        """The move (a rank, 0 for go) the points search ranks first for the seat to act."""
        s = self.solver
        mine = turn  # two players: a seat is its side
        best_rank, best_key = 0, (-999, -999, -1, -1)
        for rank, val in s.lines(hands, turn, count, seq, passed, last):
            pts = s.points(val)
            key = (pts[mine] - pts[1 - mine], pts[mine], rank > 0, rank)
            if key > best_key:
                best_rank, best_key = rank, key
        return best_rank

    def _move(self, turn: int, passed: int, last: int, p0: int, p1: int, move: kernel.PlayMove) -> float:
        """The chance once the seat to act has made ``move`` (:func:`~service.core.kernel.play_moves`)."""
        _, rank, hands, count, seq, pts = move
        if rank == 0:
            return self._after(hands, turn, count, seq, passed | (1 << turn), last, p0, p1)
        if turn == 0:
            p0 += pts
        else:
            p1 += pts
        if pts and (p0, p1)[turn] >= self.need[turn]:
            return 1.0 if turn == self.side else 0.0
        return self._after(hands, turn, count, seq, passed, turn, p0, p1)

    def _after(self, hands: int, seat: int, count: int, seq: int, passed: int, last: int, p0: int, p1: int) -> float:
        """The chance once ``seat`` has moved: the go or last-card point pegged, a side at its target the
        winner."""
        turn, reset, go_to = kernel.play_on(2, hands, seat, count, passed, last)
        if go_to >= 0:
            if go_to == 0:
                p0 += kernel.GO_POINTS
            else:
                p1 += kernel.GO_POINTS
            if (p0, p1)[go_to] >= self.need[go_to]:
                return 1.0 if go_to == self.side else 0.0
        if reset:
            return self.value(hands, turn, 0, 0, 0, -1, p0, p1)
        return self.value(hands, turn, count, seq, passed, last, p0, p1)
