"""What is legal at a moment of a game, written from the rules (docs/rules.md, RULES.md), not from the engine.

The engine lists legal actions with one generator (the kernel's ``legal_codes``, turned into actions by
``compact.legal_of``); this reference states the same rules again, plainly, on the typed position's
public facts (who deals, the hands, what each seat laid away, the play's count, turn and held cards,
the counts made in the show), and answers a set of plain tuples:

* the deal: the dealer deals;
* the discard: every seat that has not laid away yet may lay away any cards of its hand, as many as
  make it keep four;
* the cut: the pone (left of the dealer) cuts;
* the play: the seat to play may lay any card it holds that keeps the count at 31 or under; it may say
  go when none does, but never to start a count (every card fits at 0); under tournament rules a go
  said while able stands (a renege, penalised), so go is listed at any count above 0;
* the show: hands are counted from the dealer's left, clockwise, the dealer last, then the crib by
  the dealer;
* once a side has reached the target nothing is legal.
"""

from __future__ import annotations

from itertools import combinations

KEEP = 4
LIMIT = 31


def _value(card) -> int:
    """A card's value in the count: its rank, court cards 10 (the card is an int 0..51 by rank, then suit)."""
    return min(int(card) // 4 + 1, 10)


def legal_reference(pos, seat: int | None = None) -> set[tuple]:
    """Every legal action of ``pos`` (of ``seat`` only), as ``(kind, seat, what)`` tuples."""
    n = pos.options.players
    phase = str(pos.phase)
    out: set[tuple] = set()
    if phase == "deal":
        out.add(("deal", pos.dealer, None))
    elif phase == "discard":
        for s in range(n):
            if not pos.discards[s]:
                hand = pos.hands[s]
                for cards in combinations(hand, len(hand) - KEEP):
                    out.add(("discard", s, frozenset(int(c) for c in cards)))
    elif phase == "cut":
        out.add(("cut", (pos.dealer + 1) % n, None))
    elif phase == "play":
        play = pos.the_play
        if play.turn is not None:
            t = play.turn
            fits = [c for c in play.held[t] if play.count + _value(c) <= LIMIT]
            out.update(("play", t, int(c)) for c in fits)
            if play.count > 0 and (not fits or pos.options.tournament):
                out.add(("go", t, None))
    elif phase == "show":
        counter = (pos.dealer + 1 + pos.shown) % n if pos.shown < n else pos.dealer
        out.add(("count", counter, None))
    return {a for a in out if seat is None or a[1] == seat}


def as_reference(action) -> tuple:
    """An engine's action as :func:`legal_reference` writes it."""
    kind = type(action).__name__
    if kind == "Discard":
        return ("discard", action.seat, frozenset(int(c) for c in action.cards))
    if kind == "PlayCard":
        return ("play", action.seat, int(action.card))
    return ({"Deal": "deal", "Cut": "cut", "Go": "go", "Count": "count"}[kind], action.seat, None)
