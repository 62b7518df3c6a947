"""What a card pegs in the play, as scores: fifteen, thirty-one, pairs and runs on the count.

The points are the kernel's (:func:`service.core.kernel.lay`,
:func:`~service.core.kernel.count_points`); this module names them and the
cards that made them.  The go and the last card are pegged when the count
is over (:func:`go_score`), by whoever knows whether anyone can play on (the
play, :meth:`service.core.play.Play.advance`, and the game's deal machine).
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from .cards import VALUE, Card
from .engine import kernel

MAX_COUNT = kernel.MAX_COUNT
PAIR_KINDS = ("", "", "pair", "pair_royal", "double_pair_royal")
"""By the number of cards of one rank ending the count (the points are :data:`kernel.PAIR_POINTS`)."""
_new = tuple.__new__  # every field given: NamedTuple's keyword-taking __new__ is not needed


class Score(NamedTuple):
    """Points pegged by one seat for one reason; ``cards`` are those that made it.
    A renege gives the number of cards that could have been played, never the cards."""

    seat: int
    kind: str
    points: int
    cards: tuple[Card, ...] = ()


def go_score(seat: int, anyone_holds: bool) -> Score:
    """The point for the last card of a count nobody can add to: a ``go`` while some seat still holds
    cards, the ``last_card`` once nobody does (the play's end).

    >>> go_score(1, True), go_score(0, False)
    (Score(seat=1, kind='go', points=1, cards=()), Score(seat=0, kind='last_card', points=1, cards=()))
    """
    return _new(Score, (seat, "go" if anyone_holds else "last_card", kernel.GO_POINTS, ()))


def peg_scores(count_cards: Sequence[Card], seat: int, count: int | None = None,
               pegged: tuple[int, int, int] | None = None) -> list[Score]:
    """What the last card of ``count_cards`` scores for ``seat`` (no go point).

    >>> [(s.kind, s.points) for s in peg_scores([Card.parse(c) for c in "3H 4D 3C 5S".split()], 0)]
    [('fifteen', 2), ('run', 3)]
    >>> [(s.kind, s.points) for s in peg_scores([Card.parse(c) for c in "6H 7D 7C 8S".split()], 0)]
    []
    """
    out: list[Score] = []
    if count is None:
        count = sum(VALUE[c] for c in count_cards)
    cards = tuple(count_cards)
    # ``pegged``: the kernel's answer for these cards, when the caller has it already
    points, same, run = kernel.pegs(cards, count) if pegged is None else pegged
    if points:
        out.append(_new(Score, (seat, "fifteen" if count != MAX_COUNT else "thirty_one", points, cards)))
    if same > 1:
        out.append(_new(Score, (seat, PAIR_KINDS[same], kernel.PAIR_POINTS[same], cards[-same:])))
    elif run:
        out.append(_new(Score, (seat, "run", run, cards[-run:])))
    return out
