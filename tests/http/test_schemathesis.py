"""Property-based API tests: schemathesis drives the WSGI app in-process from openapi.yaml.

Every built-in check runs (``not_a_server_error``, status code, content type,
headers and response schema conformance, ``positive_data_acceptance``,
``negative_data_rejection``, ``unsupported_method`` ...) over four phases:

* examples, coverage and fuzzing, in positive and negative modes, per
  operation (``test_api_conforms``);
* stateful (``test_games_through_links``): the OpenAPI links of the game
  operations chain ``startGame`` -> ``advanceGame`` -> ``advanceGame`` ...
  and ``viewGame`` and ``playBots`` (seat 1's greedy bot, back to ``advanceGame``), each step sending the previous answer's state and its
  first legal action, so real games are played and every answer checked.

The app is the plain one (``create_app(sealer=None)``: no
``CRIBBAGE_STATE_SECRET``), which is what the links and the hooks assume.
JSON Schema cannot mark a card given twice, a state that does not replay or
an illegal action invalid, so ``tests/schemathesis_hooks.py`` (imported by
conftest) replaces every generated positive body of an operation with such
rules by one that is legal by construction (a real game's state and one of
its legal actions, a legal sequence of plays, different cards ...), and
``positive_data_acceptance`` holds for each of them: a legal body the
service refuses fails the test.  Nothing asks the service or its core
whether a body is legal.  Only the positive bodies the examples and coverage
phases derive from the schema for those operations (pytest sends them as
explicit examples, past the hooks) are not held to acceptance, since their
legality is not known; every other check runs on them.

``test_game_examples_are_real`` sends every game example of openapi.yaml to
the service and compares the answer with the documented one, so the
examples stay what the service says (the sealed ones were made with the
test secret below).

After the module a short summary is printed: the cases sent per operation,
phase and mode, the positive cases built legal by construction per
operation (and how many were answered 2xx), and the stateful steps per
operation and status (whether they followed a link, or were built legal),
so a run shows the phases really ran.
"""

from __future__ import annotations

import collections
import copy
import pathlib

import falcon.testing
import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, Phase, given, settings
from openapi_schema_validator import OAS31Validator
from schemathesis.config import SchemathesisConfig

import schemathesis_hooks
from service.app import create_app
from service.seal import Sealer

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE_SECRET = "x" * 32
"""The secret the sealed examples of openapi.yaml were sealed with (a test secret, nothing else)."""

GAME_OPERATIONS = ("startGame", "advanceGame", "viewGame", "replayGame", "contributeToGame", "playBots")

