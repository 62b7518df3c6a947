"""The chance of winning from within a deal, estimated from what one viewer may see.

Each sample deals the cards the viewer cannot see (another seat's hand, the
crib, the starter not yet turned) at random from the cards it has not seen:
every hidden card of the deal is replaced by a distinct card drawn from the
unseen ones, so the sample depends on which slots are hidden (public), never
on what is in them.  A sample the play so far rules out (a seat that said go
would hold a card that fitted) is drawn again, which conditions on the goes.
The deal is then replayed with those cards (as a client deck) and played to
its end by the self-play policy of the tables (:mod:`.selfplay`), and valued:
a side that reaches the target wins; otherwise the next deal's start is read
from the table (:func:`.odds.board_odds`), or for 3 players one game is
played on by drawing sampled deals (:func:`.odds.play_out`).

The estimate is the mean over the samples, with its standard error; the
number of samples is the caller's, bounded by a time budget once
:data:`MIN_SAMPLES` are played.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, replace
from functools import lru_cache

from service.core.cards import CARDS, Card
from service.core.errors import CribbageError
from service.core.game import Cut, Deal, Discard, GameAction, GameState, Phase, PlayCard, restore, result
from service.core.game.observe import Viewer, visible_cards
from service.core.options import Outcome

from . import odds
from .selfplay import finish_deal

TIME_BUDGET = 0.5
"""Seconds of sampling, after the first :data:`MIN_SAMPLES`; the answer says how many samples fitted."""
MIN_SAMPLES = 8
"""Samples always played (if asked for): a small question's answer does not depend on the machine's load."""
TRIES = 50
"""Draws for one sample before giving up on it (the goes said rule out nearly every deal)."""


@dataclass(frozen=True, slots=True)
class DealEstimate:
    chances: tuple[float, ...]
    standard_errors: tuple[float, ...]
    samples: int
    """Samples played (0: no sampling, the position is a deal's start or the game's end)."""
    method: str
    """``table`` (a deal's start, 2 or 4 players), ``simulation`` (a deal's start, 3 players), ``over``,
    ``sampled`` (within a deal)."""
    seconds: float


def _map_cards(action: GameAction, m: dict[Card, Card]) -> GameAction:
    if isinstance(action, Deal) and action.hands is not None:
        return replace(action, hands=tuple(tuple(m.get(c, c) for c in h) for h in action.hands),
                       crib=tuple(m.get(c, c) for c in action.crib))
    if isinstance(action, Discard):
        return replace(action, cards=tuple(m.get(c, c) for c in action.cards))
    if isinstance(action, Cut) and action.starter is not None:
        return replace(action, starter=m.get(action.starter, action.starter))
    if isinstance(action, PlayCard):
        return replace(action, card=m.get(action.card, action.card))
    return action


def _deal_cards(state: GameState) -> list[Card]:
    """Every card of the deal so far in the state's actions (the slots; their order is the actions')."""
    out: list[Card] = []
    for a in state.actions:
        if isinstance(a, Deal) and a.hands is not None:
            out += [c for h in a.hands for c in h] + list(a.crib)
        elif isinstance(a, Cut) and a.starter is not None:
            out.append(a.starter)
    return out


def _sample(state: GameState, hidden: list[Card], unseen: list[Card], rng: random.Random) -> GameState | None:
    """The deal replayed with the hidden cards dealt again from the unseen ones; None if the play rules it out."""
    client = replace(state.options, deck="client", seed=None)
    for _ in range(TRIES):
        drawn = rng.sample(unseen, len(unseen))
        m = dict(zip(hidden, drawn))
        try:
            s = restore(state.game_id, client, state.first_dealer, None, state.deal, state.dealer, state.pegs,
                        state.deal_seq, state.history, [_map_cards(a, m) for a in state.actions])
        except CribbageError:
            continue
        return s
    return None


def _value(state: GameState, starter: Card, rng: random.Random) -> tuple[float, ...]:
    """One sample's worth: the deal played to its end, then the table (or a game played on, 3 players)."""
    o = state.options
    done, _ = finish_deal(state, starter=lambda: starter)
    chances = at_deal_start(done, result(done))
    if chances is not None:
        return chances
    won = odds.play_out(3, o.target, [f for f, _ in done.pegs], done.dealer, odds.deals("three"), rng)
    return tuple(1.0 if s == won else 0.0 for s in range(o.sides))


def at_deal_start(state: GameState, outcome: Outcome | None) -> tuple[float, ...] | None:
    """Each side's chance at the start of the state's deal, by the table: 1 and 0 once the game is over
    (``outcome``: the state's result); None with 3 players, who have no table (:func:`deal_start`
    simulates).  Every game view shows it; a lookup (cached: every answer of a deal asks the same)."""
    o = state.options
    if outcome is not None:
        return tuple(1.0 if s == outcome.winner else 0.0 for s in range(o.sides))
    if o.players == 3:
        return None
    return _table(o.players, o.target, tuple(f for f, _ in state.pegs), state.dealer, o.five_and_two)


@lru_cache(maxsize=8192)
def _table(players: int, target: int, scores: tuple[int, ...], dealer: int, five_and_two: bool) -> tuple[float, ...]:
    return odds.board_odds(players, target, scores, dealer, five_and_two)


def deal_start(state: GameState) -> DealEstimate:
    """The table's answer at the start of the state's deal (or the game's result)."""
    o = state.options
    over = result(state)
    chances = at_deal_start(state, over)
    if chances is None:
        e = odds.estimate(o.target, tuple(f for f, _ in state.pegs), state.dealer)
        return DealEstimate(e.chances, e.standard_errors, 0, "simulation", 0.0)
    return DealEstimate(chances, (0.0,) * o.sides, 0, "over" if over is not None else "table", 0.0)


def estimate_now(state: GameState, viewer: Viewer, samples: int, seed: int | str = 0,
                 budget: float = TIME_BUDGET) -> DealEstimate:
    """Each side's chance from the position now as ``viewer`` sees it (see the module's docstring)."""
    if result(state) is not None or state.phase is Phase.DEAL:
        return deal_start(state)
    start = time.perf_counter()
    visible = visible_cards(state, viewer)
    cards = _deal_cards(state)
    if visible is None:  # everything seen (a trusted platform): only the starter, if not turned, is unknown
        visible = frozenset(cards)
    hidden = [c for c in cards if c not in visible]
    unseen = [c for c in CARDS if c not in visible]
    rng = random.Random(f"odds-now/{state.game_id}/{state.seq}/{seed}")
    totals = [0.0] * state.options.sides
    squares = [0.0] * state.options.sides
    n = 0
    while n < samples and (n < MIN_SAMPLES or time.perf_counter() - start < budget):
        s = _sample(state, hidden, unseen, rng)
        if s is None:
            break
        dealt = set(_deal_cards(s))
        left = [c for c in unseen if c not in dealt]
        v = _value(s, rng.choice(left), rng)
        for side, x in enumerate(v):
            totals[side] += x
            squares[side] += x * x
        n += 1
    if n == 0:
        return deal_start(state)
    means = tuple(t / n for t in totals)
    errors = tuple(math.sqrt(max(0.0, q / n - m * m) / max(1, n - 1)) for q, m in zip(squares, means))
    return DealEstimate(means, errors, n, "sampled", time.perf_counter() - start)

