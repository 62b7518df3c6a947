"""A deal's actions as small ints: the kernel's own game interface, for playouts.

OpenSpiel's shape (:mod:`service.core.game.playout`): the legal actions of
a deal state as codes (:func:`legal_codes`, the one generator the game's
legal actions are named from) and :func:`step` on a code.
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Final

from .rules import FITS, may_go
from .deal import (CUT_PHASE, DEAL_PHASE, DISCARD_PHASE, DealState, PLAY_PHASE, SHOW_PHASE, count_hand, deal_pack,
    lay_away, lay_card, say_go, show_seat, starter_at, turn_starter)

# ---------------------------------------------------------------------------
# A deal's actions as small ints: the kernel's own game interface, for playouts
# (service.core.game.playout), OpenSpiel's shape.  A card laid is its number;
# then go, deal, cut and count; a discard is DISCARD_CODE + 16 * seat + i, the
# seat's i-th discard in the order itertools.combinations lists its hand's.

GO_CODE: Final = 52
DEAL_CODE: Final = 53
CUT_CODE: Final = 54
COUNT_CODE: Final = 55
DISCARD_CODE: Final = 56
DISCARDS_PER_SEAT: Final = 16
"""Room for each seat's discards among the codes (at most C(6, 2) = 15)."""


def discards_of(hand: tuple[int, ...], size: int) -> list[tuple[int, ...]]:
    """The discards of ``size`` cards a seat holding ``hand`` may make, in the order held."""
    return list(combinations(hand, size))


def play_codes(held: tuple[int, ...], count: int, tournament: bool) -> list[int]:
    """The legal actions of the seat to play holding ``held`` at ``count``, as codes: each card that fits,
    in the order held, then go where :func:`may_go` allows it (the standalone play's legal actions are
    these too, named the same way)."""
    fit = FITS[count]
    out = [c for c in held if fit[c]]
    if may_go(count, len(out), tournament):
        out.append(GO_CODE)
    return out


def legal_codes(k: DealState, players: int, size: int, tournament: bool) -> list[int]:
    """Every legal action now, as codes: the cards to play that fit (in the order held) and go where
    :func:`may_go` allows it; each seat's discards while it has not discarded (``size`` cards each);
    or the deal, the cut, the next count."""
    phase: int = k[0]
    if phase == PLAY_PHASE:
        turn: int = k[5]
        if turn < 0:
            return []
        return play_codes(k[10][turn], k[6], tournament)
    if phase == DISCARD_PHASE:
        codes: list[int] = []
        for s in range(players):
            if not k[2][s]:
                first = DISCARD_CODE + DISCARDS_PER_SEAT * s
                codes.extend(range(first, first + comb(len(k[1][s]), size)))  # as many as discards_of lists
        return codes
    if phase == DEAL_PHASE:
        return [DEAL_CODE]
    if phase == CUT_PHASE:
        return [CUT_CODE]
    if phase == SHOW_PHASE and k[13] <= players:
        return [COUNT_CODE]
    return []


def step(k: DealState, code: int, players: int, sides: tuple[int, ...], target: int, dealer: int,
         cards_dealt: int, to_crib: int, size: int) -> DealState | None:
    """The deal state after the legal action ``code`` (:func:`legal_codes`), with the service's pack;
    None for a step that reaches the target (the deal machine, :mod:`.game.compact`, pegs it item by
    item and ends the game)."""
    if code < GO_CODE:
        laid = lay_card(k, players, sides, target, k[5], code)
        return None if laid is None else laid[0]
    if code == GO_CODE:
        went = say_go(k, players, sides, target, k[5])
        return None if went is None else went[0]
    if code == DEAL_CODE:
        return deal_pack(k, players, dealer, cards_dealt, to_crib)
    if code == CUT_CODE:
        starter: int = k[16][starter_at(players, cards_dealt, to_crib)]
        return turn_starter(k, (dealer + 1) % players, starter, sides[dealer], target)
    if code == COUNT_CODE:
        counted = count_hand(k, players, sides, target, show_seat(players, dealer, k[13]))
        return None if counted is None else counted[0]
    seat, i = divmod(code - DISCARD_CODE, DISCARDS_PER_SEAT)
    return lay_away(k, seat, discards_of(k[1][seat], size)[i])
