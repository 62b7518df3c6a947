"""The deal in progress as the kernel keeps it, and the deal machine: the one place an action is applied.

A game state holds its deal as the kernel's *deal state* (plain ints and
tuples, :data:`service.core.kernel.DealState`), not as a typed
:class:`~.position.Position`.  :func:`step` applies every kind of action to
it -- the deal (the service's pack or a client's cards), a discard, the cut
(his heels, claimed or not), a card, a go (a renege included), a count --
with the kernel's step and the events a client is told.  Almost every
action needs no more than that one kernel call.  A claim to judge, or points
that reach the target, are settled here on the same deal state: the kernel
steps without a target (:data:`NO_TARGET`), and :func:`_peg` pegs the items
in order and ends the game at the one that reaches it.  What is legal is
the kernel's one generator's (a card or a go among
:func:`~service.core.kernel.play_codes`, a discard among
:func:`~service.core.kernel.discards_of`, the deal, the cut and the count by
who is to make them).  An action the machine refuses is illegal: the typed
position (:func:`.position.position_of`, a view) says why (:func:`.position.check`).  tests/core/game/test_deal_machine.py
holds the machine to the rules written again in the tests.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence

from ..cards import CARDS, Card
from ..errors import MalformedError
from ..claims import check_claim, heels_pegged, settle
from ..engine import kernel
# the deal state's fields by name (the kernel's one layout)
from ..kernel import COUNT, COUNT_CARDS, CRIB, DISCARDED, HANDS, HELD, PACK, PEGS, PHASE, SHOWN, STARTER, TURN, WINNER
from ..options import GameOptions, pone, side_of
from ..peg import Score, go_score, peg_scores
from ..play import GOS, PLAY_CODES, PLAYS, Go, PlayCard, next_opponent
from ..show import CountedScores
from .actions import Count, Counted, Cut, Deal, Discard, GameAction
from .events import Dealt, Discarded, GameEvent, GameOver, HandCounted, Played, StarterTurned, Went


DealState = kernel.DealState
_new = tuple.__new__  # every field given: a named tuple's keyword-taking __new__ is not needed
NOBODY = kernel.NOBODY
SEAT_SETS = tuple(frozenset(s for s in range(4) if bits >> s & 1) for bits in range(16))
"""A set of seats by its bits."""
_NO_SCORES: tuple[Score, ...] = ()
_SIDES = {n: tuple([side_of(n, s) for s in range(n)]) for n in (2, 3, 4)}
"""The side each seat pegs on, by players."""


PLAIN = tuple(range(52))
"""A card as the plain int the kernel keeps (a :class:`Card` is an int too, but compiled code takes
exact ints much faster)."""


def plain_cards(cards: Sequence[int]) -> tuple[int, ...]:
    """Cards as the plain ints the kernel keeps."""
    return tuple([PLAIN[c] for c in cards])


def typed_cards(cards: tuple[int, ...]) -> tuple[Card, ...]:
    """The kernel's cards, each as a :class:`Card`."""
    return tuple([CARDS[c] for c in cards])


def seat_bits(seats: frozenset[int]) -> int:
    """A set of seats as bits (:data:`SEAT_SETS` undone)."""
    return sum(1 << s for s in seats)


def start(options: GameOptions, pegs: tuple[tuple[int, int], ...], pack: tuple[int, ...]) -> DealState:
    """A deal before the dealer deals: the pegs as the last deal left them, the pack (plain ints, as
    :func:`.deck.pack_numbers` gives them) if the service deals, else empty."""
    return kernel.deal_start(options.players, tuple([p for peg in pegs for p in peg]), pack)


def step(state: DealAt, action: GameAction) -> tuple[DealState, list[GameEvent], GameAction] | None:
    """The next deal state, the events and the action as completed, for a legal ``action``; None for an
    illegal one (:func:`.position.check` then says why).  A malformed claim raises as the check would."""
    machine = STEPS.get(type(action))
    return None if machine is None else machine(state, action)


