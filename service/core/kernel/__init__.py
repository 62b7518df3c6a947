"""The kernel: every rule a simulation needs, on small ints (docs/rules.md).

Everything that simulates -- the game engine's play and show, the batch,
the pegging advisor's solver and sampler, the discard advisor, the computer
opponent -- runs on these functions; the typed, immutable API that answers
clients (:mod:`..play`, :mod:`..show`, :mod:`..game`) is built on top of them.

A small package, one idea a module: :mod:`.rules` (cards, what a card pegs,
the turn, the show), :mod:`.deal` (the deal state and its steps), :mod:`.codes`
(a deal's actions as ints, for playouts) and :mod:`.search` (the searches of
the play, on one move generator).  Written for mypyc: plain functions and a
few classes over ``int``, ``bool`` and tuples, fully annotated, importing
nothing of the service.  When a C compiler is present the install compiles
a copy of the package, all its modules together (:mod:`..engine` says which
one runs); this package, interpreted, is the reference the compiled copy is
tested against.
"""

from __future__ import annotations

from .rules import (CARDS_FOR_THE_PLAY, COUNT_POINTS, CRIB_FLUSH_POINTS, CRIB_SUIT_POINTS, EVERY_CARD_FITS,
    FIFTEEN, FIFTEEN_ITEM, FIFTEEN_POINTS, FITS, FITS_RANK, FIVE_RANKS, FLUSH_POINTS, GO_POINTS, HAND_SUIT_POINTS,
    HEELS_POINTS, JACK, MAX_COUNT, NOBS_POINTS, PAIR_ITEM, PAIR_ITEM_POINTS, PAIR_POINTS, RANK, RANK_BIT,
    RANK_ITEMS, RANK_KEY, RANK_POINTS, RANK_VALUE, RENEGE_POINTS_PER_CARD, RUN_ITEM, STARTER_KEY, SUIT, SUIT_KEY,
    VALUE, after, card_points, count_points, flush_points, heels, lay, may_go, next_to_play, nobs, peg_points,
    pegs, playable_unseen, rank_items, rank_key, rank_points, rank_sequence, renege_points, room, show_total,
    starter_tally, starter_total, tuned_split, weighted_rank_points)
from .deal import (COUNT, COUNT_CARDS, CRIB, CUT_PHASE, DEAL_PHASE, DISCARDED, DISCARD_PHASE, DealState, HANDS,
    HELD, LAST, NOBODY, OVER_PHASE, PACK, PASSED, PEGS, PHASE, PLAYED, PLAY_PHASE, PLAY_SCORES, PlayStep, SHOWN,
    SHOW_PHASE, STARTER, TURN, WINNER, count_hand, deal_hands, deal_over, deal_pack, deal_start, lay_away,
    lay_card, say_go, show_seat, starter_at, turn_starter)
from .codes import (play_codes, COUNT_CODE, CUT_CODE, DEAL_CODE, DISCARDS_PER_SEAT, DISCARD_CODE, GO_CODE, discards_of,
    legal_codes, step)
from .search import (HAND_BITS, HAND_MASK, PlayMove, PositionCapReached, SIDE_BITS, SIDE_MASK, Search, WinSearch,
    greedy_play, pack_hand, play_move, play_moves, play_on)

__all__ = [
    "play_codes",
    "CARDS_FOR_THE_PLAY", "COUNT_POINTS", "CRIB_FLUSH_POINTS", "CRIB_SUIT_POINTS", "EVERY_CARD_FITS", "FIFTEEN",
    "FIFTEEN_ITEM", "FIFTEEN_POINTS", "FITS", "FITS_RANK", "FIVE_RANKS", "FLUSH_POINTS", "GO_POINTS",
    "HAND_SUIT_POINTS", "HEELS_POINTS", "JACK", "MAX_COUNT", "NOBS_POINTS", "PAIR_ITEM", "PAIR_ITEM_POINTS",
    "PAIR_POINTS", "RANK", "RANK_BIT", "RANK_ITEMS", "RANK_KEY", "RANK_POINTS", "RANK_VALUE",
    "RENEGE_POINTS_PER_CARD", "RUN_ITEM", "STARTER_KEY", "SUIT", "SUIT_KEY", "VALUE", "after", "card_points",
    "count_points", "flush_points", "heels", "lay", "may_go", "next_to_play", "nobs", "peg_points", "pegs",
    "playable_unseen", "rank_items", "rank_key", "rank_points", "rank_sequence", "renege_points", "room",
    "show_total", "starter_tally", "starter_total", "tuned_split", "weighted_rank_points", "COUNT", "COUNT_CARDS",
    "CRIB", "CUT_PHASE", "DEAL_PHASE", "DISCARDED", "DISCARD_PHASE", "DealState", "HANDS", "HELD", "LAST", "NOBODY",
    "OVER_PHASE", "PACK", "PASSED", "PEGS", "PHASE", "PLAYED", "PLAY_PHASE", "PLAY_SCORES", "PlayStep", "SHOWN",
    "SHOW_PHASE", "STARTER", "TURN", "WINNER", "count_hand", "deal_hands", "deal_over", "deal_pack", "deal_start",
    "lay_away", "lay_card", "say_go", "show_seat", "starter_at", "turn_starter", "COUNT_CODE",
    "CUT_CODE", "DEAL_CODE", "DISCARDS_PER_SEAT", "DISCARD_CODE", "GO_CODE", "discards_of", "legal_codes", "step",
    "HAND_BITS", "HAND_MASK", "PlayMove", "PositionCapReached", "SIDE_BITS", "SIDE_MASK", "Search", "WinSearch",
    "greedy_play", "pack_hand", "play_move", "play_moves", "play_on",
]
