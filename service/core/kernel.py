"""The kernel: every rule a simulation needs, on small ints (docs/rules.md).

Everything that simulates -- the game engine's play and show, the batch,
the pegging advisor's solver and sampler, the discard advisor, the computer
opponent -- runs on these functions; the typed, immutable API that answers
clients (:mod:`.play`, :mod:`.show`, :mod:`.game`) is built on top of them.

Written for mypyc: plain functions and one class over ``int``, ``bool`` and
tuples, fully annotated, importing nothing of the service.  When a C
compiler is present the install compiles a copy of this file
(:mod:`.engine` says which one runs); this file, interpreted, is the
reference the compiled copy is tested against.

Cards are ints 0..51, ``(rank - 1) * 4 + suit``; rank, suit and value come
from tables.  A count's cards are kept as their ranks, four bits each, the
last card laid in the lowest bits (a *rank sequence*); a hand for the
search is its ranks sorted, four bits each, lowest first.
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Any, Callable, Final

# ---------------------------------------------------------------------------
# Cards.

JACK: Final = 11
RANK: Final[tuple[int, ...]] = tuple([c // 4 + 1 for c in range(52)])
"""1 (ace) to 13 (king), by card."""
SUIT: Final[tuple[int, ...]] = tuple([c % 4 for c in range(52)])
"""0..3 (clubs, diamonds, hearts, spades), by card."""
VALUE: Final[tuple[int, ...]] = tuple([min(c // 4 + 1, 10) for c in range(52)])
"""Pip value for fifteens and the count (ace 1, court cards 10), by card."""
RANK_VALUE: Final[tuple[int, ...]] = tuple([min(r, 10) for r in range(14)])
"""The same by rank (index 0 unused)."""

# ---------------------------------------------------------------------------
# The play: what a card pegs.

MAX_COUNT: Final = 31
FIFTEEN: Final = 15
COUNT_POINTS: Final = 2
"""A card that brings the count to 15 or to 31 pegs 2."""
PAIR_POINTS: Final[tuple[int, ...]] = (0, 0, 2, 6, 12)
"""By the number of cards of one rank ending the count: a pair 2, a pair royal
6, a double pair royal 12."""
GO_POINTS: Final = 1
"""The go, or the last card of the hand (never on top of 31)."""
CARDS_FOR_THE_PLAY: Final = 4
EVERY_CARD_FITS: Final = MAX_COUNT - 10
"""At a count of 21 or less every card fits (none is worth more than 10)."""
RENEGE_POINTS_PER_CARD: Final = 2
"""ACC 7.3: a go said while able costs 2 for each card that could have been played."""


def count_points(count: int) -> int:
    """What the count itself pegs for the card that brought it to ``count``: 2 at 15 and at 31."""
    return COUNT_POINTS if count == FIFTEEN or count == MAX_COUNT else 0


def lay(seq: int, rank: int) -> tuple[int, int, int]:
    """A card of ``rank`` laid on a count of rank sequence ``seq``.

    Returns ``(same, run, kept)``: how many cards of one rank now end the
    count (1: no pair), the run the last cards make (0: none; a run is the
    longest tail of at least 3 cards of distinct, consecutive ranks in any
    order), and the rank sequence after it cut to what later cards can still
    score with: the trailing cards of one rank, or the longest tail of
    distinct ranks (a run through two cards of one rank is none), whichever is
    longer.  Positions differing only before that are the same for the rest
    of the play.
    """
    same = 1
    x = seq
    while (x & 15) == rank:
        same += 1
        x >>= 4
    seen = 1 << rank
    low = rank
    high = rank
    run = 0
    distinct = 1
    x = seq
    while x:
        r = x & 15
        bit = 1 << r
        if seen & bit:
            break
        seen |= bit
        distinct += 1
        if r < low:
            low = r
        elif r > high:
            high = r
        if distinct >= 3 and high - low == distinct - 1:
            run = distinct
        x >>= 4
    keep = same if same > distinct else distinct
    return same, run, ((seq << 4) | rank) & ((1 << (4 * keep)) - 1)


def card_points(same: int, run: int, count: int) -> int:
    """What a card pegs in the play that ends ``same`` cards of one rank and a run of ``run`` (as
    :func:`lay` says) and brings the count to ``count``: fifteen or thirty-one, the pair, pair royal or
    double pair royal, the run (no go or last-card point: that depends on the others).  The one home
    of this sum: the play, its searches and the reply model all add it here."""
    return count_points(count) + PAIR_POINTS[same] + run


def peg_points(seq: int, rank: int, count: int) -> int:
    """Everything a card of ``rank`` pegs when laid on ``seq``, bringing the count to ``count``
    (no go or last-card point: that depends on the others)."""
    same, run, _ = lay(seq, rank)
    return card_points(same, run, count)


def pegs(cards: tuple[int, ...], count: int) -> tuple[int, int, int]:
    """What the last of a count's ``cards`` pegs, the count being ``count``:
    ``(count points, same, run)`` as :func:`count_points` and :func:`lay` say."""
    same, run, _ = lay(rank_sequence(cards[:-1]), RANK[cards[-1]])
    return count_points(count), same, run


def rank_sequence(cards: tuple[int, ...]) -> int:
    """The rank sequence of a count's cards, in the order laid."""
    seq = 0
    for c in cards:
        seq = (seq << 4) | RANK[c]
    return seq


