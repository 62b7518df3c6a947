"""A finished game's review: every decision of every seat against the best one, and the luck of the cards.

Modelled on GNU Backgammon's analysis of a match (docs/review.md): each decision is
valued from what the deciding seat could see at that moment (never in hindsight),
its loss is the best action's value less the taken one's, in expected points and in
the chance of winning, and a fixed threshold on the loss in the chance of winning
names its category (:data:`THRESHOLDS`).  Per seat: its decisions, the forced ones
apart, the count in each category, the losses, and the luck of the cards it was dealt
and cut (:mod:`.luck`), so that skill and luck can be told apart.

The decisions:

* **discard**, **play** / **go** -- every legal action from the seat's view (its
  cards, its discards, the starter, the play so far), 2 to 4 players, at any
  score, valued by the one evaluation engine (:func:`.evaluate.evaluate`): the
  hidden cards dealt by the core's one model of them, read as the strong level
  throws, in at least :data:`.pegging.MIN_WORLDS` worlds (or every world, with
  its chance, where they are few), the rest of the deal played out in each and
  valued in points and in the chance of winning.  A decision's ``win`` for the
  action the strong level takes is what ``POST /v1/odds`` answers for that seat
  at that moment with the same number of worlds and the same seed
  (:data:`ODDS_SEED`);
* **count** / **claim** -- a claim the rules judge (muggins, muggins in the play,
  tournament rules): the best claim is the true count, and the loss is what the
  claim cost the seat's side on the board (points missed, muggins to the opponent,
  a false claim of game's set back), read from the game engine itself, and each
  claim's chance that of the position it reached, by the same evaluation
  (:class:`_Chance`); a forced play's or go's likewise.

A deal, a cut and a count whose claim the rules do not judge decide nothing; a
decision with one legal action is listed as forced and left out of the rates.
Nothing here knows HTTP or JSON.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from service.core.claims import NOT_CLAIMABLE
from service.core.errors import MalformedError
from service.core.game import (Count, Cut, Deal, Discard, GameAction, GameState, Go, Phase, PlayCard, apply_action,
                               deal_steps, legal, record_start, result)
from service.core.game.events import GameEvent, HandCounted, StarterTurned
from service.core.game.hidden import ThrowModel
from service.core.options import GameOptions

from . import bot, odds
from .discards import analyse_discards
from .evaluate import evaluate, position_value
from .luck import cut_luck, dealt_luck
from .odds_deal import at_deal_start
from .pegging import MIN_WORLDS
from .view import SeatView

CATEGORIES = ("ok", "doubtful", "bad", "very_bad")
THRESHOLDS = (("very_bad", 0.06), ("bad", 0.03), ("doubtful", 0.015))
"""The loss in the chance of winning from which a decision is doubtful, bad, very
bad: GNU Backgammon's 0.03, 0.06 and 0.12 of equity, which is twice the chance
of winning (equity = 2p - 1 when nothing but the game is at stake)."""
SAMPLES = 2 * MIN_WORLDS
"""Worlds each play or go is valued over (where they are not few enough to take each)."""
TYPICAL_PLAYS = 100
"""Plays and goes a review values at its full number of worlds (a 2-player game has about 70): a longer
game's plays are valued over fewer (never fewer than :data:`.pegging.MIN_WORLDS`) and its discards
refined less, so that no review costs far more than a typical game's (the longest legal game has about
1,200 plays)."""
FORCED_FEWEST = 4
"""Worlds a forced play's chance is valued over at the fewest: :data:`.pegging.MIN_WORLDS` in a game of
typical length, fewer in a longer one as its plays' (a forced play decides and flags nothing; the longest
legal game's review cost 2.9 s of CPU before forced plays were valued, 5.5 s with 16 worlds each)."""
DISCARD_SAMPLES = MIN_WORLDS
DISCARD_REFINE = 3 * MIN_WORLDS
"""Worlds each discard is valued over, and the best four over this many more: near the end of a game a
discard's worlds are won or lost whole, and sixteen alone leave the best of fifteen discards to chance
(with them the strong level against itself was flagged at 28 of 408 decisions of six games, with 64
each at 15)."""
ODDS_SEED = 0
"""The seed of the evaluation's worlds: ``POST /v1/odds``'s default, so that a decision's chance is the
one that operation answers."""
THREE_PLAYER_GAMES = 400
"""Games each 3-player board of a review is played out (:class:`_Chance`)."""
TIE = 1e-9
"""A loss smaller than this is none: the taken action is as good as the best."""

