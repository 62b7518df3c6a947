"""What a sealed token encrypts: a game state whose length says nothing of its cards.

Compressing before encrypting keeps a token short, but the compressed length
depends on what is compressed: two positions that differ only in cards a seat
cannot see would give tokens of different lengths.  So the state is split
before compression:

* the **skeleton**, the state's JSON with every card written as one byte
  ``\\x00`` and the deck seed as ``\\x01``: everything left in it (ids, scores,
  seats, action kinds, claims, the history) is known to every seat, and it
  alone is compressed (zlib);
* the **hidden part**, fixed width after it: the deck seed's 16 bytes, then
  one byte per card (0..51), in the order the placeholders stand.

How many cards a state holds is public (discards and plays are seen being
made, if not what they are), so the plaintext's length, hence the token's,
is a function of public facts only.  ``\\x00`` and ``\\x01`` never occur in
JSON text (control characters are escaped), so the split is exact both ways.
"""

from __future__ import annotations

import re
import zlib

from .core.cards import CANONICAL, Card

MAX_STATE_BYTES = 4 * 1024 * 1024
"""A state never inflates past this, so a crafted plaintext cannot either."""

_CARD = b"\x00"
_SEED = b"\x01"
_SEED_BYTES = 16
# A card in canonical spelling anywhere in the JSON text (action notation
# writes ranks and suits in upper case; ids and hashes are lower-case hex).
_CARD_RE = re.compile(rb"[A2-9TJQK][CDHS]")
_SEED_RE = re.compile(rb'"deck_seed":"([0-9a-f]{32})"')
_BYTE_OF_CARD = {text.encode("ascii"): bytes((int(card),)) for text, card in CANONICAL.items()
                 if str(card) == text}
_CARD_OF_BYTE = [str(Card(i)).encode("ascii") for i in range(52)]


class PlaintextError(ValueError):
    """The plaintext is not one this module wrote."""


class StateTooLarge(PlaintextError):
    """The plaintext inflates past :data:`MAX_STATE_BYTES`."""


def pack(json_text: bytes) -> bytes:
    """The plaintext for a state's compact JSON text (``orjson.dumps``)."""
    hidden: list[bytes] = []
    m = _SEED_RE.search(json_text)
    if m is not None:
        hidden.append(bytes.fromhex(m.group(1).decode("ascii")))
        json_text = json_text[:m.start(1) - 1] + _SEED + json_text[m.end(1) + 1:]
    cards: list[bytes] = []

    def card_byte(match: re.Match[bytes]) -> bytes:
        cards.append(_BYTE_OF_CARD[match.group(0)])
        return _CARD

    skeleton = _CARD_RE.sub(card_byte, json_text)
    return zlib.compress(skeleton, 6) + b"".join(hidden) + b"".join(cards)


def unpack(plain: bytes) -> bytes:
    """The JSON text :func:`pack` was given; :class:`PlaintextError` for anything else."""
    inflater = zlib.decompressobj()
    try:
        skeleton = inflater.decompress(plain, MAX_STATE_BYTES)
    except zlib.error:
        raise PlaintextError("not compressed state text") from None
    if inflater.unconsumed_tail:
        raise StateTooLarge("the sealed state is too large")
    if not inflater.eof:
        raise PlaintextError("not compressed state text")
    tail = inflater.unused_data
    seeds = skeleton.count(_SEED)
    if seeds > 1 or len(tail) != seeds * _SEED_BYTES + skeleton.count(_CARD):
        raise PlaintextError("the hidden part does not fit the state")
    if seeds:
        seed = b'"' + tail[:_SEED_BYTES].hex().encode("ascii") + b'"'
        skeleton = skeleton.replace(_SEED, seed)
        tail = tail[_SEED_BYTES:]
    if any(b > 51 for b in tail):
        raise PlaintextError("the hidden part names no card")
    parts = skeleton.split(_CARD)
    out = [parts[0]]
    for byte, part in zip(tail, parts[1:]):
        out.append(_CARD_OF_BYTE[byte])
        out.append(part)
    return b"".join(out)
