"""openapi.yaml's examples of the judged claims, the batch and the tournament
operations are what the service answers, and fit their schemas."""

from __future__ import annotations

import pathlib

import falcon.testing
import pytest
import yaml
from openapi_schema_validator import OAS31Validator

from service.app import create_app

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
PATHS = {op["operationId"]: path for path, item in DOC["paths"].items() for op in item.values()
         if isinstance(op, dict) and "operationId" in op}
OPERATIONS = ("scoreHand", "scorePegging", "scoreHandBatch", "scoreMatch", "tournamentStandings",
              "tournamentBracket")
NEW = ("scoreHandBatch", "scoreMatch", "tournamentStandings", "tournamentBracket")


def _resolve(node):
    while isinstance(node, dict) and "$ref" in node:
        target = DOC
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def _validator(node):
    return OAS31Validator({**DOC, "allOf": [node]})


@pytest.mark.parametrize("op_id", OPERATIONS)
def test_examples_are_real(op_id):
    client = falcon.testing.TestClient(create_app(collect_metrics=False))
    op = DOC["paths"][PATHS[op_id]]["post"]
    media = op["requestBody"]["content"]["application/json"]
    request_validator = _validator(media["schema"])
    ok = _resolve(op["responses"]["200"])["content"]["application/json"]
    response_validator = _validator(ok["schema"])
    answers = ok.get("examples", {})
    compared = 0
    for name, example in media["examples"].items():
        request_validator.validate(example["value"])
        got = client.simulate_post(PATHS[op_id], json=example["value"])
        assert got.status_code == 200, (name, got.text)
        response_validator.validate(got.json)
        if name in answers:
            assert got.json == answers[name]["value"], name
            compared += 1
    for example in answers.values():
        response_validator.validate(example["value"])
    assert compared >= 1


@pytest.mark.parametrize("op_id", NEW)
def test_every_status_is_documented(op_id):
    responses = DOC["paths"][PATHS[op_id]]["post"]["responses"]
    # 408, 414, 431 and 503 are the gunicorn worker's, on every operation (tests/system/test_hostile.py)
    assert set(responses) == {"200", "400", "405", "413", "415", "422", "500", "408", "414", "431", "503"}


def test_the_issue_examples_are_documented():
    """A judged under-claim with muggins, a batch with one bad item, a best-of-3, a 108-entrant bracket."""
    def example(op_id, name):
        return DOC["paths"][PATHS[op_id]]["post"]["requestBody"]["content"]["application/json"]["examples"][name]

    assert example("scoreHand", "mugginsUnderClaim")["value"]["muggins"] is True
    assert example("scoreHandBatch", "oneBadItem")
    assert example("scoreMatch", "bestOfThree")["value"]["best_of"] == 3
    assert example("tournamentBracket", "acc108")["value"]["entrants"] == 108