Step = tuple[GameState, GameAction, GameState, list[GameEvent]]


@dataclass(frozen=True, slots=True)
class Value:
    """An action's value to the deciding seat's side: expected net points over the rest of
    the deal (its side's less the others'), and its chance of winning the game."""

    points: float
    win: float


@dataclass(frozen=True, slots=True)
class Decision:
    index: int
    """The action's place in the game's record (0 for the first deal)."""
    deal: int
    seat: int
    """Who decided (for a claim of his heels, the dealer)."""
    kind: str
    """discard, play, go, count or claim."""
    taken: GameAction
    best: GameAction
    """The taken action when nothing was better."""
    taken_value: Value
    best_value: Value
    forced: bool
    category: str
    worlds: int = 0
    """The worlds of the hidden cards the values are means over (a claim's and a forced play's: of the
    positions they reached; 0 where those are a deal's start or the game's end, read from the board)."""

    @property
    def loss_points(self) -> float:
        return self.best_value.points - self.taken_value.points

    @property
    def loss_win(self) -> float:
        return self.best_value.win - self.taken_value.win


@dataclass(frozen=True, slots=True)
class DealLuck:
    deal: int
    dealer: int
    starter: Any
    """The starter (None when the game ended before the cut)."""
    dealt: tuple[float, ...]
    """Per seat: its dealt cards' best discard against the average deal's."""
    cut: tuple[float, ...]
    """Per seat: the starter's effect on what it counted (and his heels), against the mean."""


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    side: int
    decisions: int
    """Unforced decisions."""
    forced: int
    categories: dict[str, int]
    loss_points: float
    loss_win: float
    dealt_luck: float
    cut_luck: float

    @property
    def errors(self) -> int:
        return self.decisions - self.categories["ok"]

    @property
    def error_rate(self) -> float:
        return self.errors / self.decisions if self.decisions else 0.0


@dataclass(frozen=True, slots=True)
class Review:
    game_id: str
    options: GameOptions
    whole_game: bool
    """False for a state's review: only its last deal is in it."""
    decisions: tuple[Decision, ...]
    seats: tuple[SeatSummary, ...]
    deals: tuple[DealLuck, ...]


def category(loss_win: float) -> str:
    """The category of a decision that lost ``loss_win`` of the chance of winning."""
    for name, threshold in THRESHOLDS:
        if loss_win >= threshold:
            return name
    return "ok"


# ---------------------------------------------------------------------------
# The steps of a finished game.


def record_steps(options: GameOptions, first_dealer: int, game_id: str,
                 actions: Sequence[GameAction]) -> Iterator[Step]:
    """A record's actions (replayed and verified already), one step at a time."""
    state = record_start(options, first_dealer, game_id)
    for action in actions:
        after, events = apply_action(state, action)
        yield state, action, after, events
        state = after


def _finished(state: GameState, where: str) -> None:
    if state.phase != "over":
        raise MalformedError(f"a game is reviewed once it is over; this one is in deal {state.deal}, "
                             f"phase {state.phase}", at=(where,))


def review_record(options: GameOptions, first_dealer: int, game_id: str, actions: Sequence[GameAction],
                  final: GameState) -> Review:
    """The review of a whole game from its record, ``final`` the state it replays to."""
    _finished(final, "record")
    return review_steps(game_id, options, record_steps(options, first_dealer, game_id, actions), True)


def review_state(state: GameState) -> Review:
    """The review of a finished game's state: its last deal (the earlier ones are folded in its history)."""
    _finished(state, "state")
    return review_steps(state.game_id, state.options, deal_steps(state), False)


# ---------------------------------------------------------------------------
# Valuing decisions.


def decision_values(state: GameState, seat: int, samples: int = SAMPLES, model: ThrowModel | None = None,
                    refine: int = 0, taken: GameAction | None = None) -> tuple[list[tuple[GameAction, float, float]],
                                                                          int]:
    """Every legal action of ``seat`` now (a discard far from the target: those :func:`contenders`
    keeps, and ``taken``), valued by the one evaluation engine from its view: (action, net points, chance
    of winning), and the worlds the values are means over (``refine``: the best four discards over that
    many more).  ``model``: how the hidden cards are dealt (None: as the strong level reads them)."""
    v = bot.seat_view(state, seat)

    def among(legal: list[GameAction]) -> list[GameAction]:
        return contenders(v, legal, taken)

    e = evaluate(v, seed=ODDS_SEED, samples=samples, refine=refine,
                 model=bot.STRONG.model if model is None else model, lead_search=False, among=among, also=taken)
    # the taken discard is refined with the best: the most worlds any action was valued over are its
    return [(x.action, x.points, x.win) for x in e.values], max((x.worlds for x in e.values), default=0)


