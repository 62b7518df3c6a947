"""Scoring finished games and matches the way ACC tournaments record them
(docs/rules.md, "Tournament scoring").

=================  ==============================================================
game points        2 for a win, 3 for a skunk (the loser below the skunk line,
                   91 in a game to 121), 0 for a loss; a double skunk (loser
                   below 61) and the lurch (loser below 61) are options with
                   their own values (4 unless given)
spread             the winner's margin: his score less the loser's; with the
                   Grass Roots variant the loser records 121 (the target) less
                   his score, whatever the winner pegged past it
match              totals of game points, games won and spread per side; a
                   best-of-3 (5, 7) match is decided when a side has won
                   more than half; the next game's first dealer alternates,
                   or (loser deals first) is the last game's loser
=================  ==============================================================

The skunk is classified in one place, :func:`service.core.options.loss`
(the lines and which switch counts what), for games and matches alike.

**Decision (three players):** each loser has his own result; the game's result
is the one against the loser nearest the winner (a skunk only when every loser
is below the line), which sets the winner's game points.  The winner's spread
is the sum of his margins over each loser, each loser records minus his own,
so the spread of a game always sums to 0.

>>> g = score_game([121, 85])
>>> g.winner, str(g.result), g.game_points, g.spread
(0, 'skunk', (3, 0), (36, -36))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Sequence

from service.core.errors import MalformedError
from service.core.options import TARGETS, Result, loss
from service.core.options import next_first_dealer as core_next_first_dealer

BEST_OF = (1, 3, 5, 7)
MAX_SCORE = 150
"""The highest final score: a side one short of 121 counting a 29 hand."""


@dataclass(frozen=True, slots=True)
class MatchRules:
    """How finished games are worth game points and how a match is decided."""

    target: int = 121
    win_points: int = 2
    skunk_points: int = 3
    double_skunk: bool = False
    """Loser below 61: the double skunk, worth ``double_skunk_points``."""
    double_skunk_points: int = 4
    lurch: bool = False
    """Loser below 61: the lurch, worth ``lurch_points`` (exclusive with the double skunk)."""
    lurch_points: int = 4
    grass_roots: bool = False
    """The loser records target - his score as the spread."""
    best_of: int | None = None
    first_dealer: int = 0
    """The first dealer of the match's first game."""
    loser_deals_first: bool = False

    def __post_init__(self) -> None:
        if self.target not in TARGETS:
            raise MalformedError(f"the target is 121 or 61, not {self.target}", at=("target",))
        if self.double_skunk and self.lurch:
            raise MalformedError("the double skunk and the lurch are one line (61): choose one", at=("lurch",))
        if (self.double_skunk or self.lurch) and self.target != 121:
            raise MalformedError("the double skunk and the lurch are for a game to 121",
                                 at=("lurch",) if self.lurch else ("double_skunk",))
        if self.best_of is not None and self.best_of not in BEST_OF:
            raise MalformedError("a match is best of 1, 3, 5 or 7 games", at=("best_of",))

    def points(self, result: Result) -> int:
        return {Result.WIN: self.win_points, Result.SKUNK: self.skunk_points,
                Result.DOUBLE_SKUNK: self.double_skunk_points, Result.LURCH: self.lurch_points}[result]


class GameScore(NamedTuple):
    """One finished game as a tournament records it."""

    scores: tuple[int, ...]
    winner: int
    result: Result
    loser_results: tuple[tuple[int, Result], ...]
    """(side, its result) for each loser."""
    game_points: tuple[int, ...]
    spread: tuple[int, ...]
    first_dealer: int | None


def loser_result(score: int, rules: MatchRules) -> Result:
    """What a loser's score makes of the win: win, skunk, double skunk or lurch
    (the rule's one home is :func:`service.core.options.loss`; a tournament
    always counts the skunk)."""
    return loss(score, rules.target, double_skunk=rules.double_skunk, lurch=rules.lurch)


