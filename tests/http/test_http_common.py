"""What every endpoint shares: errors, limits, request id, health, docs, the spec."""

from __future__ import annotations

import io

import falcon
import falcon.testing
import pytest
import yaml
from conftest import ROOT, fields, problem
from openapi_spec_validator import validate

from service.app import create_app
from service.core.cards import CARD_PATTERN

URL = "/v1/hands/score"
GOOD = b'{"cards": ["5H","5C","5S","JD"], "starter": "5D"}'


# --- health, spec, docs -------------------------------------------------------


def test_healthz(client):
    r = client.simulate_get("/healthz")
    assert r.status_code == 200
    assert r.json == {"status": "ok"}
    assert r.headers["content-type"] == "application/json"
    assert r.headers["x-request-id"]


def test_openapi_yaml_is_served_and_valid(client):
    r = client.simulate_get("/openapi.yaml")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/yaml")
    assert r.content == (ROOT / "openapi.yaml").read_bytes()
    spec = yaml.safe_load(r.text)
    validate(spec)
    assert spec["openapi"] == "3.1.0"


def test_openapi_documents_every_route(app):
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    for path, method in [("/v1/hands/score", "post"), ("/healthz", "get"), ("/openapi.yaml", "get"),
                         ("/docs", "get"), ("/metrics", "get")]:
        operation = spec["paths"][path][method]
        for status in ("405", "500"):
            assert status in operation["responses"], (path, status)
    statuses = spec["paths"]["/v1/hands/score"]["post"]["responses"]
    assert {"200", "400", "405", "413", "415", "422", "500"} <= set(statuses)


def test_card_pattern_matches_the_schema_field():
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    assert spec["components"]["schemas"]["Card"]["pattern"] == CARD_PATTERN


def test_openapi_examples_score_as_documented(client):
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    operation = spec["paths"]["/v1/hands/score"]["post"]
    requests = operation["requestBody"]["content"]["application/json"]["examples"]
    responses = operation["responses"]["200"]["content"]["application/json"]["examples"]
    assert {"twentyNine", "doubleRun", "cribFlush"} <= set(responses)
    for name, example in requests.items():
        r = client.simulate_post(URL, json=example["value"])
        assert r.status_code == 200, (name, r.text)
        if name in responses:
            assert r.json == responses[name]["value"], name


def test_docs_page_works_offline(client):
    r = client.simulate_get("/docs")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    html = r.text
    assert 'url: "/openapi.yaml"' in html
    assert "http://" not in html and "https://" not in html  # nothing from the internet
    for asset in ("/docs/static/swagger-ui-bundle.js", "/docs/static/swagger-ui.css",
                  "/docs/static/swagger-ui-standalone-preset.js"):
        assert asset in html
        a = client.simulate_get(asset)
        assert a.status_code == 200, asset
        assert len(a.content) > 1000


def test_docs_swagger_ui_supports_openapi_31():
    from service.http.resources.meta import swagger_ui_dir

    # Swagger UI 4.x (the original swagger-ui-bundle) refuses `openapi: 3.1.0`.
    name = swagger_ui_dir().name  # e.g. swagger-ui-5.31.0
    assert name.startswith("swagger-ui-")
    assert int(name.removeprefix("swagger-ui-").split(".")[0]) >= 5


def test_metrics(client):
    client.simulate_get("/healthz")
    r = client.simulate_get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    assert 'cribbage_http_requests_total{method="GET",route="/healthz",status="200"}' in r.text
    assert "cribbage_http_request_duration_seconds_bucket" in r.text


def test_metrics_labels_are_bounded(client):
    client.simulate_get("/docs/static/swagger-ui.css")
    client.simulate_get("/no/such/path/123")
    text = client.simulate_get("/metrics").text
    assert 'route="/docs/static/{file}",status="200"' in text
    assert 'route="unmatched",status="404"' in text
    assert "swagger-ui.css" not in text and "/no/such/path" not in text


# --- errors are problem+json ----------------------------------------------------


def test_404_is_a_problem(client):
    body = problem(client.simulate_get("/no/such/thing"), 404)
    assert body["type"] == "https://cribbage.example/problems/not-found"
    assert body["instance"] == "/no/such/thing"
    assert body["errors"] == []


def test_404_under_static_is_a_problem(client):
    problem(client.simulate_get("/docs/static/nope.js"), 404)


