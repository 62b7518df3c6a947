"""A game state: where the current deal began, and the actions taken since.

Everything else (phase, hands, crib, count, whose turn, legal actions) is
rebuilt by replaying those actions, so a state a client sends back is
verified whole on every request and no derived fact is ever taken on trust.
The state keeps where the deal stands as the kernel's deal state
(:mod:`.compact`), stepped by the deal machine, and builds the typed
:class:`Position` from it when something reads ``position``.  The state stays the same size all game: at the end of each
deal its actions are folded into ``history``, a SHA-256 chain that a record
of the game (every action in order) reproduces.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import fields as dataclass_fields
from dataclasses import replace
from functools import lru_cache
from typing import Iterator, NamedTuple, Sequence

from ..cards import RANK, VALUE, Card
from ..engine import kernel
from ..kernel import PEGS, PHASE  # the deal state's fields by name
from ..errors import DuplicateCardError, IllegalError, MalformedError
from ..options import GameOptions, Outcome, check_seat, next_first_dealer, next_seat, outcome
from .actions import Cut, Deal, GameAction, notation
from .deck import new_deck_seed, pack, pack_numbers, seed_from_text
from .events import CutForDeal, DealRecorded, GameEvent
from .compact import STEPS, DealState, start
from .compact import legal as legal  # the engine's legal actions, re-exported
from .position import PHASES, Phase, Position, check, position_of

_new = tuple.__new__  # every field given: NamedTuple's keyword-taking __new__ is not needed

MAX_DEALS = 200
"""A bound on the deal counter: no game lasts this long (a deal scores at
least 2 points with 2 players, so a 121 game has at most about 121 deals,
about 181 with 3 players)."""


class _Fields(NamedTuple):
    game_id: str
    """32 hex digits (128 random bits), the same for the whole game."""
    options: GameOptions
    first_dealer: int
    deck_seed: str | None
    """Fixes every deal's pack (see :mod:`.deck`); None with a client deck."""
    deal: int
    dealer: int
    pegs: tuple[tuple[int, int], ...]
    """(front, back) per side when this deal began."""
    deal_seq: int
    """Actions taken in the game before this deal."""
    history: str
    """SHA-256 chain over the previous deals' records (hex)."""
    actions: tuple[GameAction, ...]
    """This deal's actions, completed (the cards a service deck dealt filled in)."""
    deal_state: DealState
    """Where the deal stands, as the kernel keeps it (:mod:`.compact`); :attr:`position` is its typed form."""


_DEAL_FIELDS = _Fields._fields.index("actions")
"""The fields before ``actions``: what an action within a deal leaves as it was."""


class GameState(_Fields):
    """A game: where the current deal began, the actions since, and where they left it."""

    @property
    def position(self) -> Position:
        """The deal as a typed position, built when first read and kept.  (Not a cached_property: in
        Python 3.11 that takes one lock shared by every state of every thread while it builds.)"""
        kept: Position | None = self.__dict__.get("_position")
        if kept is None:
            kept = self.__dict__["_position"] = position_of(self.options, self.deal, self.dealer,
                                                            self.first_dealer, self.deal_state)
        return kept

    @property
    def seq(self) -> int:
        """Actions taken in the whole game so far."""
        return self.deal_seq + len(self.actions)

    @property
    def phase(self) -> Phase:
        return PHASES[self.deal_state[PHASE]]

    def to_act(self) -> list[int]:
        return self.position.to_act()


def genesis(game_id: str, options: GameOptions, first_dealer: int) -> str:
    """The history of a game before its first deal.  How the pack is chosen
    (deck, seed) is left out: a record gives its cards outright."""
    return hashlib.sha256(f"cribbage-game/2\n{game_id}\n{_rules(options)}\n{first_dealer}".encode()).hexdigest()


@lru_cache(maxsize=256)
def _rules(options: GameOptions) -> str:
    """The options a game's history commits to, as text (a game has one set; a service sees a few)."""
    return ",".join(f"{f.name}={getattr(options, f.name)}" for f in dataclass_fields(options)
                    if f.name not in ("deck", "seed"))


def chain(history: str, record: Sequence[str]) -> str:
    """The history after one more deal, whose actions in notation are ``record``."""
    return hashlib.sha256((history + "\n" + "\n".join(record)).encode()).hexdigest()


def cut_for_deal(options: GameOptions, cuts: Sequence[Card]) -> int | None:
    """The seat that deals first: the lowest card; None when the lowest ranks tie.

    >>> cut_for_deal(GameOptions(), [Card.parse("9H"), Card.parse("4C")])
    1
    >>> cut_for_deal(GameOptions(ten_value_ties=True), [Card.parse("JH"), Card.parse("KC")]) is None
    True
    """
    key = VALUE if options.ten_value_ties else RANK
    low = min(key[c] for c in cuts)
    lowest = [s for s, c in enumerate(cuts) if key[c] == low]
    return lowest[0] if len(lowest) == 1 else None


