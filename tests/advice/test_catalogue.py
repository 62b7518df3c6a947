"""The bot catalogue (service/advice/catalogue.py, data/bots.json): one entry a level of bot.LEVELS,
every figure sane and traceable to a bench script of the repository."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from service.advice import bot
from service.advice.catalogue import DATA, catalogue, parse

ROOT = Path(__file__).resolve().parents[2]
LEVELS = catalogue()


def test_the_levels_are_the_bots_exactly():
    assert tuple(lv.level for lv in LEVELS) == bot.LEVELS


def test_a_level_without_an_entry_fails(monkeypatch):
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    monkeypatch.setattr("service.advice.catalogue.LEVELS", (*bot.LEVELS, "perfect"))
    with pytest.raises(ValueError, match="levels"):
        parse(doc)
    monkeypatch.undo()
    del doc["levels"]["greedy"]
    with pytest.raises(ValueError, match="levels"):
        parse(doc)


def test_a_match_of_an_unknown_level_fails():
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    doc["matches"][0]["opponent"] = "perfect"
    with pytest.raises(ValueError, match="unknown"):
        parse(doc)


def test_every_level_is_measured():
    for lv in LEVELS:
        assert lv.summary and lv.discards and lv.plays
        assert lv.strength, f"{lv.level}: no match"
        assert lv.costs, f"{lv.level}: no cost"
        assert all(lv.level in (s.level, s.opponent) for s in lv.strength)


STRENGTHS = [s for lv in LEVELS for s in lv.strength]
COSTS = [c for lv in LEVELS for c in lv.costs]


@pytest.mark.parametrize("s", STRENGTHS, ids=lambda s: f"{s.level}-{s.opponent}-{s.games}")
def test_every_interval_contains_its_estimate(s):
    lo, hi = s.interval_percent
    assert 0 <= lo <= s.won_percent <= hi <= 100
    assert s.games >= 1
    if s.pairs is not None:
        assert s.games == 2 * s.pairs, "a duplicate pair is two games"
        assert s.conditions.pairing == "duplicate pairs"
    else:
        assert s.conditions.pairing == "seeded games"
    if s.wins is not None:
        assert round(100 * s.wins / s.games, 1) == s.won_percent
    if s.level == s.opponent:
        assert s.level_version or s.opponent_version, "a level against itself is against another version"


@pytest.mark.parametrize("c", COSTS, ids=lambda c: c.decisions)
def test_every_cost_is_sane(c):
    stated = [x for x in (c.p50_ms, c.mean_ms, c.p99_ms) if x is not None]
    assert stated and all(x >= 0 for x in stated)
    if c.p50_ms is not None and c.p99_ms is not None:
        assert c.p50_ms <= c.p99_ms
    if c.mean_ms is not None and c.p99_ms is not None:
        assert c.mean_ms <= c.p99_ms
    assert c.count is None or c.count >= 100, "a cost over a few hundred decisions"


@pytest.mark.parametrize("figure", STRENGTHS + COSTS, ids=lambda f: f.measured.script)
def test_every_figure_names_an_existing_bench(figure):
    m, cond = figure.measured, figure.conditions
    assert re.fullmatch(r"bench/\w+\.py", m.script) and (ROOT / m.script).is_file(), m.script
    section = re.search(r"BENCH_ONLY=(\w+)", m.bench)
    assert section, m.bench
    run = (ROOT / "bench" / "run.py").read_text(encoding="utf-8")
    assert f'"{section.group(1)}": {Path(m.script).stem}.run' in run, "the bench section runs that script"
    assert re.fullmatch(r"\d{4}-\d{2}(-\d{2})?", m.date) and m.release and m.source
    assert cond.players == 2 and cond.target == 121
    assert cond.start in ("new game", "late board")
