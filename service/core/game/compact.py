"""The deal in progress as the kernel keeps it, and the game's fast path.

A game state holds its deal as the kernel's *deal state* (plain ints and
tuples, :data:`service.core.kernel.DealState`), not as a typed
:class:`~.position.Position`: almost every action of a game is a card, a go,
a count, a discard, a deal or a cut that needs no sentence, judges no claim
and ends no game, and :func:`step` moves the deal state for those with one
kernel call and the events a client is told.  Everything else (a claim, a
client's cards, a game won, an illegal action) is the typed
path's, :func:`.position.apply`, on the position :func:`position_of` builds;
:func:`deal_state_of` turns its answer back.  tests/core/game/test_game_fast.py
checks the two paths against each other, action by action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..cards import CARDS, Card
from ..engine import kernel
# the deal state's fields by name (the kernel's one layout)
from ..kernel import COUNT, COUNT_CARDS, CRIB, DISCARDED, HANDS, HELD, PACK, PHASE, SHOWN, STARTER, TURN
from ..options import GameOptions, pone, side_of
from ..peg import Score, go_score, peg_scores
from ..play import GOS, PLAYS, Go, Play, PlayCard
from ..show import CountedScores
from .actions import Count, Counted, Cut, Deal, Discard, GameAction
from .events import Dealt, Discarded, GameEvent, HandCounted, Played, StarterTurned, Went
from .position import COUNTS, CUTS, DEALS, DISCARDS, PHASES, SHOW_ORDER, Position

if TYPE_CHECKING:
    from .state import GameState

DealState = kernel.DealState
_new = tuple.__new__  # every field given: a named tuple's keyword-taking __new__ is not needed
NOBODY = kernel.NOBODY
_SEAT_SETS = tuple(frozenset(s for s in range(4) if bits >> s & 1) for bits in range(16))
_NO_SCORES: tuple[Score, ...] = ()
_SIDES = {n: tuple([side_of(n, s) for s in range(n)]) for n in (2, 3, 4)}
"""The side each seat pegs on, by players."""


_PLAIN = tuple(range(52))
"""A card as the plain int the kernel keeps (a :class:`Card` is an int too, but compiled code takes
exact ints much faster)."""


def _plain(cards: Sequence[int]) -> tuple[int, ...]:
    return tuple([_PLAIN[c] for c in cards])


def _cards(cards: tuple[int, ...]) -> tuple[Card, ...]:
    return tuple([CARDS[c] for c in cards])


def _bits(seats: frozenset[int]) -> int:
    return sum(1 << s for s in seats)


def position_of(options: GameOptions, deal: int, dealer: int, first_dealer: int, k: DealState) -> Position:
    """The typed position of a deal state."""
    (phase, hands, discards, crib, starter, turn, count, count_cards, passed, last, held, played, play_scores,
     shown, pegs, winner, pack) = k
    play = None
    if starter != NOBODY:  # the play exists from the cut on
        play = Play(options.players, None if turn == NOBODY else turn, count, _cards(count_cards),
                    _SEAT_SETS[passed], None if last == NOBODY else last, tuple([_cards(h) for h in held]),
                    tuple([len(h) for h in held]), _cards(played), play_scores, options.tournament)
    return Position(options, deal, dealer, first_dealer,
                    tuple([(pegs[i], pegs[i + 1]) for i in range(0, len(pegs), 2)]), PHASES[phase],
                    tuple([_cards(h) for h in hands]), tuple([_cards(d) for d in discards]), _cards(crib),
                    None if starter == NOBODY else CARDS[starter], _cards(pack) if pack else None, play, shown,
                    None if winner == NOBODY else winner)


def deal_state_of(pos: Position) -> DealState:
    """The deal state of a typed position (:func:`position_of` undone)."""
    n = pos.options.players
    flat = tuple([p for peg in pos.pegs for p in peg])
    no_cards: tuple[tuple[int, ...], ...] = tuple([() for _ in range(n)])
    play = pos.play
    count_cards: tuple[int, ...]
    played: tuple[int, ...]
    if play is None:
        turn, count, count_cards, passed, last, held, played, play_scores = (
            NOBODY, 0, (), 0, NOBODY, no_cards, (), (0,) * n)
    else:
        turn = NOBODY if play.turn is None else play.turn
        count, count_cards, passed = play.count, _plain(play.count_cards), _bits(play.passed)
        last = NOBODY if play.last_player is None else play.last_player
        held = no_cards if play.held is None else tuple([_plain(h) for h in play.held])
        played, play_scores = _plain(play.played), tuple(play.scores)
    return (PHASES.index(pos.phase), tuple([_plain(h) for h in pos.hands]), tuple([_plain(d) for d in pos.discards]),
            _plain(pos.crib), NOBODY if pos.starter is None else _PLAIN[pos.starter], turn, count, count_cards, passed,
            last, held, played, play_scores, pos.shown, flat, NOBODY if pos.winner is None else pos.winner,
            _plain(pos.cards) if pos.cards is not None else ())


def start(options: GameOptions, pegs: tuple[tuple[int, int], ...], pack: tuple[int, ...]) -> DealState:
    """A deal before the dealer deals: the pegs as the last deal left them, the pack (plain ints, as
    :func:`.deck.pack_numbers` gives them) if the service deals, else empty."""
    return kernel.deal_start(options.players, tuple([p for peg in pegs for p in peg]), pack)


def step(state: GameState, action: GameAction) -> tuple[DealState, list[GameEvent], GameAction] | None:
    """The next deal state, the events and the action as completed, for an action the fast path takes;
    None for any other (the typed path then checks it, explains it or applies it)."""
    fast = STEPS.get(type(action))
    return None if fast is None else fast(state, action)


Stepped = tuple[DealState, list[GameEvent], GameAction] | None


def _card(state: GameState, action: PlayCard) -> Stepped:
    k, seat, card = state.deal_state, action.seat, action.card
    if (k[PHASE] != kernel.PLAY_PHASE or action.claim is not None or seat != k[TURN] or card not in k[HELD][seat]
            or not kernel.FITS[k[COUNT]][card]):
        return None
    o = state.options
    stepped = kernel.lay_card(k, o.players, _SIDES[o.players], o.target, seat, _PLAIN[card])
    if stepped is None:
        return None
    nxt, count, points, same, run, go_to, reset = stepped
    scores = (peg_scores(_cards(k[COUNT_CARDS] + (card,)), seat, count, (points, same, run))
              if points or run or same > 1 else [])
    if go_to >= 0:
        scores.append(_go_point(go_to, nxt))
    event = _new(Played, (state.deal, seat, card, count, tuple(scores) if scores else _NO_SCORES, bool(reset)))
    return nxt, [event], action


def _go(state: GameState, action: Go) -> Stepped:
    k, seat = state.deal_state, action.seat
    if (k[PHASE] != kernel.PLAY_PHASE or action.claim is not None or seat != k[TURN]
            or k[COUNT] == 0 or kernel.playable(k, seat)):  # a lead, or a go while able (a renege)
        return None
    o = state.options
    stepped = kernel.say_go(k, o.players, _SIDES[o.players], o.target, seat)
    if stepped is None:
        return None
    nxt, count, _, _, _, go_to, reset = stepped
    pegged = (_go_point(go_to, nxt),) if go_to >= 0 else _NO_SCORES
    return nxt, [_new(Went, (state.deal, seat, count, pegged, bool(reset)))], action


def _go_point(seat: int, nxt: DealState) -> Score:
    """The go, or the last card when nobody holds a card (nobody is to play after it)."""
    return go_score(seat, nxt[TURN] != NOBODY)


def _count(state: GameState, action: Count) -> Stepped:
    k, o, seat = state.deal_state, state.options, action.seat
    n = o.players
    shown = k[SHOWN]
    if (k[PHASE] != kernel.SHOW_PHASE or action.claim is not None or action.what is not None or shown > n
            or seat != SHOW_ORDER[n][state.dealer][shown]):
        return None  # a claim, or out of the show's order: left of the dealer first, the dealer last, the crib
    counted = kernel.count_hand(k, n, _SIDES[n], o.target, seat)
    if counted is None:
        return None
    nxt, total = counted
    crib = shown == n
    cards = _cards(k[CRIB] if crib else k[HANDS][seat])
    scores: CountedScores | tuple[Score, ...] = (
        CountedScores(seat, cards, CARDS[k[STARTER]], crib, total) if total else _NO_SCORES)
    event = _new(HandCounted, (state.deal, seat, cards, Counted.CRIB if crib else Counted.HAND, scores))
    return nxt, [event], action


def _discard(state: GameState, action: Discard) -> Stepped:
    k, o, cards, seat = state.deal_state, state.options, action.cards, action.seat
    if (k[PHASE] != kernel.DISCARD_PHASE or not 0 <= seat < o.players or k[DISCARDED][seat]
            or len(cards) != o.discards or len(set(cards)) != len(cards)
            or any(c not in k[HANDS][seat] for c in cards)):
        return None
    return kernel.lay_away(k, seat, _plain(cards)), [_new(Discarded, (state.deal, seat, cards))], action


def _deal(state: GameState, action: Deal) -> Stepped:
    k, o, dealer = state.deal_state, state.options, state.dealer
    if (k[PHASE] != kernel.DEAL_PHASE or not k[PACK] or action.seat != dealer or action.hands is not None
            or action.crib):
        return None  # a client's cards, or out of turn
    nxt = kernel.deal_pack(k, o.players, dealer, o.cards_dealt, o.dealt_to_crib)
    dealt = Deal(dealer, tuple([_cards(h) for h in nxt[HANDS]]), _cards(nxt[CRIB]))
    return nxt, [_new(Dealt, (state.deal, dealer))], dealt


def _cut(state: GameState, action: Cut) -> Stepped:
    k, o, dealer = state.deal_state, state.options, state.dealer
    cutter = pone(o.players, dealer)
    if (k[PHASE] != kernel.CUT_PHASE or not k[PACK] or action.seat != cutter or action.starter is not None
            or action.claim is not None):
        return None  # a client's cards, out of turn, or what the dealer claims of his heels
    turned = k[PACK][kernel.starter_at(o.players, o.cards_dealt, o.dealt_to_crib)]
    nxt = kernel.turn_starter(k, cutter, turned, _SIDES[o.players][dealer], o.target)
    if nxt is None:
        return None  # his heels win the game: the typed path pegs them and ends it
    starter = CARDS[turned]
    heels = kernel.heels(turned)
    scores = (_new(Score, (dealer, "his_heels", heels, (starter,))),) if heels else ()
    return nxt, [_new(StarterTurned, (state.deal, cutter, starter, scores))], Cut(cutter, starter, None)


STEPS: dict[type, Callable[[GameState, Any], Stepped]] = {
    PlayCard: _card, Go: _go, Count: _count, Discard: _discard, Deal: _deal, Cut: _cut}
"""The fast path's step for each action type (:func:`step`)."""


