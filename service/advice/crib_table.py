"""The ``tuned`` opponent model: expected crib values by the thrown ranks.

Shipped as data (``data/tuned_crib.json``), computed offline by
:mod:`tools.tables.tune` (outside the package), which iterates best responses (every seat
discards to maximise its expected net: hand plus or minus crib, the crib
valued by the current table) until the table stops changing.  A throw's
class is its ranks, ascending, and for two cards whether they share a suit
(``"5-6s"``, ``"5-6o"``, ``"5-5"``); one card is its rank (``"5"``).  Each
deal (``two``: 2 players, 6 cards; ``five_and_two``; ``three``; ``four``)
has a table for the seat's side's own crib and one for an opponent's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from service.core.cards import RANK, RANK_SYMBOLS

DATA = resources.files("service.advice") / "data" / "tuned_crib.json"
"""The shipped table: package data, so an installed wheel has it as a checkout does."""


def throw_class(throw: Sequence[int]) -> str:
    """The class of a throw in the table: ``"5-6s"`` (suited), ``"5-6o"``, ``"5-5"``, ``"5"``.

    >>> from service.core.cards import parse_cards
    >>> throw_class(parse_cards(["6H", "5H"])), throw_class(parse_cards(["KD", "KS"])), throw_class(parse_cards(["TC"]))
    ('5-6s', 'K-K', 'T')
    """
    if len(throw) == 1:
        return RANK_SYMBOLS[RANK[throw[0]] - 1]
    a, b = sorted(throw, key=lambda c: RANK[c])
    text = f"{RANK_SYMBOLS[RANK[a] - 1]}-{RANK_SYMBOLS[RANK[b] - 1]}"
    if RANK[a] == RANK[b]:
        return text
    return text + ("s" if a & 3 == b & 3 else "o")


@lru_cache(maxsize=1)
def table() -> dict[str, Any]:
    """The shipped document: ``tables[mode]["own" | "opponent"][class]`` and how it was made."""
    document: dict[str, Any] = json.loads(DATA.read_text())
    return document


def crib_value(mode: str, own: bool, throw: Sequence[int]) -> float:
    """The tuned expected crib for ``throw`` in a deal of ``mode``."""
    value: float = table()["tables"][mode]["own" if own else "opponent"][throw_class(throw)]
    return value


def throw_index(throw: Sequence[int]) -> int:
    """Where :func:`crib_values` keeps a throw of one card or two (cards as their numbers 0-51)."""
    return throw[0] if len(throw) == 1 else 52 + 52 * throw[0] + throw[1]


@lru_cache(maxsize=16)
def crib_values(mode: str, own: bool) -> tuple[float, ...]:
    """:func:`crib_value` of every throw of one card and of two, by :func:`throw_index`: the table read
    once, where a throw's class text costs more than the rest of a discard's value (for the advisors
    that find a discard thousands of times a decision)."""
    values = table()["tables"][mode]["own" if own else "opponent"]
    out = [0.0] * (52 + 52 * 52)
    for a in range(52):
        if mode != "two":  # one card thrown
            out[a] = values[throw_class((a,))]
            continue
        for b in range(52):
            if a != b:
                out[52 + 52 * a + b] = values[throw_class((a, b))]
    return tuple(out)
