"""What one seat may see of a game: hidden cards become ``null``.

A seat sees its own cards, every card played, the starter once turned, its own
discards, and at the end of the game every hand.  It never sees another seat's
unplayed cards, the crib (but for its own discards) or the undealt deck; nor the
seed of a seeded deck, which would give the deck away.  ``seat=None`` is a
spectator, who sees only what is public.
"""

from __future__ import annotations

from typing import Any

from .game import GameState
from .state_json import to_json


def view(state: GameState, seat: int | None) -> dict[str, Any]:
    data = to_json(state)
    over = state.phase == "over"
    played = set(str(c) for c in state.pegging.played) if state.pegging else set()
    own_discards = _own_discards(state, seat)
    data["view"] = seat
    if data["options"].get("seed") is not None:
        data["options"]["seed"] = None
    data["deck_size"] = len(state.deck) if state.deck is not None else None
    data["deck"] = None
    data["hands"] = [
        h if over or s == seat else [c if c in played else None for c in h]
        for s, h in enumerate(data["hands"])
    ]
    data["crib"] = [c if over or c in own_discards else None for c in data["crib"]]
    data["log"] = [redact_event(e, seat) for e in data["log"]]
    return data


def redact_event(entry: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A log or event record as ``seat`` may see it: others' discards hidden."""
    if entry["type"] == "discard" and entry.get("seat") != seat:
        return {**entry, "cards": [None] * len(entry.get("cards", ()))}
    return entry


def hidden_cards(state: GameState, seat: int | None) -> set[str]:
    """Cards ``seat`` must not see (for tests and for filtering events)."""
    if state.phase == "over":
        return set(str(c) for c in state.deck or ())
    played = set(state.pegging.played) if state.pegging else set()
    hidden = {str(c) for c in state.deck or ()}
    for s, h in enumerate(state.hands):
        if s != seat:
            hidden.update(str(c) for c in h if c not in played)
    own = _own_discards(state, seat)
    hidden.update(str(c) for c in state.crib if str(c) not in own)
    return hidden


def _own_discards(state: GameState, seat: int | None) -> set[str]:
    """The cards ``seat`` laid away to the crib this hand (it knows them)."""
    return {
        card
        for entry in state.log
        if entry["type"] == "discard" and entry.get("hand") == state.hand and entry.get("seat") == seat
        for card in entry.get("cards", ())
    }
