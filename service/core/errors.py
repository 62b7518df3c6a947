"""The kinds of wrong input the rules core knows, all ``ValueError``.

*Malformed* input cannot be read at all (an unknown card, a hand of three
cards).  *Illegal* input is well formed but breaks a rule (a card played past
31, a go while holding a playable card); it carries what would have been legal.
A *newer version* (:class:`NewerVersionError`, a kind of malformed) is input
of a format version this code does not read yet, written by a later release:
not bad in itself, so the edge says so apart (another replica may read it).

An error quotes what a client sent through :func:`echo`, at most
:data:`MAX_ECHO` characters of it, so that an error is never larger than
the service's own words for any input.

Every error says where the problem is as a :data:`Location`: the keys and
indexes that lead to it inside what the raiser was handed (``("cards", 2)``),
outermost first.  A caller that handed in a part of something larger says
where that part sits with :meth:`CribbageError.within` (or :func:`located`),
so each layer names only its own part; the edge turns the whole location into
its own notation (a JSON pointer).  The core never names the edge's fields.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Self, Sequence, TypeAlias

MAX_ECHO = 64
"""At most this many characters of a value a client sent are quoted back in an error; a
longer one is cut there and marked with its length (:func:`echo`)."""

Step: TypeAlias = str | int
Location: TypeAlias = tuple[Step, ...]
"""Keys and indexes from the outermost in; ``()`` is the input as a whole."""


def steps(path: str) -> Location:
    """A location from its slash spelling: ``"hands/1"`` is ``("hands", 1)``.

    >>> steps("hands/1"), steps("claim"), steps("")
    (('hands', 1), ('claim',), ())
    """
    return tuple(int(s) if s.isdigit() and s.isascii() else s for s in path.split("/")) if path else ()


def echo(value: object) -> str:
    """``value`` quoted for an error (``repr``), its text cut after :data:`MAX_ECHO`
    characters and marked with its length.

    >>> echo("5X"), echo("Q" * 70) == repr("Q" * 64 + "…") + " (70 characters)"
    ("'5X'", True)
    """
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= MAX_ECHO:
        return repr(text) if isinstance(value, str) else text
    return f"{text[:MAX_ECHO] + '…'!r} ({len(text)} characters)"


class CribbageError(ValueError):
    """Base of every error the rules core raises on bad input.

    ``at`` is where the problem is (a :data:`Location`), relative to what the
    raiser was handed.  ``field`` is the same, written as a slash path, for a
    check that names one of its own parameters (``field="hands/1"``).
    """

    def __init__(self, message: str, *, at: Location = (), field: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.at: Location = at + steps(field) if field else at
        self.extra = extra

    def within(self, *outer: Step) -> Self:
        """This error, located inside ``outer`` (where the caller's part sits); returns it to re-raise.

        >>> MalformedError("no", at=("cards", 2)).within("items", 0).at
        ('items', 0, 'cards', 2)
        """
        self.at = outer + self.at
        return self

    @property
    def field(self) -> str | None:
        """The location as a slash path (``"cards/2"``), None for the input as a whole.

        >>> MalformedError("no", at=("hands", 1)).field, MalformedError("no").field is None
        ('hands/1', True)
        """
        return "/".join(str(s) for s in self.at) or None


@contextmanager
def located(*outer: Step) -> Iterator[None]:
    """Locate every :class:`CribbageError` raised inside within ``outer``::

        with located("options"):
            options = read_options(data["options"])
    """
    try:
        yield
    except CribbageError as exc:
        raise exc.within(*outer)


class MalformedError(CribbageError):
    """Input that is not a readable cribbage object."""


class MalformedCardError(MalformedError):
    """A card spelling that names no card."""


class DuplicateCardError(MalformedError):
    """The same card given twice where every card must be distinct."""

    def __init__(self, message: str, *, card: Any = None, at: Location = (), field: str | None = None) -> None:
        super().__init__(message, at=at, field=field, card=str(card) if card is not None else None)
        self.card = card


class IllegalError(CribbageError):
    """Well-formed input that the rules forbid.

    ``rule`` is a short stable code (``"count_over_31"``), ``legal`` lists what
    would have been legal instead (the core's own actions; the edge writes
    them in its notation, and :mod:`.game.observe` says which a seat is told).
    """

    def __init__(
        self,
        message: str,
        *,
        rule: str,
        legal: Sequence[Any] = (),
        at: Location = (),
        field: str | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(message, at=at, field=field, **extra)
        self.rule = rule
        self.legal = list(legal)


class NewerVersionError(MalformedError):
    """Input of a format ``version`` newer than this code reads (``reads``): written by a
    later release.  A :class:`MalformedError` to any caller that does not tell them apart
    (it cannot be read here either way); the edge answers it as its own problem."""

    def __init__(self, message: str, *, version: int, reads: Sequence[int], at: Location = (),
                 field: str | None = None) -> None:
        super().__init__(message, at=at, field=field)
        self.version = version
        self.reads = tuple(reads)