settings.register_profile(
    "api",
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
STATEFUL = settings(
    max_examples=25,
    stateful_step_count=30,
    deadline=None,
    derandomize=True,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)

CONFIG = SchemathesisConfig.from_path(ROOT / "schemathesis.toml")
schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml", config=CONFIG)
# gzip off: schemathesis' WSGI transport sends requests' default "Accept-Encoding:
# gzip, deflate" but does not decode what it gets (tests/http/test_compression.py tests gzip).
schema.app = create_app(sealer=None, gzip_min_bytes=0)

DOC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
PATHS = {op["operationId"]: path for path, item in DOC["paths"].items() for op in item.values()
         if isinstance(op, dict) and "operationId" in op}
OPERATION_IDS = {path: op_id for op_id, path in PATHS.items()}
DOCUMENTED = {f"{method.upper()} {path}" for path, item in DOC["paths"].items() for method in item}

CASES: collections.Counter = collections.Counter()
"""(method and path, phase, mode, status) of every case test_api_conforms sent."""
BUILT: collections.Counter = collections.Counter()
"""(method and path, answered 2xx) of every positive case test_api_conforms sent with a body
built legal by construction."""
STATUSES: collections.Counter = collections.Counter()
"""(operation, status, followed a link) of every stateful step."""
FURTHEST = {"seq": 0}
"""The furthest a stateful chain of advances got into a game (its seq)."""


def test_every_check_and_phase_is_enabled():
    project = schema.config
    for name in ("positive_data_acceptance", "negative_data_rejection", "not_a_server_error",
                 "response_schema_conformance", "status_code_conformance",
                 "content_type_conformance", "response_headers_conformance", "unsupported_method",
                 "use_after_free", "ensure_resource_availability", "missing_required_header",
                 "ignored_auth", "allow_header_conformance"):
        assert project.checks.get_by_name(name=name).enabled, name
    for phase in ("examples", "coverage", "fuzzing", "stateful"):
        assert project.phases.get_by_name(name=phase).enabled, phase


@pytest.fixture(scope="module", autouse=True)
def _report_cases(request):
    """After the module, print what was sent in each phase (shown without -s too)."""
    yield
    lines = []
    if CASES:
        by_path: dict = collections.defaultdict(collections.Counter)
        other: collections.Counter = collections.Counter()
        for (label, phase, mode, status), n in sorted(CASES.items()):
            if label in DOCUMENTED:
                by_path[label][f"{phase}/{mode}"] += n
            else:
                other[f"{label.split()[0]} {status}"] += n
        lines.append("schemathesis cases sent (phase/mode):")
        lines += [f"  {label}: " + ", ".join(f"{k} {n}" for k, n in sorted(c.items()))
                  for label, c in sorted(by_path.items())]
        ok = sorted({label for (label, _, _, status) in CASES if status < 300 and label in DOCUMENTED})
        lines.append("  answered 2xx: " + ", ".join(ok))
        lines.append("  undocumented methods (method status x cases): "
                     + ", ".join(f"{k} x{n}" for k, n in sorted(other.items())))
    if BUILT:
        labels = sorted({label for label, _ in BUILT})
        lines.append("positive cases legal by construction (sent, answered 2xx): " + ", ".join(
            f"{label} {BUILT[(label, True)] + BUILT[(label, False)]}/{BUILT[(label, True)]}"
            for label in labels))
    if STATUSES:
        lines.append("stateful steps (operation, status, via a link or built legal): " + ", ".join(
            f"{op} {status}{' ' + how if how else ''} x{n}" for (op, status, how), n in sorted(STATUSES.items()))
            + f"; furthest advance: seq {FURTHEST['seq']}")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if lines and reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line("")
            for line in lines:
                reporter.write_line(line)


@pytest.mark.slow
@schema.parametrize()
@settings(settings.get_profile("api"))
def test_api_conforms(case):
    # Every check runs; the hooks' filter_failure lets "positive data is
    # accepted" pass only for the examples and coverage phases' positive
    # bodies of the rule-bearing operations (legality unknown, see the hooks).
    meta = case.meta
    label = f"{case.method} {case.path}"
    built = schemathesis_hooks.is_built(case)
    if meta is not None and meta.generation.mode.is_positive and case.path in schemathesis_hooks.LEGAL \
            and meta.phase.name.value == "fuzzing":
        # The hook replaced the generated body by a legal one, still schema-valid (positive).
        assert built, case.body
    if built:
        assert meta is not None and meta.generation.mode.is_positive, case.body
    response = case.call()
    CASES[(label, meta.phase.name.value if meta else "?",
           meta.generation.mode.value if meta else "?", response.status_code)] += 1
    if built:
        BUILT[(label, response.status_code < 300)] += 1
    case.validate_response(response)


# -- stateful: real games through the links ----------------------------------


class GameWorkflow(schema.as_state_machine()):
    def step(self, input):
        linked = input.transition is not None and bool(input.applied_parameters)
        self._linked = linked
        return super().step(input)

    def after_call(self, response, case):
        super().after_call(response, case)
        op = OPERATION_IDS.get(case.path, case.path)
        how = "link" if getattr(self, "_linked", False) else "built" if schemathesis_hooks.is_built(case) else ""
        STATUSES[(op, response.status_code, how)] += 1
        if op == "advanceGame" and response.status_code == 200:
            FURTHEST["seq"] = max(FURTHEST["seq"], response.json()["seq"])


@pytest.mark.slow
def test_games_through_links():
    STATUSES.clear()
    FURTHEST["seq"] = 0
    GameWorkflow.run(settings=STATEFUL)
    linked_ok = collections.Counter()
    for (op, status, how), n in STATUSES.items():
        if how == "link" and status < 300:
            linked_ok[op] += n
    # The chains really ran: link-built advances and views were answered 200.
    assert linked_ok.get("advanceGame", 0) >= 50, STATUSES
    assert linked_ok.get("viewGame", 0) >= 5, STATUSES
    assert linked_ok.get("playBots", 0) >= 5, STATUSES
    # ...and some chain played a whole deal (2 players: 17 actions) and into the next.
    assert FURTHEST["seq"] > 17, FURTHEST


# -- the documented game examples are what the service answers ---------------



def _resolve(node):
    while isinstance(node, dict) and "$ref" in node:
        target = DOC
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def _validator(node):
    """Validates against ``node``, its ``$ref``s resolved in openapi.yaml."""
    return OAS31Validator({**DOC, "allOf": [node]})


def _operation(op_id):
    return DOC["paths"][PATHS[op_id]]["post"]


def _response_examples(op_id):
    """name -> (status, example value, validator of the documented schema)."""
    out = {}
    for status, response in _operation(op_id)["responses"].items():
        response = _resolve(response)
        for media in response.get("content", {}).values():
            validator = _validator(media["schema"])
            for name, example in media.get("examples", {}).items():
                out[name] = (int(status), example["value"], validator)
    return out


def _mask(body, sealed):
    """What may differ between two runs: request ids, and sealed tokens (random nonces)."""
    body = copy.deepcopy(body)
    if isinstance(body, dict):
        body.pop("request_id", None)
        if sealed and isinstance(body.get("state"), str):
            body["state"] = body["state"].rsplit(".", 1)[0]
    return body


@pytest.mark.parametrize("op_id", GAME_OPERATIONS)
def test_game_examples_are_real(op_id):
    plain = falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))
    sealed = falcon.testing.TestClient(create_app(sealer=Sealer(EXAMPLE_SECRET), collect_metrics=False))
    path = PATHS[op_id]
    responses = _response_examples(op_id)
    request_validator = _validator(_operation(op_id)["requestBody"]["content"]["application/json"]["schema"])
    requests = _operation(op_id)["requestBody"]["content"]["application/json"]["examples"]
    for name, example in requests.items():
        body = example["value"]
        request_validator.validate(body)
        is_sealed = name.startswith("sealed")
        got = (sealed if is_sealed else plain).simulate_post(path, json=body)
        assert got.status_code < 500, (name, got.text)
        if name not in responses:
            continue
        status, documented, validator = responses[name]
        assert got.status_code == status, (name, got.text)
        validator.validate(documented)
        if op_id == "startGame":
            # A new game has a new id (and so a new history and seat tokens).
            continue
        assert _mask(got.json, is_sealed) == _mask(documented, is_sealed), name
    for name, (status, documented, validator) in responses.items():
        validator.validate(documented)


