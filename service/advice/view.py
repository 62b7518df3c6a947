"""What one seat may see of a game: the only input of the computer opponent and of the evaluation.

:func:`seat_view` takes from a game state what the seat knows
(:func:`service.core.game.observe.seat_seen`: its cards as dealt and kept,
its own discards, the starter once turned, the public play so far) and the
public position and board; everything that decides for a seat decides
from that :class:`SeatView` alone, so it cannot use a card it could not see
(the tests swap the other seats' hidden cards and get the same answer).
"""

from __future__ import annotations

from dataclasses import dataclass

from service.core.cards import Card
from service.core.engine import kernel
from service.core.errors import IllegalError
from service.core.game import Count, Cut, Deal, GameState, Phase
from service.core.game.actions import GameAction
from service.core.game.hidden import Observation, of_state
from service.core.game.observe import Viewer, seat_seen
from service.core.options import GameOptions
from service.core.play import Go, PlayCard


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat sees of the deal in progress."""

    seat: int
    phase: Phase
    dealer: int
    pone: int
    to_act: tuple[int, ...]
    hand: tuple[Card, ...]
    """As dealt before its discard; the four kept after it."""
    discards: tuple[Card, ...]
    starter: Card | None
    plays: tuple[PlayCard | Go, ...]
    """The play so far (public)."""
    counting_crib: bool
    state_key: str
    """The game id and sequence number (seeds the advisor, reveals nothing)."""
    observation: Observation
    """What the seat knows of the deal, as the model of hidden cards reads it
    (:func:`service.core.game.hidden.of_state`)."""
    scores: tuple[int, ...]
    """Each side's score now (the board is public)."""
    options: GameOptions
    """The game's options (public): the deal's shape, the target, tournament and muggins rules; what the
    view's other facts are read by, never copied beside it."""

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def target(self) -> int:
        return self.options.target

    @property
    def tournament(self) -> bool:
        return self.options.tournament

    @property
    def five_and_two(self) -> bool:
        return self.options.five_and_two

    @property
    def deck_client(self) -> bool:
        """Whether the table supplies the cards (a client deck): no bot deals or cuts."""
        return self.options.deck == "client"


def seat_view(state: GameState, seat: int) -> SeatView:
    pos = state.position
    sight = seat_seen(state, seat)
    return SeatView(seat, pos.phase, pos.dealer, pos.pone, tuple(pos.to_act()), sight.hand, sight.discards,
                    sight.starter, sight.plays, pos.counting_crib(), f"{state.game_id}/{state.seq}",
                    of_state(state, seat), pos.scores, state.options)


def observer_view(state: GameState, viewer: Viewer) -> SeatView:
    """What a viewer that may be no seat knows, as a :class:`SeatView`: a seat's own view, or for a
    spectator (None) or everyone, the dealer's seat with only what that viewer sees of it (its public
    cards; everything, for everyone).  For the chance of winning, which takes no seat's decision."""
    if isinstance(viewer, int):
        return seat_view(state, viewer)
    pos = state.position
    obs = of_state(state, viewer)
    seat = pos.dealer
    sight = seat_seen(state, seat)
    thrown = obs.thrown[seat]
    return SeatView(seat, pos.phase, pos.dealer, pos.pone, tuple(pos.to_act()), obs.known[seat], thrown or (),
                    pos.starter if obs.starter is not None else None, sight.plays, pos.counting_crib(),
                    f"{state.game_id}/{state.seq}", obs, pos.scores, state.options)


def routine_action(v: SeatView) -> GameAction | None:
    """The action a seat takes where it has nothing to decide, or None where it has (a discard, a play).

    The deal and the cut (a client deck's table supplies the cards, not a seat's bot: an
    :class:`IllegalError`); the count of its hand claiming its true score; the crib counted without a
    claim, which pegs its true score (the crib is not the seat's to see before it is turned).  Every level
    of the computer opponent, and the evaluation, take these alike.
    """
    if v.phase is Phase.DEAL:
        if v.deck_client:
            raise IllegalError("with a client deck the table deals the cards, not a bot", rule="cards_required",
                               field="state")
        return Deal(v.seat)
    if v.phase is Phase.CUT:
        if v.deck_client:
            raise IllegalError("with a client deck the table turns the starter, not a bot", rule="cards_required",
                               field="state")
        return Cut(v.seat)
    if v.phase is not Phase.SHOW:
        return None
    if v.counting_crib:
        return Count(v.seat)
    a, b, c, d = v.hand
    assert v.starter is not None  # turned before the play
    return Count(v.seat, claim=kernel.show_total(a, b, c, d, v.starter, False))