@pytest.mark.parametrize(("method", "path"), [("DELETE", URL), ("PUT", URL), ("POST", "/healthz"), ("PATCH", "/docs")])
def test_405_is_a_problem_with_allow(client, method, path):
    r = client.simulate_request(method, path)
    body = problem(r, 405)
    assert body["type"] == "https://cribbage.example/problems/method-not-allowed"
    assert r.headers["allow"]
    assert method in body["detail"]


def test_problem_ignores_accept(client):
    r = client.simulate_get("/nope", headers={"Accept": "application/xml"})
    problem(r, 404)


def test_unexpected_exception_is_a_500_problem_without_traceback():
    app = create_app()

    class Boom:
        def on_get(self, req, resp):
            raise RuntimeError("secret internals")

    app.add_route("/boom", Boom())
    r = falcon.testing.TestClient(app).simulate_get("/boom")
    body = problem(r, 500)
    assert body["type"] == "https://cribbage.example/problems/internal-error"
    assert "secret" not in r.text and "Traceback" not in r.text


def test_core_illegal_error_is_422_with_rule_and_legal():
    from service.core.errors import IllegalError

    app = create_app()

    class Renege:
        def on_post(self, req, resp):
            raise IllegalError("you can play 5H", rule="go_while_able", legal=["5H", "AC"], field="cards/0")

    app.add_route("/renege", Renege())
    r = falcon.testing.TestClient(app).simulate_post("/renege", json={})
    body = problem(r, 422)
    assert body["type"] == "https://cribbage.example/problems/rule-violation"
    assert body["rule"] == "go_while_able"
    assert body["legal"] == ["5H", "AC"]
    assert body["errors"] == [{"field": "/cards/0", "reason": "you can play 5H"}]


def test_core_malformed_error_is_422_naming_the_field():
    from service.core.errors import MalformedError

    app = create_app()

    class Bad:
        def on_post(self, req, resp):
            raise MalformedError("a hand has 4 cards", field="cards")

    app.add_route("/bad", Bad())
    body = problem(falcon.testing.TestClient(app).simulate_post("/bad", json={}), 422)
    assert body["type"] == "https://cribbage.example/problems/invalid-request"
    assert fields(body) == ["/cards"]


def test_invalid_content_length_is_400(app):
    # wsgiref's validator (used by TestClient) refuses such a request: call the app directly.
    env = falcon.testing.create_environ(URL, method="POST", body=GOOD,
                                        headers={"Content-Type": "application/json"})
    env["CONTENT_LENGTH"] = "abc"
    seen = {}

    def start_response(status, headers, exc_info=None):
        seen["status"], seen["headers"] = status, dict((k.lower(), v) for k, v in headers)

    body = b"".join(app(env, start_response))
    assert seen["status"].startswith("400")
    assert seen["headers"]["content-type"] == "application/problem+json"
    assert seen["headers"]["x-request-id"]
    assert b"Content-Length" in body


# --- request id -------------------------------------------------------------------


def test_request_id_is_echoed(client):
    r = client.simulate_get("/healthz", headers={"X-Request-ID": "abc-123.x"})
    assert r.headers["x-request-id"] == "abc-123.x"


@pytest.mark.parametrize("bad", ["", " ", "a" * 200, "bad id", "ünïcode", "-leading-dash"])
def test_insane_request_id_is_replaced(client, bad):
    r = client.simulate_get("/healthz", headers={"X-Request-ID": bad})
    rid = r.headers["x-request-id"]
    assert rid != bad and len(rid) == 32


def test_request_id_on_errors_and_in_the_problem(client):
    r = client.simulate_post(URL, body=b"{", headers={"X-Request-ID": "trace-7", "Content-Type": "application/json"})
    body = problem(r, 400)
    assert r.headers["x-request-id"] == "trace-7" == body["request_id"]


def test_request_ids_are_unique(client):
    ids = {client.simulate_get("/healthz").headers["x-request-id"] for _ in range(20)}
    assert len(ids) == 20


def test_cors(client):
    r = client.simulate_post(URL, body=GOOD, headers={"Origin": "https://example.org",
                                                      "Content-Type": "application/json"})
    assert r.status_code == 200
    assert r.headers["access-control-allow-origin"] == "*"
    assert "x-request-id" in r.headers["access-control-expose-headers"].lower()
    pre = client.simulate_options(URL, headers={"Origin": "https://example.org",
                                                "Access-Control-Request-Method": "POST"})
    assert pre.status_code == 200
    assert "POST" in pre.headers["access-control-allow-methods"]


