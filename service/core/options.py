"""Game options: the player count, the target and every variant, all off by
default (docs/rules.md, "The deal" and "Variants").

:class:`GameOptions` is the one place options are checked: every value and
combination (its constructor), each error located at the option
(``("seed",)``).  How options are written as JSON, and each JSON value's
type, are the boundary's (:mod:`service.boundary.options`).  The constants
below are the values allowed, for an edge that documents them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple, Sequence

from .errors import Location, MalformedError

PLAYERS = (2, 3, 4)
TARGETS = (121, 61)
DECKS = ("random", "seeded", "client")
"""How each deal is ordered: a cryptographically random shuffle, a shuffle
reproducible from ``seed``, or cards supplied by the client (a real table)."""
SEED_LENGTH = (1, 200)
"""The shortest and the longest seed, in characters."""
SECRET_SEED_LENGTH = 32
"""The shortest seed of a sealed game: whoever knows a seed deals the same
packs (a second game started with it holds every seat of a twin), so there
the seed is a secret and must not be guessable."""
DOUBLE_SKUNK_GAMES = (3, 4)


def side_of(players: int, seat: int) -> int:
    """Whose score a seat pegs on: with four players the partnerships, seats
    0 and 2 (side 0) against 1 and 3 (side 1); otherwise each seat its own.

    >>> side_of(4, 3), side_of(3, 2)
    (1, 2)
    """
    return seat % 2 if players == 4 else seat


def next_seat(players: int, seat: int) -> int:
    """The seat to the left of ``seat``: play goes round the table clockwise,
    so the turn, the deal and the first deal of the next game pass to the left.

    >>> next_seat(2, 1), next_seat(3, 1), next_seat(4, 3)
    (0, 2, 0)
    """
    return (seat + 1) % players


def pone(players: int, dealer: int) -> int:
    """The pone: the seat to the dealer's left, who cuts the pack and leads
    the play.

    >>> pone(2, 0), pone(3, 2), pone(4, 1)
    (1, 0, 2)
    """
    return next_seat(players, dealer)


def check_seat(players: int, seat: int, at: Location) -> int:
    """``seat``, when it is at a ``players``-player table (seats 0 to ``players - 1``); else malformed,
    naming ``at`` (the one sentence for a seat that is not there, wherever a request names one).

    >>> check_seat(3, 2, ("dealer",))
    2
    >>> check_seat(2, 3, ("seat",))
    Traceback (most recent call last):
    service.core.errors.MalformedError: seat 3 is not at a 2-player table
    """
    if not 0 <= seat < players:
        raise MalformedError(f"seat {seat} is not at a {players}-player table", at=at)
    return seat


def owns_crib(players: int, seat: int, dealer: int) -> bool:
    """Whether the crib is ``seat``'s side's: the seat deals, or (four players) its partner does.

    >>> owns_crib(2, 1, 1), owns_crib(4, 2, 0), owns_crib(4, 1, 0), owns_crib(3, 2, 0)
    (True, True, False, False)
    """
    return side_of(players, seat) == side_of(players, dealer)


def sides_of(players: int) -> int:
    """Scores kept at a table: one per player, or one per partnership with four."""
    return 2 if players == 4 else players


def side_totals(players: int, per_seat: Sequence[int]) -> list[int]:
    """Each side's points from each seat's (the partnerships' sums with four players).

    >>> side_totals(4, [1, 2, 3, 4]), side_totals(3, [1, 2, 3])
    ([4, 6], [1, 2, 3])
    """
    out = [0] * sides_of(players)
    for seat, points in enumerate(per_seat):
        out[side_of(players, seat)] += points
    return out


@dataclass(frozen=True, slots=True)
class GameOptions:
    players: int = 2
    target: int = 121
    five_and_two: bool = False
    """Two players: 5 cards each and 2 straight to the crib, each discards 1."""
    deck: str = "random"
    seed: str | None = None
    ten_value_ties: bool = False
    """Cut for deal: any two ten-value cards also tie (cut again)."""
    tournament: bool = False
    """ACC penalties: a go while able costs 2 a playable card (the renege)."""
    muggins: bool = False
    """Points a player fails to claim in the show go to the opponent."""
    muggins_in_play: bool = False
    """Muggins also for points not claimed in the play."""
    skunk: bool = False
    """Loser below the skunk line: 2 games; below the double-skunk line: 3 (or 4)."""
    double_skunk_games: int = 3
    lurch: bool = False
    """Loser below 61 (121 game): the win counts 2 games; its own switch."""
    loser_deals_first: bool = False
    """The next game of a match is dealt first by this game's loser."""

    def __post_init__(self) -> None:
        if self.players not in PLAYERS:
            raise MalformedError(f"a game is for 2, 3 or 4 players, not {self.players}", at=("players",))
        if self.target not in TARGETS:
            raise MalformedError(f"the target is 121 or 61, not {self.target}", at=("target",))
        if self.five_and_two and self.players != 2:
            raise MalformedError("the five-and-two deal is for 2 players", at=("five_and_two",))
        if self.deck not in DECKS:
            raise MalformedError(f"deck is one of {', '.join(DECKS)}", at=("deck",))
        if (self.deck == "seeded") != (self.seed is not None):
            raise MalformedError("a seed is given exactly when the deck is 'seeded'", at=("seed",))
        if self.seed is not None and not SEED_LENGTH[0] <= len(self.seed) <= SEED_LENGTH[1]:
            raise MalformedError(f"a seed is {SEED_LENGTH[0]} to {SEED_LENGTH[1]} characters", at=("seed",))
        if self.double_skunk_games not in DOUBLE_SKUNK_GAMES:
            raise MalformedError("a double skunk counts 3 or 4 games", at=("double_skunk_games",))
        if self.lurch and self.target != 121:
            # The lurch line is 61 points short of 121; a game to 61 has none
            # (as match scoring decides: one rule for both operations).
            raise MalformedError("the lurch (loser below 61) is for a game to 121", at=("lurch",))
        if self.muggins_in_play and not self.muggins:
            raise MalformedError("muggins in the play needs muggins", at=("muggins_in_play",))

    @property
    def sides(self) -> int:
        """Scores kept: one per player, or one per partnership with four."""
        return sides_of(self.players)

    def side_of(self, seat: int) -> int:
        return side_of(self.players, seat)

    def owns_crib(self, seat: int, dealer: int) -> bool:
        """Whether the crib is ``seat``'s side's when ``dealer`` deals (:func:`owns_crib`)."""
        return owns_crib(self.players, seat, dealer)

    @property
    def cards_dealt(self) -> int:
        return 6 if self.players == 2 and not self.five_and_two else 5

    @property
    def dealt_to_crib(self) -> int:
        """Cards dealt straight to the crib from the pack."""
        if self.players == 3:
            return 1
        return 2 if self.five_and_two else 0

    @property
    def discards(self) -> int:
        return self.cards_dealt - 4

    @property
    def skunk_line(self) -> int:
        return skunk_line(self.target)

    @property
    def double_skunk_line(self) -> int | None:
        return double_skunk_line(self.target)


def next_first_dealer(scores: Sequence[int], first_dealer: int, loser_deals_first: bool, seats: int) -> int:
    """Who deals first in the next game: with ``loser_deals_first`` the loser
    (the lowest score, the first such side on a tie), else the seat left of
    this game's first dealer (``seats`` round the table)."""
    if loser_deals_first:
        return min(range(len(scores)), key=lambda side: (scores[side], side))
    return next_seat(seats, first_dealer)


class Result(StrEnum):
    """What a loser's score makes of a win (docs/rules.md, "Skunk"; ACC game points)."""

    WIN = "win"
    SKUNK = "skunk"
    DOUBLE_SKUNK = "double_skunk"
    LURCH = "lurch"


def skunk_line(target: int) -> int:
    """Below it a loser is skunked: 91 in a game to 121, 31 in a game to 61."""
    return 91 if target == 121 else 31


def double_skunk_line(target: int) -> int | None:
    """Below it a loser is double skunked (or lurched): 61, in a game to 121 only."""
    return 61 if target == 121 else None


def loss(score: int, target: int, *, skunk: bool = True, double_skunk: bool = True, lurch: bool = False) -> Result:
    """The one home of the skunk: what a loser's ``score`` makes of the win.
    Below the 61 line (a game to 121 only) a double skunk where skunks are
    counted and the double skunk is played, else a lurch where that is; then
    below the skunk line a skunk where skunks are counted; else a plain win.

    >>> loss(60, 121), loss(60, 121, double_skunk=False, lurch=True), loss(60, 121, skunk=False, lurch=True)
    (<Result.DOUBLE_SKUNK: 'double_skunk'>, <Result.LURCH: 'lurch'>, <Result.LURCH: 'lurch'>)
    >>> loss(30, 61), loss(91, 121), loss(90, 121, skunk=False)
    (<Result.SKUNK: 'skunk'>, <Result.WIN: 'win'>, <Result.WIN: 'win'>)
    """
    low = double_skunk_line(target)
    if low is not None and score < low:
        if skunk and double_skunk:
            return Result.DOUBLE_SKUNK
        if lurch:
            return Result.LURCH
    if skunk and score < skunk_line(target):
        return Result.SKUNK
    return Result.WIN


class Loser(NamedTuple):
    """A side that lost a game: its score, what that makes of the win (None: a plain win), the games it counts."""

    side: int
    score: int
    result: Result | None
    games: int


class Outcome(NamedTuple):
    """Who won a game and how many games each loser's margin is worth; for a
    game played (:func:`service.core.game.result`), who deals the next one first."""

    winner: int
    losers: tuple[Loser, ...]
    next_first_dealer: int | None = None


def outcome(options: GameOptions, winner_side: int, scores: Sequence[int]) -> Outcome:
    """Who won, and how many games each loser's margin is worth.

    >>> outcome(GameOptions(skunk=True), 0, [121, 80]).losers
    (Loser(side=1, score=80, result=<Result.SKUNK: 'skunk'>, games=2),)
    """
    games_for = {Result.WIN: 1, Result.SKUNK: 2, Result.LURCH: 2, Result.DOUBLE_SKUNK: options.double_skunk_games}
    losers = []
    for side, score in enumerate(scores):
        if side == winner_side:
            continue
        result = loss(score, options.target, skunk=options.skunk, lurch=options.lurch)
        losers.append(Loser(side, score, None if result is Result.WIN else result, games_for[result]))
    return Outcome(winner_side, tuple(losers))
