"""GET /version and the problem type pages, against what the repository says itself.

* ``/version``: the API version is openapi.yaml's ``info.version`` (read here
  with a YAML parser, in the service without one), a semantic version whose
  major is the ``/v1`` of the paths; the service version is service/_version.py's;
  the revision is the checkout's HEAD or ``CRIBBAGE_GIT_REVISION``.
* Problem types: every slug the code can put in a problem's ``type`` (found by
  reading the source: ``ProblemError(status, "slug", ...)`` calls anywhere in
  ``service/``, the slug tables of problems.py, and the nginx ConfigMap's own
  problems) has a page at ``/problems/<slug>``, and the path parameter's enum
  in openapi.yaml lists exactly those.
* Rule codes: every ``rule`` the code can raise (``rule="..."`` keywords and
  ``_illegal(pos, message, "code", ...)`` calls, found with :mod:`ast`) is in
  openapi.yaml's ``RuleCode`` enum and on the ``rule-violation`` page, with
  the same sentence, and nothing else is.
"""

from __future__ import annotations

import ast
import re
import subprocess

import falcon.testing
import pytest
import yaml
from conftest import ROOT, problem, running_kernel

from service._version import __version__
from service.app import create_app
from service.http.resources import meta, problem_pages

SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
SERVICE = ROOT / "service"
SEMVER = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?")


@pytest.fixture(scope="module")
def client():
    return falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))


def _sources():
    for path in sorted(SERVICE.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


# --- /version ------------------------------------------------------------------------


def test_version(client):
    r = client.simulate_get("/version")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    body = r.json
    assert body["api"] == SPEC["info"]["version"]
    assert body["openapi"] == SPEC["openapi"]
    assert body["service"] == __version__
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    assert body["revision"] == (head.stdout.strip() if head.returncode == 0 else None)
    assert body["kernel"] == running_kernel()


def test_the_api_version_is_semantic_and_its_major_is_the_paths():
    version = SPEC["info"]["version"]
    semver = SEMVER.fullmatch(version)
    assert semver, version
    majors = {int(m.group(1)) for p in SPEC["paths"] if (m := re.match(r"/v(\d+)/", p))}
    assert majors == {int(semver.group(1))}, (majors, version)
    # The service release that serves API x.y is x.y.z.
    assert __version__.split(".")[:2] == version.split(".")[:2]


def test_the_document_is_the_packages_unless_cribbage_openapi_names_another(monkeypatch, tmp_path):
    served = falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False)).simulate_get("/openapi.yaml")
    assert served.content == (ROOT / "service" / "openapi.yaml").read_bytes()
    other = tmp_path / "other.yaml"
    other.write_bytes(b"openapi: 3.1.0\ninfo:\n  title: another\n  version: 1.1.7\npaths: {}\n")
    monkeypatch.setenv("CRIBBAGE_OPENAPI", str(other))
    client = falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))
    assert client.simulate_get("/openapi.yaml").content == other.read_bytes()
    assert client.simulate_get("/version").json["api"] == "1.1.7"
    monkeypatch.setenv("CRIBBAGE_OPENAPI", str(tmp_path / "missing.yaml"))
    with pytest.raises(RuntimeError, match="set CRIBBAGE_OPENAPI"):
        create_app(sealer=None, collect_metrics=False)


@pytest.mark.parametrize("text, version", [
    (b"openapi: 3.1.0\ninfo:\n  title: x\n  version: 1.2.3\n", "1.2.3"),
    (b"openapi: 3.1.0\ninfo:\n  title: x\n  description: |\n    version: 9.9.9\n\n    more\n"
     b"  license:\n    name: MIT\n  version: '2.0.0-rc.1'\npaths: {}\n", "2.0.0-rc.1"),
    (b"info:\n  version: \"1.0.0+build.5\"  # released\n", "1.0.0+build.5"),
])
def test_api_version_reads_info_version_as_yaml_does(text, version):
    assert yaml.safe_load(text)["info"]["version"] == version
    assert meta.api_version(text) == version


def test_a_version_that_is_not_semantic_is_refused():
    with pytest.raises(RuntimeError, match="not a semantic version"):
        meta.Version(b"openapi: 3.1.0\ninfo:\n  version: v1\n")


@pytest.mark.parametrize("given, reported", [("ABCDEF1234567", "abcdef1234567"), ("not a commit", None)])
def test_revision_from_the_environment(monkeypatch, given, reported):
    monkeypatch.setenv("CRIBBAGE_GIT_REVISION", given)
    meta.git_revision.cache_clear()
    try:
        assert meta.git_revision() == reported
    finally:
        meta.git_revision.cache_clear()


def test_revision_without_git_is_null(monkeypatch, tmp_path):
    monkeypatch.delenv("CRIBBAGE_GIT_REVISION", raising=False)
    monkeypatch.setattr(meta, "_SERVICE_DIR", tmp_path / "service")  # no .git above it
    meta.git_revision.cache_clear()
    try:
        assert meta.git_revision() is None
    finally:
        meta.git_revision.cache_clear()


# --- problem types -------------------------------------------------------------------


