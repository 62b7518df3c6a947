"""The pack for each deal, fixed by the game's deck seed and the deal number.

A deal's order is a pure function of ``(deck_seed, deal)``: re-sending a state
always deals the same cards (the deal is committed), and nobody without the
seed can compute it.  SHAKE-256 gives 52 keys of 32 bits; the cards sorted by
key are the pack (ties, about 1 in 3 million deals, fall back to card order).
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from operator import itemgetter

from ..cards import CARDS, Card

_KEYS = struct.Struct(">52I")
_CARD_NUMBERS = range(52)



def new_deck_seed() -> str:
    """128 random bits from the operating system's CSPRNG, as 32 hex digits."""
    return secrets.token_hex(16)


def seed_from_text(seed: str) -> str:
    """A deck seed from a client's text seed (plain, trusted games only)."""
    return hashlib.sha256(f"cribbage/seeded/{seed}".encode()).hexdigest()[:32]


def pack(deck_seed: str, deal: int) -> tuple[Card, ...]:
    """The 52 cards of deal ``deal`` in the order they come off the pack.
    Deal 0 is the pack cut for the first deal.

    >>> len(set(pack("00" * 16, 1))), pack("00" * 16, 1) == pack("00" * 16, 1)
    (52, True)
    """
    cards: tuple[Card, ...] = itemgetter(*pack_numbers(deck_seed, deal))(CARDS)
    return cards


def pack_numbers(deck_seed: str, deal: int) -> tuple[int, ...]:
    """:func:`pack` as the cards' numbers (plain ints, as the kernel keeps them)."""
    keys = _KEYS.unpack(hashlib.shake_256(f"cribbage/deck/{deck_seed}/{deal}".encode()).digest(208))
    # the cards by key, tied keys in card order (the sort is stable)
    return tuple(sorted(_CARD_NUMBERS, key=keys.__getitem__))