# ---------------------------------------------------------------------------
# The play: whose turn, the go and the last card.
#
# Seats are 0..players-1, clockwise; ``holding`` and ``passed`` are sets of
# seats as bits (1 << seat): the seats holding cards, those that said go in
# the count.


def next_to_play(players: int, seat: int, holding: int, passed: int) -> int:
    """The next seat clockwise after ``seat`` (``seat`` itself last) that holds
    cards and has not said go in this count; -1 when there is none."""
    for i in range(1, players + 1):
        s = (seat + i) % players
        if (holding >> s) & 1 and not (passed >> s) & 1:
            return s
    return -1


def after(players: int, seat: int, count: int, holding: int, passed: int, last: int) -> tuple[int, int, int]:
    """Who acts once ``seat`` has laid a card or said go, the count being ``count``
    and ``last`` the seat that laid its last card: ``(turn, reset, go_to)``.

    The count goes on (``reset`` 0) while it is under 31 and a seat holding
    cards has not said go.  Otherwise it ends (``reset`` 1): at 31, or when no
    seat can play on, whoever laid the last card pegs 1 (``go_to``; -1 at 31):
    the go, or the last card when nobody holds a card.  The next count is
    led by the next seat after that player still holding cards; ``turn`` -1
    when nobody does (the hand is over).
    """
    if count < MAX_COUNT:
        turn = next_to_play(players, seat, holding, passed)
        if turn >= 0:
            return turn, 0, -1
    go_to = last if count != MAX_COUNT else -1
    return next_to_play(players, last, holding, 0), 1, go_to


FITS: Final[tuple[tuple[bool, ...], ...]] = tuple([tuple([count + VALUE[c] <= MAX_COUNT for c in range(52)])
                                                   for count in range(MAX_COUNT + 1)])
"""``FITS[count][card]``: whether the card may be laid on the count -- the count may never pass 31."""
FITS_RANK: Final[tuple[tuple[bool, ...], ...]] = tuple([tuple([FITS[count][(r - 1) * 4] if r else False
                                                              for r in range(14)])
                                                       for count in range(MAX_COUNT + 1)])
"""The same by rank (index 0 unused)."""


def room(count: int) -> int:
    """The most a card laid on the count may be worth (10 or more: any card)."""
    return MAX_COUNT - count


def playable_unseen(count: int, left: int) -> int:
    """How many of ``left`` unseen cards surely fit: all of them at 21 or
    less, otherwise none is known to."""
    return left if count <= EVERY_CARD_FITS else 0


def may_go(count: int, able: int, tournament: bool) -> bool:
    """The go rule: a seat may say go only when none of its cards fits
    (``able`` is how many do), and never as the leader of a count (every card
    fits at 0).  Under tournament rules a go while able stands, as a renege."""
    if count == 0:
        return False
    return tournament or able == 0


def renege_points(able: int) -> int:
    """The renege (ACC 7.3): 2 points to the next opponent for each card that could have been played."""
    return RENEGE_POINTS_PER_CARD * able


# ---------------------------------------------------------------------------
# The show.

FIFTEEN_ITEM: Final = 0
PAIR_ITEM: Final = 1
RUN_ITEM: Final = 2
"""Kinds of the rank items, in the order a player says them."""
FIFTEEN_POINTS: Final = 2
PAIR_ITEM_POINTS: Final = 2
FLUSH_POINTS: Final = 4
"""Four hand cards of one suit; one more with the starter of that suit too."""
CRIB_FLUSH_POINTS: Final = 5
"""The crib scores a flush only with all five cards of one suit."""
NOBS_POINTS: Final = 1
HEELS_POINTS: Final = 2


def _subsets(n: int, k: int) -> list[tuple[int, ...]]:
    """Every ``k``-subset of positions 0..n-1, in lexicographic order."""
    if k == 0:
        return [()]
    out: list[tuple[int, ...]] = []
    for first in range(n - k + 1):
        for rest in _subsets(n - first - 1, k - 1):
            out.append((first,) + tuple([first + 1 + p for p in rest]))
    return out


_SUBSETS: Final[tuple[tuple[int, ...], ...]] = tuple([s for k in range(2, 6) for s in _subsets(5, k)])


