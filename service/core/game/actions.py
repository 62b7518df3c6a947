"""What a seat can do in a game: one small frozen type per action, and their notation.

The notation is the unit of exchange (as UCI moves are for chess): a game
state keeps the deal's actions in it, and a game record is every action of a
game in order.  One action a line::

    deal 0                      the dealer deals (the service's deck)
    deal 0 8C9H4S6C4DKD.6D2STC3HKHAS/   with the cards: each seat's, seat 0 first, then the crib's
    discard 1 6D2S              seat 1 lays 6D and 2S away to the crib
    cut 1                       the pone cuts (with a client deck: ``cut 1 5H``)
    cut 1 JH =0                 ... and the dealer pegged 0 of his heels before his first card
    play 0 5H                   seat 0 lays the five of hearts
    go 1                        seat 1 says go
    count 0                     seat 0 counts its hand (or the dealer the crib)

``=N`` after any of play, go or count is the points the seat claims (muggins);
after a cut, what the dealer pegged of his heels before he played a card
(tournament rules, ACC 6.3.c).

>>> parse_action("discard 1 6D2S")
Discard(seat=1, cards=(Card.parse('6D'), Card.parse('2S')))
>>> notation(parse_action("count 2 =12"))
'count 2 =12'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Union

from ..cards import CANONICAL, CARDS, Card
from ..claims import MAX_CLAIM
from ..errors import MalformedError
from ..play import Go, PlayCard

__all__ = ["Deal", "Discard", "Cut", "PlayCard", "Go", "Count", "GameAction", "ACTION_TYPES", "ActionKind",
           "Counted", "notation", "parse_action", "action_type"]


class ActionKind(StrEnum):
    """An action's name in the API and in the notation."""

    DEAL = "deal"
    DISCARD = "discard"
    CUT = "cut"
    PLAY = "play"
    GO = "go"
    COUNT = "count"


class Counted(StrEnum):
    """What a count in the show counts: a hand, or (the dealer, last) the crib."""

    HAND = "hand"
    CRIB = "crib"


@dataclass(frozen=True, slots=True)
class Deal:
    """The dealer deals.  ``hands`` (seat 0 first) and ``crib`` (cards dealt
    straight to it) are given with a client deck, and in a record."""

    seat: int
    hands: tuple[tuple[Card, ...], ...] | None = None
    crib: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Discard:
    """A seat lays cards away to the crib."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Cut:
    """The pone cuts and the starter is turned; ``starter`` is given with a
    client deck, and in a record.  ``claim``: under tournament rules, what
    the dealer pegged of his heels (a jack turned) before he played a card;
    heels not pegged are forfeited (ACC 6.3.c)."""

    seat: int
    starter: Card | None = None
    claim: int | None = None


@dataclass(frozen=True, slots=True)
class Count:
    """A seat counts its hand in the show (the dealer last, then the crib).
    ``what`` ("hand" or "crib"), when given, must be what is counted next; it
    is not part of the record (the show order decides it)."""

    seat: int
    claim: int | None = None
    what: Counted | None = None


GameAction = Union[Deal, Discard, Cut, PlayCard, Go, Count]

_TYPES: dict[type, ActionKind] = {Deal: ActionKind.DEAL, Discard: ActionKind.DISCARD, Cut: ActionKind.CUT,
                                  PlayCard: ActionKind.PLAY, Go: ActionKind.GO, Count: ActionKind.COUNT}
ACTION_TYPES = tuple(ActionKind)


def action_type(action: GameAction) -> ActionKind:
    """The action's name in the API: deal, discard, cut, play, go or count."""
    return _TYPES[type(action)]


_NAMES = tuple(str(c) for c in CARDS)


def _cards_text(cards: tuple[Card, ...]) -> str:
    return "".join([_NAMES[c] for c in cards])


_PLAY_TEXT = tuple(tuple(f"play {seat} {card}" for card in CARDS) for seat in range(4))
_SEAT_TEXT = {kind: tuple(f"{_TYPES[kind]} {seat}" for seat in range(4)) for kind in _TYPES}
"""Each action's ``kind seat`` (formatting a StrEnum runs Python code: done once, here)."""


