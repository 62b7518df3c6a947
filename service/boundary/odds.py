"""Odds as JSON: ``POST /v1/odds``, each side's chance of winning and how it was estimated.

The same document for a board position (at the deal's start: the table, or
a simulation for 3 players) and for a game state within a deal (sampled now
from the asking seat's view, :mod:`service.advice.odds_deal`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.advice.discards import STRONG_THROWS
from service.advice.odds import policy, table_error
from service.advice.odds_deal import TIME_BUDGET, DealEstimate

MODEL = {"hidden_cards": STRONG_THROWS.name, "slip": STRONG_THROWS.slip}
"""How an estimate within a deal deals the cards the seat has not seen: as the strong level keeps and throws,
with a chance ``slip`` of any discard (:mod:`service.core.game.hidden`)."""


def odds_json(players: int, target: int, five: bool, dealer: int, scores: Sequence[int], e: DealEstimate,
              games: int, seat: int | None, at: str) -> dict[str, Any]:
    """The chances ``e`` of the position (``at`` ``"deal_start"`` or ``"now"``,
    from ``seat``'s view or none), over ``games`` simulated games if any; an
    estimate made now states its time budget."""
    return {"players": players, "target": target, "five_and_two": five, "dealer": dealer, "scores": list(scores),
            "at": at, "seat": seat, "chances": list(e.chances), "standard_errors": list(e.standard_errors),
            "method": e.method, "samples": e.samples, "games": games, "policy": policy(),
            "model": MODEL if at == "now" else None, "table_error": table_error(players, target, five),
            "budget_seconds": TIME_BUDGET if at == "now" else None}
