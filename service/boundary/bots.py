"""The bot catalogue as JSON: ``GET /v1/bots``, each level with its measured strength and cost.

The figures are :mod:`service.advice.catalogue`'s, written as they are recorded (percentages and
milliseconds as measured; a figure a measurement did not state is ``null``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.advice.catalogue import Conditions, Cost, Level, Measured, Strength


def _measured(m: Measured) -> dict[str, Any]:
    return {"bench": m.bench, "script": m.script, "date": m.date, "release": m.release, "source": m.source}


def _conditions(c: Conditions) -> dict[str, Any]:
    return {"players": c.players, "target": c.target, "start": c.start, "pairing": c.pairing, "detail": c.detail}


def _strength(s: Strength) -> dict[str, Any]:
    return {"level": s.level, "opponent": s.opponent, "level_version": s.level_version,
            "opponent_version": s.opponent_version, "won_percent": s.won_percent,
            "interval_percent": list(s.interval_percent), "games": s.games, "pairs": s.pairs, "wins": s.wins,
            "conditions": _conditions(s.conditions), "measured": _measured(s.measured)}


def _cost(c: Cost) -> dict[str, Any]:
    return {"decisions": c.decisions, "p50_ms": c.p50_ms, "p99_ms": c.p99_ms, "mean_ms": c.mean_ms,
            "count": c.count, "conditions": _conditions(c.conditions), "measured": _measured(c.measured)}


def bots_json(levels: Sequence[Level], about: str) -> dict[str, Any]:
    """``/v1/bots``: ``about`` (what the figures are) and every level, in the bot's order."""
    return {"about": about, "levels": [
        {"level": lv.level, "summary": lv.summary, "discards": lv.discards, "plays": lv.plays,
         "strength": [_strength(s) for s in lv.strength], "costs": [_cost(c) for c in lv.costs]}
        for lv in levels]}
