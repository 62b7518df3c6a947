"""A request body with a Content-Encoding the service does not read (issue 28, item 5(d)).

The service reads no content coding: a body sent with ``Content-Encoding: gzip``
(``br``, ``deflate``, anything but ``identity``) is a 415 problem
``unsupported-content-encoding`` naming the header and the codings read, with
``Accept-Encoding: identity`` (RFC 9110 15.5.16, RFC 7694), written by the one
problem writer (CORS, X-Request-ID).  Before: a gzipped body was a 400
``malformed-json`` and a plain body under ``Content-Encoding: br`` a 200.
"""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

import falcon.testing
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from service.app import create_app

ROOT = Path(__file__).resolve().parents[2]
DOC = yaml.safe_load((ROOT / "openapi.yaml").read_text())
URL = "/v1/hands/score"
GOOD = b'{"cards": ["5H","5C","5S","JD"], "starter": "5D"}'
TYPE = "https://cribbage.example/problems/unsupported-content-encoding"
BROWSER = {"Origin": "https://table.example", "X-Request-ID": "ce-1"}


@pytest.fixture(scope="module")
def client():
    return falcon.testing.TestClient(create_app())


def _refused(r, header: str) -> dict:
    assert r.status_code == 415, r.text
    assert r.headers["content-type"] == "application/problem+json"
    assert r.headers["accept-encoding"] == "identity"
    body = r.json
    assert body["type"] == TYPE and body["status"] == 415
    assert body["header"] == "Content-Encoding" and body["read_encodings"] == ["identity"]
    assert repr(header) in body["detail"] and body["errors"][0]["field"] == ""
    return body


@pytest.mark.parametrize(("coding", "data"), [
    ("gzip", gzip.compress(GOOD)), ("x-gzip", gzip.compress(GOOD)), ("deflate", zlib.compress(GOOD)),
    ("br", GOOD), ("compress", GOOD), ("zstd", GOOD), ("x-unknown", GOOD), ("GZIP", GOOD),
    ("identity, gzip", GOOD), ("gzip, identity", GOOD),
])
def test_an_encoded_body_is_415(client, coding, data):
    r = client.simulate_post(URL, body=data, headers={"Content-Type": "application/json",
                                                       "Content-Encoding": coding, **BROWSER})
    _refused(r, coding)
    # the one problem writer's headers, as every other problem carries them
    assert r.headers["x-request-id"] == "ce-1" == r.json["request_id"]
    assert r.headers["access-control-allow-origin"] == "*"
    assert r.headers["access-control-expose-headers"] == "X-Request-ID"


@pytest.mark.parametrize("coding", ["identity", "IDENTITY", " identity ", "", "identity, identity"])
def test_identity_or_no_coding_is_read(client, coding):
    r = client.simulate_post(URL, body=GOOD, headers={"Content-Encoding": coding})
    assert r.status_code == 200, r.text
    assert r.json["total"] == 29


def test_a_request_without_a_body_is_not_refused_for_its_coding(client):
    assert client.simulate_get("/healthz", headers={"Content-Encoding": "gzip"}).status_code == 200
    r = client.simulate_post(URL, headers={"Content-Encoding": "gzip"})  # no body: the empty body's 400
    assert r.status_code == 400 and r.json["type"].endswith("/empty-body")


def test_the_coding_is_checked_before_the_body_limit_and_the_media_type(client):
    """The header alone decides: a gzipped body over the limit, or with another type, is this 415."""
    r = client.simulate_post(URL, body=b"x" * 70_000, headers={"Content-Encoding": "gzip"})
    _refused(r, "gzip")
    r = client.simulate_post(URL, body=GOOD, headers={"Content-Encoding": "br", "Content-Type": "text/plain"})
    _refused(r, "br")


def test_a_long_coding_is_quoted_bounded(client):
    coding = "x" * 5000
    r = client.simulate_post(URL, body=GOOD, headers={"Content-Encoding": coding})
    assert r.status_code == 415 and len(r.json["detail"]) < 400


TOKEN = st.sampled_from(["identity", "IDENTITY", "Identity", "", " ", "gzip", "br", "deflate", "x-y", "zstd"])


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(TOKEN, min_size=1, max_size=4))
def test_refused_exactly_when_some_coding_is_not_identity(client, tokens):
    """Reference, written apart from the code: RFC 9110's list of codings, case-insensitive,
    empty members ignored; read only when every member is identity."""
    header = ",".join(tokens)
    read = all(t.strip().casefold() in ("identity", "") for t in tokens)
    r = client.simulate_post(URL, body=GOOD, headers={"Content-Encoding": header})
    assert r.status_code == (200 if read else 415), (header, r.text)


def _operations_with_a_body():
    for path, item in DOC["paths"].items():
        for method, op in item.items():
            if isinstance(op, dict) and "requestBody" in op:
                yield path, method, op


def test_every_operation_with_a_body_documents_the_415():
    ops = list(_operations_with_a_body())
    assert ops
    for path, method, op in ops:
        ref = op["responses"]["415"]["$ref"]
        assert ref == "#/components/responses/UnsupportedMediaType", (path, method)


def test_the_documented_example_is_the_answer(client):
    documented = DOC["components"]["responses"]["UnsupportedMediaType"]
    example = documented["content"]["application/problem+json"]["examples"]["contentEncoding"]["value"]
    r = client.simulate_post(example["instance"], body=gzip.compress(GOOD),
                             headers={"Content-Encoding": "gzip", "X-Request-ID": example["request_id"]})
    assert r.json == example
    assert set(documented["headers"]) <= {h.title() if h != "x-request-id" else "X-Request-ID"
                                          for h in r.headers}


@pytest.mark.parametrize(("path", "method"), [(p, m) for p, m, _ in _operations_with_a_body()])
def test_every_operation_with_a_body_refuses_an_encoded_one(client, path, method):
    r = client.simulate_request(method.upper(), path.replace("{slug}", "x"), body=b"{}",
                                headers={"Content-Encoding": "gzip"})
    _refused(r, "gzip")
