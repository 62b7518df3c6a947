"""The rules on small ints: cards, what a card pegs in the play, the turn, the show (docs/rules.md).

Cards are ints 0..51, ``(rank - 1) * 4 + suit``; rank, suit and value come
from tables.  A count's cards are kept as their ranks, four bits each, the
last card laid in the lowest bits (a *rank sequence*).  Every other module of
the kernel, and everything that simulates, stands on these primitives.
"""

from __future__ import annotations

from typing import Final


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
