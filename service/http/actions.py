"""Actions as JSON, both ways: what a client sends and the legal actions we list.

Illegal moves are answered with what would have been legal, in the same
notation the client uses to send a move, so a client can send one back as is.
"""

from __future__ import annotations

from typing import Any

from service.core.game import Count, Counted, Cut, Deal, Discard, GameAction, action_type
from service.core.play import AnyCard, Go, PlayCard


def action_json(action: Any) -> Any:
    """A core action (pegging or game) in the request notation; a dict is one already."""
    if isinstance(action, dict):
        return action
    if isinstance(action, AnyCard):
        return {"seat": action.seat, "any_card_up_to": action.max_value}
    if isinstance(action, (Deal, Discard, Cut, Count)):
        return game_action_json(action)
    if isinstance(action, PlayCard):
        return {"seat": action.seat, "card": str(action.card)}
    if isinstance(action, Go):
        return {"seat": action.seat, "go": True}
    return str(action)


def game_action_json(a: GameAction) -> dict[str, Any]:
    """A game action as the ``action`` of ``POST /v1/games/advance``."""
    out: dict[str, Any] = {"type": action_type(a), "seat": a.seat}
    if isinstance(a, PlayCard):
        out["card"] = str(a.card)
    elif isinstance(a, Discard):
        out["cards"] = [str(c) for c in a.cards]
    elif isinstance(a, Deal) and a.hands is not None:
        out["hands"] = [[str(c) for c in h] for h in a.hands]
        out["crib"] = [str(c) for c in a.crib]
    elif isinstance(a, Cut) and a.starter is not None:
        out["starter"] = str(a.starter)
    return out


def game_action_from(a: dict[str, Any]) -> GameAction:
    """A game action from the request's action, as loaded by ``ActionSchema`` (cards parsed).
    Fields the action's type does not take are refused by the schema."""
    kind, seat = a["type"], a["seat"]
    if kind == "deal":
        hands = tuple(tuple(h) for h in a["hands"]) if "hands" in a else None
        return Deal(seat, hands, tuple(a.get("crib", ())))
    if kind == "discard":
        return Discard(seat, tuple(a.get("cards", ())))
    if kind == "cut":
        return Cut(seat, a.get("starter"), a.get("claim"))
    if kind == "play":
        return PlayCard(seat, a["card"], a.get("claim"))
    if kind == "go":
        return Go(seat, a.get("claim"))
    what = a.get("what")
    return Count(seat, a.get("claim"), None if what is None else Counted(what))
