"""The bot's reasons are typed records (service/advice/reasons.py), written as JSON only by the boundary.

Over the decisions of random games (2, 3 and 4 players, muggins, every level):
each reason is one of the record types, never a dict; its JSON matches
exactly one of the contract's reason schemas (openapi.yaml ``Suggestion.reason``
is a oneOf), and that schema is the one this test expects for the record's
type (the table below, written from the contract, not from the code); the
phase it names is the phase the decision was taken in.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

import service.advice.bot as bot_module
from service.advice import bot, reasons
from service.boundary.advice import reason_json
from service.core.claims import MAX_CLAIM
from service.core.game import Phase, apply_action, legal, new_game
from service.core.options import GameOptions

DOC = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
SCHEMAS = [ref["$ref"].rsplit("/", 1)[1]
           for ref in DOC["components"]["schemas"]["Suggestion"]["properties"]["reason"]["oneOf"]]
EXPECTED = {reasons.Routine: "ReasonRoutine", reasons.Counting: "ReasonCounting", reasons.Forced: "ReasonForced",
            reasons.GreedyDiscard: "ReasonGreedyDiscard", reasons.TunedDiscard: "ReasonTunedDiscard",
            reasons.GreedyPlay: "ReasonGreedyPlay", reasons.AdvisedPlay: "ReasonAdvisedPlay",
            reasons.ForTheGame: "ReasonForTheGame"}


def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator({**DOC, "$ref": f"#/components/schemas/{name}"})


VALIDATORS = {name: _validator(name) for name in SCHEMAS}


@pytest.fixture()
def few_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_module, "BOT_SAMPLES", 3)
    monkeypatch.setattr(bot_module, "BOARD", bot_module.BoardPlay(samples=4, refine=4, play_samples=4))


def _decisions() -> list[tuple[Phase, Any]]:
    out = []
    for mix, options in enumerate([GameOptions(), GameOptions(players=3), GameOptions(players=4),
                                   GameOptions(muggins=True, target=61), GameOptions(target=61)]):
        rng = random.Random(f"reasons-{mix}")
        state, _ = new_game(options, deck_seed="%032x" % rng.getrandbits(128), game_id="%032x" % rng.getrandbits(128))
        while state.phase is not Phase.OVER and state.deal <= 4:
            for seat in state.to_act():
                for level in ("greedy", "strong", "board"):
                    out.append((state.phase, bot.suggest(bot.seat_view(state, seat), level).reason))
            state, _ = apply_action(state, rng.choice(legal(state)))
    return out


def test_every_reason_is_a_record_that_matches_its_one_schema(few_samples: None) -> None:
    seen: set[type] = set()
    for phase, reason in _decisions():
        assert type(reason) in EXPECTED, reason  # a record, never a dict
        seen.add(type(reason))
        document = reason_json(reason)
        matching = [name for name, v in VALIDATORS.items() if v.is_valid(document)]
        assert matching == [EXPECTED[type(reason)]], (document, matching)
        assert document["phase"] == phase
        assert next(iter(document)) == "phase"  # the phase first, as the contract's examples write it
    # every way of choosing occurs (the board level plays for the game from the start of a 61 game)
    assert seen == set(EXPECTED), set(EXPECTED) - seen


def test_the_contract_lists_every_reason_once() -> None:
    assert sorted(SCHEMAS) == sorted(EXPECTED.values())
    counting = DOC["components"]["schemas"]["ReasonCounting"]["properties"]["points"]
    assert (counting["minimum"], counting["maximum"]) == (0, MAX_CLAIM)  # the points claimed: a claim


def test_the_schemas_exclude_each_other() -> None:
    """A reason missing what makes it its kind matches no schema (oneOf stays decidable for clients)."""
    tuned = {"phase": "discard", "model": "tuned", "own_crib": True, "hand_mean": 8.0, "crib_mean": 4.0,
             "net": 12.0, "runner_up_net": None}
    assert [n for n, v in VALIDATORS.items() if v.is_valid(tuned)] == ["ReasonTunedDiscard"]
    del tuned["model"]
    assert not any(v.is_valid(tuned) for v in VALIDATORS.values())
    assert not any(v.is_valid({"phase": "play"}) for v in VALIDATORS.values())  # a play always says why
    assert [n for n, v in VALIDATORS.items() if v.is_valid({"phase": "cut"})] == ["ReasonRoutine"]