# --- body size limit ----------------------------------------------------------------


def test_413_from_content_length(client):
    big = b'{"pad": "' + b"x" * 70_000 + b'"}'
    body = problem(client.simulate_post(URL, body=big, headers={"Content-Type": "application/json"}), 413)
    assert body["type"] == "https://cribbage.example/problems/content-too-large"
    assert "65536" in body["detail"]


class _Trickle(io.RawIOBase):
    """A body without a length: yields ``total`` bytes in small reads, counting them."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        n = len(self.data) - self.pos if n is None or n < 0 else min(n, 1000)
        chunk = self.data[self.pos:self.pos + n]
        self.pos += len(chunk)
        return chunk


def _chunked(client, data: bytes):
    stream = _Trickle(data)
    result = client.simulate_post(
        URL,
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        extras={"wsgi.input": stream, "CONTENT_LENGTH": ""},
    )
    return result, stream


def test_413_for_chunked_body_without_length_reads_at_most_limit_plus_one(client):
    data = b'{"pad": "' + b"x" * 1_000_000 + b'"}'
    r, stream = _chunked(client, data)
    body = problem(r, 413)
    assert body["type"] == "https://cribbage.example/problems/content-too-large"
    assert stream.pos == 65536 + 1


def test_small_chunked_body_is_read(client):
    r, _ = _chunked(client, GOOD)
    assert r.status_code == 200, r.text
    assert r.json["total"] == 29


def test_limit_is_configurable(monkeypatch):
    monkeypatch.setenv("CRIBBAGE_MAX_BODY_BYTES", "40")
    c = falcon.testing.TestClient(create_app())
    problem(c.simulate_post(URL, body=GOOD, headers={"Content-Type": "application/json"}), 413)
    c = falcon.testing.TestClient(create_app(max_body_bytes=len(GOOD)))
    assert c.simulate_post(URL, body=GOOD, headers={"Content-Type": "application/json"}).status_code == 200


# --- the lean paths give what marshmallow's full path gives -------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from service.http.resources.pegging import GoRequest, PeggingScoreRequest  # noqa: E402
from service.http.schemas import HandScoreRequest, LeanSchema  # noqa: E402

_SPELLINGS = ["5H", "5h", " 5h\t", "10H", "TH", "th", "1c", "AC", "K♠", "q♢", "JD", "5D", "5H\n", "XX", "11S", ""]
_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2, 40), st.floats(allow_nan=False), st.sampled_from(_SPELLINGS)),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.sampled_from(["seat", "card", "go", "x"]), inner,
                                                                max_size=4),
    max_leaves=12,
)
_KEYS = ["cards", "starter", "crib", "players", "pone", "plays", "hands", "complete", "tournament", "count",
         "count_cards", "hand", "colour"]


def _full_load(schema, data):
    lean, schema._lean = schema._lean, None
    try:
        return ("ok", schema.load(data))
    except Exception as err:  # noqa: BLE001 -- compared below
        return ("error", type(err).__name__, getattr(err, "messages", str(err)))
    finally:
        schema._lean = lean


def _lean_load(schema, data):
    try:
        return ("ok", schema.load(data))
    except Exception as err:  # noqa: BLE001
        return ("error", type(err).__name__, getattr(err, "messages", str(err)))


@pytest.mark.parametrize("schema", [HandScoreRequest(), PeggingScoreRequest(), GoRequest()],
                         ids=lambda s: type(s).__name__)
@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_lean_load_is_schema_load(schema, data):
    assert isinstance(schema, LeanSchema) and schema._lean is not None
    body = data.draw(st.dictionaries(st.sampled_from(_KEYS), _VALUES, max_size=6))
    assert _lean_load(schema, body) == _full_load(schema, body)


@pytest.mark.parametrize("body", [
    {"cards": ["5H", "5C", "5S", "JD"], "starter": "5D"},
    {"cards": ["10h", "tc", "5♥", "K♠"], "starter": " as", "crib": True},
    {"cards": ["5H", "5C", "5S", "JD"], "starter": "5h"},
    {"cards": ["5H", "5C", "5S"], "starter": "5D", "colour": 1},
])
def test_lean_load_is_schema_load_for_hands(body):
    schema = HandScoreRequest()
    assert _lean_load(schema, body) == _full_load(schema, body)


# --- metrics: one buffered row a request, written in bulk ---------------------------


def test_buffered_metrics_write_what_observe_would():
    from prometheus_client import CollectorRegistry, Histogram, generate_latest

    from service.http import metrics

    seconds = [0.0001, 0.0005, 0.0007, 0.001, 0.003, 0.2, 0.99, 1.0, 3.0, 0.0005]
    for s in seconds:
        metrics.observe("POST", "/test/buffered", 200, s)
    metrics.observe("BREW", None, 418, 0.01)
    metrics.flush()
    text = metrics.exposition()[0].decode()

    registry = CollectorRegistry()
    direct = Histogram("cribbage_http_request_duration_seconds", "x", ("method", "route"),
                       buckets=metrics.BUCKETS, registry=registry)
    for s in seconds:
        direct.labels("POST", "/test/buffered").observe(s)
    def samples(text):  # buckets, count and sum (not _created, a time stamp)
        return [l for l in text.splitlines() if "/test/buffered" in l and l.startswith(
            ("cribbage_http_request_duration_seconds_bucket", "cribbage_http_request_duration_seconds_count",
             "cribbage_http_request_duration_seconds_sum"))]

    expected, got = samples(generate_latest(registry).decode()), samples(text)
    assert len(expected) == len(metrics.BUCKETS) + 3
    assert got == expected
    assert 'cribbage_http_requests_total{method="POST",route="/test/buffered",status="200"} 10.0' in text
    assert 'cribbage_http_requests_total{method="OTHER",route="unmatched",status="418"} 1.0' in text


def test_metrics_buffer_is_written_at_the_scrape(client):
    for _ in range(3):
        client.simulate_get("/openapi.yaml")
    text = client.simulate_get("/metrics").text
    line = next(l for l in text.splitlines()
                if l.startswith('cribbage_http_requests_total{method="GET",route="/openapi.yaml",status="200"}'))
    assert float(line.split()[-1]) >= 3


def test_an_error_echoes_a_bounded_prefix_of_a_bad_value(client):
    """A 40,000-character card was quoted whole in the reason and again in the detail (an 80 kB 422); now
    every quoted field, reason and detail is cut to ECHO_LIMIT characters, the cut said."""
    from service.http.problems import ECHO_LIMIT

    card = "Z" * 40_000
    got = client.simulate_post("/v1/hands/score", json={"cards": [card, "5C", "5S", "JD"], "starter": "5D"})
    body = problem(got, 422)
    assert len(got.content) < 8 * ECHO_LIMIT, len(got.content)
    reasons = [e["reason"] for e in body["errors"]]
    assert any("ZZZZ" in r and "(cut: " in r for r in reasons), reasons
    assert all(len(r) <= ECHO_LIMIT + 40 for r in reasons) and len(body["detail"]) <= ECHO_LIMIT + 40


@pytest.mark.parametrize("raw, field", [
    (b'{"cards": ["5H", "5C", "5S", "JD"], "starter": "5D", "starter": "JH"}', "/starter"),
    (b'{"cards": ["5H", "5C", "5S", "JD"], "starter": "5D", "crib": false, "crib": true}', "/crib"),
    (b'{"cards": ["5H", "5C", "5S", "JD"], "starter": "5D", "x": [1, {"a": 1, "a": 2}]}', "/x/1/a"),
])
def test_a_key_given_twice_is_a_422_naming_it(client, raw, field):
    """JSON parsers keep the last of two values silently; the service says which key came twice (and
    where) rather than read one of them."""
    got = client.simulate_post("/v1/hands/score", body=raw, headers={"Content-Type": "application/json"})
    body = problem(got, 422)
    assert fields(body) == [field], body
    assert "more than once" in body["errors"][0]["reason"]


def test_deep_nesting_without_duplicates_is_read_as_before(client):
    """Past the standard parser's stack (1,000 levels; orjson's limit is 1,024) the duplicate check gives
    way to the schema: its 422 for the unknown field, not a crash."""
    raw = b'{"cards": ["5H", "5C", "5S", "JD"], "starter": "5D", "x": ' + b"[" * 1000 + b"]" * 1000 + b"}"
    got = client.simulate_post("/v1/hands/score", body=raw, headers={"Content-Type": "application/json"})
    assert fields(problem(got, 422)) == ["/x"]
