"""A whole game of cribbage: typed actions, positions, and the state a client holds.

OpenSpiel-style: :func:`new_game`, :func:`legal_actions`, :func:`check`,
:func:`can`, :func:`apply_action` (the next state and its events).

* :mod:`.actions` -- one frozen type per action, and the record notation
* :mod:`.position` -- a position and the rules that move it
* :mod:`.state` -- the state: the deal's start plus its actions, replayed
* :mod:`.compact` -- the deal as the kernel keeps it, and the deal machine that applies every action to it
* :mod:`.deck` -- each deal's pack, committed by the deck seed
* :mod:`.events` -- what happened, in table order
* :mod:`.observe` -- what each viewer (a seat, a spectator, everyone) sees and is told
* :mod:`.hidden` -- the one model of what a viewer cannot see: worlds of the hidden cards, as chance
  outcomes weighted by how the seats chose their discards
"""

from .actions import (ACTION_TYPES, ActionKind, Count, Counted, Cut, Deal, Discard, GameAction, Go, PlayCard,
                      action_type, notation, parse_action)
from .events import (EVENT_TYPES, CutForDeal, DealRecorded, Dealt, Discarded, EventKind, GameEvent, GameOver,
                     HandCounted, Played, StarterTurned, Went)
from ..show import HEELS_POINTS
from .position import PHASES, Phase, Position, can, check, legal_actions
from .state import (GameState, apply_action, as_sent, chain, deal_steps, genesis, legal, new_game, record_start,
                    replay_record, restore, result)

__all__ = [
    "ACTION_TYPES", "EVENT_TYPES", "HEELS_POINTS", "PHASES", "ActionKind", "Counted", "EventKind",
    "CutForDeal", "DealRecorded", "Dealt", "Discarded", "GameOver", "HandCounted", "Played", "StarterTurned", "Went",
    "Count", "Cut", "Deal", "Discard", "GameAction", "Go", "PlayCard",
    "GameEvent", "GameState", "Phase", "Position",
    "action_type", "apply_action", "as_sent", "can", "chain", "check", "deal_steps", "genesis", "legal",
    "legal_actions",
    "new_game", "notation", "parse_action", "record_start", "replay_record", "restore", "result",
]
