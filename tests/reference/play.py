"""The play's reference (pegging): what a card pegs and a referee of the play seat by
seat, written from RULES.md ("The play") independently of ``service/core/play.py``.

A reference written independently of service/: it must never import service's
implementation of the play (the scoring and turn logic of service.core.play or
service.core.go, the kernel); it uses only the card type (service.core.cards) and the
play's action types (``PlayCard``, ``Go``) as its vocabulary.
tests/core/test_play_properties.py and tests/core/test_kernel.py hold the service to it.

Reference rules (RULES.md and the core's stated design decisions):

* the card that makes it scores: count 15 -> 2, count 31 -> 2; the last n >= 2
  cards of one rank -> n(n-1) (2, 6, 12); the longest tail of k >= 3 cards of
  the count whose sorted ranks are k consecutive ranks -> k;
* a seat to act that holds a card that fits must play (under tournament rules it
  may say go once the count has begun, and the next seat pegs 2 per card that
  fit); go is an explicit action, also for the seat that laid the last card;
* turn passes clockwise to the next seat holding cards that has not said go in
  this count; when there is none, or the count is 31, the count ends: the seat
  that laid its last card pegs 1 (``last_card`` if no cards are left anywhere,
  else ``go``) unless the count is 31; the next count is led by the first seat
  after that one still holding cards.
"""

from __future__ import annotations

from collections import Counter

from service.core.cards import Card
from service.core.play import Go, PlayCard

# -- reference scoring of one card ---------------------------------------------


def ref_peg(count_cards) -> Counter:
    """(kind, points, cards) of what the last card scores, from RULES.md."""
    out: Counter = Counter()
    total = sum(min(c.rank, 10) for c in count_cards)
    if total == 15:
        out[("fifteen", 2, tuple(count_cards))] += 1
    if total == 31:
        out[("thirty_one", 2, tuple(count_cards))] += 1
    n = 0
    for c in reversed(count_cards):
        if c.rank != count_cards[-1].rank:
            break
        n += 1
    if n >= 2:
        kind = {2: "pair", 3: "pair_royal", 4: "double_pair_royal"}[n]
        out[(kind, n * (n - 1), tuple(count_cards[-n:]))] += 1
    for k in range(len(count_cards), 2, -1):
        ranks = sorted(c.rank for c in count_cards[-k:])
        if ranks == list(range(ranks[0], ranks[0] + k)):
            out[("run", k, tuple(count_cards[-k:]))] += 1
            break
    return out


def rank_sequences(max_len: int):
    """Every sequence of ranks (at most 4 of a rank) with total value <= 31."""
    def extend(seq, total, used):
        if seq:
            yield seq
        if len(seq) == max_len:
            return
        for r in range(1, 14):
            v = min(r, 10)
            if used[r] < 4 and total + v <= 31:
                used[r] += 1
                yield from extend(seq + [r], total + v, used)
                used[r] -= 1
    yield from extend([], 0, Counter())


# -- reference referee -----------------------------------------------------------


class Referee:
    """The play from RULES.md, on known hands."""

    def __init__(self, players, pone, hands, tournament=False):
        self.n = players
        self.hands = [list(h) for h in hands]
        self.turn = pone
        self.count: list[Card] = []
        self.passed: set[int] = set()
        self.last: int | None = None
        self.scores = [0] * players
        self.tournament = tournament

    def total(self):
        return sum(c.value for c in self.count)

    def fits(self, seat):
        return [c for c in self.hands[seat] if self.total() + c.value <= 31]

    def legal(self):
        if self.turn is None:
            return set()
        fits = self.fits(self.turn)
        acts = {PlayCard(self.turn, c) for c in fits}
        if not fits or (self.tournament and self.count):
            acts.add(Go(self.turn))
        return acts

    def step(self, action) -> Counter:
        seat = action.seat
        got: Counter = Counter()
        if isinstance(action, PlayCard):
            self.count.append(action.card)
            self.hands[seat].remove(action.card)
            self.last = seat
            for (kind, pts, _cards), k in ref_peg(self.count).items():
                got[(seat, kind, pts)] += k
        else:
            fits = self.fits(seat)
            if fits:  # a renege, tournament only
                got[((seat + 1) % self.n, "renege", 2 * len(fits))] += 1
            self.passed.add(seat)
        nxt = None
        if self.total() < 31:
            for i in range(1, self.n + 1):
                s = (seat + i) % self.n
                if self.hands[s] and s not in self.passed:
                    nxt = s
                    break
        if nxt is None:  # the count is over
            if self.total() != 31:
                kind = "go" if any(self.hands) else "last_card"
                got[(self.last, kind, 1)] += 1
            holders = [(self.last + i) % self.n for i in range(1, self.n + 1)
                       if self.hands[(self.last + i) % self.n]]
            nxt = holders[0] if holders else None
            self.count, self.passed, self.last = [], set(), None
        self.turn = nxt
        for (s, _, pts), k in got.items():
            self.scores[s] += pts * k
        return got
