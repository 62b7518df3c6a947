"""Actions as JSON, both ways: what a client sends, and the actions we list.

Two notations: a game's (``POST /v1/games/advance``: ``{"type": "play",
"seat": 0, "card": "5H"}``) and the play's entries (``POST /v1/pegging/*``:
``{"seat": 0, "card": "5H"}``, ``{"seat": 1, "go": true}``).  Legal actions,
an illegal move's included, are written in the notation the client sends a
move in, so a client can send one back as is.  (A game record's notation is
the core's own text, :func:`service.core.game.notation`.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.core.errors import MalformedError
from service.core.game import Count, Counted, Cut, Deal, Discard, GameAction, GameState, action_type, parse_action
from service.core.play import AnyCard, Go, PlayCard


def _cards(cards: tuple[Any, ...]) -> list[str]:
    return [str(c) for c in cards]


def action_json(action: GameAction, state: GameState | None = None) -> dict[str, Any]:
    """A game action as the ``action`` of ``POST /v1/games/advance``; given
    the ``state`` it is taken in, a count says what it counts.

    >>> from service.core.cards import parse_cards
    >>> action_json(Discard(1, parse_cards(["5H", "6C"]))) == {"type": "discard", "seat": 1, "cards": ["5H", "6C"]}
    True
    """
    out: dict[str, Any] = {"type": action_type(action), "seat": action.seat}
    if type(action) is PlayCard:
        out["card"] = str(action.card)
    elif type(action) is Discard:
        out["cards"] = _cards(action.cards)
    elif type(action) is Deal:
        if action.hands is not None:
            out["hands"] = [_cards(h) for h in action.hands]
            out["crib"] = _cards(action.crib)
    elif type(action) is Cut:
        if action.starter is not None:
            out["starter"] = str(action.starter)
    elif type(action) is Count and state is not None:
        out["what"] = Counted.CRIB if state.position.counting_crib() else Counted.HAND
    claim = getattr(action, "claim", None)
    if claim is not None:
        out["claim"] = claim
    return out


def play_action_json(action: PlayCard | Go | AnyCard) -> dict[str, Any]:
    """An action of the play as an entry of ``plays`` (``POST /v1/pegging/*``).

    >>> play_action_json(Go(1)), play_action_json(AnyCard(0, 6))
    ({'seat': 1, 'go': True}, {'seat': 0, 'any_card_up_to': 6})
    """
    if isinstance(action, PlayCard):
        return {"seat": action.seat, "card": str(action.card)}
    if isinstance(action, Go):
        return {"seat": action.seat, "go": True}
    return {"seat": action.seat, "any_card_up_to": action.max_value}


def legal_json(action: Any) -> Any:
    """One of an illegal move's legal actions where the endpoint set no
    notation of its own: the play's entries, a game action; one already
    written (a dict, a notation's text) as it is."""
    if type(action) in (Deal, Discard, Cut, Count):
        return action_json(action)
    if isinstance(action, (PlayCard, Go, AnyCard)):
        return play_action_json(action)
    return action if isinstance(action, dict) else str(action)


def parse_actions(lines: Sequence[Any]) -> list[GameAction]:
    """Actions in the record notation, one a line (a state's, a record's); a
    bad line is located at its index."""
    out = []
    for i, line in enumerate(lines):
        try:
            out.append(parse_action(line))
        except MalformedError as exc:
            raise exc.within(i)
    return out


def game_action_from(a: dict[str, Any]) -> GameAction:
    """A game action from the request's action, as its schema loaded it (cards
    parsed; the fields its type does not take already refused)."""
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
