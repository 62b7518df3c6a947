"""A game played out on the kernel: the interface for simulations.

A :class:`Playout` is a game in progress kept as the kernel's deal state and
stepped in place, OpenSpiel's shape: :meth:`~Playout.legal_actions` lists
the actions as the kernel's small int codes (:func:`.kernel.legal_codes`),
:meth:`~Playout.apply_action` takes one (any other is refused as the game
engine refuses the action it names: :class:`~service.core.errors.IllegalError`
with the rule and what is legal), and the game goes on deal after
deal with the service's pack until a side wins.  It tells no events, keeps
no record or history and makes no typed state: it is for what plays many
games or deals and reads only where they end (rollouts, self-play, a bot's
sampled worlds).  Clients' games, with their checks, sentences, claims and
events, are :func:`.state.apply_action`'s.

It is the same engine: each code is stepped by :func:`.kernel.step` (the
kernel functions the game's deal machine calls), and a step that reaches
the target is the deal machine's (:func:`.compact.step`, which pegs item by
item and ends the game), as in the game engine.  :func:`action_of` names a code as a game action;
tests/core/game/test_playout.py holds a playout to the game engine action by action.
"""

from __future__ import annotations

from ..engine import kernel
from ..kernel import PEGS, PHASE, WINNER  # the deal state's fields by name
from ..errors import MalformedError
from ..options import GameOptions, next_seat, side_of
from .actions import GameAction
from .compact import action_of, step
from .deck import pack_numbers
from .position import check, position_of
from .state import GameState

NOBODY = kernel.NOBODY


class Playout:
    """A game from ``state`` on (a service-dealt game), stepped in place.  The deals after this one come
    from the packs ``deck_seed`` fixes: the game's own by default; give a fresh one where the simulation
    must not know the cards to come (a seat's rollouts: only the service may see the game's seed)."""

    __slots__ = ("options", "first_dealer", "deck_seed", "deal", "dealer", "deal_state", "_legal", "_players",
                 "_sides", "_target", "_dealt", "_to_crib", "_size", "_tournament")

    def __init__(self, state: GameState, deck_seed: str | None = None) -> None:
        if state.deck_seed is None:
            raise MalformedError("a playout deals from the service's pack: this game's cards are the client's")
        self.options: GameOptions = state.options
        self.first_dealer: int = state.first_dealer
        self.deck_seed: str = state.deck_seed if deck_seed is None else deck_seed
        self.deal: int = state.deal
        self.dealer: int = state.dealer
        self.deal_state: kernel.DealState = state.deal_state
        self._legal: list[int] | None = None
        # the options as the kernel takes them, read once
        o = state.options
        self._players, self._target, self._tournament = o.players, o.target, o.tournament
        self._sides = tuple([side_of(o.players, s) for s in range(o.players)])
        self._dealt, self._to_crib, self._size = o.cards_dealt, o.dealt_to_crib, o.discards

    def is_terminal(self) -> bool:
        """Whether a side has won."""
        phase: int = self.deal_state[PHASE]
        return phase == kernel.OVER_PHASE

    @property
    def winner(self) -> int | None:
        """The side that won, None while the game goes on."""
        side: int = self.deal_state[WINNER]
        return None if side == NOBODY else side

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's front peg."""
        pegs: tuple[int, ...] = self.deal_state[PEGS]
        return pegs[::2]

    def legal_actions(self) -> list[int]:
        """Every legal action now, as codes (:func:`.kernel.legal_codes`); none once the game is won."""
        self._legal = legal = kernel.legal_codes(self.deal_state, self._players, self._size, self._tournament)
        return legal

    def apply_action(self, code: int) -> None:
        """Take the legal action ``code``.  Any other: the game engine's :class:`IllegalError` for the
        action it names (its rule, its sentence, the legal actions), :class:`MalformedError` if it names
        none."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if code not in legal:
            # the game engine's sentence and rule for the action the code names (IllegalError)
            check(position_of(self.options, self.deal, self.dealer, self.first_dealer, self.deal_state),
                  self.action_of(code))
            raise AssertionError(f"{code} is legal to the game engine but not a legal code")
        self._legal = None
        k = self.deal_state
        nxt = kernel.step(k, code, self._players, self._sides, self._target, self.dealer, self._dealt, self._to_crib,
                          self._size)
        if nxt is None:  # the target reached: the deal machine pegs item by item, as in the game engine
            stepped = step(self, self.action_of(code))
            assert stepped is not None  # a legal code
            nxt = stepped[0]
        if nxt[PHASE] == kernel.SHOW_PHASE and kernel.deal_over(nxt, self._players):
            self.deal += 1
            self.dealer = next_seat(self._players, self.dealer)
            nxt = kernel.deal_start(self._players, nxt[PEGS], pack_numbers(self.deck_seed, self.deal))
        self.deal_state = nxt

    def action_of(self, code: int) -> GameAction:
        """The game action ``code`` names now (the shared instance the game engine's :func:`.legal`
        lists); :class:`MalformedError` when it names none (no code, or a card when nobody is to play)."""
        try:
            return action_of(self.deal_state, self.options, self.dealer, code)
        except MalformedError:
            raise MalformedError(f"{code!r} names no action now (the legal codes: {self.legal_actions()})") from None
