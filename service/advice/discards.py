"""What to throw: every discard choice of one seat's deal, best first.

A seat is dealt 6 cards (2 players) or 5 (3 or 4 players, or 2 players
"five and two") and lays 2 or 1 away to the crib.  For each choice:

* the **hand**: the kept four's show over every possible starter, each
  unseen card equally likely -- the mean, the min, the max and how many
  starters give each total (exact);
* the **crib**: its expected show under an opponent model, added when the
  crib is the seat's side's and subtracted when it is an opponent's:

  - ``random``: exact, every way the other seats' discards (and the cards
    dealt straight to the crib) can fall from the unseen cards, each equally
    likely, with every starter;
  - ``tuned``: the shipped table of :mod:`.crib_table` (best responses
    iterated to convergence), by the thrown ranks (and whether two are suited);

* the **net**: hand mean plus or minus crib mean, which orders the list.

The ``random`` crib is computed by classes, not one crib at a time: its
fifteens, pairs and runs depend only on the ranks of the five cards, and the
crib's unknown cards together with the starter are a uniform set of ``m``
unseen cards, so the rank part is a sum over rank multisets of ``m`` cards
weighted by how many card sets have them; the flush needs all ``m`` of the
throw's suit, and nobs is a jack in the crib of the starter's suit, each a
closed form (see :func:`_random_crib`).  ``tests/advice/test_advice_discards.py``
holds this equal to a brute-force enumeration, crib by crib.

>>> a = analyse_discards(parse_cards("5H 5C 5S JD 2C 9H".split()), players=2, own_crib=True, model="random")
>>> [str(c) for c in a.choices[0].keep], round(a.choices[0].hand.mean, 3)
(['5H', '5C', '5S', 'JD'], 16.652)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from math import comb

from service.core.cards import CARDS, JACK, RANK, Card, ensure_distinct, parse_cards
from service.core.engine import kernel
from service.core.errors import MalformedError
from service.core.game.hidden import ThrowModel

from . import crib_table

MODELS = ("tuned", "random")
_COMB = tuple(tuple(comb(n, k) for k in range(5)) for n in range(5))


@dataclass(frozen=True, slots=True)
class HandOutlook:
    """The kept four's show over every starter: exact mean, min, max, and
    ``counts`` as (points, starters giving them), points ascending."""

    mean: float
    min: int
    max: int
    counts: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    hand: HandOutlook
    crib: float
    """The crib's expected show (always positive: ``net`` applies the sign)."""
    net: float


@dataclass(frozen=True, slots=True)
class DiscardAnalysis:
    model: str
    players: int
    own_crib: bool
    unseen: int
    """How many cards the seat cannot see (every starter considered)."""
    choices: tuple[DiscardChoice, ...]
    """Every choice, best (highest net) first."""


def crib_cards_unknown(players: int, dealt: int) -> int:
    """Cards of the crib the seat does not supply: the others' discards and
    any dealt straight to it (4 less the seat's own throw)."""
    return 4 - (dealt - 4)


def table_mode(players: int, dealt: int) -> str:
    """Which deal a tuned table is for: ``two`` (2 players, 6 cards),
    ``five_and_two``, ``three`` or ``four``."""
    if players == 2:
        return "two" if dealt == 6 else "five_and_two"
    return "three" if players == 3 else "four"


def check_deal(cards: Sequence[Card], players: int, known: Sequence[Card] = ()) -> None:
    """The deal a seat can be given: 6 cards with 2 players or 5 (any player
    count), no card twice among the cards and the known ones."""
    if players not in (2, 3, 4):
        raise MalformedError(f"a game is for 2, 3 or 4 players, not {players}", field="players")
    allowed = (5, 6) if players == 2 else (5,)
    if len(cards) not in allowed:
        raise MalformedError(f"with {players} players a seat is dealt {' or '.join(map(str, allowed))} cards,"
                             f" not {len(cards)}", field="cards")
    ensure_distinct((*cards, *known))
    dealt_to_crib = 1 if players == 3 else (2 if len(cards) == 5 and players == 2 else 0)
    elsewhere = (players - 1) * len(cards) + dealt_to_crib + 1  # the others' deals, the crib's, the starter
    if 52 - len(cards) - len(known) < elsewhere:
        raise MalformedError("too many known cards: the other seats' cards and the starter must be unseen",
                             field="known")