def problem_slugs_in_the_code() -> set[str]:
    """Slugs as the code writes them: a status code (400-599) followed by a slug, in a call's
    arguments or a tuple (``ProblemError(413, "content-too-large", ...)``, the worker's
    ``_problem(503, "overloaded", ...)`` and ``(LimitRequestLine, 414, "uri-too-long", ...)``,
    problems.py's ``413: ("content-too-large", ...)``), and problems.py's ``"slug", "Title"``
    pairs."""

    def slug_like(node) -> bool:
        return isinstance(node, ast.Constant) and isinstance(node.value, str) \
            and re.fullmatch(r"[a-z]+(-[a-z]+)+|[a-z]+", node.value) is not None

    def status(node) -> bool:
        return isinstance(node, ast.Constant) and type(node.value) is int and 400 <= node.value <= 599

    slugs = set()
    for path, tree in _sources():
        for node in ast.walk(tree):
            items = node.args if isinstance(node, ast.Call) else node.elts if isinstance(node, ast.Tuple) else []
            for a, b in zip(items, items[1:]):
                if status(a) and slug_like(b):
                    slugs.add(b.value)
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values):
                    if status(k) and isinstance(v, ast.Tuple) and v.elts and slug_like(v.elts[0]):
                        slugs.add(v.elts[0].value)
            if path.name == "problems.py" and isinstance(node, ast.Tuple) and len(node.elts) == 2:
                first, second = node.elts
                if slug_like(first) and isinstance(second, ast.Constant) and isinstance(second.value, str) \
                        and second.value[:1].isupper():
                    slugs.add(first.value)  # ("slug", "Title") pairs
    conf = (ROOT / "deploy" / "kubernetes" / "nginx-configmap.yaml").read_text()
    slugs |= set(re.findall(r"'([a-z-]+)\",\"title\"", conf))
    return slugs


def test_the_slug_scan_finds_what_it_should():
    found = problem_slugs_in_the_code()
    # a few from each source: ProblemError calls, the status table, tuple assignments, nginx
    assert {"rule-violation", "body-not-object", "not-ready", "method-not-allowed", "malformed-json",
            "empty-body", "bad-gateway", "request-header-fields-too-large", "overloaded",
            "header-fields-too-large", "uri-too-long"} <= found
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", slug) for slug in found), found


def test_every_problem_type_has_a_page(client):
    slugs = problem_slugs_in_the_code()
    assert slugs <= set(problem_pages.PROBLEMS), slugs - set(problem_pages.PROBLEMS)
    for slug in slugs:
        r = client.simulate_get(f"/problems/{slug}")
        assert r.status_code == 200, slug
        assert r.headers["content-type"] == "text/html; charset=utf-8"
        kind = problem_pages.PROBLEMS[slug]
        assert f"<h1>{kind.title}</h1>" in r.text.replace("&#x27;", "'")
        assert f"https://cribbage.example/problems/{slug}" in r.text
        assert f"HTTP status {kind.status}." in r.text


def test_the_page_catalogue_lists_only_real_problem_types():
    assert set(problem_pages.PROBLEMS) == problem_slugs_in_the_code()


def test_the_slug_parameter_enum_is_the_catalogue():
    (param,) = SPEC["paths"]["/problems/{slug}"]["get"]["parameters"]
    assert sorted(param["schema"]["enum"]) == sorted(problem_pages.PROBLEMS)


def test_titles_and_statuses_match_the_http_layer():
    from service.http.problems import _STATUS_PROBLEMS

    for status, (slug, title) in _STATUS_PROBLEMS.items():
        assert problem_pages.PROBLEMS[slug][:2] == (status, title), slug


def test_an_unknown_problem_type_is_404(client):
    body = problem(client.simulate_get("/problems/no-such-thing"), 404)
    assert body["type"] == "https://cribbage.example/problems/not-found"


# --- rule codes ------------------------------------------------------------------------


def rule_codes_in_the_code() -> set[str]:
    codes = set()
    for _, tree in _sources():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            for kw in node.keywords:
                if kw.arg == "rule" and isinstance(kw.value, ast.Constant):
                    codes.add(kw.value.value)
            if getattr(node.func, "id", None) == "_illegal" and len(node.args) >= 3 \
                    and isinstance(node.args[2], ast.Constant):
                codes.add(node.args[2].value)
    return codes


def test_the_rule_scan_finds_the_core_and_http_codes():
    codes = rule_codes_in_the_code()
    assert {"count_over_31", "card_not_held", "go_while_able", "wrong_phase", "hand_not_complete"} <= codes
    assert all(re.fullmatch(r"[a-z0-9_]+", c) for c in codes), codes


def test_rule_code_enum_is_every_code_the_code_raises():
    rule = SPEC["components"]["schemas"]["RuleCode"]
    assert set(rule["enum"]) == rule_codes_in_the_code()
    assert len(rule["enum"]) == len(set(rule["enum"]))
    sentences = dict(zip(rule["enum"], rule["x-enum-descriptions"], strict=True))
    assert sentences == problem_pages.RULES
    for code, sentence in sentences.items():
        assert f"| `{code}` | {sentence} |" in rule["description"], code


def test_every_rule_violation_schema_uses_the_enum():
    schemas = SPEC["components"]["schemas"]
    for name in ("RuleViolation", "GameRuleViolation", "RecordRuleViolation"):
        props = schemas[name]["allOf"][1]["properties"]
        assert props["rule"] == {"$ref": "#/components/schemas/RuleCode"}, name


def test_the_rule_violation_page_lists_every_code(client):
    text = client.simulate_get("/problems/rule-violation").text
    for code in problem_pages.RULES:
        assert f'<tr id="{code}"><td><code>{code}</code></td>' in text
