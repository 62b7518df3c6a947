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
from collections.abc import Sequence
from operator import itemgetter

from ..cards import CARDS, Card
from ..engine import kernel
from ..kernel import CRIB, HANDS  # the deal state's fields by name

_KEYS = struct.Struct(">52I")
_CARD_NUMBERS = range(52)



def new_deck_seed() -> str:
    """128 random bits from the operating system's CSPRNG, as 32 hex digits."""
    return secrets.token_hex(16)


COMMITMENT_TAG = b"cribbage/deck-commitment/v1"
SEED_TAG = b"cribbage/deck-seed/v1"


def commitment(game_id: str, server_seed: str) -> str:
    """The commitment to a game's packs a sealed game's seats get at its start (docs/deals.md):
    SHA-256 of the tag, a zero byte, the game id, a zero byte, the server seed (ASCII hex), as hex."""
    return hashlib.sha256(COMMITMENT_TAG + b"\0" + game_id.encode("ascii") + b"\0"
                          + server_seed.encode("ascii")).hexdigest()


def mixed_seed(game_id: str, server_seed: str, contributions: Sequence[str | None]) -> str:
    """The deck seed of a committed game: SHA-256 of the tag, the game id, the server seed and each
    seat's contribution in seat order (empty where a seat gave none), each after a zero byte;
    its first 32 hex digits (docs/deals.md)."""
    data = SEED_TAG + b"\0" + game_id.encode("ascii") + b"\0" + server_seed.encode("ascii")
    data += b"".join(b"\0" + (c or "").encode("ascii") for c in contributions)
    return hashlib.sha256(data).hexdigest()[:32]


def dealt(deck_seed: str, deal: int, players: int, dealer: int, cards_dealt: int,
          to_crib: int) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], Card]:
    """What deal ``deal``'s pack gives: each seat's cards, the crib's, and the starter the cut turns
    (the kernel deals them: one card at a time from the dealer's left, then the crib's)."""
    numbers = pack_numbers(deck_seed, deal)
    k = kernel.deal_pack(kernel.deal_start(players, (0,) * 2 * players, numbers), players, dealer,
                         cards_dealt, to_crib)
    hands = tuple(tuple(CARDS[c] for c in h) for h in k[HANDS])
    return hands, tuple(CARDS[c] for c in k[CRIB]), CARDS[numbers[kernel.starter_at(players, cards_dealt, to_crib)]]


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
