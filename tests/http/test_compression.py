"""gzip answers (service/http/compression.py): only when accepted, large enough and text-like.

The decompressed body is compared with the same request's answer to a client
that does not accept gzip, with Python's own :mod:`gzip` reader.
"""

from __future__ import annotations

import gzip

import falcon.testing
import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.app import create_app
from service.http.compression import DEFAULT_MIN_SIZE, accepts_gzip

HAND = {"cards": ["2C", "4D", "6H", "8S"], "starter": "TC", "crib": False}


@pytest.fixture(scope="module")
def client():
    return falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))


def _vary(r) -> list[str]:
    return [v.strip().lower() for v in r.headers.get("vary", "").split(",") if v.strip()]


def _a_game_answer(client) -> tuple[dict, dict]:
    """A request body for /v1/games/advance whose answer is over the threshold."""
    start = client.simulate_post("/v1/games", json={"dealer": 0}).json
    body = {"state": start["state"], "action": start["legal_actions"][0]}
    for _ in range(12):
        r = client.simulate_post("/v1/games/advance", json=body)
        assert r.status_code == 200, r.text
        body = {"state": r.json["state"], "action": r.json["legal_actions"][0]}
    return body, r.json


def test_a_large_answer_is_gzipped_when_accepted(client):
    body, _ = _a_game_answer(client)
    plain = client.simulate_post("/v1/games/advance", json=body)
    packed = client.simulate_post("/v1/games/advance", json=body, headers={"Accept-Encoding": "gzip, br"})
    assert len(plain.content) >= DEFAULT_MIN_SIZE
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) == len(packed.content) < len(plain.content) / 1.5
    assert gzip.decompress(packed.content) == plain.content
    assert packed.headers["content-type"] == plain.headers["content-type"] == "application/json"
    assert "accept-encoding" in _vary(plain) and "accept-encoding" in _vary(packed)


@pytest.mark.parametrize("path", ["/openapi.yaml", "/metrics", "/problems/rule-violation"])
def test_documents_are_gzipped(client, path):
    plain = client.simulate_get(path)
    packed = client.simulate_get(path, headers={"Accept-Encoding": "gzip"})
    if len(plain.content) < DEFAULT_MIN_SIZE:
        pytest.skip(f"{path} is {len(plain.content)} bytes")
    assert packed.headers["content-encoding"] == "gzip"
    if path != "/metrics":  # the metrics move between the two requests
        assert gzip.decompress(packed.content) == plain.content


def test_a_small_answer_is_sent_as_is_but_varies(client):
    r = client.simulate_post("/v1/hands/score", json=HAND, headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and len(r.content) < DEFAULT_MIN_SIZE
    assert "content-encoding" not in r.headers
    assert "accept-encoding" in _vary(r)


@pytest.mark.parametrize("accept", [None, "", "identity", "br", "gzip;q=0", "deflate, gzip; q=0", "*;q=0"])
def test_not_gzipped_unless_accepted(client, accept):
    body, _ = _a_game_answer(client)
    headers = {} if accept is None else {"Accept-Encoding": accept}
    r = client.simulate_post("/v1/games/advance", json=body, headers=headers)
    assert r.status_code == 200 and "content-encoding" not in r.headers
    assert r.json["seq"] > 0


def test_static_files_and_other_types_are_left_alone(client):
    r = client.simulate_get("/docs/static/swagger-ui-bundle.js", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and "content-encoding" not in r.headers
    assert "accept-encoding" not in _vary(r)


def test_errors_are_problems_whatever_the_encoding(client):
    r = client.simulate_post("/v1/hands/score", body=b"{", headers={"Accept-Encoding": "gzip",
                                                                    "Content-Type": "application/json"})
    assert r.status_code == 400 and r.headers["content-type"] == "application/problem+json"
    assert r.json["type"].endswith("/malformed-json")


def test_turned_off_with_zero(monkeypatch):
    monkeypatch.setenv("CRIBBAGE_GZIP_MIN_BYTES", "0")
    off = falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))
    r = off.simulate_get("/openapi.yaml", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in r.headers and "vary" not in r.headers


def test_a_lower_threshold_compresses_hand_scores(monkeypatch):
    monkeypatch.setenv("CRIBBAGE_GZIP_MIN_BYTES", "100")
    low = falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))
    plain = low.simulate_post("/v1/hands/score", json=HAND)
    packed = low.simulate_post("/v1/hands/score", json=HAND, headers={"Accept-Encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content


CODINGS = st.sampled_from(["gzip", "x-gzip", "GZip", "br", "deflate", "identity", "*", "zstd"])
Q = st.sampled_from(["", ";q=0", ";q=0.0", ";q=1", ";q=0.5", " ; q=0.001", ";q=x"])


@given(st.lists(st.tuples(CODINGS, Q), max_size=5))
def test_accepts_gzip_follows_rfc_9110(items):
    """gzip is acceptable when its own entry (the first one, gzip or x-gzip) has q > 0;
    without one, when ``*`` has q > 0 (RFC 9110 12.5.3)."""
    header = ", ".join(c + q for c, q in items)

    def q_value(q: str) -> float:
        q = q.replace(" ", "").removeprefix(";q=")
        try:
            return 1.0 if q == "" else float(q)
        except ValueError:
            return 0.0

    own = [q_value(q) for c, q in items if c.lower() in ("gzip", "x-gzip")]
    star = [q_value(q) for c, q in items if c == "*"]
    expected = own[0] > 0 if own else bool(star) and star[-1] > 0
    assert accepts_gzip(header) == expected, header