CONTENDER_POINTS = 3.0
"""Far from the target a discard whose hand and crib are worth this many points less than the best (the
discard advisor's exact means) is never the best for the game: the review values the others only (the
play, which the advisor leaves out, moves a discard by a point or two)."""


def contenders(v: SeatView, legal: list[GameAction], taken: GameAction | None) -> list[GameAction]:
    """The discards that may be best (all of them, and every other kind of action, near the target)."""
    if v.phase is not Phase.DISCARD or max(v.scores) + bot.BOARD_NEAR >= v.target:
        return legal
    own = v.options.owns_crib(v.seat, v.dealer)
    nets = {frozenset(ch.discard): ch.net for ch in analyse_discards(v.hand, v.players, own).choices}
    best = max(nets.values())
    keep: list[GameAction] = [a for a in legal
                              if isinstance(a, Discard) and nets[frozenset(a.cards)] >= best - CONTENDER_POINTS]
    if taken is not None and not any(_same(a, taken) for a in keep):
        keep.append(taken)
    return keep


def _best_discard(state: GameState, seat: int) -> float:
    """The seat's best discard's net by the discard advisor (hand and crib: the luck of the cards dealt is
    measured against the average deal's, which is this advisor's, :mod:`.luck`)."""
    pos = state.position
    own = state.options.owns_crib(seat, pos.dealer)
    return analyse_discards(pos.hands[seat], pos.options.players, own).choices[0].net


def _same(a: GameAction, b: GameAction) -> bool:
    if type(a) is Discard and type(b) is Discard:
        return set(a.cards) == set(b.cards)
    return a == b


def _net(before: GameState, after: GameState, side: int) -> int:
    """What the board moved for ``side``: its points less the other sides'."""
    moved = [a[0] - b[0] for a, b in zip(after.position.pegs, before.position.pegs)]
    return moved[side] - (sum(moved) - moved[side])


class _Chance:
    """A side's chance of winning from a position the review reached by an action, by the one evaluation:
    within a deal :func:`.evaluate.position_value` from the seat's view (the same seed and worlds for
    every action of one decision: they differ by what the action did, not by the draws), at a deal's start
    the win-probability table (3 players: :func:`.odds.simulate` from one seed a deal, common random
    numbers, so that two boards of one decision are not told apart by the simulation's noise)."""

    def __init__(self, options: GameOptions, game_id: str, model: ThrowModel | None) -> None:
        self.options, self.game_id = options, game_id
        self.model = bot.STRONG.model if model is None else model
        self._boards: dict[tuple[int, ...], tuple[float, ...]] = {}

    def _board(self, state: GameState) -> tuple[float, ...]:
        table = at_deal_start(state, result(state))  # the game's result, or the table (none with 3 players)
        if table is not None:
            return table
        o = self.options
        scores = tuple(front for front, _ in state.pegs)
        key = (state.deal, state.dealer, *scores)
        hit = self._boards.get(key)
        if hit is None:
            hit = odds.simulate(3, o.target, list(scores), state.dealer, THREE_PLAYER_GAMES, odds.deals("three"),
                                f"review/{self.game_id}/{state.deal}").chances
            self._boards[key] = hit
        return hit

    def of(self, state: GameState, seat: int, samples: int, action: GameAction | None = None) -> tuple[float, int]:
        """``seat``'s side's chance from ``state`` as the seat sees it (after ``action`` of its, if given;
        else where it is to act, after its strong level's), and the worlds it is a mean over (0: a deal's
        start or the game's end, read from the board)."""
        side = self.options.side_of(seat)
        if result(state) is not None or state.phase is Phase.DEAL:
            return self._board(state)[side], 0
        v = bot.seat_view(state, seat)
        if action is None and seat in v.to_act:
            action = bot.suggest(v, "strong").action
        e = position_value(v, seed=ODDS_SEED, samples=samples, model=self.model, action=action, lead_search=False)
        return e.chances[side], e.worlds


def _judged(state: GameState, action: GameAction) -> bool:
    o = state.options
    claim = getattr(action, "claim", None)
    if claim is None:
        return False
    if type(action) is Count:
        return o.muggins or o.tournament
    if type(action) is Cut:
        return o.tournament
    return o.muggins_in_play or o.tournament