def notation(action: GameAction) -> str:
    """The action as one line of a record."""
    # the lines most of a record is made of (a card, a go, a count, no claim) read from tables
    if type(action) is PlayCard:
        if action.claim is None and 0 <= action.seat < 4:
            return _PLAY_TEXT[action.seat][action.card]
    elif type(action) is Go or type(action) is Count:
        if action.claim is None and 0 <= action.seat < 4:
            return _SEAT_TEXT[type(action)][action.seat]
    return _composed(action)


def _composed(action: GameAction) -> str:
    seat = action.seat
    text = _SEAT_TEXT[type(action)][seat] if 0 <= seat < 4 else f"{_TYPES[type(action)]} {seat}"
    if isinstance(action, Deal):
        if action.hands is not None:
            text += " " + ".".join(map(_cards_text, action.hands)) + "/" + _cards_text(action.crib)
        return text
    if isinstance(action, Discard):
        return text + " " + _cards_text(action.cards) if action.cards else text
    if isinstance(action, Cut) and action.starter is not None:
        text += " " + _NAMES[action.starter]
    elif isinstance(action, PlayCard):
        text += " " + _NAMES[action.card]
    if action.claim is not None:
        text += f" ={action.claim}"
    return text




def _parse_cards(text: str, where: str) -> tuple[Card, ...]:
    if len(text) % 2:
        raise MalformedError(f"{where}: cards are written two characters each, as 5H TD")
    out = []
    for i in range(0, len(text), 2):
        card = CANONICAL.get(text[i:i + 2])
        if card is None:
            raise MalformedError(f"{where}: {text[i:i + 2]!r} is not a card")
        out.append(card)
    return tuple(out)


def parse_action(text: str) -> GameAction:
    """Read one line of the notation; a bad line raises :class:`MalformedError`."""
    if not isinstance(text, str) or len(text) > 120:
        raise MalformedError("an action is a line of text such as 'play 0 5H'")
    words = text.split(" ")
    if "" in words:
        raise MalformedError(f"{text!r}: words are separated by one space, with none at either end")
    claim = None
    if len(words) > 2 and words[-1].startswith("="):
        digits = words.pop()[1:]
        if not (digits.isdigit() and digits.isascii() and len(digits) <= 2 and str(int(digits)) == digits
                and int(digits) <= MAX_CLAIM):
            raise MalformedError(f"{text!r}: a claim is =0 to =29")
        claim = int(digits)
    if len(words) < 2 or not (len(words[1]) == 1 and words[1] in "0123"):
        raise MalformedError(f"{text!r} is not an action: write the type, the seat and its cards")
    kind, seat, rest = words[0], int(words[1]), words[2:]
    if claim is not None and kind not in ("play", "go", "count", "cut"):
        raise MalformedError(f"{text!r}: only play, go, count and cut carry a claim")
    if kind == "deal" and len(rest) <= 1:
        if not rest:
            return Deal(seat)
        hands_text, slash, crib_text = rest[0].partition("/")
        if not slash:
            raise MalformedError(f"{text!r}: a dealt crib follows a '/'")
        hands = tuple(_parse_cards(h, text) for h in hands_text.split("."))
        return Deal(seat, hands, _parse_cards(crib_text, text))
    if kind == "discard" and len(rest) <= 1:
        return Discard(seat, _parse_cards(rest[0], text) if rest else ())
    if kind == "cut" and len(rest) <= 1:
        starter = _parse_cards(rest[0], text) if rest else ()
        if len(starter) > 1:
            raise MalformedError(f"{text!r}: the cut turns one starter")
        return Cut(seat, starter[0] if starter else None, claim)
    if kind == "play" and len(rest) == 1:
        card = _parse_cards(rest[0], text)
        if len(card) != 1:
            raise MalformedError(f"{text!r}: a play lays one card")
        return PlayCard(seat, card[0], claim)
    if kind == "go" and not rest:
        return Go(seat, claim)
    if kind == "count" and not rest:
        return Count(seat, claim)
    raise MalformedError(f"{text!r} is not an action: deal, discard, cut, play, go or count with its cards")