def analyse_discards(cards: Sequence[Card], players: int, own_crib: bool, known: Sequence[Card] = (),
                     model: str = "tuned") -> DiscardAnalysis:
    """Every discard of ``cards``, best first (see the module's docstring)."""
    cards = tuple(CARDS[c] for c in cards)
    known = tuple(CARDS[c] for c in known)
    check_deal(cards, players, known)
    if model not in MODELS:
        raise MalformedError(f"the model is one of {', '.join(MODELS)}", field="model")
    seen = set(cards) | set(known)
    unseen = tuple(c for c in CARDS if c not in seen)
    throw_n = len(cards) - 4
    need = crib_cards_unknown(players, len(cards))
    if model == "random":
        crib_of = _random_crib(unseen, need)
    else:
        mode = table_mode(players, len(cards))

        def crib_of(throw: Sequence[Card]) -> float:
            return crib_table.crib_value(mode, own_crib, throw)
    sign = 1.0 if own_crib else -1.0
    choices = []
    for discard in combinations(cards, throw_n):
        keep = tuple(c for c in cards if c not in discard)
        hand = hand_outlook(keep, unseen)
        crib = crib_of(discard)
        choices.append(DiscardChoice(discard, keep, hand, crib, hand.mean + sign * crib))
    choices.sort(key=lambda ch: (-ch.net, -ch.hand.mean))
    return DiscardAnalysis(model, players, own_crib, len(unseen), tuple(choices))


def tuned_throw(cards: Sequence[Card], players: int, own_crib: bool) -> tuple[Card, ...]:
    """The ``tuned`` model's best discard of ``cards`` with nothing else known: the first choice of
    :func:`analyse_discards` (the best net, then the best hand, then the first in its order), found
    without building the analysis.  The advisors that read another seat's cards from what it threw call
    this thousands of times a decision; ``tests/advice/test_advice_discards.py`` holds the two equal."""
    n = tuple([int(c) for c in cards])
    values = crib_table.crib_values(table_mode(players, len(n)), own_crib)
    best = kernel.tuned_split(n, _SPLITS[len(n)], values, 1.0 if own_crib else -1.0)
    return tuple([CARDS[n[t]] for t in _SPLITS[len(n)][best][0]])


_SPLITS = {dealt: tuple([(throw, tuple([i for i in range(dealt) if i not in throw]))
                         for throw in combinations(range(dealt), dealt - 4)]) for dealt in (5, 6)}
"""A deal's positions thrown and kept, in :func:`analyse_discards`'s order."""


@lru_cache(maxsize=16_384)
def _sorted_strong_throw(cards: tuple[Card, ...], players: int, own_crib: bool) -> tuple[Card, ...]:
    return tuned_throw(cards, players, own_crib)


def strong_throw(cards: Sequence[Card], players: int, own_crib: bool) -> tuple[Card, ...]:
    """What the strong level throws from a deal (in any order): :func:`tuned_throw` of the cards sorted, so
    that a tie falls the same way whatever order they were dealt in.  The strong bot discards this, and
    the model of hidden cards reads another seat's throw by it (:data:`STRONG_THROWS`)."""
    return _sorted_strong_throw(tuple(sorted(cards)), players, own_crib)


def _model_throw(cards: tuple[Card, ...], players: int, own_crib: bool) -> tuple[Card, ...]:
    return strong_throw(cards, players, own_crib)


