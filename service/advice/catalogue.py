"""The bot catalogue: each level of :data:`service.advice.bot.LEVELS`, what it is, its measured strength
and its cost per decision, so a platform can choose a level by numbers (``GET /v1/bots``).

Shipped as data (``data/bots.json``), like the tuned crib table and the odds tables: every figure is
quoted from the README's measurements with the bench section and script that measure it (the bots'
matches: bench/advice.py, bench/board.py, bench/previous.py), or was measured for the catalogue by
bench/decisions.py (the greedy and the strong level's CPU a decision).  Nothing here is computed at
run time: a level's figures change when a bench is run again and its figures are written here.

A match is kept once, as measured (``level`` won ``won_percent`` of the games against ``opponent``);
each level lists every match it played, on either side.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from service.advice.bot import LEVELS

DATA = resources.files("service.advice") / "data" / "bots.json"
"""The catalogue's figures: package data."""


@dataclass(frozen=True, slots=True)
class Measured:
    """Where a figure comes from: the bench command, its script, when and on which release."""

    bench: str
    script: str
    date: str
    release: str
    source: str


@dataclass(frozen=True, slots=True)
class Conditions:
    """What a figure was measured over: the table, the target, where the games started and how paired."""

    players: int
    target: int
    start: str  # "new game" or "late board"
    pairing: str  # "seeded games" or "duplicate pairs"
    detail: str


@dataclass(frozen=True, slots=True)
class Strength:
    """One match: ``level`` won ``won_percent`` of ``games`` against ``opponent``, 95 % interval
    ``interval_percent``; a ``*_version`` names an earlier version of that side (None: as it ships)."""

    level: str
    opponent: str
    level_version: str | None
    opponent_version: str | None
    won_percent: float
    interval_percent: tuple[float, float]
    games: int
    pairs: int | None
    wins: int | None
    conditions: Conditions
    measured: Measured


@dataclass(frozen=True, slots=True)
class Cost:
    """The CPU time of a decision (``discard``, ``play`` or ``played for the game``), in ms; a figure
    the measurement did not state is None, as is ``count`` (the decisions timed) when not stated."""

    decisions: str
    p50_ms: float | None
    p99_ms: float | None
    mean_ms: float | None
    count: int | None
    conditions: Conditions
    measured: Measured


@dataclass(frozen=True, slots=True)
class Level:
    """One bot level: what it is, every match it played and its cost per decision."""

    level: str
    summary: str
    discards: str
    plays: str
    strength: tuple[Strength, ...]
    costs: tuple[Cost, ...]


def _measured(d: dict[str, Any]) -> Measured:
    return Measured(str(d["bench"]), str(d["script"]), str(d["date"]), str(d["release"]), str(d["source"]))


def _conditions(d: dict[str, Any]) -> Conditions:
    return Conditions(int(d["players"]), int(d["target"]), str(d["start"]), str(d["pairing"]), str(d["detail"]))


def _opt_float(x: Any) -> float | None:
    return None if x is None else float(x)


def _opt_int(x: Any) -> int | None:
    return None if x is None else int(x)


def _strength(d: dict[str, Any]) -> Strength:
    lo, hi = d["interval_percent"]
    return Strength(str(d["level"]), str(d["opponent"]), d["level_version"], d["opponent_version"],
                    float(d["won_percent"]), (float(lo), float(hi)), int(d["games"]), _opt_int(d["pairs"]),
                    _opt_int(d["wins"]), _conditions(d["conditions"]), _measured(d["measured"]))


def _cost(d: dict[str, Any]) -> Cost:
    return Cost(str(d["decisions"]), _opt_float(d["p50_ms"]), _opt_float(d["p99_ms"]), _opt_float(d["mean_ms"]),
                _opt_int(d["count"]), _conditions(d["conditions"]), _measured(d["measured"]))


def parse(doc: dict[str, Any]) -> tuple[Level, ...]:
    """The levels of a catalogue document, in the order of :data:`LEVELS`; a level of the document not
    in LEVELS, or one of LEVELS missing, is a ``ValueError``."""
    levels = doc["levels"]
    if set(levels) != set(LEVELS):
        raise ValueError(f"the catalogue's levels {sorted(levels)} are not the bot's {sorted(LEVELS)}")
    matches = tuple(_strength(m) for m in doc["matches"])
    for m in matches:
        if m.level not in LEVELS or m.opponent not in LEVELS:
            raise ValueError(f"a match of unknown levels: {m.level} against {m.opponent}")
    return tuple(
        Level(name, str(levels[name]["summary"]), str(levels[name]["discards"]), str(levels[name]["plays"]),
              tuple(m for m in matches if name in (m.level, m.opponent)),
              tuple(_cost(c) for c in levels[name]["costs"]))
        for name in LEVELS)


@lru_cache(maxsize=1)
def _document() -> dict[str, Any]:
    """:data:`DATA` as read, once."""
    got: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return got


@lru_cache(maxsize=1)
def catalogue() -> tuple[Level, ...]:
    """Every bot level with its figures."""
    return parse(_document())


def about() -> str:
    """The catalogue's one-paragraph description of what its figures are."""
    return str(_document()["about"])
