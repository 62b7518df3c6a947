"""A game operation's answer as JSON: ``POST /v1/games``, ``/v1/games/advance``,
``/v1/games/view`` and ``/v1/games/replay``.

An answer carries the state as it leaves the service (sealed or plain: the
caller's to say), the viewer's view (:mod:`.views`) with the options every
viewer is shown, and the events and legal actions as the one told them may
know them (:mod:`service.core.game.observe` decides which).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.core.game import GameAction, GameEvent, GameState, result
from service.core.game.deck import commitment
from service.core.game.observe import EVERYONE, Viewer, events_seen, legal_told

from .actions import action_json
from .events import event_json
from .views import outcome_json, shown_options_json, view_json


def game_json(state: GameState, wire: Any, events: Sequence[GameEvent], seat: Viewer, told: Viewer,
              seat_tokens: list[str] | None = None) -> dict[str, Any]:
    """The answer after ``events``: ``wire`` is the state as it leaves, the
    view is ``seat``'s and the events and legal actions are those ``told`` may know."""
    return {
        "state": wire, "game_id": state.game_id, "seq": state.seq, "deal": state.deal,
        "phase": state.phase, "to_act": state.to_act(),
        "view": {**view_json(state, seat), "options": shown_options_json(state)},
        "events": [event_json(e, state.options) for e in events_seen(events, told)],
        "legal_actions": legal_json(state, legal_told(state, told)),
        "seat_tokens": seat_tokens,
    }


def legal_json(state: GameState, actions: Sequence[GameAction]) -> list[dict[str, Any]]:
    """Legal actions in ``state`` in the notation a client sends a move in."""
    return [action_json(a, state) for a in actions]


def replay_json(state: GameState, scores_after_deal: Sequence[tuple[int, ...]]) -> dict[str, Any]:
    """A whole record replayed: how far it went, the scores after each deal and the final position."""
    return {
        "game_id": state.game_id, "seq": state.seq, "deals": state.deal - (not state.actions),
        "scores_after_deal": [list(s) for s in scores_after_deal],
        "history": state.history, "phase": state.phase, "result": outcome_json(result(state)),
        "final": view_json(state, EVERYONE),
    }


def deal_records_json(records: Sequence[Sequence[str]]) -> list[dict[str, Any]]:
    """A view's ``deal_records``: each finished deal's record, deal 1 first."""
    return [{"deal": i, "record": list(r)} for i, r in enumerate(records, 1)]


def deck_json(game_id: str, server_seed: str, contributions: Sequence[str | None], over: bool) -> dict[str, Any]:
    """A committed game's ``deck``: the commitment to its packs, the seats' contributions and, once
    the game is over (every pack dealt), the server seed that opens the commitment (docs/deals.md)."""
    return {"commitment": commitment(game_id, server_seed), "contributions": list(contributions),
            "server_seed": server_seed if over else None}
