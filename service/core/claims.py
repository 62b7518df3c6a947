"""Judged claims: what a player announced against what the rules give him
(docs/rules.md, "Judged claims").

A claim is the number of points a player announces for a counted hand or
crib, or for one card or go in the play.  :func:`judge` compares it with
the points the rules give that player (his own scores only: a go point or a
penalty that falls to another seat is that seat's), and says what is pegged:

* **correct** -- the claim is what he made: nothing changes;
* **under** by N -- without muggins the claim stands and the N points are
  lost (ACC 8.3, 11.1.b); with muggins the next opponent takes them
  (ACC 10), a ``muggins`` score to that seat (:func:`~.play.next_opponent`,
  the one home of "who takes a penalty or muggins"); when the opponent
  calls "muggins for M" (ACC 10.4.a, ``called``) he takes the lesser of M
  and N, and the rest is lost;
* **over** by N -- corrected to what he made, a correction, not a penalty
  (ACC 8.4.c): he pegs the true count.

A claim of 19 is the table's word for a hand of nothing (no hand scores 19),
so it is judged as a claim of 0 and said so (``zero_hand``).  Muggins never
takes penalty points, muggins scores themselves, or a missed his heels
(ACC 10.3): those are never the claimant's items here.

His heels not pegged before the dealer plays a card are forfeited (ACC
6.3.c, :func:`heels_pegged`).

A **false claim of game** (ACC 8.4.b, :func:`false_claim_of_game`): under
tournament rules, an over-claim that pegs into the game hole when the points
actually made do not reach it.  The offender is put back to the points
actually scored, the opponent receives the points over-claimed up to the
game hole, and the offender is set back 15 points (never below 0).

Which items were missed cannot be read from a number; the service takes the
claim to cover the items in the spoken order (fifteens, pairs, runs, flush,
nobs; in the play the order the scores fall) and lists what it does not
reach, the first item perhaps in part -- the same order the game pegs a
counted hand in.

>>> from .cards import Card
>>> s = [Score(0, "fifteen", 2), Score(0, "run", 3), Score(0, "nobs", 1)]
>>> r = judge(2, 0, s, 5, muggins=True)
>>> str(r.verdict), r.by, r.pegged, r.muggins, r.muggins_seat, [m.kind for m in r.missed]
('under', 1, 5, 1, 1, ['nobs'])
"""

from __future__ import annotations

from enum import StrEnum
from typing import Mapping, NamedTuple, Sequence

from .errors import MalformedError
from .peg import Score
from .play import PegEvent, next_opponent

FALSE_CLAIM_SET_BACK = 15
"""ACC 8.4.b: the points a false claim of game sets the offender back."""
MAX_CLAIM = 29
"""The most a claim may be: the best hand (29)."""
ZERO_HAND = 19
"""The claim that means "nothing": no hand scores 19."""
NOT_CLAIMABLE = frozenset({"renege", "muggins", "his_heels", "false_claim_of_game"})
"""Scores no claim covers and muggins never takes (ACC 10.3)."""



class Verdict(StrEnum):
    """A claim against what was made: the true count, short of it, or past it."""

    CORRECT = "correct"
    UNDER = "under"
    OVER = "over"


RULES = {
    (Verdict.CORRECT, False): "the claim is the true count",
    (Verdict.CORRECT, True): "the claim is the true count",
    (Verdict.UNDER, False): "ACC 8.3, 11.1.b: an under-claim stands; the points not claimed are lost",
    (Verdict.UNDER, True): "ACC 10: muggins -- the opponent takes the points the player missed",
    (Verdict.OVER, False): "ACC 8.4.c: an over-claim is corrected to the true count (a correction, not a penalty)",
    (Verdict.OVER, True): "ACC 8.4.c: an over-claim is corrected to the true count (a correction, not a penalty)",
}


class Ruling(NamedTuple):
    """A judged claim and what the table pegs for it."""

    seat: int
    claimed: int
    """The claim as announced (19 stays 19)."""
    counted: int
    """What the claim means (a claim of 19 is 0)."""
    made: int
    """The claimant's own points by the rules."""
    verdict: Verdict
    by: int
    """How far the claim is from what was made (0 when correct)."""
    pegged: int
    """What the claimant pegs."""
    lost: int
    """Points nobody pegs (an under-claim without muggins)."""
    muggins: int
    muggins_seat: int | None
    called: int | None
    """What the opponent called ("muggins for M", ACC 10.4.a), or None: he takes all that was missed."""
    zero_hand: bool
    missed: tuple[Score, ...]
    """The claimant's items the claim does not reach, in order (the first perhaps in part)."""
    scores: tuple[Score, ...]
    """Everything pegged, in table order: what the claim covers, other seats'
    scores in place, then the muggins score."""
    rule: str


