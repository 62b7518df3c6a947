"""What each viewer may see and is told of a game: decided here, once, for every edge.

A seat sees its own cards, every card played, the starter once turned, its
own discards, each hand and the crib once counted in the show, and at the end
of the game every hand and the crib.  It never sees another seat's unplayed,
uncounted cards, the rest of the crib or the pack; nor the deck seed or a
seeded deck's seed, which would give the pack away.  A spectator (``None``)
sees only what is public; :data:`EVERYONE` (a trusted platform holding the
plain state) sees everything.

Besides the cards, a viewer is told the events as it may see them (another
seat's discard as how many cards, not which; a deal's record, which names
every seat's cards, to every viewer, since it comes only when they are all
public: once the deal's crib is counted, or the game is over), the legal actions that are its own
(everyone: every seat's; a spectator: none), and of an illegal move's legal
actions only its own.  The edge says who is asking and writes the answers;
a player deciding for a seat (the computer opponent) reads what the seat
knows from :func:`seat_seen`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, NamedTuple, TypeAlias, Union

from ..cards import Card
from ..errors import IllegalError
from .actions import GameAction, Go, PlayCard
from .events import Discarded, EventKind, GameEvent
from .position import Phase
from .state import GameState, legal


class Everyone(Enum):
    """Who may see every card: a trusted platform holding the plain state."""

    EVERYONE = "everyone"


EVERYONE = Everyone.EVERYONE
Viewer: TypeAlias = int | Everyone | None
"""Who is looking: a seat, :data:`EVERYONE`, or None for a spectator (public cards only)."""

SECRET_OPTIONS = frozenset({"seed"})
"""Options no viewer is shown: whoever knows a seeded deck's seed knows every pack."""


def visible_cards(state: GameState, viewer: Viewer) -> frozenset[Card] | None:
    """The cards ``viewer`` may see this deal; None means every card."""
    pos = state.position
    if viewer is EVERYONE or pos.phase is Phase.OVER:
        return None
    seen: set[Card] = set()
    if pos.play is not None:
        seen.update(pos.play.played)
    if pos.starter is not None:
        seen.add(pos.starter)
    if isinstance(viewer, int):
        seen.update(pos.hands[viewer])
        seen.update(pos.discards[viewer])
    if pos.phase is Phase.SHOW:
        order = pos.show_order()
        for i in range(pos.shown):
            seen.update(pos.crib if i == pos.options.players else pos.hands[order[i]])
    return frozenset(seen)


Seen: TypeAlias = tuple[Card | None, ...]
"""Cards as a viewer sees them: None where a card is hidden."""


def seen(cards: Iterable[Card], visible: frozenset[Card] | None) -> Seen:
    return tuple(c if visible is None or c in visible else None for c in cards)


class Table(NamedTuple):
    """The cards of the deal in progress as one viewer sees them."""

    hands: tuple[Seen, ...]
    crib: Seen


def table_seen(state: GameState, viewer: Viewer) -> Table:
    pos = state.position
    visible = visible_cards(state, viewer)
    return Table(tuple(seen(h, visible) for h in pos.hands), seen(pos.crib, visible))


class SeatSight(NamedTuple):
    """What one seat knows of the deal in progress besides the public position."""

    hand: tuple[Card, ...]
    """Its cards as dealt before its discard; the four kept after it (played or not)."""
    discards: tuple[Card, ...]
    """What it laid away for the crib."""
    starter: Card | None
    """Once turned."""
    plays: tuple[PlayCard | Go, ...]
    """The play so far, in order (public)."""


def seat_seen(state: GameState, seat: int) -> SeatSight:
    """What ``seat`` knows of the deal in progress, for deciding its action: each
    card one that :func:`visible_cards` lets it see (nothing the seat could not
    see reaches a player deciding for it)."""
    pos = state.position
    visible = visible_cards(state, seat)

    def known(cards: Iterable[Card]) -> tuple[Card, ...]:
        return tuple(c for c in cards if visible is None or c in visible)

    starter = pos.starter if pos.starter is not None and (visible is None or pos.starter in visible) else None
    plays = tuple(a for a in state.actions if isinstance(a, (PlayCard, Go)))  # every card played is seen
    return SeatSight(known(pos.hands[seat]), known(pos.discards[seat]), starter, plays)


@dataclass(frozen=True, slots=True)
class UnseenDiscard:
    """Another seat's discard as a viewer sees it: how many cards it laid away, not which."""

    type: ClassVar[EventKind] = EventKind.DISCARD
    deal: int
    seat: int
    laid: int


SeenEvent = Union[GameEvent, UnseenDiscard]


def sees_discard(viewer: Viewer, seat: int) -> bool:
    """Whether ``viewer`` is told which cards ``seat`` laid away (not only how many): its own, or everyone."""
    return viewer is EVERYONE or viewer == seat


def events_seen(events: Iterable[GameEvent], viewer: Viewer) -> list[SeenEvent]:
    """The events ``viewer`` receives, as it may see them."""
    out: list[SeenEvent] = []
    for e in events:
        # A DealRecorded comes only once the deal's crib is counted or the game is over, when
        # every card it names is public (visible_cards), so every viewer receives it.
        if type(e) is Discarded and not sees_discard(viewer, e.seat):
            out.append(UnseenDiscard(e.deal, e.seat, len(e.cards)))
        else:
            out.append(e)
    return out


def legal_told(state: GameState, viewer: Viewer) -> list[GameAction]:
    """The legal actions ``viewer`` is told: its own (everyone: all; a spectator: none)."""
    if viewer is EVERYONE:
        return legal(state)
    return legal(state, viewer) if viewer is not None else []


def legal_in_error(error: IllegalError, viewer: Viewer) -> list[Any]:
    """What an illegal move's error may tell ``viewer`` was legal: only its own
    (another seat's legal discards and plays would show that seat's cards)."""
    return [a for a in error.legal if viewer is EVERYONE or a.seat == viewer]
