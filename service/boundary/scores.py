"""Scores as JSON: the items a count or a card pegged, judged claims, the play's events.

The show's own document (``POST /v1/hands/score``) is :mod:`.show`'s; a
judged claim is added to it as its ``claim`` member (:func:`ruling_json`).  The play's
events (``POST /v1/pegging/score``) are :func:`peg_event_json`.
"""

from __future__ import annotations

from typing import Any, Callable

from service.core.cards import CARDS
from service.core.claims import FalseClaimOfGame, Ruling
from service.core.peg import Score
from service.core.play import PegEvent, PlayCard

_NAMES = tuple(str(c) for c in CARDS)


def show_item_json(s: Score) -> dict[str, Any]:
    """One scoring item as the show's breakdown writes it (kind, cards in deck order, points)."""
    return {"kind": s.kind, "cards": [_NAMES[c] for c in sorted(s.cards)], "points": s.points}


def played_item_json(s: Score) -> dict[str, Any]:
    """One scoring item of the play: its kind, its cards as played, its points."""
    return {"kind": s.kind, "cards": [_NAMES[c] for c in s.cards], "points": s.points}


def peg_score_json(s: Score) -> dict[str, Any]:
    """One score the play pegged, naming the seat it pegs for."""
    out: dict[str, Any] = {"seat": s.seat, "kind": s.kind, "points": s.points}
    if s.cards:
        out["cards"] = [_NAMES[c] for c in s.cards]
    return out


def false_claim_json(f: FalseClaimOfGame | None) -> dict[str, Any] | None:
    return None if f is None else {"seat": f.seat, "put_back_to": f.put_back_to, "set_back": f.set_back,
                                   "score": f.score, "opponent": f.opponent, "award": f.award,
                                   "rule": "ACC 8.4.b false claim of game"}


def _muggins_json(r: Ruling) -> dict[str, Any] | None:
    """Who takes the points missed and how many; ``called`` only when a call named an amount."""
    if r.muggins_seat is None:
        return None
    out: dict[str, Any] = {"seat": r.muggins_seat, "points": r.muggins}
    if r.called is not None:
        out["called"] = r.called
    return out


def ruling_json(r: Ruling, item: Callable[[Score], dict[str, Any]] = show_item_json,
                false_claim: FalseClaimOfGame | None = None) -> dict[str, Any]:
    """A judged claim as the API answers it (the ``claim`` member); ``item``
    writes each missed item (the show's in deck order, the play's as played)."""
    return {
        "seat": r.seat,
        "claimed": r.claimed,
        "zero_hand": r.zero_hand,
        "made": r.made,
        "verdict": r.verdict,
        "by": r.by,
        "pegged": r.pegged,
        "lost": r.lost,
        "muggins": _muggins_json(r),
        "missed": [item(s) for s in r.missed],
        "rule": r.rule,
        "false_claim_of_game": false_claim_json(false_claim),
    }


def peg_event_json(index: int, event: PegEvent, scores: tuple[Score, ...] | None = None,
                   ruling: Ruling | None = None) -> dict[str, Any]:
    """The play's ``index``-th event; ``scores`` and ``ruling`` when its claim was judged."""
    action = event.action
    if scores is None:
        scores = event.scores
    if scores:
        points, scored = sum(s.points for s in scores), [peg_score_json(s) for s in scores]
    else:
        points, scored = 0, []
    if type(action) is PlayCard:
        out = {"index": index, "seat": action.seat, "card": _NAMES[action.card], "count": event.count,
               "points": points, "scores": scored, "reset": event.reset}
    else:
        out = {"index": index, "seat": action.seat, "go": True, "count": event.count,
               "points": points, "scores": scored, "reset": event.reset}
    if ruling is not None:
        out["claim"] = ruling_json(ruling, played_item_json)
    return out