RULE_CALLED = "ACC 10.4.a: muggins for the amount called -- the opponent takes the lesser of his call and the points missed"


def check_muggins_call(called: int, muggins: bool, claim: int | None) -> None:
    """A muggins call is 1 to 29 points, made on a ``claim``, and only where
    muggins is played; the one home of the rule (every edge that takes a call
    asks here, and :func:`judge` does too).

    >>> check_muggins_call(3, True, None)
    Traceback (most recent call last):
    ...
    service.core.errors.MalformedError: a muggins call is made on a claim: give the claim too
    """
    if type(called) is not int or not 1 <= called <= MAX_CLAIM:
        raise MalformedError(f"a muggins call is 1 to {MAX_CLAIM} points", at=("muggins_called",))
    if claim is None:
        raise MalformedError("a muggins call is made on a claim: give the claim too", at=("muggins_called",))
    if not muggins:
        raise MalformedError("a muggins call needs muggins on", at=("muggins_called",))


def check_claim(claim: int) -> None:
    """A claim is 0 to 29 points (an integer, not a bool)."""
    if type(claim) is not int or not 0 <= claim <= MAX_CLAIM:
        raise MalformedError(f"a claim is 0 to {MAX_CLAIM} points", at=("claim",))


def judge(players: int, seat: int, scores: Sequence[Score], claim: int, muggins: bool = False,
          show: bool = True, called: int | None = None) -> Ruling:
    """Judge ``seat``'s ``claim`` on ``scores`` (what one count, card or go
    scored, in order) with muggins on or off; see the module docstring.
    ``show``: a count of a hand or crib, where 19 means a hand of nothing
    (in the play a claim of 19 is only a number).  ``called``: the amount
    of the opponent's muggins call (ACC 10.4.a), with muggins only.

    >>> s = [Score(0, "fifteen", 2), Score(0, "pair", 2), Score(0, "run", 3)]
    >>> r = judge(2, 0, s, 2, muggins=True, called=3)
    >>> r.by, r.muggins, r.lost
    (5, 3, 2)
    """
    check_claim(claim)
    if called is not None:
        check_muggins_call(called, muggins, claim)
    zero = show and claim == ZERO_HAND
    counted = 0 if zero else claim
    own = [s for s in scores if s.seat == seat and s.kind not in NOT_CLAIMABLE]
    made = sum(s.points for s in own)
    if counted >= made:
        verdict = Verdict.CORRECT if counted == made else Verdict.OVER
        return Ruling(seat, claim, counted, made, verdict, counted - made, made, 0, 0, None, called,
                      zero, (), tuple(scores), RULES[verdict, muggins])
    out: list[Score] = []
    missed: list[Score] = []
    left = counted
    for s in scores:
        if s.seat != seat or s.kind in NOT_CLAIMABLE:
            out.append(s)
            continue
        take = min(left, s.points)
        left -= take
        if take:
            out.append(s._replace(points=take))
        if take < s.points:
            missed.append(s._replace(points=s.points - take))
    short = made - counted
    to = None
    taken = 0
    if muggins:
        to = next_opponent(players, seat)
        taken = short if called is None else min(called, short)
        out.append(Score(to, "muggins", taken))
    rule = RULES[Verdict.UNDER, muggins] if called is None else RULE_CALLED
    return Ruling(seat, claim, counted, made, Verdict.UNDER, short, counted, short - taken,
                  taken, to, called, zero, tuple(missed), tuple(out), rule)


class Settled(NamedTuple):
    """A claim as the table settles it: the ruling, the false claim of game if
    there was one, and everything pegged, in order."""

    ruling: Ruling
    false_claim: FalseClaimOfGame | None
    scores: tuple[Score, ...]
    """The ruling's scores, then (a false claim of game) the opponent's award and the set back."""