def _pack(deck_seed: str | None, deal: int) -> tuple[int, ...]:
    """The deal's pack as plain ints; empty with a client's cards."""
    return pack_numbers(deck_seed, deal) if deck_seed is not None else ()


def new_game(options: GameOptions, dealer: int | None = None, cuts: Sequence[Card] | None = None, *,
             deck_seed: str | None = None, game_id: str | None = None) -> tuple[GameState, list[GameEvent]]:
    """A game before its first deal.  The first dealer is ``dealer`` if given,
    else decided by ``cuts`` (one card per seat, client deck) or by cutting
    the game's pack until the low card is not tied.  ``deck_seed`` defaults to
    fresh CSPRNG bits (or, for a seeded deck, a hash of the seed)."""
    n = options.players
    if options.deck == "client":
        deck_seed = None
    elif deck_seed is None:
        deck_seed = seed_from_text(options.seed or "") if options.deck == "seeded" else new_deck_seed()
    events: list[GameEvent] = []
    if dealer is not None:
        check_seat(n, dealer, ("dealer",))
        if cuts is not None:
            raise MalformedError("give either the dealer or the cuts for deal, not both", at=("cuts",))
    elif cuts is not None:
        if len(cuts) != n:
            raise MalformedError(f"give one cut card per seat ({n})", at=("cuts",))
        for i, card in enumerate(cuts):
            if card in cuts[:i]:
                raise DuplicateCardError(f"{card} is cut twice", card=card, at=("cuts", i))
        dealer = cut_for_deal(options, cuts)
        if dealer is None:
            raise MalformedError("the lowest cuts tie: cut again", at=("cuts",))
        events.append(CutForDeal(0, dealer, tuple(cuts)))
    else:
        if deck_seed is None:
            raise MalformedError("with a client deck give the dealer or the cuts for deal", at=("dealer",))
        cards = pack(deck_seed, 0)
        for i in range(0, 52 - n + 1, n):
            dealer = cut_for_deal(options, cards[i:i + n])
            events.append(CutForDeal(0, dealer, cards[i:i + n]))
            if dealer is not None:
                break
        else:  # thirteen ties in a row: no table would go on cutting
            dealer = 0
    game_id = game_id or secrets.token_hex(16)
    pegs = ((0, 0),) * options.sides
    state = GameState(game_id, options, dealer, deck_seed, 1, dealer, pegs, 0,
                      genesis(game_id, options, dealer), (), start(options, pegs, _pack(deck_seed, 1)))
    return state, events


def apply_action(state: GameState, action: GameAction) -> tuple[GameState, list[GameEvent]]:
    """Check ``action`` and return the next state and the events it caused.
    When the deal is over its record is folded into the history and the next
    deal begins."""
    o = state.options
    machine = STEPS.get(type(action))  # compact.step, without the call
    stepped = None if machine is None else machine(state, action)
    if stepped is None:  # not legal: the typed position says why
        check(state.position, action)
        raise AssertionError(f"{action} is legal to the rules' check but the deal machine refused it")
    k, events, done = stepped
    actions = state.actions + (done,)
    phase = k[PHASE]
    if phase == kernel.SHOW_PHASE and kernel.deal_over(k, o.players):  # (the phase first: no call in the play)
        record = tuple(map(notation, actions))
        events.append(DealRecorded(state.deal, record))
        deal, dealer = state.deal + 1, next_seat(o.players, state.dealer)
        flat = k[PEGS]
        pegs = tuple([(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)])
        return _new(GameState, (state.game_id, o, state.first_dealer, state.deck_seed, deal, dealer, pegs,
                                state.deal_seq + len(actions), chain(state.history, record), (),
                                kernel.deal_start(o.players, flat, _pack(state.deck_seed, deal)))), events
    if phase == kernel.OVER_PHASE:
        events.append(DealRecorded(state.deal, tuple(map(notation, actions))))
    # the same deal: every field but the last two as they were (the slice takes them in one step)
    return _new(GameState, state[:_DEAL_FIELDS] + (actions, k)), events


def as_sent(action: GameAction, service_deck: bool) -> GameAction:
    """A completed action as a client sends it: with the service's pack, a
    deal or cut without its cards (the pack fills them in), its claim kept."""
    if service_deck and type(action) is Deal:
        return Deal(action.seat)
    if service_deck and type(action) is Cut:
        return Cut(action.seat, None, action.claim)
    return action