def with_claim(action: GameAction, claim: int | None) -> GameAction:
    """A cut, play, go or count with another claim (None: the rules count it)."""
    changed: GameAction = replace(cast(Any, action), claim=claim)
    return changed


def _claimant(state: GameState, action: GameAction) -> int:
    return state.position.dealer if type(action) is Cut else action.seat


def _true_claim(state: GameState, action: GameAction) -> GameAction:
    """The action with the claim the rules give: the points the claimant made."""
    _, events = apply_action(state, with_claim(action, None))
    seat = _claimant(state, action)
    if type(action) is Cut:
        made = sum(e.points for e in events if type(e) is StarterTurned)
    else:
        made = sum(s.points for e in events for s in e.scores if s.seat == seat and s.kind not in NOT_CLAIMABLE)
    return with_claim(action, made)


# ---------------------------------------------------------------------------
# The review.


class _Reviewer:
    def __init__(self, game_id: str, options: GameOptions, samples: int, model: ThrowModel | None,
                 plays: int) -> None:
        self.game_id, self.options = game_id, options
        self.samples, self.model = samples, model
        share = min(1.0, TYPICAL_PLAYS / max(1, plays))
        self.play_samples = max(MIN_WORLDS, round(SAMPLES * share))
        self.refine = round(DISCARD_REFINE * share)
        self.forced_samples = max(FORCED_FEWEST, round(MIN_WORLDS * share))
        self.chance = _Chance(options, game_id, model)
        self.decisions: list[Decision] = []
        self.deals: list[DealLuck] = []

    def _values(self, state: GameState, seat: int,
                taken: GameAction | None = None) -> tuple[list[tuple[GameAction, float, float]], int]:
        """Every legal action of ``seat``: (action, points, win), and the worlds valued."""
        if state.position.phase is Phase.DISCARD:
            return decision_values(state, seat, self.samples or DISCARD_SAMPLES, self.model,
                                   0 if self.samples else self.refine, taken)
        return decision_values(state, seat, self.samples or self.play_samples, self.model)

    def _after(self, seat: int,
               values: list[tuple[GameAction, GameState, float]]) -> tuple[list[tuple[GameAction, float, float]], int]:
        """Actions valued by the positions they reach (action, the state after it, its net points), the
        first the best: each one's chance by :class:`_Chance`, a loss never gaining (the draws are common
        to all, but a simulated board with 3 players may be a little off monotone)."""
        chances = [self.chance.of(after, seat, self.play_samples) for _, after, _ in values]
        best = chances[0][0]
        return [(a, p, min(best, c)) for (a, _, p), (c, _) in zip(values, chances)], max(w for _, w in chances)

    def _decision(self, index: int, state: GameState, after: GameState, seat: int, kind: str,
                  taken: GameAction, values: list[tuple[GameAction, float, float]], forced: bool,
                  worlds: int = 0) -> None:
        best_action, best_points, best_win = max(values, key=lambda v: (v[2], v[1]))
        mine = [(p, w) for a, p, w in values if _same(a, taken)]
        if mine:
            taken_points, taken_win = mine[0]
        else:
            # Not among the valued actions: a go while holding a card that fits (a renege under
            # tournament rules), valued by the position it reached, its penalty paid.
            penalty = -_net(state, after, self.options.side_of(seat))
            reached, _ = self.chance.of(after, seat, self.play_samples)
            taken_points, taken_win = best_points - penalty, min(best_win, reached)
        if taken_win >= best_win - TIE and taken_points >= best_points - TIE:
            best_action, best_points, best_win = taken, taken_points, taken_win
        self.decisions.append(Decision(index, state.deal, seat, kind, taken, best_action,
                                       Value(taken_points, taken_win), Value(best_points, best_win), forced,
                                       "ok" if forced else category(best_win - taken_win), worlds))

    def step(self, index: int, before: GameState, action: GameAction, after: GameState,
             events: list[GameEvent]) -> None:
        kind = type(action)
        if kind is Deal:
            self._luck = _LuckOfDeal(before, action)
        elif kind is Discard:
            values, worlds = self._values(before, action.seat, action)
            self._luck.best_discard[action.seat] = _best_discard(before, action.seat)
            self._decision(index, before, after, action.seat, "discard", action, values, len(values) == 1, worlds)
        elif kind in (PlayCard, Go):
            card = with_claim(action, None)
            if len(legal(before, action.seat)) > 1:
                values, worlds = self._values(before, action.seat)
                forced = False
            else:  # nothing to decide (the review's rates leave it out): its chance is the position's after it
                # over the fewest worlds a decision takes (fewer in a long game): it flags nothing, and
                # forced plays are a third of all plays
                win, worlds = self.chance.of(before, action.seat, self.forced_samples, card)
                values, forced = [(card, 0.0, win)], True
            self._decision(index, before, after, action.seat, "play" if kind is PlayCard else "go", card, values,
                           forced, worlds)
        if _judged(before, action):
            self._claim(index, before, action, after)
        self._luck.record(action, events)
        if after.deal != before.deal or after.phase == "over":
            self.deals.append(self._luck.luck(self.options))

    def _claim(self, index: int, before: GameState, action: GameAction, after: GameState) -> None:
        seat = _claimant(before, action)
        side = self.options.side_of(seat)
        best = _true_claim(before, action)
        best_after, _ = apply_action(before, best)
        values, worlds = self._after(seat, [(best, best_after, float(_net(before, best_after, side))),
                                            (action, after, float(_net(before, after, side)))])
        self._decision(index, before, after, seat, "count" if type(action) is Count else "claim", action, values,
                       False, worlds)

    def summaries(self) -> tuple[SeatSummary, ...]:
        out = []
        for seat in range(self.options.players):
            mine = [d for d in self.decisions if d.seat == seat]
            free = [d for d in mine if not d.forced]
            categories = {c: sum(d.category == c for d in free) for c in CATEGORIES}
            out.append(SeatSummary(seat, self.options.side_of(seat), len(free), len(mine) - len(free), categories,
                                   sum(d.loss_points for d in free), sum(d.loss_win for d in free),
                                   sum(d.dealt[seat] for d in self.deals), sum(d.cut[seat] for d in self.deals)))
        return tuple(out)