def test_shared_game_error_examples_match_their_schemas():
    for name in ("SeatForbidden", "GameInvalid"):
        media = DOC["components"]["responses"][name]["content"]["application/problem+json"]
        validator = _validator(media["schema"])
        for example in media["examples"].values():
            validator.validate(example["value"])


# -- the bodies built legal by construction fit openapi.yaml ---------------------------


@pytest.mark.parametrize("path", sorted(schemathesis_hooks.LEGAL))
def test_built_bodies_fit_the_schema(path):
    """A built body must be schema-valid, or schemathesis would take it for a
    negative case and hold it to rejection instead of acceptance."""
    validator = _validator(DOC["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"])

    @settings(max_examples=40, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(schemathesis_hooks.LEGAL[path])
    def fits(body):
        validator.validate(body)

    fits()


AS_LISTED = ("Every listed legal action can be sent back as `action` exactly as listed",
             "Every action in `legal_actions` can be sent as is")
"""openapi.yaml's promises (advance, GameAction) that a listed legal action can be sent back unchanged."""


def test_a_listed_client_deck_deal_needs_its_cards():
    """With ``deck: client`` the listed deal is ``{"type": "deal", "seat": 0}``
    (listed once, without its cards): sent back as is it is a 422
    ``cards_required``, and with the cards added it is accepted.  openapi.yaml
    must say so instead of promising that every listed action is accepted as
    listed (the hooks' ``legality_known`` keeps such link bodies out of
    "positive data is accepted")."""
    text = " ".join((ROOT / "openapi.yaml").read_text(encoding="utf-8").split())
    assert not [p for p in AS_LISTED if " ".join(p.split()) in text]
    assert "with a client deck the deal and the cut are listed without their cards" in text
    client = falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))
    start = client.simulate_post("/v1/games", json={"options": {"deck": "client"}, "dealer": 0})
    assert start.status_code == 201, start.text
    listed = start.json["legal_actions"]
    assert listed == [{"type": "deal", "seat": 0}]
    got = client.simulate_post("/v1/games/advance", json={"state": start.json["state"], "action": listed[0]})
    assert got.status_code == 422 and got.json["rule"] == "cards_required", got.text
    dealt = {**listed[0], "hands": [["AC", "2C", "3C", "4C", "5C", "6C"], ["AD", "2D", "3D", "4D", "5D", "6D"]],
             "crib": []}
    got = client.simulate_post("/v1/games/advance", json={"state": start.json["state"], "action": dealt})
    assert got.status_code == 200, got.text

