"""The luck of the cards: what a seat was dealt, and what the cut did, against the average.

So that a review can tell skill from luck (as GNU Backgammon rates each roll), each
deal's cards are valued in the review's own unit, expected points:

* **dealt** -- the best discard's expected value (:func:`~.discards.analyse_discards`,
  ``tuned`` crib model: the kept hand's mean show over the starter, plus or minus the
  crib's) of the cards the seat was dealt, less the average of that over every deal
  of the same kind (:data:`AVERAGE_BEST_DISCARD`, by table mode and whose crib it is);
* **cut** -- the starter's effect on what the seat counted: each hand (and crib) it
  counted, scored with the starter turned, less its mean over every starter that
  could have been turned (each card not dealt, equally likely), and his heels (2 to
  the dealer for a jack) less their expectation.  In hindsight: every card dealt is
  known once the game is over.

The averages are computed by :func:`average_best_discard` from seeded random deals
(``python -m service.advice.luck`` prints them); ``tests/advice/test_review.py`` recomputes
them from fewer deals and holds the shipped values within the sampling error.
"""

from __future__ import annotations

import random
import statistics
import sys
from collections.abc import Sequence

from service.core.cards import CARDS, JACK, RANK, Card
from service.core.engine import kernel
from service.core.show import HEELS_POINTS

from .discards import analyse_discards, hand_outlook, table_mode

AVERAGE_DEALS = 10_000
"""Random deals per line of :data:`AVERAGE_BEST_DISCARD` (standard errors about 0.03 point)."""
AVERAGE_SEED = "luck/average-best-discard"

# (table mode, own crib): the mean best discard's net over AVERAGE_DEALS random deals (seeded), and
# its standard error.  Regenerate: python -m service.advice.luck
AVERAGE_BEST_DISCARD: dict[tuple[str, bool], tuple[float, float]] = {
    ('two', True): (12.6961, 0.0281),
    ('two', False): (3.4158, 0.0253),
    ('five_and_two', True): (11.2391, 0.0270),
    ('five_and_two', False): (2.0096, 0.0253),
    ('three', True): (10.9069, 0.0268),
    ('three', False): (2.2480, 0.0261),
    ('four', True): (10.8969, 0.0268),
    ('four', False): (2.2252, 0.0259),
}

MODES = (("two", 2, 6), ("five_and_two", 2, 5), ("three", 3, 5), ("four", 4, 5))
"""Each table mode: its players and the cards a seat is dealt."""


def average_best_discard(players: int, dealt: int, own_crib: bool, deals: int = AVERAGE_DEALS,
                         seed: str = AVERAGE_SEED) -> tuple[float, float]:
    """The mean and standard error of the best discard's net over ``deals`` random deals."""
    rng = random.Random(f"{seed}/{players}/{dealt}/{own_crib}")
    nets = [analyse_discards(rng.sample(CARDS, dealt), players, own_crib).choices[0].net for _ in range(deals)]
    return statistics.fmean(nets), statistics.stdev(nets) / len(nets) ** 0.5


def dealt_luck(best_net: float, players: int, dealt: int, own_crib: bool) -> float:
    """A deal's luck: its best discard's net (:func:`~.discards.analyse_discards`, ``tuned``)
    less the average deal's, for a seat dealt ``dealt`` cards at a table of ``players``."""
    return best_net - AVERAGE_BEST_DISCARD[table_mode(players, dealt), own_crib][0]


def cut_luck(counted: Sequence[tuple[Sequence[Card], bool]], starter: Card, dealt: Sequence[Card],
             heels: bool) -> float:
    """The cut's effect on a seat's counts: each of its ``counted`` hands (cards, is it a crib)
    with ``starter`` less its mean over the starters that could have been turned (the cards
    not in ``dealt``, every card dealt this deal), and his heels (``heels``: the seat dealt)."""
    taken = set(dealt)
    starters = tuple(c for c in CARDS if c not in taken)
    luck = 0.0
    for cards, is_crib in counted:
        a, b, c, d = cards
        if is_crib:
            mean = sum(kernel.show_total(a, b, c, d, s, True) for s in starters) / len(starters)
        else:
            mean = hand_outlook(cards, starters).mean
        luck += kernel.show_total(a, b, c, d, starter, is_crib) - mean
    if heels:
        jacks = sum(RANK[s] == JACK for s in starters)
        luck += HEELS_POINTS * ((RANK[starter] == JACK) - jacks / len(starters))
    return luck


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else AVERAGE_DEALS
    for mode, players, dealt in MODES:
        for own in (True, False):
            mean, err = average_best_discard(players, dealt, own, deals)
            print(f"    ({mode!r}, {own}): ({mean:.4f}, {err:.4f}),", flush=True)


if __name__ == "__main__":
    main()
