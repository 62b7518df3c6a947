"""Standings from game results, by the ACC tie-breakers, and the cross-check
of each game's two scorecards (docs/rules.md, "Tournament scoring").

A result is one player's line for one game: his opponent, the game points
he earned (2 a win, 3 a skunk, 0 a loss...), games won (1 or 0) and the
spread (his margin, minus when he lost).  The standings order players by,
in this order:

1. game points;
2. games won;
3. net point spread (the sum of his spreads);
4. plus points -- **Decision:** the sum of his positive spreads (the points
   he won his games by);
5. head-to-head -- **Decision:** among the players still tied, the game
   points each earned in games against the others of that group (with two
   players, who beat whom);
6. still tied: a one-game playoff is needed (``playoff``); the standings
   list them together in the order they first appear, each with the
   position of the first of them (``playoff_group``): naming every other
   player on every line would make the answer grow with the square of a
   tie (2,000 lines of one tie: tens of megabytes).

Every step is linear in the lines (and the sort n log n): the head-to-head
is summed over the lines once, each line counting when its opponent is in
its player's tie group.

The cross-check pairs each game's two lines (A v B and B v A of the same
round, or the n-th of each when no round is given) and flags a pair whose
sides disagree: both or neither won, the game points on the loser's line
(transposed), spreads that do not cancel, or a winner with a spread below 1.
A line without its other half is listed as unmatched.  Flagged lines still
count as given.

>>> rows = [Result("A", "B", 2, 1, 20), Result("B", "A", 0, 0, -20)]
>>> [(s.player, s.game_points, s.position) for s in standings(rows).table]
[('A', 2, 1), ('B', 0, 2)]
"""

from __future__ import annotations

from collections import defaultdict, deque
from typing import NamedTuple, Sequence

from service.core.errors import MalformedError

TIE_BREAKERS = ("game_points", "games_won", "spread", "plus", "head_to_head", "playoff")
MAX_RESULTS = 2000


class Result(NamedTuple):
    player: str
    opponent: str
    game_points: int
    won: int
    spread: int
    round: int | None = None


class Standing(NamedTuple):
    position: int
    player: str
    games: int
    game_points: int
    games_won: int
    spread: int
    plus: int
    head_to_head: int | None
    """Game points against the others tied with him on the first four keys (None if nobody is)."""
    decided_by: str | None
    """The first tie-breaker that puts him above the next player (None for the last)."""
    playoff_group: int | None
    """Tied with others on every key (a one-game playoff is needed): the position of the
    first of them, each of them listed next to the others; None if tied with nobody."""


class Disagreement(NamedTuple):
    results: tuple[int, ...]
    """Indexes of the lines concerned."""
    players: tuple[str, ...]
    round: int | None
    problem: str
    reason: str


class Standings(NamedTuple):
    table: tuple[Standing, ...]
    disagreements: tuple[Disagreement, ...]


def _key(t: dict[str, int]) -> tuple[int, int, int, int]:
    return (t["game_points"], t["won"], t["spread"], t["plus"])


def standings(results: Sequence[Result]) -> Standings:
    """The standings and the cross-check of ``results`` (see the module docstring)."""
    if len(results) > MAX_RESULTS:
        raise MalformedError(f"at most {MAX_RESULTS} results", field="results")
    totals: dict[str, dict[str, int]] = {}
    for i, r in enumerate(results):
        if r.player == r.opponent:
            raise MalformedError(f"{r.player!r} cannot play himself", field=f"results/{i}/opponent")
        for name in (r.player, r.opponent):
            if name not in totals:
                totals[name] = {"games": 0, "game_points": 0, "won": 0, "spread": 0, "plus": 0}
        t = totals[r.player]
        t["games"] += 1
        t["game_points"] += r.game_points
        t["won"] += r.won
        t["spread"] += r.spread
        t["plus"] += max(r.spread, 0)
    keys = {name: _key(t) for name, t in totals.items()}
    group_size: dict[tuple[int, int, int, int], int] = defaultdict(int)
    for k in keys.values():
        group_size[k] += 1
    # Head-to-head counts only among players tied on the four sums: one pass over the
    # lines, each counting for its player when its opponent is of his group.
    h2h: dict[str, int | None] = {n: 0 if group_size[k] > 1 else None for n, k in keys.items()}
    for r in results:
        if keys[r.player] == keys[r.opponent]:
            h2h[r.player] += r.game_points  # type: ignore[operator]  # tied: not None
    full = {n: (*keys[n], h2h[n] or 0) for n in totals}
    order = sorted(totals, key=full.__getitem__, reverse=True)  # stable: ties keep the order given
    table = []
    first = 0  # the index of the first of the players tied with this one on every key
    for pos, name in enumerate(order):
        t = totals[name]
        if pos and full[order[pos - 1]] != full[name]:
            first = pos
        decided = None
        if pos + 1 < len(order):
            decided = next((tb for tb, x, y in zip(TIE_BREAKERS, full[name], full[order[pos + 1]]) if x != y),
                           "playoff")
        tied = decided == "playoff" or first < pos
        table.append(Standing(pos + 1, name, t["games"], t["game_points"], t["won"], t["spread"],
                              t["plus"], h2h[name], decided, first + 1 if tied else None))
    return Standings(tuple(table), tuple(cross_check(results)))


def cross_check(results: Sequence[Result]) -> list[Disagreement]:
    """Each game's two lines compared; see the module docstring."""
    waiting: dict[tuple[int | None, str, str], deque[int]] = defaultdict(deque)  # a deque: the oldest line pairs first
    pairs: list[tuple[int, int]] = []
    for i, r in enumerate(results):
        other = waiting.get((r.round, r.opponent, r.player))
        if other:
            pairs.append((other.popleft(), i))
        else:
            waiting[r.round, r.player, r.opponent].append(i)
    out: list[Disagreement] = []
    for i, j in pairs:
        a, b = results[i], results[j]
        players, rnd = (a.player, b.player), a.round
        problems = []
        if a.won + b.won != 1:
            problems.append(("wins", f"{'both' if a.won and b.won else 'neither'} of {a.player} and {b.player} "
                                     "won the game"))
        else:
            win, lose = (a, b) if a.won else (b, a)
            if win.game_points <= 0 or lose.game_points != 0:
                transposed = win.game_points == 0 and lose.game_points > 0
                problems.append(("game_points_transposed" if transposed else "game_points",
                                 f"{win.player} won, but the game points are {win.player} {win.game_points}, "
                                 f"{lose.player} {lose.game_points}"))
            if win.spread < 1:
                problems.append(("spread", f"{win.player} won with a spread of {win.spread}"))
        if a.spread != -b.spread:
            problems.append(("spread_mismatch", f"the spreads {a.spread} ({a.player}) and {b.spread} ({b.player}) "
                                                "do not cancel"))
        for problem, reason in problems:
            out.append(Disagreement((i, j), players, rnd, problem, reason))
    for (rnd, player, opponent), left in waiting.items():
        for i in left:
            out.append(Disagreement((i,), (player, opponent), rnd, "unmatched",
                                    f"no line from {opponent} for this game"))
    out.sort(key=lambda d: d.results)
    return out
