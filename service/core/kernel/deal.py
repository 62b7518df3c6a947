"""The deal state machine on plain values: the kernel's deal state and its steps.

What the game's deal machine (:mod:`service.core.game.compact`) applies every
action with: the deal, a discard, the cut, a card, a go (a renege included),
a count, each moving the deal state one step.
"""

from __future__ import annotations

from typing import Any, Final

from .rules import (FITS, GO_POINTS, RANK, VALUE, after, card_points, count_points, heels, lay, rank_sequence, renege_points, show_total)

# ---------------------------------------------------------------------------
# A deal on plain values: the game engine's one deal state machine.
#
# The game engine keeps the deal in progress as one tuple of ints and tuples,
# a *deal state*, and every action of a deal is stepped here: the deal (the
# service's pack or a client's cards), each discard, the cut, each card and go
# (a renege included), each count.  What a rule text says item by item -- a
# claim judged, the pegs stopping the instant a side reaches the target -- the
# deal machine (service.core.game.compact) settles on the same deal state, from
# the step these functions made without a target.  The typed position
# (service.core.game.position.Position) is a view of a deal state, built only
# when something reads one, and explains an illegal action; it applies none.

DEAL_PHASE: Final = 0
DISCARD_PHASE: Final = 1
CUT_PHASE: Final = 2
PLAY_PHASE: Final = 3
SHOW_PHASE: Final = 4
OVER_PHASE: Final = 5
"""The phases in the order of a deal (the typed Phase enum's order)."""
NOBODY: Final = -1
"""No starter yet, nobody to play, nobody laid a card in the count, no winner."""

DealState = tuple[Any, ...]
"""``(phase, hands, discards, crib, starter, turn, count, count_cards, passed, last, held, played,
play_scores, shown, pegs, winner, pack)``: the hands as dealt, then the four kept (played cards stay for
the show); each seat's discards; the crib; the starter; the play (whose turn, the count and its cards,
the seats that said go in it as bits, who laid its last card, each seat's cards not yet played, every
card laid, the points each seat pegged in the play); hands counted in the show; the pegs, front and
back per side; the winning side; the deal's pack (empty with a client's cards)."""

# The deal state's fields by name, for every reader outside the kernel (the kernel's own steps build and
# read the tuple whole, by position, for speed: these are where those positions are named).
PHASE: Final = 0
HANDS: Final = 1
DISCARDED: Final = 2
CRIB: Final = 3
STARTER: Final = 4
TURN: Final = 5
COUNT: Final = 6
COUNT_CARDS: Final = 7
PASSED: Final = 8
LAST: Final = 9
HELD: Final = 10
PLAYED: Final = 11
PLAY_SCORES: Final = 12
SHOWN: Final = 13
PEGS: Final = 14
WINNER: Final = 15
PACK: Final = 16


def deal_start(players: int, pegs: tuple[int, ...], pack: tuple[int, ...]) -> DealState:
    """A deal before the dealer deals."""
    empty: tuple[tuple[int, ...], ...] = tuple([() for _ in range(players)])
    return (DEAL_PHASE, empty, empty, (), NOBODY, NOBODY, 0, (), 0, NOBODY, empty, (), (0,) * players, 0, pegs,
            NOBODY, pack)


def deal_pack(k: DealState, players: int, dealer: int, cards_dealt: int, to_crib: int) -> DealState:
    """The dealer deals the pack one card at a time from the left of the dealer, then the crib's cards."""
    pack: tuple[int, ...] = k[16]
    hands: list[list[int]] = [[] for _ in range(players)]
    for i in range(players * cards_dealt):
        hands[(dealer + 1 + i) % players].append(pack[i])
    n = players * cards_dealt
    return deal_hands(k, tuple([tuple(h) for h in hands]), pack[n:n + to_crib])


def deal_hands(k: DealState, hands: tuple[tuple[int, ...], ...], crib: tuple[int, ...]) -> DealState:
    """The deal made: each seat holds its ``hands`` card, ``crib`` (the cards dealt straight to it) lies
    in the crib, and every seat is to discard (a client's cards are dealt by this alone)."""
    return (DISCARD_PHASE, hands, k[2], crib, k[4], k[5], k[6], k[7], k[8], k[9], k[10], k[11], k[12], k[13],
            k[14], k[15], k[16])