def rank_items(ranks: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], int]]:
    """Fifteens, pairs and runs of five ranks in ascending order, as
    ``(kind, positions into the ranks, points)`` in the spoken order.

    * a fifteen is each distinct set of 2 to 5 cards whose values (ace 1,
      court cards 10) sum to 15;
    * a pair is each two cards of one rank;
    * a run is each set of 3 or more cards of consecutive ranks, counted at
      its longest length only, once per combination of duplicate cards (a
      double run is two runs and a pair); runs never wrap (Q K A is none).
    """
    items: list[tuple[int, tuple[int, ...], int]] = []
    for subset in _SUBSETS:
        total = 0
        for p in subset:
            total += RANK_VALUE[ranks[p]]
        if total == FIFTEEN:
            items.append((FIFTEEN_ITEM, subset, FIFTEEN_POINTS))
    for subset in _SUBSETS[:10]:  # the ten 2-subsets come first
        if ranks[subset[0]] == ranks[subset[1]]:
            items.append((PAIR_ITEM, subset, PAIR_ITEM_POINTS))
    # the longest streak of consecutive ranks held is the length of the runs
    longest = 1
    streak = 1
    for i in range(1, 5):
        if ranks[i] == ranks[i - 1] + 1:
            streak += 1
            if streak > longest:
                longest = streak
        elif ranks[i] != ranks[i - 1]:
            streak = 1
    if longest >= 3:
        # the ranks are in order, so n cards are a run when n distinct ranks span n
        for subset in _SUBSETS:
            if len(subset) != longest:
                continue
            distinct = True
            for j in range(1, longest):
                if ranks[subset[j]] == ranks[subset[j - 1]]:
                    distinct = False
                    break
            if distinct and ranks[subset[longest - 1]] - ranks[subset[0]] == longest - 1:
                items.append((RUN_ITEM, subset, longest))
    return items


def flush_points(a: int, b: int, c: int, d: int, starter: int, crib: bool) -> int:
    """The flush: four hand cards of one suit score 4, or 5 when the starter
    is of that suit too; in the crib only all five cards of one suit score (5)."""
    suit = SUIT[a]
    if SUIT[b] != suit or SUIT[c] != suit or SUIT[d] != suit:
        return 0
    if SUIT[starter] == suit:
        return CRIB_FLUSH_POINTS if crib else FLUSH_POINTS + 1
    return 0 if crib else FLUSH_POINTS


def nobs(a: int, b: int, c: int, d: int, starter: int) -> int:
    """His nobs: the jack of the starter's suit among the four cards (1 point),
    or -1.  A starter jack is never nobs (it is :func:`heels`)."""
    suit = SUIT[starter]
    for card in (a, b, c, d):
        if RANK[card] == JACK and SUIT[card] == suit:
            return card
    return -1


def heels(starter: int) -> int:
    """His heels: a jack turned as the starter pegs 2 for the dealer at once
    (at the cut, before the play; never part of the show)."""
    return HEELS_POINTS if RANK[starter] == JACK else 0


