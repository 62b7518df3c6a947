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
A line without its other half is listed as unmatched.

**ACC 12.2** resolves a disagreement without asking the players, and the
standings count the lines as resolved (:func:`resolve_pair`):

* c. a spread marked on one card only is taken for both; **Decision:** a
  spread of 0 is no spread marked (no game is won by 0), written on the
  blank card in the column of that card's own result;
* d. both cards a win, or both a loss, with the spread in the plus column on
  one and the minus column on the other: the plus one wins;
* e. both a win or both a loss, the spreads in the same column: a loss for
  both, the spreads moved to the minus column;
* f. one win, both spreads in the same column: the win stands and the wrong
  card's spread changes column;
* a./b. spreads of different size: the disadvantage is to the apparent
  qualifier, on each card that is one (a winner's card takes the smaller
  win, a loser's the larger loss); a card of a player who is not one stands
  as written.  **Decision:** the apparent qualifiers are the top one in four
  (rounded up, ACC 13.2.b) of the standings of the lines as given, and every
  player of a playoff group that reaches into them;
* 12.1: a loss is 0 game points; **Decision:** a win's game points are the
  winner's card's, or (transposed) the loser's card's, or 2 when neither
  card has any.

What 12.2 does not resolve is left to the director (``resolved_by`` None),
counted as given: both spreads 0, a line without its other half, a forfeit
against a played line, two forfeit lines that disagree.  (12.2.h, "no harm,
no foul", is not applied.)

**Forfeits** (:class:`ResultKind` ``FORFEIT``, :func:`forfeit`): the player
present wins 2 game points and a game, the absent player none, and the
spread is ``forfeit_spread`` (0 unless the tournament says otherwise:
**Decision**, no points were pegged); a forfeit entered on one card only
stands for both (the opponent's line is implied, not unmatched).

>>> rows = [Result("A", "B", 2, 1, 20), Result("B", "A", 0, 0, -20)]
>>> [(s.player, s.game_points, s.position) for s in standings(rows).table]
[('A', 2, 1), ('B', 0, 2)]
"""

from __future__ import annotations

from collections import defaultdict, deque
from enum import StrEnum
from typing import NamedTuple, Sequence

from service.core.errors import MalformedError

from .bracket import qualifiers

TIE_BREAKERS = ("game_points", "games_won", "spread", "plus", "head_to_head", "playoff")
MAX_RESULTS = 2000
FORFEIT_POINTS = 2
"""A forfeit is a win (ACC 12.1: a win is 2, a skunk 3; a forfeit is no skunk)."""
WIN_POINTS = 2
"""A win's game points when neither card of a game has any (12.1)."""


class ResultKind(StrEnum):
    PLAYED = "played"
    FORFEIT = "forfeit"


class Problem(StrEnum):
    """What the cross-check finds wrong with a game's lines."""

    WINS = "wins"
    GAME_POINTS = "game_points"
    GAME_POINTS_TRANSPOSED = "game_points_transposed"
    SPREAD = "spread"
    SPREAD_MISMATCH = "spread_mismatch"
    UNMATCHED = "unmatched"
    KIND = "kind"
    """A forfeit on one card, a played game on the other."""


class Clause(StrEnum):
    """The rule that resolves a disagreement (ACC 12.2, and 12.1 for game points)."""

    A = "12.2.a"
    B = "12.2.b"
    C = "12.2.c"
    D = "12.2.d"
    E = "12.2.e"
    F = "12.2.f"
    GAME_POINTS = "12.1"


class Result(NamedTuple):
    player: str
    opponent: str
    game_points: int
    won: int
    spread: int
    round: int | None = None
    kind: ResultKind = ResultKind.PLAYED


def forfeit(player: str, opponent: str, won: bool, round: int | None = None, spread: int = 0) -> Result:
    """``player``'s line of a forfeited game: he won it (the opponent forfeited) or forfeited it."""
    if won:
        return Result(player, opponent, FORFEIT_POINTS, 1, spread, round, ResultKind.FORFEIT)
    return Result(player, opponent, 0, 0, -spread, round, ResultKind.FORFEIT)


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
    problem: Problem
    reason: str
    resolved_by: Clause | None = None
    """The clause of ACC 12.2 that resolves it; None: the director's to decide (counted as given)."""


class Correction(NamedTuple):
    """A line as the standings count it, changed from the line as given."""

    result: int
    was: Result
    now: Result
    rules: tuple[Clause, ...]


class Standings(NamedTuple):
    table: tuple[Standing, ...]
    disagreements: tuple[Disagreement, ...]
    corrections: tuple[Correction, ...] = ()
    counted: tuple[Result, ...] = ()
    """Every line as counted: the lines as given, corrected, and the implied halves of forfeits."""


def _key(t: dict[str, int]) -> tuple[int, int, int, int]:
    return (t["game_points"], t["won"], t["spread"], t["plus"])


def standings(results: Sequence[Result]) -> Standings:
    """The standings and the cross-check of ``results`` (see the module docstring):
    the lines resolved by ACC 12.2, then the table of the lines as counted."""
    if len(results) > MAX_RESULTS:
        raise MalformedError(f"at most {MAX_RESULTS} results", field="results")
    for i, r in enumerate(results):
        if r.player == r.opponent:
            raise MalformedError(f"{r.player!r} cannot play himself", field=f"results/{i}/opponent")
    pairs, single = _pairs(results)
    implied = [_other_half(results[i]) for i in single if results[i].kind is ResultKind.FORFEIT]
    given = list(results) + implied
    table = _table(given)
    q = qualifiers(len(table))
    apparent = {t.player for t in table if t.position <= q or (t.playoff_group or q + 1) <= q}
    counted = list(given)
    corrections: list[Correction] = []
    out: list[Disagreement] = []
    for i, j in pairs:
        problems = _problems(results[i], results[j])
        if not problems:
            continue
        resolved = resolve_pair(results[i], results[j], apparent)
        fixed: dict[str, Clause] = {}
        if resolved is not None:
            (counted[i], rules_i), (counted[j], rules_j), fixed = resolved
            for k, rules in ((i, rules_i), (j, rules_j)):
                if counted[k] != results[k]:
                    corrections.append(Correction(k, results[k], counted[k], rules))
        a, b = results[i], results[j]
        for problem, reason in problems:
            out.append(Disagreement((i, j), (a.player, b.player), a.round, problem, reason,
                                    fixed.get(_ASPECT[problem])))
    for i in single:
        r = results[i]
        if r.kind is not ResultKind.FORFEIT:
            out.append(Disagreement((i,), (r.player, r.opponent), r.round, Problem.UNMATCHED,
                                    f"no line from {r.opponent} for this game"))
    out.sort(key=lambda d: d.results)
    corrections.sort(key=lambda c: c.result)
    final = _table(counted) if corrections else table
    return Standings(final, tuple(out), tuple(corrections), tuple(counted))


def _other_half(r: Result) -> Result:
    """The opponent's line of a forfeit entered on one card."""
    return Result(r.opponent, r.player, FORFEIT_POINTS if not r.won else 0, 1 - r.won, -r.spread, r.round, r.kind)


def _table(results: Sequence[Result]) -> tuple[Standing, ...]:
    totals: dict[str, dict[str, int]] = {}
    for r in results:
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
    return tuple(table)


_ASPECT = {Problem.WINS: "wins", Problem.GAME_POINTS: "game_points", Problem.GAME_POINTS_TRANSPOSED: "game_points",
           Problem.SPREAD: "spread", Problem.SPREAD_MISMATCH: "spread", Problem.UNMATCHED: "", Problem.KIND: ""}


def _pairs(results: Sequence[Result]) -> tuple[list[tuple[int, int]], list[int]]:
    """Each game's two lines (the oldest waiting line pairs first), and the lines left single."""
    waiting: dict[tuple[int | None, str, str], deque[int]] = defaultdict(deque)
    pairs: list[tuple[int, int]] = []
    for i, r in enumerate(results):
        other = waiting.get((r.round, r.opponent, r.player))
        if other:
            pairs.append((other.popleft(), i))
        else:
            waiting[r.round, r.player, r.opponent].append(i)
    return pairs, sorted(i for left in waiting.values() for i in left)


def _problems(a: Result, b: Result) -> list[tuple[Problem, str]]:
    """What is wrong with a game's two lines (none when they agree)."""
    problems: list[tuple[Problem, str]] = []
    if a.kind is not b.kind:
        return [(Problem.KIND, f"a forfeit on one card ({(a if a.kind is ResultKind.FORFEIT else b).player}'s), "
                               "a played game on the other")]
    if a.won + b.won != 1:
        problems.append((Problem.WINS, f"{'both' if a.won and b.won else 'neither'} of {a.player} and {b.player} "
                                       "won the game"))
    elif a.kind is ResultKind.PLAYED:
        win, lose = (a, b) if a.won else (b, a)
        if win.game_points <= 0 or lose.game_points != 0:
            transposed = win.game_points == 0 and lose.game_points > 0
            problems.append((Problem.GAME_POINTS_TRANSPOSED if transposed else Problem.GAME_POINTS,
                             f"{win.player} won, but the game points are {win.player} {win.game_points}, "
                             f"{lose.player} {lose.game_points}"))
        if win.spread < 1:
            problems.append((Problem.SPREAD, f"{win.player} won with a spread of {win.spread}"))
    if a.spread != -b.spread:
        problems.append((Problem.SPREAD_MISMATCH, f"the spreads {a.spread} ({a.player}) and {b.spread} ({b.player}) "
                                                  "do not cancel"))
    return problems


def resolve_pair(a: Result, b: Result, apparent: set[str] | frozenset[str]
                 ) -> tuple[tuple[Result, tuple[Clause, ...]], tuple[Result, tuple[Clause, ...]], dict[str, Clause]] | None:
    """A game's two disagreeing played lines as ACC 12.2 corrects them, each with the clauses
    that changed it, and the clause that settled each aspect (``wins``, ``game_points``,
    ``spread``); None when the rule does not resolve them (see the module docstring).
    ``apparent``: the apparent qualifiers."""
    if a.kind is not ResultKind.PLAYED or b.kind is not ResultKind.PLAYED:
        return None
    fixed: dict[str, Clause] = {}
    changed: list[list[Clause]] = [[], []]
    won = [a.won, b.won]
    spread = [a.spread, b.spread]
    points = [a.game_points, b.game_points]
    if (spread[0] == 0) != (spread[1] == 0):  # c: marked on one card only
        blank = 0 if spread[0] == 0 else 1
        n = abs(spread[1 - blank])
        spread[blank] = n if won[blank] else -n
        fixed["spread"] = Clause.C
        changed[blank].append(Clause.C)
    elif spread[0] == 0:
        return None  # no spread on either card: the director's
    if won[0] + won[1] != 1:
        if (spread[0] > 0) != (spread[1] > 0):  # d: the plus column gets the win
            new = [1 if spread[0] > 0 else 0, 1 if spread[1] > 0 else 0]
            for k in (0, 1):
                if new[k] != won[k]:
                    changed[k].append(Clause.D)
            won = new
            fixed["wins"] = Clause.D
        else:  # e: a loss for both, the spreads in the minus column
            for k in (0, 1):
                if won[k] or spread[k] > 0 or points[k]:
                    changed[k].append(Clause.E)
            won, spread, points = [0, 0], [-abs(spread[0]), -abs(spread[1])], [0, 0]
            fixed["wins"] = fixed["game_points"] = Clause.E
            fixed.setdefault("spread", Clause.E)
            return _lines(a, b, points, won, spread, changed, fixed)
    w = 0 if won[0] else 1
    lose = 1 - w
    if spread[w] < 0 or spread[lose] > 0:  # f: the win stands, a spread changes column
        for k, sign in ((w, 1), (lose, -1)):
            if spread[k] * sign < 0:
                spread[k] = -spread[k]
                changed[k].append(Clause.F)
        fixed["spread"] = Clause.F
    if points[lose] != 0 or points[w] <= 0:  # 12.1: a loss is 0; the win's points are on a card
        if points[w] <= 0:
            points[w] = points[lose] if points[lose] > 0 else WIN_POINTS
            changed[w].append(Clause.GAME_POINTS)
        if points[lose]:
            points[lose] = 0
            changed[lose].append(Clause.GAME_POINTS)
        fixed["game_points"] = Clause.GAME_POINTS
    if spread[w] != -spread[lose]:  # a/b: the disadvantage to the apparent qualifier(s)
        small, large = sorted((spread[w], -spread[lose]))
        names = (a.player, b.player)
        for k, worse in ((w, small), (lose, -large)):
            if names[k] in apparent and spread[k] != worse:
                spread[k] = worse
                changed[k].append(Clause.A)
        both = names[w] in apparent and names[lose] in apparent
        if both:
            changed = [[Clause.B if c is Clause.A else c for c in cs] for cs in changed]
        fixed["spread"] = Clause.B if both else Clause.A
    return _lines(a, b, points, won, spread, changed, fixed)


def _lines(a: Result, b: Result, points: list[int], won: list[int], spread: list[int],
           changed: list[list[Clause]], fixed: dict[str, Clause]
           ) -> tuple[tuple[Result, tuple[Clause, ...]], tuple[Result, tuple[Clause, ...]], dict[str, Clause]]:
    na = a._replace(game_points=points[0], won=won[0], spread=spread[0])
    nb = b._replace(game_points=points[1], won=won[1], spread=spread[1])
    return (na, tuple(changed[0])), (nb, tuple(changed[1])), fixed


def cross_check(results: Sequence[Result]) -> list[Disagreement]:
    """Each game's two lines compared (see the module docstring), without resolving them."""
    pairs, single = _pairs(results)
    out = [Disagreement((i, j), (results[i].player, results[j].player), results[i].round, problem, reason)
           for i, j in pairs for problem, reason in _problems(results[i], results[j])]
    out += [Disagreement((i,), (results[i].player, results[i].opponent), results[i].round, Problem.UNMATCHED,
                         f"no line from {results[i].opponent} for this game")
            for i in single if results[i].kind is not ResultKind.FORFEIT]
    out.sort(key=lambda d: d.results)
    return out