def starter_at(players: int, cards_dealt: int, to_crib: int) -> int:
    """Where the starter lies in the pack: the card after every hand's and the crib's dealt cards (the one
    the pone's cut turns)."""
    return players * cards_dealt + to_crib


def lay_away(k: DealState, seat: int, cards: tuple[int, ...]) -> DealState:
    """``seat`` discards ``cards`` (held, distinct) to the crib; the cut follows the last seat's."""
    hands: list[tuple[int, ...]] = list(k[1])
    hands[seat] = tuple([c for c in hands[seat] if c not in cards])
    discards: list[tuple[int, ...]] = list(k[2])
    discards[seat] = cards
    phase = CUT_PHASE
    for d in discards:
        if not d:
            phase = DISCARD_PHASE
    return (phase, tuple(hands), tuple(discards), k[3] + cards, k[4], k[5], k[6], k[7], k[8], k[9], k[10], k[11],
            k[12], k[13], k[14], k[15], k[16])


def turn_starter(k: DealState, pone: int, starter: int, side: int, target: int) -> DealState | None:
    """The starter is turned and the pone leads the play; a jack pegs his heels at once for the dealer's
    ``side`` (all of them: a claim is judged by the deal machine); None when they reach the target."""
    pegs: tuple[int, ...] = k[14]
    points = heels(starter)
    if points:
        moved = _moved(pegs, side, points, target)
        if moved is None:
            return None
        pegs = moved
    return (PLAY_PHASE, k[1], k[2], k[3], starter, pone, 0, (), 0, NOBODY, k[1], (), k[12], 0, pegs, NOBODY, k[16])


def _holding(held: tuple[tuple[int, ...], ...]) -> int:
    bits = 0
    for s in range(len(held)):
        if held[s]:
            bits |= 1 << s
    return bits


def _pegged(pegs: tuple[int, ...], side: int, points: int) -> tuple[int, ...]:
    """``pegs`` with the front peg of ``side`` moved on by ``points`` (the back one to where the front was)."""
    out = list(pegs)
    front = out[2 * side]
    out[2 * side] = front + points
    out[2 * side + 1] = front
    return tuple(out)


# ``sides``: the side each seat pegs on (service.core.options.side_of), by seat.
PlayStep = tuple[DealState, int, int, int, int, int, int]
"""A card or a go stepped: ``(deal state, count, count points, same, run, go_to, reset)`` as
:func:`pegs` and :func:`after` say (for a go, ``same`` is how many cards fitted: a renege's)."""


def lay_card(k: DealState, players: int, sides: tuple[int, ...], target: int, seat: int, card: int) -> PlayStep | None:
    """``seat``, to play, lays ``card`` (held, fitting the count); None when what it pegs reaches the
    target (the deal machine pegs that item by item)."""
    before: tuple[int, ...] = k[7]
    count: int = k[6] + VALUE[card]
    same, run, _ = lay(rank_sequence(before), RANK[card])
    hands: list[tuple[int, ...]] = list(k[10])
    hands[seat] = tuple([c for c in hands[seat] if c != card])
    held = tuple(hands)
    turn, reset, go_to = after(players, seat, count, _holding(held), k[8], seat)
    total = card_points(same, run, count) + (GO_POINTS if go_to >= 0 else 0)
    pegs: tuple[int, ...] = k[14]
    scores: tuple[int, ...] = k[12]
    if total:
        moved = _moved(pegs, sides[seat], total, target)
        if moved is None:
            return None
        pegs, scores = moved, _added(scores, seat, total)
    nxt = _play_on(k, turn, reset, count, before + (card,), k[8], seat, held, k[11] + (card,), scores, pegs)
    return nxt, count, count_points(count), same, run, go_to, reset