class _LuckOfDeal:
    """What one deal dealt and cut, gathered as its actions pass."""

    def __init__(self, before: GameState, deal: GameAction) -> None:
        assert type(deal) is Deal and deal.hands is not None  # a completed deal
        self.state = before
        self.hands = deal.hands
        self.dealt = [card for hand in deal.hands for card in hand] + list(deal.crib)
        self.starter: Any = None
        self.best_discard: dict[int, float] = {}
        """Each seat's best discard's net, from its discard's review."""
        self.counted: list[tuple[int, tuple[Any, ...], bool]] = []

    def record(self, action: GameAction, events: Iterable[GameEvent]) -> None:
        for e in events:
            if type(e) is StarterTurned:
                self.starter = e.starter
            elif type(e) is HandCounted:
                self.counted.append((e.seat, e.cards, e.what == "crib"))

    def luck(self, options: GameOptions) -> DealLuck:
        s = self.state
        n = options.players
        dealt = tuple(dealt_luck(self.best_discard[seat], n, len(self.hands[seat]),
                                 options.owns_crib(seat, s.dealer)) for seat in range(n))
        if self.starter is None:
            cut = (0.0,) * n
        else:
            cut = tuple(cut_luck([(cards, crib) for who, cards, crib in self.counted if who == seat], self.starter,
                                 self.dealt, seat == s.dealer) for seat in range(n))
        return DealLuck(s.deal, s.dealer, self.starter, dealt, cut)


def review_steps(game_id: str, options: GameOptions, steps: Iterable[Step], whole: bool = True,
                 samples: int = 0, model: ThrowModel | None = None) -> Review:
    """The review of a game's steps (:func:`record_steps`, :func:`~service.core.game.deal_steps`),
    finished or not: the callers above say which games may be reviewed.  ``samples``: the evaluation's
    worlds a decision (0: :data:`SAMPLES` a play, :data:`DISCARD_SAMPLES` a discard); ``model``: how it deals the hidden cards (None: as the strong level reads them)."""
    steps = list(steps)
    plays = sum(type(action) in (PlayCard, Go) for _, action, _, _ in steps)
    r = _Reviewer(game_id, options, samples, model, plays)
    first: int | None = None
    for i, (before, action, after, events) in enumerate(steps):
        first = before.seq if first is None else first
        r.step(first + i, before, action, after, events)
    return Review(game_id, options, whole, tuple(r.decisions), r.summaries(), tuple(r.deals))


__all__ = ["CATEGORIES", "THRESHOLDS", "Decision", "DealLuck", "Review", "SeatSummary", "Value", "category",
           "record_steps", "review_record", "review_state", "review_steps"]
