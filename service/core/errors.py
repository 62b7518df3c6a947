"""The two kinds of wrong input the rules core knows, both ``ValueError``.

*Malformed* input cannot be read at all (an unknown card, a hand of three
cards).  *Illegal* input is well formed but breaks a rule (a card played past
31, a go while holding a playable card); it carries what would have been legal.
"""

from __future__ import annotations

from typing import Any, Sequence


class CribbageError(ValueError):
    """Base of every error the rules core raises on bad input.

    ``field`` names where the problem is, as a JSON-pointer-like path relative
    to whatever the caller handed in (``"cards/2"``), when the core knows it.
    """

    def __init__(self, message: str, *, field: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.extra = extra


class MalformedError(CribbageError):
    """Input that is not a readable cribbage object."""


class MalformedCardError(MalformedError):
    """A card spelling that names no card."""


class DuplicateCardError(MalformedError):
    """The same card given twice where every card must be distinct."""

    def __init__(self, message: str, *, card: Any = None, field: str | None = None) -> None:
        super().__init__(message, field=field, card=str(card) if card is not None else None)
        self.card = card


class IllegalError(CribbageError):
    """Well-formed input that the rules forbid.

    ``rule`` is a short stable code (``"count_over_31"``), ``legal`` lists what
    would have been legal instead, in the same notation as the input.
    """

    def __init__(
        self,
        message: str,
        *,
        rule: str,
        legal: Sequence[Any] = (),
        field: str | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(message, field=field, **extra)
        self.rule = rule
        self.legal = list(legal)
