"""The play searched for the game against an opponent who pegs for points (service/advice/reply.py):
its mechanics checked against the kernel's minimax for the game, its replies against the points solve."""

from __future__ import annotations

import random

import pytest

from service.advice.pegging import Solver, search_hands, solve
from service.advice.reply import PointsReply
from service.core.cards import CARDS, RANK
from service.core.engine import kernel
from service.core.play import Play, replay


class _Minimax(PointsReply):
    """The other side replying to stop the seat winning: then the search is the kernel's WinSearch."""

    def reply(self, hands: int, turn: int, count: int, seq: int, passed: int, last: int) -> int:
        raise AssertionError("not called")

    def value(self, hands, turn, count, seq, passed, last, p0, p1):
        if turn < 0 or turn == self.side:
            return super().value(hands, turn, count, seq, passed, last, p0, p1)
        return min(self._move(turn, passed, last, p0, p1, move) for move in kernel.play_moves(hands, turn, count, seq))


def _terminal(p0: int, p1: int) -> float:
    return ((7 * p0 + 3 * p1) % 11) / 10  # any function of the pegging: the searches must agree on it


@pytest.mark.parametrize("seed", range(12))
def test_against_a_perfect_defender_it_is_the_kernels_win_search(seed) -> None:
    rng = random.Random(seed)
    cards = rng.sample(CARDS, 8)
    hands = search_hands((tuple(cards[:4]), tuple(cards[4:])))
    side, pone = rng.randrange(2), rng.randrange(2)
    need0, need1 = rng.randint(3, 25), rng.randint(3, 25)
    ours = _Minimax(Solver(2), side, need0, need1, _terminal)
    theirs = kernel.WinSearch(2, (0, 1), side, need0, need1, _terminal)
    position = (pone, 0, 0, 0, -1, 0, 0)
    assert dict(ours.lines(hands, *position)) == dict(theirs.lines(hands, *position))


@pytest.mark.parametrize("seed", range(12))
def test_the_reply_is_the_points_solves_first_choice(seed) -> None:
    """Mid-play positions: the rank it replies with has the net and own points of the action the
    double-dummy points solve ranks first (the strong level's model of a deal)."""
    rng = random.Random(100 + seed)
    cards = rng.sample(CARDS, 8)
    play = Play.start(2, rng.randrange(2))._replace(held=(tuple(cards[:4]), tuple(cards[4:])))
    for _ in range(rng.randrange(0, 5)):
        play, _ = replay(play, [rng.choice(play.legal_actions())])
        if play.turn is None:
            return
    from service.advice.pegging import search_position
    solver = Solver(2)
    search = PointsReply(solver, 1 - play.turn, 99, 99, _terminal)
    rank = search.reply(search_hands(play.held), *search_position(play))
    options = solve(play)
    chosen = [o for o in options if (RANK[o.action.card] if hasattr(o.action, "card") else 0) == rank]
    assert chosen and (chosen[0].net, chosen[0].own) == (options[0].net, options[0].own)


@pytest.mark.parametrize("seed", range(12))
def test_a_points_player_defends_no_better_than_a_perfect_defender(seed) -> None:
    """Whatever the cards, the seat's chance against the points replies is at least its chance against
    the minimax for the game (the reply is one of the moves the minimax chooses among), and in some
    deals higher: a points player lets through a peg-out a perfect defender would stop."""
    rng = random.Random(200 + seed)
    higher = 0
    for _ in range(20):
        cards = rng.sample(CARDS, 8)
        hands = search_hands((tuple(cards[:4]), tuple(cards[4:])))
        side, pone = rng.randrange(2), rng.randrange(2)
        need0, need1 = rng.randint(2, 12), rng.randint(2, 12)
        position = (pone, 0, 0, 0, -1, 0, 0)
        against_points = PointsReply(Solver(2), side, need0, need1, _terminal).value(hands, *position)
        against_minimax = kernel.WinSearch(2, (0, 1), side, need0, need1, _terminal).value(hands, *position)
        assert against_points >= against_minimax
        higher += against_points > against_minimax
    assert higher > 0