def settle(players: int, seat: int, scores: Sequence[Score], claim: int, *, muggins: bool, show: bool,
           called: int | None = None, tournament: bool = False, before: int | None = None,
           target: int = 121) -> Settled:
    """The one place a claim is composed: :func:`judge` it, then under
    ``tournament`` rules, knowing the claimant's side's score ``before`` the
    points, an over-claim into the game hole is a false claim of game (ACC
    8.4.b, :func:`false_claim_of_game`): the opponent receives the award and
    the offender is set back.  The game engine, the hand score and the
    pegging adjudication all settle claims here.

    >>> st = settle(2, 0, [Score(0, "fifteen", 2)], 12, muggins=False, show=True, tournament=True, before=110)
    >>> str(st.ruling.verdict), [(s.seat, s.kind, s.points) for s in st.scores]
    ('over', [(0, 'fifteen', 2), (1, 'false_claim_of_game', 9), (0, 'set_back', 15)])
    """
    ruling = judge(players, seat, scores, claim, muggins, show, called)
    out = ruling.scores
    false = None
    if tournament and before is not None and ruling.verdict is Verdict.OVER:
        false = false_claim_of_game(players, seat, before, ruling.made, ruling.counted, target)
        if false is not None:
            out += (Score(false.opponent, "false_claim_of_game", false.award),)
            if false.set_back:
                out += (Score(seat, "set_back", false.set_back),)
    return Settled(ruling, false, out)


def settle_play(players: int, events: Sequence[PegEvent], totals: Sequence[int], *, muggins: bool,
                calls: Mapping[int, int]) -> tuple[tuple[Settled | None, ...], list[int]]:
    """The claims of a play settled (:func:`settle`, each with the muggins call
    made on it, ``calls[i]``; None for an event with no claim), and each seat's
    ``totals`` (as the events pegged them) become what the table pegs.

    >>> from .play import Go, PegEvent
    >>> ev = [PegEvent(Go(1, 0), 31, (Score(1, "go", 1),), True, False)]
    >>> settled, totals = settle_play(2, ev, [0, 1], muggins=True, calls={})
    >>> str(settled[0].ruling.verdict), totals
    ('under', [1, 0])
    """
    out = list(totals)
    settled: list[Settled | None] = []
    for i, e in enumerate(events):
        claim = e.action.claim
        if claim is None:
            settled.append(None)
            continue
        st = settle(players, e.action.seat, e.scores, claim, muggins=muggins, show=False, called=calls.get(i))
        for s in e.scores:
            out[s.seat] -= s.points
        for s in st.scores:
            out[s.seat] += s.points
        settled.append(st)
    return tuple(settled), out


def heels_pegged(heels: int, claim: int | None, tournament: bool) -> int:
    """His heels as the dealer pegs them (ACC 6.3.c): under tournament rules his
    heels not pegged before he plays a card are forfeited, so he pegs what he
    claimed of them (``claim``: what he pegged before his first card; 0 when he
    forgot), never more than the 2 there are; muggins never takes them (ACC
    10.3).  Without tournament rules, or without a claim, he pegs them all.

    >>> heels_pegged(2, 0, True), heels_pegged(2, 2, True), heels_pegged(2, 0, False), heels_pegged(0, 2, True)
    (0, 2, 2, 0)
    """
    if claim is None or not tournament:
        return heels
    check_claim(claim)
    return min(claim, heels)


class FalseClaimOfGame(NamedTuple):
    """ACC 8.4.b, what a false claim of game costs."""

    seat: int
    """The offender."""
    put_back_to: int
    """His score with the points he actually made."""
    set_back: int
    """15, or less at the bottom of the board."""
    score: int
    """His score after the set back."""
    opponent: int
    """Who receives the points over-claimed (the next seat of the other side)."""
    award: int
    """The points over-claimed up to the game hole."""


def false_claim_of_game(players: int, seat: int, before: int, made: int, claimed: int,
                        target: int) -> FalseClaimOfGame | None:
    """Whether pegging ``claimed`` from ``before`` is a false claim of game (ACC
    8.4.b): the claim reaches ``target`` but the ``made`` points do not.

    **Decision:** the points over-claimed are counted up to the game hole (a
    claim past 121 gives the opponent no more than the pegs between the true
    score and 121), and the set back stops at 0.

    >>> false_claim_of_game(2, 0, 110, 8, 12, 121)
    FalseClaimOfGame(seat=0, put_back_to=118, set_back=15, score=103, opponent=1, award=3)
    >>> false_claim_of_game(2, 0, 110, 11, 12, 121) is None  # he made it: a correction only
    True
    """
    if before + claimed < target or before + made >= target:
        return None
    put_back = before + made
    back = min(FALSE_CLAIM_SET_BACK, put_back)
    return FalseClaimOfGame(seat, put_back, back, put_back - back, next_opponent(players, seat),
                            target - put_back)