def check_final(scores: Sequence[int], rules: MatchRules) -> int:
    """A finished game's scores: 2 or 3 sides, exactly one at the target or past it; the winner's side."""
    if not 2 <= len(scores) <= 3:
        raise MalformedError(f"a game has 2 or 3 sides (4 players score as 2 partnerships), not {len(scores)}",
                             at=("scores",))
    for i, s in enumerate(scores):
        if type(s) is not int or not 0 <= s <= MAX_SCORE:
            raise MalformedError(f"a final score is 0 to {MAX_SCORE}", at=("scores", i))
    won = [i for i, s in enumerate(scores) if s >= rules.target]
    if len(won) != 1:
        raise MalformedError(f"a finished game has exactly one side at {rules.target} or more, not {len(won)}",
                             at=("scores",))
    return won[0]


def score_game(scores: Sequence[int], rules: MatchRules = MatchRules(), first_dealer: int | None = None) -> GameScore:
    """Game points and spread of one finished game (see the module docstring)."""
    winner = check_final(scores, rules)
    losers = [(side, loser_result(s, rules)) for side, s in enumerate(scores) if side != winner]
    nearest = max((side for side, _ in losers), key=lambda side: scores[side])
    result = dict(losers)[nearest]
    points = [0] * len(scores)
    points[winner] = rules.points(result)
    top = rules.target if rules.grass_roots else scores[winner]
    spread = [0] * len(scores)
    for side, _ in losers:
        margin = top - scores[side]
        spread[side] = -margin
        spread[winner] += margin
    return GameScore(tuple(scores), winner, result, tuple(losers), tuple(points), tuple(spread), first_dealer)


class MatchScore(NamedTuple):
    games: tuple[GameScore, ...]
    totals: tuple[int, ...]
    """Game points per side."""
    games_won: tuple[int, ...]
    spread: tuple[int, ...]
    winner: int | None
    """The side that has won a best-of match (None while undecided, or without best_of)."""
    decided_after: int | None
    """How many games decided it."""
    next_first_dealer: int | None
    """Who deals first in the next game (None once a best-of match is decided)."""


def next_first_dealer(game: GameScore, first_dealer: int, rules: MatchRules) -> int:
    """The next game's first dealer: this game's loser (the lowest score) with
    loser-deals-first, else the player left of this game's first dealer (the
    same rule as :func:`service.core.game.state.result`)."""
    return core_next_first_dealer(game.scores, first_dealer, rules.loser_deals_first, len(game.scores))


def score_match(games: Sequence[Sequence[int]], rules: MatchRules = MatchRules()) -> MatchScore:
    """Score every game, total them per side and decide a best-of match.

    Every game has the same number of sides; no game is played after a
    best-of match is decided (each is an error naming ``games/<i>``).

    >>> m = score_match([[121, 100], [90, 121], [121, 60]], MatchRules(best_of=3))
    >>> m.totals, m.games_won, m.winner, m.decided_after
    ((5, 3), (2, 1), 0, 3)
    """
    if not games:
        raise MalformedError("a match has at least one game", at=("games",))
    sides = None
    dealer = rules.first_dealer
    scored: list[GameScore] = []
    winner = decided = None
    need = None if rules.best_of is None else rules.best_of // 2 + 1
    for i, scores in enumerate(games):
        if decided is not None:
            raise MalformedError(f"the match was decided after game {decided}", at=("games", i))
        try:
            if sides is not None and len(scores) != sides:
                raise MalformedError(f"every game of a match has {sides} sides", at=("scores",))
            if not 0 <= dealer < len(scores):
                raise MalformedError(f"the first dealer is a side of the game (0 to {len(scores) - 1})",
                                     at=("first_dealer",))
            game = score_game(scores, rules, dealer)
        except MalformedError as exc:
            raise exc if exc.at == ("first_dealer",) else exc.within("games", i)
        sides = len(scores)
        scored.append(game)
        dealer = next_first_dealer(game, dealer, rules)
        if need is not None and sum(g.winner == game.winner for g in scored) == need:
            winner, decided = game.winner, i + 1
    assert sides is not None
    totals = tuple(sum(g.game_points[s] for g in scored) for s in range(sides))
    won = tuple(sum(g.winner == s for g in scored) for s in range(sides))
    spread = tuple(sum(g.spread[s] for g in scored) for s in range(sides))
    return MatchScore(tuple(scored), totals, won, spread, winner, decided, None if decided else dealer)