STRONG_SLIP = 0.01
"""The chance that a seat read as the strong level lays away any cards at random instead: no play,
however unlike the strong level's, makes a deal impossible."""
STRONG_THROWS = ThrowModel("strong", _model_throw, STRONG_SLIP)
"""The one model of how the other seats chose their discards: as the strong level throws
(:mod:`service.core.game.hidden`), with a chance :data:`STRONG_SLIP` of any throw."""


def hand_outlook(keep: Sequence[Card], unseen: Sequence[Card]) -> HandOutlook:
    """The show of ``keep`` with each unseen card as the starter."""
    a, b, c, d = keep
    tally = kernel.starter_tally(a, b, c, d, tuple(unseen))
    counts = tuple((points, n) for points, n in enumerate(tally) if n)
    return HandOutlook(sum(p * n for p, n in counts) / len(unseen), counts[0][0], counts[-1][0], counts)


@lru_cache(maxsize=8)
def _rank_multisets(m: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Every multiset of ``m`` ranks: its rank key and its (rank, multiplicity) pairs."""
    out = []
    for ranks in combinations_with_replacement(range(1, 14), m):
        mult: dict[int, int] = {}
        for r in ranks:
            mult[r] = mult.get(r, 0) + 1
        if max(mult.values()) <= 4:
            out.append((kernel.rank_key(ranks), tuple(mult.items())))
    return tuple(out)


def _random_crib(unseen: Sequence[Card], need: int) -> Callable[[Sequence[Card]], float]:
    """The ``random`` model's expected crib for each throw, exact.

    The crib's ``need`` unknown cards and the starter are, together, a
    uniformly random ``m = need + 1``-card subset of the unseen cards (which
    of them is the starter is uniform too).  So:

    * fifteens, pairs, runs: the mean over rank multisets ``M`` of ``m`` cards
      of the points of throw + ``M``, weighted by the card sets with those
      ranks, the product of C(unseen of rank r, multiplicity of r);
    * the flush (5): the throw all of one suit and all ``m`` of that suit:
      C(unseen of the suit, m) / C(unseen, m);
    * nobs (1): a thrown jack and a starter of its suit, u_suit / u; or an
      unseen jack among the crib's unknown cards (need / u) with the starter,
      uniform over the other unseen cards, of its suit ((u_suit - 1) / (u - 1)).
    """
    m = need + 1
    u = len(unseen)
    n_rank = [0] * 14
    n_suit = [0] * 4
    for c in unseen:
        n_rank[RANK[c]] += 1
        n_suit[c & 3] += 1
    total = comb(u, m)
    classes = []
    for key, mult in _rank_multisets(m):
        w = 1
        for r, k in mult:
            w *= _COMB[n_rank[r]][k]
            if not w:
                break
        if w:
            classes.append((key, w))
    keys = tuple(k for k, _ in classes)
    weights = tuple(w for _, w in classes)
    unseen_jacks = sum(need / u * (n_suit[c & 3] - 1) / (u - 1) for c in unseen if RANK[c] == JACK)
    by_ranks: dict[int, float] = {}

    def crib(throw: Sequence[Card]) -> float:
        kt = sum(kernel.RANK_KEY[c] for c in throw)
        ranks = by_ranks.get(kt)
        if ranks is None:
            ranks = by_ranks[kt] = kernel.weighted_rank_points(kt, keys, weights) / total
        value = ranks + unseen_jacks
        suit = throw[0] & 3
        if all(c & 3 == suit for c in throw):
            value += kernel.CRIB_FLUSH_POINTS * comb(n_suit[suit], m) / total
        for c in throw:
            if RANK[c] == JACK:
                value += kernel.NOBS_POINTS * n_suit[c & 3] / u
        return value

    return crib


__all__ = [
    "MODELS",
    "DiscardAnalysis",
    "DiscardChoice",
    "HandOutlook",
    "analyse_discards",
    "check_deal",
    "crib_cards_unknown",
    "hand_outlook",
    "parse_cards",
    "strong_throw",
    "table_mode",
    "tuned_throw",
]
