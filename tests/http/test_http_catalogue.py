"""GET /v1/bots, the bot catalogue, in-process: the answer, its schema, its levels, its example in
openapi.yaml (tools/live_examples.py writes it), caching by ETag, HEAD and a 405 for other methods."""

from __future__ import annotations

import gzip
from pathlib import Path

import falcon.testing
import pytest
import yaml
from conftest import problem
from openapi_schema_validator import OAS31Validator

from service.advice import bot
from service.app import create_app

ROOT = Path(__file__).resolve().parents[2]
DOC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
OP = DOC["paths"]["/v1/bots"]["get"]
MEDIA = OP["responses"]["200"]["content"]["application/json"]
VALIDATOR = OAS31Validator({**DOC, "allOf": [MEDIA["schema"]]})


@pytest.fixture(scope="module")
def client():
    return falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))


def test_the_catalogue(client):
    r = client.simulate_get("/v1/bots")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    assert r.headers["cache-control"] == "no-cache"
    assert r.headers["etag"].startswith('"')
    VALIDATOR.validate(r.json)
    assert tuple(lv["level"] for lv in r.json["levels"]) == bot.LEVELS
    for lv in r.json["levels"]:
        assert lv["strength"] and lv["costs"]


def test_the_example_is_the_live_answer(client):
    VALIDATOR.validate(MEDIA["example"])
    assert client.simulate_get("/v1/bots").json == MEDIA["example"]


def test_the_level_enums_are_the_bots():
    schemas = DOC["components"]["schemas"]
    assert tuple(schemas["BotLevel"]["properties"]["level"]["enum"]) == bot.LEVELS
    for name in ("level", "opponent"):
        assert tuple(schemas["BotStrength"]["properties"][name]["enum"]) == bot.LEVELS


def test_if_none_match_is_a_304(client):
    for encoding in ("identity", "gzip"):
        r = client.simulate_get("/v1/bots", headers={"Accept-Encoding": encoding})
        etag = r.headers["etag"]
        if encoding == "gzip":
            assert r.headers["content-encoding"] == "gzip" and etag.endswith('-gzip"')
            assert gzip.decompress(r.content) == client.simulate_get("/v1/bots").content
        again = client.simulate_get("/v1/bots", headers={"Accept-Encoding": encoding, "If-None-Match": etag})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["etag"] == etag
        other = client.simulate_get("/v1/bots", headers={"Accept-Encoding": encoding, "If-None-Match": '"x"'})
        assert other.status_code == 200


def test_no_gzip_when_the_app_compresses_nothing():
    plain = falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False, gzip_min_bytes=0))
    r = plain.simulate_get("/v1/bots", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and "content-encoding" not in r.headers
    assert not r.headers["etag"].endswith('-gzip"')
    VALIDATOR.validate(r.json)


def test_head_answers_as_get(client):
    got = client.simulate_get("/v1/bots")
    head = client.simulate_head("/v1/bots")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["etag"] == got.headers["etag"]
    assert head.headers["content-length"] == str(len(got.content))
    assert DOC["paths"]["/v1/bots"]["head"]["operationId"] == "headBots"


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_other_methods_are_405(client, method):
    r = client.simulate_request(method, "/v1/bots", json={})
    body = problem(r, 405)
    assert body["type"].endswith("/method-not-allowed")
    assert "GET" in r.headers["allow"]
