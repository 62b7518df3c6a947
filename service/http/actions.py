"""Actions as JSON, both ways: what a client sends and the legal actions we list.

Illegal moves are answered with what would have been legal, in the same
notation the client uses to send a move, so a client can send one back as is.
"""

from __future__ import annotations

from typing import Any

from service.core.game import GameAction
from service.core.play import AnyCard, Go, PlayCard


def action_json(action: Any) -> Any:
    """A core action (pegging or game) in the request notation."""
    if isinstance(action, PlayCard):
        return {"seat": action.seat, "card": str(action.card)}
    if isinstance(action, Go):
        return {"seat": action.seat, "go": True}
    if isinstance(action, AnyCard):
        return {"seat": action.seat, "any_card_up_to": action.max_value}
    if isinstance(action, GameAction):
        return game_action_json(action)
    return str(action)


def game_action_json(a: GameAction) -> dict[str, Any]:
    out: dict[str, Any] = {"type": a.type, "seat": a.seat}
    if a.card is not None:
        out["card"] = str(a.card)
    if a.cards is not None:
        out["cards"] = [str(c) for c in a.cards]
    if a.hands is not None:
        out["hands"] = [[str(c) for c in h] for h in a.hands]
    if a.crib is not None:
        out["crib"] = [str(c) for c in a.crib]
    if a.starter is not None:
        out["starter"] = str(a.starter)
    if a.claim is not None:
        out["claim"] = a.claim
    return out


def game_action_from(a: dict[str, Any]) -> GameAction:
    """A game action from the request's action, as loaded by ``ActionSchema`` (cards parsed)."""
    return GameAction(
        type=a["type"], seat=a["seat"], card=a.get("card"),
        cards=tuple(a["cards"]) if "cards" in a else None,
        hands=tuple(tuple(h) for h in a["hands"]) if "hands" in a else None,
        crib=tuple(a["crib"]) if "crib" in a else None,
        starter=a.get("starter"), claim=a.get("claim"),
    )