class _Discards(dict[tuple[int, ...], Discard]):
    """A seat's discards by their cards' numbers (one or two, in the order held): the shared instances
    :func:`.position.legal_actions` hands out, looked up in C by a tuple of plain ints."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def __missing__(self, key: tuple[int, ...]) -> Discard:
        discard = self[key] = DISCARDS[self.seat][_cards(key)]
        return discard


DISCARDS_BY_NUMBER = tuple(_Discards(seat) for seat in range(4))
"""``DISCARDS_BY_NUMBER[seat][cards]``: a discard's shared instance by its cards' plain numbers."""


def legal(state: GameState, seat: int | None = None) -> list[GameAction]:
    """Every legal action now (of ``seat`` only, when given): :func:`legal_of` the game's deal state."""
    return legal_of(state.deal_state, state.options, state.dealer, seat)


def legal_of(k: DealState, o: GameOptions, dealer: int, seat: int | None = None) -> list[GameAction]:
    """Every legal action of deal state ``k`` (of ``seat`` only, when given), each as its shared action
    instance: the kernel's rules of what is legal (:func:`~service.core.kernel.playable` and
    :func:`~service.core.kernel.may_go` in the play, :func:`~service.core.kernel.discards_of` for each
    seat yet to lay away, :func:`~service.core.kernel.show_seat`), composed as
    :func:`~service.core.kernel.legal_codes` composes them for playouts, in the same order (a test holds
    the two lists to one another, and both to the rules written again in tests/reference/legal.py).  A
    client-deck deal or cut is listed once, without its cards."""
    phase = k[PHASE]
    if phase == _PLAY:
        turn = k[TURN]
        if turn == NOBODY or (seat is not None and seat != turn):
            return []
        plays = PLAYS[turn]
        out: list[GameAction] = [plays[c] for c in _playable(k, turn)]
        if _may_go(k[COUNT], len(out), o.tournament):
            out.append(GOS[turn])
        return out
    n = o.players
    if phase == _DISCARD:
        discarded, hands, size = k[DISCARDED], k[HANDS], o.discards
        out = []
        for s in range(n):
            if not discarded[s] and (seat is None or s == seat):
                out += map(DISCARDS_BY_NUMBER[s].__getitem__, _discards_of(hands[s], size))
        return out
    actions: tuple[GameAction, ...]
    if phase == _DEAL:
        actor, actions = dealer, DEALS
    elif phase == _CUT:
        actor, actions = pone(n, dealer), CUTS
    elif phase == _SHOW and k[SHOWN] <= n:
        actor, actions = SHOW_ORDER[n][dealer][k[SHOWN]], COUNTS  # kernel.show_seat's, tabled
    else:
        return []
    return [actions[actor]] if seat is None or seat == actor else []


_PLAY, _DISCARD, _DEAL, _CUT, _SHOW = (kernel.PLAY_PHASE, kernel.DISCARD_PHASE, kernel.DEAL_PHASE, kernel.CUT_PHASE,
                                       kernel.SHOW_PHASE)
_playable, _may_go, _discards_of = kernel.playable, kernel.may_go, kernel.discards_of