def deal_steps(state: GameState) -> Iterator[tuple[GameState, GameAction, GameState, list[GameEvent]]]:
    """The deal in progress replayed from its start, one action at a time:
    (the state before, the action as completed, the state after, its events)."""
    before = restore(state.game_id, state.options, state.first_dealer, state.deck_seed, state.deal,
                     state.dealer, state.pegs, state.deal_seq, state.history, ())
    for given in state.actions:
        after, events = apply_action(before, as_sent(given, state.deck_seed is not None))
        yield before, given, after, events
        before = after


def restore(game_id: str, options: GameOptions, first_dealer: int, deck_seed: str | None, deal: int,
            dealer: int, pegs: tuple[tuple[int, int], ...], deal_seq: int, history: str,
            actions: Sequence[GameAction]) -> GameState:
    """Rebuild a state from what a client sent, replaying this deal's actions.
    Anything that does not fit raises :class:`MalformedError` located at
    the part of the state that is wrong (``("pegs", 1)``, ``("actions", 3)``)."""
    n = options.players
    if not 1 <= deal <= MAX_DEALS:
        raise MalformedError(f"a deal number is 1 to {MAX_DEALS}", at=("deal",))
    if dealer != (first_dealer + deal - 1) % n:
        raise MalformedError(f"deal {deal} is dealt by seat {(first_dealer + deal - 1) % n}", at=("dealer",))
    if (deck_seed is None) != (options.deck == "client"):
        raise MalformedError("a deck seed is kept exactly when the service deals", at=("deck_seed",))
    for side, (front, back) in enumerate(pegs):
        if not 0 <= back <= front < options.target or (deal == 1 and front):
            raise MalformedError("pegs are [front, back], 0 <= back <= front < target, 0 at the first deal",
                                 at=("pegs", side))
    if deal == 1 and (deal_seq or history != genesis(game_id, options, first_dealer)):
        raise MalformedError("the first deal starts the game: seq 0 and the history of this game_id",
                             at=("history",))
    # Each finished deal took a deal, n discards, a cut, 4n plays and n + 1 counts at least.
    if deal_seq < (deal - 1) * (6 * n + 3):
        raise MalformedError(f"{deal - 1} finished deals took more than {deal_seq} actions", at=("seq",))
    cards = _pack(deck_seed, deal)
    state = GameState(game_id, options, first_dealer, deck_seed, deal, dealer, pegs, deal_seq, history,
                      (), start(options, pegs, cards))
    for i, given in enumerate(actions):
        # With the service's pack the recorded cards must be the ones it dealt:
        # the action is replayed without them (the pack fills them in again)
        # and with everything else it recorded, its claim included.
        sent = as_sent(given, deck_seed is not None)
        try:
            nxt, _ = apply_action(state, sent)
        except (IllegalError, MalformedError) as exc:
            raise MalformedError(f"action {i} ({notation(given)}) does not replay: {exc.message}",
                                 at=("actions", i)) from None
        if nxt.deal != deal:
            raise MalformedError("the deal is over: a state starts the next deal", at=("actions", i))
        if nxt.actions[-1] != given:
            raise MalformedError(f"action {i} ({notation(given)}) is not what this game's pack dealt",
                                 at=("actions", i))
        state = nxt
    return state


def result(state: GameState) -> Outcome | None:
    """Who won, each loser's margin in games, and who deals the next game first (None: the game goes on)."""
    pos = state.position
    if pos.winner is None:
        return None
    o = state.options
    nxt = next_first_dealer(pos.scores, state.first_dealer, o.loser_deals_first, o.players)
    return outcome(o, pos.winner, pos.scores)._replace(next_first_dealer=nxt)


def record_start(options: GameOptions, first_dealer: int, game_id: str) -> GameState:
    """The state a record is replayed from: a client deck (the record gives
    every deal's cards and every starter) and the live game's history."""
    dealt = replace(options, deck="client", seed=None)
    state, _ = new_game(dealt, dealer=first_dealer, game_id=game_id)
    # The history is the live game's: its options, not the replay's deck.
    return state._replace(options=dealt, history=genesis(game_id, options, first_dealer))


def replay_record(options: GameOptions, first_dealer: int, game_id: str,
                  actions: Sequence[GameAction]) -> tuple[GameState, list[tuple[int, ...]]]:
    """Replay a whole game from its record (every action, the cards given in
    each deal and cut).  Returns the final state and the scores after each
    deal; an illegal action raises :class:`IllegalError` located at
    ``("actions", index)``."""
    state = record_start(options, first_dealer, game_id)
    after_deal: list[tuple[int, ...]] = []
    for i, action in enumerate(actions):
        try:
            state, events = apply_action(state, action)
        except (IllegalError, MalformedError) as exc:
            if isinstance(exc, IllegalError):
                exc.at = ()  # a record's action is one line of notation: the line is what is wrong
            exc.extra["index"] = i
            raise exc.within("actions", i)
        if any(type(e) is DealRecorded for e in events):
            after_deal.append(state.position.scores)
    return state, after_deal