def say_go(k: DealState, players: int, sides: tuple[int, ...], target: int, seat: int) -> PlayStep | None:
    """``seat``, to play, says go (legal: :func:`may_go`).  A go while able (tournament rules) is a
    renege: :func:`renege_points` for the cards that fit, to the next seat (the other side), pegged
    before any go point; the two are one peg move when they fall to one side.  None when what is pegged
    reaches the target (the deal machine pegs it item by item)."""
    count: int = k[6]
    passed: int = k[8] | (1 << seat)
    last: int = k[9]
    fit = FITS[count]
    able = 0
    for c in k[10][seat]:
        if fit[c]:
            able += 1
    turn, reset, go_to = after(players, seat, count, _holding(k[10]), passed, last)
    pegs: tuple[int, ...] = k[14]
    scores: tuple[int, ...] = k[12]
    go_left = go_to >= 0  # a go point still to peg
    if able:
        taker = (seat + 1) % players
        penalty = renege_points(able)
        joint = go_left and sides[go_to] == sides[taker]
        moved = _moved(pegs, sides[taker], penalty + (GO_POINTS if joint else 0), target)
        if moved is None:
            return None
        pegs, scores = moved, _added(scores, taker, penalty)
        if joint:
            scores, go_left = _added(scores, go_to, GO_POINTS), False
    if go_left:
        moved = _moved(pegs, sides[go_to], GO_POINTS, target)
        if moved is None:
            return None
        pegs, scores = moved, _added(scores, go_to, GO_POINTS)
    return (_play_on(k, turn, reset, count, k[7], passed, last, k[10], k[11], scores, pegs), count, 0, able, 0, go_to,
            reset)


def _play_on(k: DealState, turn: int, reset: int, count: int, count_cards: tuple[int, ...], passed: int, last: int,
             held: tuple[tuple[int, ...], ...], played: tuple[int, ...], scores: tuple[int, ...],
             pegs: tuple[int, ...]) -> DealState:
    """The deal state after a card or a go: the count goes on, or (``reset``) starts again from 0, or the
    play is over and the show begins (nobody is to play)."""
    if reset:
        return (SHOW_PHASE if turn < 0 else PLAY_PHASE, k[1], k[2], k[3], k[4], turn, 0, (), 0, NOBODY, held, played,
                scores, 0, pegs, NOBODY, k[16])
    return (PLAY_PHASE, k[1], k[2], k[3], k[4], turn, count, count_cards, passed, last, held, played, scores, 0, pegs,
            NOBODY, k[16])


def _moved(pegs: tuple[int, ...], side: int, points: int, target: int) -> tuple[int, ...] | None:
    """``pegs`` with ``side`` pegging ``points``; None when they reach the target (the game is won:
    the deal machine pegs item by item and stops there)."""
    if pegs[2 * side] + points >= target:
        return None
    return _pegged(pegs, side, points)


def _added(scores: tuple[int, ...], seat: int, points: int) -> tuple[int, ...]:
    """Each seat's points in the play, ``seat`` having pegged ``points`` more."""
    totals = list(scores)
    totals[seat] += points
    return tuple(totals)


def count_hand(k: DealState, players: int, sides: tuple[int, ...], target: int, seat: int) -> tuple[DealState, int] | None:
    """``seat`` counts its hand, or the dealer the crib once every hand is counted: ``(deal state, total)``;
    None when the total reaches the target (the deal machine pegs it item by item)."""
    shown: int = k[13]
    crib = shown == players
    cards: tuple[int, ...] = k[3] if crib else k[1][seat]
    total = show_total(cards[0], cards[1], cards[2], cards[3], k[4], crib)
    pegs: tuple[int, ...] = k[14]
    if total:
        moved = _moved(pegs, sides[seat], total, target)
        if moved is None:
            return None
        pegs = moved
    return (k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9], k[10], k[11], k[12], shown + 1, pegs,
            k[15], k[16]), total


def deal_over(k: DealState, players: int) -> bool:
    """Every hand and the crib have been counted: the deal passes to the left."""
    phase: int = k[0]
    shown: int = k[13]
    return phase == SHOW_PHASE and shown > players


def show_seat(players: int, dealer: int, shown: int) -> int:
    """Who counts next in the show, ``shown`` counts made: left of the dealer first, clockwise, the
    dealer last, then the crib (the dealer's)."""
    return (dealer + 1 + shown) % players if shown < players else dealer