# A rank multiset of five cards as one int: 3 bits a rank (no rank appears
# more than 4 times), the sum of its cards' RANK_KEY.
RANK_KEY: Final[tuple[int, ...]] = tuple([1 << (3 * (c // 4)) for c in range(52)])
RANK_BIT: Final[tuple[int, ...]] = tuple([0] + [1 << (3 * (r - 1)) for r in range(1, 14)])
"""RANK_KEY by rank (index 0 unused)."""


def _rank_multisets(n: int, low: int) -> list[tuple[int, ...]]:
    """Every ascending ``n``-tuple of ranks from ``low`` to 13."""
    if n == 0:
        return [()]
    out: list[tuple[int, ...]] = []
    for r in range(low, 14):
        for rest in _rank_multisets(n - 1, r):
            out.append((r,) + rest)
    return out


FIVE_RANKS: Final[tuple[tuple[int, ...], ...]] = tuple([m for m in _rank_multisets(5, 1) if m[0] != m[4]])
"""The 6,175 five-card rank multisets (five of a kind cannot be dealt), ascending."""


def rank_key(ranks: tuple[int, ...]) -> int:
    key = 0
    for r in ranks:
        key += RANK_BIT[r]
    return key


def _rank_items() -> dict[int, list[tuple[int, tuple[int, ...], int]]]:
    return {rank_key(ranks): rank_items(ranks) for ranks in FIVE_RANKS}


RANK_ITEMS: Final[dict[int, list[tuple[int, tuple[int, ...], int]]]] = _rank_items()
"""The fifteens, pairs and runs of each rank multiset (:func:`rank_items` of its ranks), by its key."""


def _rank_points() -> dict[int, int]:
    table: dict[int, int] = {}
    for key, items in RANK_ITEMS.items():
        points = 0
        for item in items:
            points += item[2]
        table[key] = points
    return table


RANK_POINTS: Final[dict[int, int]] = _rank_points()
"""Points from fifteens, pairs and runs of each rank multiset, by its key."""

# What the suits add depends only on the suits' pattern: for each card one bit
# for its suit and, for a jack, one for the jack's suit; the four hand cards'
# bits or'ed, with the starter's suit above them, index a table built from
# flush_points and nobs on a hand of each pattern.
SUIT_KEY: Final[tuple[int, ...]] = tuple([(1 << (c & 3)) | ((16 << (c & 3)) if c // 4 + 1 == JACK else 0)
                                          for c in range(52)])
STARTER_KEY: Final[tuple[int, ...]] = tuple([(c & 3) << 8 for c in range(52)])


def _suit_table(crib: bool) -> tuple[int, ...]:
    table = [0] * 1024
    for suits in range(1, 16):  # the set of suits in the hand
        held = [s for s in range(4) if (suits >> s) & 1]
        for jacks in range(16):  # the suits of the jacks in the hand
            if jacks & ~suits:
                continue
            # one card of each suit held (its jack if there is one), then low cards of the first suit
            hand = [(JACK - 1) * 4 + s if (jacks >> s) & 1 else s for s in held]
            hand += [(1 + i) * 4 + held[0] for i in range(4 - len(held))]
            key = SUIT_KEY[hand[0]] | SUIT_KEY[hand[1]] | SUIT_KEY[hand[2]] | SUIT_KEY[hand[3]]
            for s in range(4):
                starter = 12 * 4 + s  # a king: never nobs, never the hand's card
                table[key | STARTER_KEY[starter]] = (
                    flush_points(hand[0], hand[1], hand[2], hand[3], starter, crib)
                    + (NOBS_POINTS if nobs(hand[0], hand[1], hand[2], hand[3], starter) >= 0 else 0))
    return tuple(table)


HAND_SUIT_POINTS: Final[tuple[int, ...]] = _suit_table(False)
CRIB_SUIT_POINTS: Final[tuple[int, ...]] = _suit_table(True)
"""The flush and nobs by suit pattern, for a hand and for a crib."""


def show_total(a: int, b: int, c: int, d: int, starter: int, crib: bool) -> int:
    """The show's total of four cards and the starter: two table lookups; nothing is validated."""
    k = RANK_KEY
    s = SUIT_KEY
    suits = s[a] | s[b] | s[c] | s[d] | STARTER_KEY[starter]
    return (RANK_POINTS[k[a] + k[b] + k[c] + k[d] + k[starter]]
            + (CRIB_SUIT_POINTS[suits] if crib else HAND_SUIT_POINTS[suits]))


def rank_points(a: int, b: int, c: int, d: int, starter: int) -> int:
    """The show's fifteens, pairs and runs alone (the suits' part is the rest of :func:`show_total`)."""
    k = RANK_KEY
    return RANK_POINTS[k[a] + k[b] + k[c] + k[d] + k[starter]]


def starter_tally(a: int, b: int, c: int, d: int, starters: tuple[int, ...]) -> list[int]:
    """How many of ``starters`` give the hand ``a b c d`` each total (index: points 0..29)."""
    tally = [0] * 30
    k = RANK_KEY
    s = SUIT_KEY
    hand_key = k[a] + k[b] + k[c] + k[d]
    hand_suits = s[a] | s[b] | s[c] | s[d]
    for st in starters:
        tally[RANK_POINTS[hand_key + k[st]] + HAND_SUIT_POINTS[hand_suits | STARTER_KEY[st]]] += 1
    return tally


def starter_total(a: int, b: int, c: int, d: int, ranks: tuple[int, ...], suits: tuple[int, ...]) -> int:
    """The hand ``a b c d``'s show summed over a set of starters given as how many are of each rank
    (``ranks``, by rank 1-13; index 0 unused) and of each suit (``suits``): its fifteens, pairs and runs
    depend on the starter's rank only and its flush and nobs on its suit only, so 17 terms where the
    starters are up to 48 (a discard's net needs the mean, not the tally)."""
    k = RANK_KEY
    s = SUIT_KEY
    hand_key = k[a] + k[b] + k[c] + k[d]
    hand_suits = s[a] | s[b] | s[c] | s[d]
    total = 0
    for r in range(1, 14):
        n = ranks[r]
        if n:
            total += n * RANK_POINTS[hand_key + RANK_BIT[r]]
    for suit in range(4):
        n = suits[suit]
        if n:
            total += n * HAND_SUIT_POINTS[hand_suits | (suit << 8)]
    return total


def tuned_split(cards: tuple[int, ...], splits: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...],
                values: tuple[float, ...], sign: float) -> int:
    """The best of ``splits`` (positions thrown, positions kept) of a deal's ``cards``: the kept four's mean
    show over every unseen starter plus ``sign`` times the thrown cards' crib value (``values`` by throw:
    one card at its number, two at ``52 + 52 * first + second``), ties to the better hand, then the first.
    The discard advisor's ``tuned`` throw, which the model of hidden cards asks thousands of times a
    decision (service/advice/discards.py holds it to the whole analysis)."""
    ranks = [0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]  # the unseen cards: the starters
    suits = [13, 13, 13, 13]
    for c in cards:
        ranks[(c >> 2) + 1] -= 1
        suits[c & 3] -= 1
    rank_counts = tuple(ranks)
    suit_counts = tuple(suits)
    unseen = 52 - len(cards)
    best = 0
    best_net = -1e9
    best_mean = -1e9
    for i in range(len(splits)):
        throw, keep = splits[i]
        mean = starter_total(cards[keep[0]], cards[keep[1]], cards[keep[2]], cards[keep[3]], rank_counts,
                             suit_counts) / unseen
        index = cards[throw[0]] if len(throw) == 1 else 52 + 52 * cards[throw[0]] + cards[throw[1]]
        net = mean + sign * values[index]
        if net > best_net or (net == best_net and mean > best_mean):
            best = i
            best_net = net
            best_mean = mean
    return best


def weighted_rank_points(thrown_key: int, keys: tuple[int, ...], weights: tuple[int, ...]) -> int:
    """The sum over rank multisets of ``weights[i]`` times the points of the
    thrown ranks (key ``thrown_key``) with the multiset ``keys[i]``: the rank
    part of a crib's expected show, before dividing by the weights' total."""
    total = 0
    for i in range(len(keys)):
        total += weights[i] * RANK_POINTS[thrown_key + keys[i]]
    return total


# ---------------------------------------------------------------------------
# The rest of a play searched to its end, every hand known (double dummy).
#
# A position: ``hands`` (each seat's hand packed by :func:`pack_hand`, 16 bits
# a seat, seat 0 lowest), ``turn``, ``count``, ``seq`` (the count's rank
# sequence), ``passed`` (bits) and ``last`` (-1: no card yet in this count).
# Cards of one rank are one move: the play scores ranks only.  A value is the
# points each side pegs from a position to the end of the hand, SIDE_BITS a
# side with side 0 highest, so that values compare as ints the way tuples of
# the sides' points compare.

HAND_BITS: Final = 16
HAND_MASK: Final = (1 << HAND_BITS) - 1
SIDE_BITS: Final = 10
SIDE_MASK: Final = (1 << SIDE_BITS) - 1


def pack_hand(cards: tuple[int, ...]) -> int:
    """A hand for the search: its cards' ranks in ascending order, 4 bits each, the lowest first."""
    ranks = sorted([RANK[c] for c in cards])
    packed = 0
    for i in range(len(ranks) - 1, -1, -1):
        packed = (packed << 4) | ranks[i]
    return packed


PlayMove = tuple[int, int, int, int, int, int]
"""A move in a packed play position, as :func:`play_move` gives it: ``(card, rank, hands, count, seq,
points)`` -- where the card laid lay in the hand (1 for the first; -1 for a go, 0: no move left), the
rank laid (0: go), the packed hands, the count and the rank sequence after it, and what the card pegs
at once (the go or last-card point is :func:`play_on`'s)."""


def play_move(hands: int, turn: int, count: int, seq: int, after: int) -> PlayMove:
    """The one move generator of every search of the play: the move of the seat to act after its card
    ``after`` (0: its first move).  The moves are a card of each rank it holds that fits the count, once,
    in the order held (its first card of that rank leaves the hand); or, when none fits, go.  A search
    never reneges.  Asked again with the ``card`` it answered, it answers the next move; ``card`` 0 once
    there is none.  (An iterator in all but name: compiled, its answer is a C struct, not a tuple.)"""
    at = HAND_BITS * turn
    hand = (hands >> at) & HAND_MASK
    fits = FITS_RANK[count]
    i = after if after > 0 else 0
    prev = (hand >> (4 * (i - 1))) & 15 if i > 0 else 0
    x = hand >> (4 * i)
    while x:
        rank = x & 15
        x >>= 4
        i += 1
        if rank == prev or not fits[rank]:
            prev = rank
            continue
        now = count + RANK_VALUE[rank]
        same, run, kept = lay(seq, rank)
        low = (1 << (4 * (i - 1))) - 1
        rest = (hand & low) | ((hand >> (4 * i)) << (4 * (i - 1)))
        return i, rank, (hands & ~(HAND_MASK << at)) | (rest << at), now, kept, card_points(same, run, now)
    if after == 0:
        return -1, 0, hands, count, seq, 0  # no card fits: go
    return 0, 0, hands, count, seq, 0


def play_moves(hands: int, turn: int, count: int, seq: int) -> list[PlayMove]:
    """Every move of :func:`play_move`, as a list (for what is not compiled)."""
    out: list[PlayMove] = []
    card = 0
    while True:
        move = play_move(hands, turn, count, seq, card)
        card = move[0]
        if card == 0:
            return out
        out.append(move)
        if card < 0:
            return out


def play_on(players: int, hands: int, seat: int, count: int, passed: int, last: int) -> tuple[int, int, int]:
    """:func:`after` in a packed play position, once ``seat`` has moved: who holds cards read from
    ``hands``; ``passed`` and ``last`` as the move left them (a go adds the seat to ``passed``, a card
    makes it ``last``)."""
    holding = 0
    for s in range(players):
        if (hands >> (HAND_BITS * s)) & HAND_MASK:
            holding |= 1 << s
    return after(players, seat, count, holding, passed, last)


class PositionCapReached(Exception):
    """A search reached its ``cap`` of positions (raised from inside the search)."""


class Search:
    """Double-dummy values of play positions, memoised across calls (one search per request).

    Each seat plays to maximise its side's net pegging (its side's points
    less the other sides'); ties go to the side's own points, then to the
    values themselves, a total order, so every equal choice gives the same
    value.  ``side`` is each seat's side (a player, or a partnership);
    ``nodes`` counts the positions searched (memo hits excluded); with a
    ``cap`` (0: none) the search stops with :class:`PositionCapReached` before
    it would search more, inside a deal as well as between deals.
    """

    def __init__(self, players: int, side: tuple[int, ...], cap: int = 0) -> None:
        self.cap = cap
        self.players = players
        self.side = side
        self.sides = max(side) + 1
        self.shift = tuple([SIDE_BITS * (self.sides - 1 - side[s]) for s in range(players)])
        self.memo: dict[int, int] = {}
        self.nodes = 0

    def points(self, value: int) -> tuple[int, ...]:
        """A value as each side's points, side 0 first."""
        return tuple([(value >> (SIDE_BITS * (self.sides - 1 - i))) & SIDE_MASK for i in range(self.sides)])

    def value(self, hands: int, turn: int, count: int, seq: int, passed: int, last: int) -> int:
        """The value of a position (0 once the hand is over, ``turn`` -1)."""
        if turn < 0:
            return 0
        key = ((((((seq << 5) | count) << 2 | turn) << 4 | passed) << 3 | (last + 1)) << (HAND_BITS * self.players)
               | hands)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if self.cap and self.nodes >= self.cap:
            raise PositionCapReached()
        self.nodes += 1
        best = self._best(hands, turn, count, seq, passed, last, None)
        self.memo[key] = best
        return best

    def lines(self, hands: int, turn: int, count: int, seq: int, passed: int,
              last: int) -> list[tuple[int, int]]:
        """Each move of the seat to act (a rank, or 0 for go) and the value of the
        line it begins; the position itself is neither counted nor kept."""
        out: list[tuple[int, int]] = []
        self._best(hands, turn, count, seq, passed, last, out)
        return out

    def _after(self, hands: int, seat: int, count: int, seq: int, passed: int, last: int) -> int:
        """The value once ``seat`` has moved, the go or last-card point included."""
        turn, reset, go_to = play_on(self.players, hands, seat, count, passed, last)
        if reset:
            v = self.value(hands, turn, 0, 0, 0, -1)
        else:
            v = self.value(hands, turn, count, seq, passed, last)
        if go_to >= 0:
            v += GO_POINTS << self.shift[go_to]
        return v

    def _best(self, hands: int, turn: int, count: int, seq: int, passed: int, last: int,
              lines: list[tuple[int, int]] | None) -> int:
        mine = self.shift[turn]
        best = -1
        best_net = 0
        best_own = 0
        card = 0
        while True:
            card, rank, after_hands, now, kept, pts = play_move(hands, turn, count, seq, card)
            if card == 0:
                break
            if rank:
                v = self._after(after_hands, turn, now, kept, passed, turn) + (pts << mine)
            else:  # no card fits: go
                v = self._after(hands, turn, count, seq, passed | (1 << turn), last)
            if lines is not None:
                lines.append((rank, v))
            own = (v >> mine) & SIDE_MASK
            total = 0
            y = v
            while y:
                total += y & SIDE_MASK
                y >>= SIDE_BITS
            net = 2 * own - total
            if best < 0 or net > best_net or (net == best_net and (own > best_own or (own == best_own and v > best))):
                best = v
                best_net = net
                best_own = own
            if card < 0:
                break
        return best


def greedy_play(players: int, side: tuple[int, ...], hands: int, turn: int, count: int, seq: int, passed: int,
                last: int, need: tuple[int, ...], move: int = -1) -> tuple[tuple[int, ...], int]:
    """The rest of a play (as :class:`Search` positions it) with every seat laying the card that pegs most
    at once (the higher rank on a tie), go when none fits: each side's points, and the first side to peg
    the points it ``need``\\ s (-1: none; ``need`` empty: never asked).  A cheap stand-in for the search
    where a play is valued many times over (the evaluation's discards).  ``move``: the first move of the
    seat to act, as :meth:`Search.lines` names it (a rank it holds that fits, 0 for go; -1: greedy too)."""
    pts = [0] * (max(side) + 1)
    first = -1
    while turn >= 0:
        best_rank = 0
        best_pts = -1
        best_hands = hands
        best_count = count
        best_seq = seq
        card = 0
        while move != 0:  # (a first move of go: no card)
            card, rank, after_hands, now, kept, p = play_move(hands, turn, count, seq, card)
            if card <= 0:
                break
            if move > 0 and rank != move:
                continue
            if p >= best_pts:  # ranks ascend: the higher rank wins a tie
                best_rank, best_pts, best_hands, best_count, best_seq = rank, p, after_hands, now, kept
        seat = turn
        move = -1
        if best_rank:
            hands, count, seq = best_hands, best_count, best_seq
            mine = side[seat]
            pts[mine] += best_pts
            last = seat
            if need and first < 0 and best_pts and pts[mine] >= need[mine]:
                first = mine
        else:
            passed |= 1 << seat
        turn, reset, go_to = play_on(players, hands, seat, count, passed, last)
        if go_to >= 0:
            pts[side[go_to]] += GO_POINTS
            if need and first < 0 and pts[side[go_to]] >= need[side[go_to]]:
                first = side[go_to]
        if reset:
            count = 0
            seq = 0
            passed = 0
            last = -1
    return tuple(pts), first


# ---------------------------------------------------------------------------
# The rest of a play searched for the game (double dummy): the first side to
# reach the target wins at once.
#
# Two sides.  A value is the chance that side ``side`` wins, a float; the
# seats of that side maximise it, the others minimise it.  A position is the
# points search's plus the points each side has pegged since the root (the
# same cards reached with other points are another position for the game).
# Once the play is over ``terminal(p0, p1)`` values what each side pegged in
# it (the show and the board after it are the caller's).


class WinSearch:
    """Double-dummy values of play positions for the game, memoised (one search per deal and board).

    ``need``: the points each side still needs; ``nodes`` counts the positions searched.  A line
    that wins for the side to move (or loses, for its opponents) is not searched further: nothing
    beats it, so the value is exact."""

    def __init__(self, players: int, side_of_seat: tuple[int, ...], side: int, need0: int, need1: int,
                 terminal: Callable[[int, int], float]) -> None:
        self.players = players
        self.side_of_seat = side_of_seat
        self.side = side
        self.need0 = need0
        self.need1 = need1
        self.terminal = terminal
        self.memo: dict[int, float] = {}
        self.ends: dict[int, float] = {}
        self.nodes = 0

    def value(self, hands: int, turn: int, count: int, seq: int, passed: int, last: int, p0: int, p1: int) -> float:
        """The chance of ``side`` from a position, its sides having pegged ``p0`` and ``p1`` since the root."""
        if turn < 0:
            end = (p0 << 8) | p1
            got = self.ends.get(end)
            if got is not None:
                return got
            v = self.terminal(p0, p1)
            self.ends[end] = v
            return v
        key = ((((((((seq << 5) | count) << 2 | turn) << 4 | passed) << 3 | (last + 1)) << 16 | (p0 << 8) | p1)
                << (HAND_BITS * self.players)) | hands)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        best = self._best(hands, turn, count, seq, passed, last, p0, p1, None)
        self.memo[key] = best
        return best

    def lines(self, hands: int, turn: int, count: int, seq: int, passed: int, last: int, p0: int,
              p1: int) -> list[tuple[int, float]]:
        """Each move of the seat to act (a rank, or 0 for go) and the chance of the line it begins."""
        out: list[tuple[int, float]] = []
        self._best(hands, turn, count, seq, passed, last, p0, p1, out)
        return out

    def _won(self, side: int) -> float:
        return 1.0 if side == self.side else 0.0

    def _after(self, hands: int, seat: int, count: int, seq: int, passed: int, last: int, p0: int, p1: int) -> float:
        """The value once ``seat`` has moved (its points in ``p0``/``p1``): the go or last-card point
        pegged here, a side at its target the winner."""
        turn, reset, go_to = play_on(self.players, hands, seat, count, passed, last)
        if go_to >= 0:
            if self.side_of_seat[go_to] == 0:
                p0 += GO_POINTS
                if p0 >= self.need0:
                    return self._won(0)
            else:
                p1 += GO_POINTS
                if p1 >= self.need1:
                    return self._won(1)
        if reset:
            return self.value(hands, turn, 0, 0, 0, -1, p0, p1)
        return self.value(hands, turn, count, seq, passed, last, p0, p1)

    def _best(self, hands: int, turn: int, count: int, seq: int, passed: int, last: int, p0: int, p1: int,
              lines: list[tuple[int, float]] | None) -> float:
        mover = self.side_of_seat[turn]
        maximise = mover == self.side
        done = 1.0 if maximise else 0.0
        best = -1.0
        card = 0
        while True:
            card, rank, after_hands, now, kept, pts = play_move(hands, turn, count, seq, card)
            if card == 0:
                break
            if rank:
                if mover == 0:
                    q0 = p0 + pts
                    q1 = p1
                    won = pts > 0 and q0 >= self.need0
                else:
                    q0 = p0
                    q1 = p1 + pts
                    won = pts > 0 and q1 >= self.need1
                if won:
                    v = self._won(mover)
                else:
                    v = self._after(after_hands, turn, now, kept, passed, turn, q0, q1)
            else:  # no card fits: go
                v = self._after(hands, turn, count, seq, passed | (1 << turn), last, p0, p1)
            if lines is not None:
                lines.append((rank, v))
            if best < 0 or (v > best if maximise else v < best):
                best = v
            if card < 0 or (lines is None and best == done):
                break
        return best


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
    if able:
        taker = (seat + 1) % players
        penalty = renege_points(able)
        joint = go_to >= 0 and sides[go_to] == sides[taker]
        moved = _moved(pegs, sides[taker], penalty + (GO_POINTS if joint else 0), target)
        if moved is None:
            return None
        pegs, scores = moved, _added(scores, taker, penalty)
        if joint:
            scores = _added(scores, go_to, GO_POINTS)
            go_to_pegged = True
        else:
            go_to_pegged = False
    else:
        go_to_pegged = False
    if go_to >= 0 and not go_to_pegged:
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


def playable(k: DealState, seat: int) -> list[int]:
    """The cards ``seat`` holds that fit the count, in the order held."""
    fit = FITS[k[6]]
    held: tuple[int, ...] = k[10][seat]
    return [c for c in held if fit[c]]


def show_seat(players: int, dealer: int, shown: int) -> int:
    """Who counts next in the show, ``shown`` counts made: left of the dealer first, clockwise, the
    dealer last, then the crib (the dealer's)."""
    return (dealer + 1 + shown) % players if shown < players else dealer


# ---------------------------------------------------------------------------
# A deal's actions as small ints: the kernel's own game interface, for playouts
# (service.core.game.playout), OpenSpiel's shape.  A card laid is its number;
# then go, deal, cut and count; a discard is DISCARD_CODE + 16 * seat + i, the
# seat's i-th discard in the order itertools.combinations lists its hand's.

GO_CODE: Final = 52
DEAL_CODE: Final = 53
CUT_CODE: Final = 54
COUNT_CODE: Final = 55
DISCARD_CODE: Final = 56
DISCARDS_PER_SEAT: Final = 16
"""Room for each seat's discards among the codes (at most C(6, 2) = 15)."""


def discards_of(hand: tuple[int, ...], size: int) -> list[tuple[int, ...]]:
    """The discards of ``size`` cards a seat holding ``hand`` may make, in the order held."""
    return list(combinations(hand, size))


def legal_codes(k: DealState, players: int, size: int, tournament: bool) -> list[int]:
    """Every legal action now, as codes: the cards to play that fit (in the order held) and go where
    :func:`may_go` allows it; each seat's discards while it has not discarded (``size`` cards each);
    or the deal, the cut, the next count."""
    phase: int = k[0]
    if phase == PLAY_PHASE:
        turn: int = k[5]
        if turn < 0:
            return []
        out = playable(k, turn)
        if may_go(k[6], len(out), tournament):
            out.append(GO_CODE)
        return out
    if phase == DISCARD_PHASE:
        codes: list[int] = []
        for s in range(players):
            if not k[2][s]:
                first = DISCARD_CODE + DISCARDS_PER_SEAT * s
                codes.extend(range(first, first + comb(len(k[1][s]), size)))  # as many as discards_of lists
        return codes
    if phase == DEAL_PHASE:
        return [DEAL_CODE]
    if phase == CUT_PHASE:
        return [CUT_CODE]
    if phase == SHOW_PHASE and k[13] <= players:
        return [COUNT_CODE]
    return []


def step(k: DealState, code: int, players: int, sides: tuple[int, ...], target: int, dealer: int,
         cards_dealt: int, to_crib: int, size: int) -> DealState | None:
    """The deal state after the legal action ``code`` (:func:`legal_codes`), with the service's pack;
    None for a step that reaches the target (the deal machine, :mod:`.game.compact`, pegs it item by
    item and ends the game)."""
    if code < GO_CODE:
        laid = lay_card(k, players, sides, target, k[5], code)
        return None if laid is None else laid[0]
    if code == GO_CODE:
        went = say_go(k, players, sides, target, k[5])
        return None if went is None else went[0]
    if code == DEAL_CODE:
        return deal_pack(k, players, dealer, cards_dealt, to_crib)
    if code == CUT_CODE:
        starter: int = k[16][starter_at(players, cards_dealt, to_crib)]
        return turn_starter(k, (dealer + 1) % players, starter, sides[dealer], target)
    if code == COUNT_CODE:
        counted = count_hand(k, players, sides, target, show_seat(players, dealer, k[13]))
        return None if counted is None else counted[0]
    seat, i = divmod(code - DISCARD_CODE, DISCARDS_PER_SEAT)
    return lay_away(k, seat, discards_of(k[1][seat], size)[i])
