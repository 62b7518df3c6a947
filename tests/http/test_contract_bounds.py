"""Each bound has one home in the code, and openapi.yaml states the same bound.

The contract is hand-written, so a bound changed in the code and not in the
document (or the other way round) would silently make one of them wrong.
Every property of a given name, wherever it stands in the document, must
state the bound of that name's one constant.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from service.core.claims import MAX_CLAIM
from service.core.game.state import MAX_DEALS
from service.boundary.state import MAX_ACTIONS, MAX_SEQ
from service.core.options import PLAYERS, SEED_LENGTH, TARGETS
from service.http.resources.batch import MAX_ITEMS
from service.http.resources.pegging import MAX_PLAYS
from service.seal import MAX_TOKEN
from service.tournament.matches import MAX_SCORE
from service.tournament.standings import MAX_RESULTS

DOC = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())


def properties(node: Any, path: str = "") -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every (path, property name, schema) in the document."""
    if isinstance(node, dict):
        for name, schema in (node.get("properties") or {}).items():
            if isinstance(schema, dict):
                yield f"{path}/properties/{name}", name, schema
        for key, value in node.items():
            yield from properties(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from properties(value, f"{path}/{i}")


def named(name: str) -> list[tuple[str, dict[str, Any]]]:
    found = [(path, schema) for path, n, schema in properties(DOC) if n == name]
    assert found, f"no property {name!r} in openapi.yaml"
    return found


def test_every_claim_is_0_to_max_claim() -> None:
    checked = 0
    for path, schema in named("claim"):
        if schema.get("type") == "integer":  # (a response's `claim` is the ruling, an object)
            assert (schema["minimum"], schema["maximum"]) == (0, MAX_CLAIM), path
            checked += 1
    assert checked >= 2
    claim = DOC["components"]["schemas"]["Claim"]
    assert (claim["minimum"], claim["maximum"]) == (0, MAX_CLAIM)


def test_every_muggins_call_is_1_to_max_claim() -> None:
    for path, schema in named("muggins_called"):
        assert (schema["minimum"], schema["maximum"]) == (1, MAX_CLAIM), path


def test_players_and_targets() -> None:
    for path, schema in named("players"):
        if schema.get("type") == "integer":
            assert (schema["minimum"], schema["maximum"]) == (min(PLAYERS), max(PLAYERS)), path
            assert schema.get("enum", list(PLAYERS)) == list(PLAYERS), path
    for path, schema in named("target"):
        if schema.get("type") == "integer":
            assert sorted(schema["enum"]) == sorted(TARGETS), path


@pytest.mark.parametrize("schema_name, field, bound", [
    ("GameState", "actions", MAX_ACTIONS),
    ("PeggingScoreRequest", "plays", MAX_PLAYS),
])
def test_array_bounds(schema_name: str, field: str, bound: int) -> None:
    assert DOC["components"]["schemas"][schema_name]["properties"][field]["maxItems"] == bound


def test_state_and_token_bounds() -> None:
    state = DOC["components"]["schemas"]["GameState"]["properties"]
    assert state["seq"]["maximum"] == MAX_SEQ
    assert state["deal"]["maximum"] == MAX_DEALS
    assert DOC["components"]["schemas"]["SealedState"]["maxLength"] == MAX_TOKEN
    seeds = [schema for _, schema in named("seed") if schema.get("type") == ["string", "null"]]
    assert seeds and all((s["minLength"], s["maxLength"]) == SEED_LENGTH for s in seeds)


def test_batch_standings_and_match_bounds() -> None:
    assert any(schema.get("maxItems") == MAX_ITEMS for _, schema in named("items"))
    assert any(schema.get("maxItems") == MAX_RESULTS for _, schema in named("results"))
    for path, schema in named("scores"):
        items = schema.get("items", {})
        if items.get("type") == "integer" and "GameEntry" in path:
            assert items["maximum"] == MAX_SCORE, path
