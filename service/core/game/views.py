"""What one seat may see of a game (its observation); hidden cards become ``None``.

A seat sees its own cards, every card played, the starter once turned, its
own discards, each hand and the crib once counted in the show, and at the end
of the game every hand and the crib.  It never sees another seat's unplayed,
uncounted cards, the rest of the crib or the pack; nor the deck seed or a
seeded deck's seed, which would give the pack away.  ``seat=None`` is a
spectator, who sees only what is public; :func:`full_view` shows everything
(for a trusted platform holding the plain state).
"""

from __future__ import annotations

from enum import Enum
from typing import Any, TypeAlias

from ..cards import Card
from ..options import GameOptions
from .actions import Count, Deal, Discard, GameAction, action_type
from .events import DealRecorded, Discarded, GameEvent, HandCounted, Played, StarterTurned, Went
from .position import Phase
from .state import GameState, result


class Everyone(Enum):
    """Who may see every card: a trusted platform holding the plain state."""

    EVERYONE = "everyone"


EVERYONE = Everyone.EVERYONE
Viewer: TypeAlias = int | Everyone | None
"""Who is looking: a seat, :data:`EVERYONE`, or None for a spectator (public cards only)."""


def _cards(cards: tuple[Card, ...], visible: set[Card] | None) -> list[str | None]:
    return [str(c) if visible is None or c in visible else None for c in cards]


def _visible(state: GameState, seat: Viewer) -> set[Card] | None:
    """The cards ``seat`` may see this deal; None means every card."""
    pos = state.position
    if seat is EVERYONE or pos.phase is Phase.OVER:
        return None
    seen: set[Card] = set()
    if pos.play is not None:
        seen.update(pos.play.played)
    if pos.starter is not None:
        seen.add(pos.starter)
    if isinstance(seat, int):
        seen.update(pos.hands[seat])
        seen.update(pos.discards[seat])
    if pos.phase is Phase.SHOW:
        order = pos.show_order()
        for i in range(pos.shown):
            seen.update(pos.crib if i == pos.options.players else pos.hands[order[i]])
    return seen


def view(state: GameState, seat: Viewer) -> dict[str, Any]:
    """The position as ``seat`` sees it (:data:`EVERYONE`: everything)."""
    pos = state.position
    visible = _visible(state, seat)
    play = pos.play
    res = result(state)
    return {
        "seat": seat if isinstance(seat, int) else None,
        "game_id": state.game_id, "seq": state.seq, "deal": pos.deal, "phase": pos.phase,
        "dealer": pos.dealer, "pone": pos.pone, "first_dealer": pos.first_dealer,
        "to_act": pos.to_act(),
        "scores": [{"front": f, "back": b} for f, b in pos.pegs],
        "hands": [_cards(h, visible) for h in pos.hands],
        "crib": _cards(pos.crib, visible),
        "starter": str(pos.starter) if pos.starter is not None else None,
        "play": None if play is None else {
            "turn": play.turn, "count": play.count,
            "count_cards": [str(c) for c in play.count_cards],
            "passed": sorted(play.passed), "last_player": play.last_player,
            "played": [str(c) for c in play.played],
        },
        "shown": pos.shown,
        "next_count": ("crib" if pos.counting_crib() else "hand") if pos.phase is Phase.SHOW else None,
        "result": res,
    }


def event_json(event: GameEvent, options: GameOptions, seat: Viewer = EVERYONE) -> dict[str, Any]:
    """An event as ``seat`` may see it: others' discards hidden, a deal's
    record only for a trusted platform (it names every seat's discards)."""
    out: dict[str, Any] = {"type": event.type, "deal": event.deal}
    if getattr(event, "seat", None) is not None:
        out["seat"] = event.seat  # type: ignore[union-attr]
    if isinstance(event, Played):
        out["card"] = str(event.card)
    elif isinstance(event, Discarded):
        hide = seat is not EVERYONE and seat != event.seat
        out["cards"] = [None if hide else str(c) for c in event.cards]
    elif not isinstance(event, DealRecorded) and getattr(event, "cards", ()):
        out["cards"] = [str(c) for c in event.cards]  # type: ignore[union-attr]
    if isinstance(event, (Played, Went)):
        out["count"] = event.count
    if isinstance(event, HandCounted):
        out["what"] = event.what
    if isinstance(event, (Played, Went)) and event.reset:
        out["reset"] = True
    if isinstance(event, (StarterTurned, Played, Went, HandCounted)) and event.scores:
        out["scores"] = [
            {"seat": s.seat, "side": options.side_of(s.seat), "kind": s.kind,
             "points": s.points, **({"cards": [str(c) for c in s.cards]} if s.cards else {})}
            for s in event.scores
        ]
        out["points"] = event.points
    if isinstance(event, DealRecorded):
        out["record"] = list(event.record)
    return out


def visible_events(events: list[GameEvent], seat: Viewer) -> list[GameEvent]:
    """Events ``seat`` may receive (a deal's record goes to a trusted platform only)."""
    return [e for e in events if not isinstance(e, DealRecorded) or seat is EVERYONE]


def action_json(state: GameState, action: GameAction) -> dict[str, Any]:
    """A legal action in the request notation (a count says whether it is the crib)."""
    out: dict[str, Any] = {"type": action_type(action), "seat": action.seat}
    if type(action) is Discard:
        out["cards"] = [str(c) for c in action.cards]
    elif type(action) is Count:
        out["what"] = "crib" if state.position.counting_crib() else "hand"
    elif type(action) is Deal and action.hands is not None:
        out["hands"] = [[str(c) for c in h] for h in action.hands]
        out["crib"] = [str(c) for c in action.crib]
    elif hasattr(action, "card"):
        out["card"] = str(action.card)
    return out
