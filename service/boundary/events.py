"""A game's events as JSON, as a viewer sees them (:func:`service.core.game.observe.events_seen`).

``{"type": "play", "deal": 3, "seat": 1, "card": "5H", "count": 15,
"scores": [{"seat": 1, "side": 1, "kind": "fifteen", "points": 2}], "points": 2}``:
the kind and the deal, the seat, then what the kind carries; a hidden card
is ``null``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from service.core.cards import Card
from service.core.game import (CutForDeal, DealRecorded, Discarded, HandCounted, Played, StarterTurned,
                               Went)
from service.core.game.observe import SeenEvent, UnseenDiscard
from service.core.options import GameOptions
from service.core.peg import Score


def _names(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def score_json(s: Score, options: GameOptions) -> dict[str, Any]:
    """One score an event pegged, naming the side it pegs for."""
    out: dict[str, Any] = {"seat": s.seat, "side": options.side_of(s.seat), "kind": s.kind, "points": s.points}
    if s.cards:
        out["cards"] = _names(s.cards)
    return out


def event_json(event: SeenEvent, options: GameOptions) -> dict[str, Any]:
    """One event (already as its viewer sees it) as JSON."""
    out: dict[str, Any] = {"type": event.type, "deal": event.deal}
    seat = getattr(event, "seat", None)
    if seat is not None:
        out["seat"] = seat
    if isinstance(event, Played):
        out["card"] = str(event.card)
    elif isinstance(event, Discarded):
        out["cards"] = _names(event.cards)
    elif isinstance(event, UnseenDiscard):
        out["cards"] = [None] * event.laid
    elif isinstance(event, (CutForDeal, StarterTurned, HandCounted)) and event.cards:
        out["cards"] = _names(event.cards)
    if isinstance(event, (Played, Went)):
        out["count"] = event.count
    if isinstance(event, HandCounted):
        out["what"] = event.what
    if isinstance(event, (Played, Went)) and event.reset:
        out["reset"] = True
    if isinstance(event, (StarterTurned, Played, Went, HandCounted)) and event.scores:
        out["scores"] = [score_json(s, options) for s in event.scores]
        out["points"] = event.points
    if isinstance(event, DealRecorded):
        out["record"] = list(event.record)
    return out