class DealAt(Protocol):
    """Where a deal stands, as the machine reads it: a game state, or a playout."""

    @property
    def options(self) -> GameOptions: ...
    @property
    def deal(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def deal_state(self) -> DealState: ...


Stepped = tuple[DealState, list[GameEvent], GameAction] | None
NO_TARGET = 1 << 30
"""A target no side reaches: the kernel steps the deal under it when the points are to be pegged here,
item by item (a claim judged, or the target reached)."""


def _claim(o: GameOptions, claim: int | None, muggins: bool) -> int | None:
    """A claim checked (malformed: raises), or None where the options make it nothing to judge: a claim
    is judged with muggins (for the play, muggins in the play) or under tournament rules (ACC 8.3)."""
    if claim is None:
        return None
    check_claim(claim)
    return claim if muggins or o.tournament else None


def _peg(o: GameOptions, k: DealState, nxt: DealState, scores: Sequence[Score],
         total: int | None = None) -> tuple[DealState, Sequence[Score]]:
    """``nxt`` (stepped from ``k`` without a target) with ``scores`` pegged from ``k``'s pegs, in order,
    stopping the instant a side reaches the target: the game is then over (the rest is not pegged).  One
    peg move per side per event, so the gap shows the whole last score; a counted hand (``total`` given)
    is pegged at once, item by item only if it reaches the target; a false claim's set-back (ACC 8.4.b)
    moves both pegs back, never below 0."""
    pegs = list(k[PEGS])
    if not scores:
        return nxt[:PEGS] + (tuple(pegs),) + nxt[PEGS + 1:], ()
    if total is not None and type(scores) is CountedScores:
        side = o.side_of(scores.seat)
        front = pegs[2 * side]
        if front + total < o.target:
            pegs[2 * side], pegs[2 * side + 1] = front + total, front
            return nxt[:PEGS] + (tuple(pegs),) + nxt[PEGS + 1:], scores
    moved = 0
    pegged = []
    for s in scores:
        if s.points <= 0:
            continue
        side = o.side_of(s.seat)
        front, back = pegs[2 * side], pegs[2 * side + 1]
        first = not moved >> side & 1
        moved |= 1 << side
        pegged.append(s)
        if s.kind == "set_back":
            new = front - s.points
            pegs[2 * side], pegs[2 * side + 1] = new, min(front if first else back, new)
            continue
        pegs[2 * side], pegs[2 * side + 1] = front + s.points, front if first else back
        if front + s.points >= o.target:
            return (nxt[:PHASE] + (kernel.OVER_PHASE,) + nxt[PHASE + 1:PEGS] + (tuple(pegs), side)
                    + nxt[WINNER + 1:]), tuple(pegged)
    return nxt[:PEGS] + (tuple(pegs),) + nxt[PEGS + 1:], tuple(pegged)


def _claimed(o: GameOptions, k: DealState, seat: int, scores: Sequence[Score], claim: int, muggins: bool,
             show: bool) -> tuple[Score, ...]:
    """A claim settled (:func:`~service.core.claims.settle`): under tournament rules an over-claim into
    the game hole is a false claim of game, judged from the side's score before this count (its partner's
    points in the same event, pegged first, included)."""
    side = o.side_of(seat)
    before = k[PEGS][2 * side] + sum(s.points for s in scores if s.seat != seat and o.side_of(s.seat) == side)
    return settle(o.players, seat, scores, claim, muggins=muggins, show=show, tournament=o.tournament,
                  before=before, target=o.target).scores


def _ended(state: DealAt, nxt: DealState, event: GameEvent) -> list[GameEvent]:
    """The events of a step: its own, and the game's end when it reached the target."""
    return [event, GameOver(state.deal)] if nxt[PHASE] == kernel.OVER_PHASE else [event]


def _card(state: DealAt, action: PlayCard) -> Stepped:
    k, seat, card = state.deal_state, action.seat, action.card
    o = state.options
    # legal: the seat to play, and the card among the one generator's codes (held, and fits the count)
    if k[PHASE] != kernel.PLAY_PHASE or seat != k[TURN] or card not in _play_codes(k[HELD][seat], k[COUNT],
                                                                                   o.tournament):
        return None
    claim = _claim(o, action.claim, o.muggins_in_play)
    sides = _SIDES[o.players]
    stepped = None if claim is not None else kernel.lay_card(k, o.players, sides, o.target, seat, PLAIN[card])
    slow = stepped is None
    if stepped is None:
        stepped = kernel.lay_card(k, o.players, sides, NO_TARGET, seat, PLAIN[card])
        assert stepped is not None
    nxt, count, points, same, run, go_to, reset = stepped
    scores: Sequence[Score] = (peg_scores(typed_cards(k[COUNT_CARDS] + (card,)), seat, count, (points, same, run))
                               if points or run or same > 1 else [])
    if go_to >= 0:
        scores.append(_go_point(go_to, nxt))  # type: ignore[attr-defined]  # a list here
    if slow:
        if claim is not None:
            scores = _claimed(o, k, seat, scores, claim, o.muggins_in_play, show=False)
        nxt, scores = _peg(o, k, nxt, scores)
    event = _new(Played, (state.deal, seat, card, count, tuple(scores) if scores else _NO_SCORES, bool(reset)))
    return nxt, (_ended(state, nxt, event) if slow else [event]), action


def _go(state: DealAt, action: Go) -> Stepped:
    k, seat = state.deal_state, action.seat
    if k[PHASE] != kernel.PLAY_PHASE or seat != k[TURN]:
        return None
    o = state.options
    codes = _play_codes(k[HELD][seat], k[COUNT], o.tournament)
    if codes[-1:] != _GO:  # the generator lists no go: a lead, or a go while able (unless a renege)
        return None
    able = len(codes) - 1  # the cards that fit: a renege's
    claim = _claim(o, action.claim, o.muggins_in_play)
    sides = _SIDES[o.players]
    stepped = None if claim is not None else kernel.say_go(k, o.players, sides, o.target, seat)
    slow = stepped is None
    if stepped is None:
        stepped = kernel.say_go(k, o.players, sides, NO_TARGET, seat)
        assert stepped is not None
    nxt, count, _, _, _, go_to, reset = stepped
    scores: list[Score] = []
    if able:  # a renege (tournament rules): the next opponent pegs the penalty
        scores.append(Score(next_opponent(o.players, seat), "renege", kernel.renege_points(able)))
    if go_to >= 0:
        scores.append(_go_point(go_to, nxt))
    pegged: Sequence[Score] = scores
    if slow:
        if claim is not None:
            pegged = _claimed(o, k, seat, scores, claim, o.muggins_in_play, show=False)
        nxt, pegged = _peg(o, k, nxt, pegged)
    event = _new(Went, (state.deal, seat, count, tuple(pegged) if pegged else _NO_SCORES, bool(reset)))
    return nxt, (_ended(state, nxt, event) if slow else [event]), action


def _go_point(seat: int, nxt: DealState) -> Score:
    """The go, or the last card when nobody holds a card (nobody is to play after it)."""
    return go_score(seat, nxt[TURN] != NOBODY)


def _count(state: DealAt, action: Count) -> Stepped:
    k, o, seat = state.deal_state, state.options, action.seat
    n = o.players
    shown = k[SHOWN]
    if k[PHASE] != kernel.SHOW_PHASE or shown > n or seat != SHOW_ORDER[n][state.dealer][shown]:
        return None  # out of the show's order: left of the dealer first, the dealer last, the crib
    crib = shown == n
    what = action.what
    if what is not None and what != (Counted.CRIB if crib else Counted.HAND):
        return None  # a count that names what it counts must name the right one
    claim = _claim(o, action.claim, o.muggins)
    sides = _SIDES[n]
    counted = None if claim is not None else kernel.count_hand(k, n, sides, o.target, seat)
    slow = counted is None
    if counted is None:
        counted = kernel.count_hand(k, n, sides, NO_TARGET, seat)
        assert counted is not None
    nxt, total = counted
    cards = typed_cards(k[CRIB] if crib else k[HANDS][seat])
    scores: Sequence[Score] = (
        CountedScores(seat, cards, CARDS[k[STARTER]], crib, total) if total or slow else _NO_SCORES)
    if slow:
        if claim is not None:
            nxt, scores = _peg(o, k, nxt, _claimed(o, k, seat, scores, claim, o.muggins, show=True))
        else:
            nxt, scores = _peg(o, k, nxt, scores, total)
    event = _new(HandCounted, (state.deal, seat, cards, Counted.CRIB if crib else Counted.HAND, scores))
    done = action if what is None else Count(seat, action.claim)  # the record leaves out what it counts
    return nxt, (_ended(state, nxt, event) if slow else [event]), done


def _discard(state: DealAt, action: Discard) -> Stepped:
    k, o, cards, seat = state.deal_state, state.options, action.cards, action.seat
    if k[PHASE] != kernel.DISCARD_PHASE or not 0 <= seat < o.players or k[DISCARDED][seat]:
        return None
    # legal: the cards, distinct and in the order held, one of the generator's discards of the hand
    hand = k[HANDS][seat]
    if len(set(cards)) != len(cards) or tuple([c for c in hand if c in cards]) not in _discards_of(hand, len(cards)) \
            or len(cards) != o.discards:
        return None
    return kernel.lay_away(k, seat, plain_cards(cards)), [_new(Discarded, (state.deal, seat, cards))], action


def _deal(state: DealAt, action: Deal) -> Stepped:
    k, o, dealer = state.deal_state, state.options, state.dealer
    if k[PHASE] != kernel.DEAL_PHASE or action.seat != dealer:
        return None  # out of turn
    if k[PACK]:  # the service deals: one card at a time from the left of the dealer, then the crib's
        if action.hands is not None or action.crib:
            return None
        nxt = kernel.deal_pack(k, o.players, dealer, o.cards_dealt, o.dealt_to_crib)
        done = Deal(dealer, tuple([typed_cards(h) for h in nxt[HANDS]]), typed_cards(nxt[CRIB]))
    else:  # a client's cards: every seat's hand and the crib's, distinct
        hands, crib = action.hands, action.crib
        if (hands is None or len(hands) != o.players or any(len(h) != o.cards_dealt for h in hands)
                or len(crib) != o.dealt_to_crib):
            return None
        dealt = [c for h in hands for c in h] + list(crib)
        if len(set(dealt)) != len(dealt):
            return None
        nxt, done = kernel.deal_hands(k, tuple([plain_cards(h) for h in hands]), plain_cards(crib)), action
    return nxt, [_new(Dealt, (state.deal, dealer))], done


def _cut(state: DealAt, action: Cut) -> Stepped:
    k, o, dealer = state.deal_state, state.options, state.dealer
    cutter = pone(o.players, dealer)
    if k[PHASE] != kernel.CUT_PHASE or action.seat != cutter:
        return None  # out of turn
    if k[PACK]:  # the service turns the card after the dealt ones
        if action.starter is not None:
            return None
        turned = k[PACK][kernel.starter_at(o.players, o.cards_dealt, o.dealt_to_crib)]
    else:  # a client's starter: a card not dealt
        if action.starter is None:
            return None
        turned = PLAIN[action.starter]
        if turned in k[CRIB] or any(turned in h for h in k[HANDS]):
            return None
    claim = action.claim
    if claim is not None:
        check_claim(claim)
    side = _SIDES[o.players][dealer]
    nxt = None if claim is not None else kernel.turn_starter(k, cutter, turned, side, o.target)
    starter = CARDS[turned]
    heels = kernel.heels(turned)
    scores: Sequence[Score] = (_new(Score, (dealer, "his_heels", heels, (starter,))),) if heels else ()
    slow = nxt is None
    if nxt is None:  # ACC 6.3.c: his heels forfeited if not pegged (a claim); or they reach the target
        nxt = kernel.turn_starter(k, cutter, turned, side, NO_TARGET)
        assert nxt is not None
        heels = heels_pegged(heels, claim, o.tournament)
        nxt, scores = _peg(o, k, nxt, (_new(Score, (dealer, "his_heels", heels, (starter,))),) if heels else ())
    event = _new(StarterTurned, (state.deal, cutter, starter, tuple(scores)))
    return nxt, (_ended(state, nxt, event) if slow else [event]), Cut(cutter, starter, claim)


STEPS: dict[type, Callable[[DealAt, Any], Stepped]] = {
    PlayCard: _card, Go: _go, Count: _count, Discard: _discard, Deal: _deal, Cut: _cut}
"""The machine's step for each action type (:func:`step`)."""


class _SharedDiscards(dict[tuple[Card, ...], Discard]):
    """A seat's discards by their cards, each made once when first asked for:
    actions are immutable, so legal_actions hands out shared instances (at
    most 52 x 51 of them a seat)."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def __missing__(self, cards: tuple[Card, ...]) -> Discard:
        discard = self[cards] = Discard(self.seat, cards)
        return discard


DISCARDS = tuple(_SharedDiscards(seat) for seat in range(4))
"""``DISCARDS[seat][cards]``: the one instance of each discard (legal lists and the deal machine share them)."""
DEALS = tuple(Deal(s) for s in range(4))
CUTS = tuple(Cut(s) for s in range(4))
COUNTS = tuple(Count(s) for s in range(4))
"""Each seat's deal, cut and count without cards or a claim, one instance each."""
SHOW_ORDER = tuple(tuple(tuple([kernel.show_seat(n, dealer, shown) for shown in range(n + 1)])
                         for dealer in range(n)) if n else () for n in range(5))
"""The show's order by players and dealer: left of the dealer first, clockwise,
the dealer last, then the crib (the dealer's)."""


class _Discards(dict[tuple[int, ...], Discard]):
    """A seat's discards by their cards' numbers (one or two, in the order held): the shared instances
    :func:`.position.legal_actions` hands out, looked up in C by a tuple of plain ints."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def __missing__(self, key: tuple[int, ...]) -> Discard:
        discard = self[key] = DISCARDS[self.seat][typed_cards(key)]
        return discard


DISCARDS_BY_NUMBER = tuple(_Discards(seat) for seat in range(4))
"""``DISCARDS_BY_NUMBER[seat][cards]``: a discard's shared instance by its cards' plain numbers."""


def legal(state: DealAt, seat: int | None = None) -> list[GameAction]:
    """Every legal action now (of ``seat`` only, when given): :func:`legal_of` the game's deal state."""
    return legal_of(state.deal_state, state.options, state.dealer, seat)


def legal_of(k: DealState, o: GameOptions, dealer: int, seat: int | None = None) -> list[GameAction]:
    """Every legal action of deal state ``k`` (of ``seat`` only, when given), each as its shared action
    instance: the kernel's one generator, :func:`~service.core.kernel.legal_codes`, its codes named
    (:func:`action_of`'s naming) in its order.  A client-deck deal or cut is listed once, without its
    cards."""
    codes = _legal_codes(k, o.players, o.discards, o.tournament)
    if not codes:
        return []
    phase = k[PHASE]
    if phase == _PLAY:
        turn = k[TURN]
        if seat is not None and seat != turn:
            return []
        return list(map(PLAY_CODES[turn].__getitem__, codes))
    if phase == _DISCARD:
        hands, size = k[HANDS], o.discards
        out: list[GameAction] = []
        i = 0
        while i < len(codes):  # each seat's codes together: every discard of its hand, in the order listed
            s = (codes[i] - _DISCARD_CODE) // _PER_SEAT
            named = _discards_of(hands[s], size)
            if seat is None or s == seat:
                out += map(DISCARDS_BY_NUMBER[s].__getitem__, named)
            i += len(named)
        return out
    action = _named(k, o, dealer, codes[0])
    return [action] if seat is None or seat == action.seat else []


def action_of(k: DealState, o: GameOptions, dealer: int, code: int) -> GameAction:
    """The game action ``code`` (:func:`~service.core.kernel.legal_codes`) names in deal state ``k``, as
    its shared instance; :class:`MalformedError` when it names none (no code, or a card when nobody is to
    play)."""
    n, turn = o.players, k[TURN]
    if 0 <= code < _GO_CODE and turn != NOBODY:
        return PLAYS[turn][code]
    if code == _GO_CODE and turn != NOBODY:
        return GOS[turn]
    if code in (kernel.DEAL_CODE, kernel.CUT_CODE) or (code == kernel.COUNT_CODE and k[SHOWN] <= n):
        return _named(k, o, dealer, code)
    seat, i = divmod(code - _DISCARD_CODE, _PER_SEAT)
    if code >= _DISCARD_CODE and seat < n:
        discards = _discards_of(k[HANDS][seat], o.discards)
        if i < len(discards):
            return DISCARDS_BY_NUMBER[seat][discards[i]]
    raise MalformedError(f"{code!r} names no action now")


def _named(k: DealState, o: GameOptions, dealer: int, code: int) -> GameAction:
    """The deal, the cut or the next count: the dealer deals, the pone cuts, the show's order counts."""
    if code == kernel.DEAL_CODE:
        return DEALS[dealer]
    if code == kernel.CUT_CODE:
        return CUTS[pone(o.players, dealer)]
    return COUNTS[SHOW_ORDER[o.players][dealer][k[SHOWN]]]  # kernel.show_seat's, tabled


_PLAY, _DISCARD = kernel.PLAY_PHASE, kernel.DISCARD_PHASE
_GO_CODE, _DISCARD_CODE, _PER_SEAT = kernel.GO_CODE, kernel.DISCARD_CODE, kernel.DISCARDS_PER_SEAT
_legal_codes, _discards_of, _play_codes = kernel.legal_codes, kernel.discards_of, kernel.play_codes
_GO = [kernel.GO_CODE]
