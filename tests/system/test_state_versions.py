"""Safe rollouts: the game states each release writes, held to the rollout rule.

The rule (README, "Compatibility policy"): a new state field or option is a new
format, read by one release (``READS`` gains it while the old format is still
written) and written by the next, so that in a rolling upgrade every replica
reads what any other writes.  tests/states/<release>.json holds a state (plain
and sealed) written by that release's own code (tools/release_states.py), and
what it wrote and read.  A state of a version newer than this replica reads is
not a bad state: it is a 422 of its own type (``newer-state-version``) naming
the versions this replica reads, so that a client can send it to another one.
"""

from __future__ import annotations

import json
from pathlib import Path

import falcon.testing
import pytest
import yaml
from conftest import fields, problem

from service import seal
from service._version import __version__
from service.app import create_app
from service.boundary import state as state_format
from service.seal import Sealer

ROOT = Path(__file__).resolve().parents[2]
RELEASES = sorted((json.loads(p.read_text()) for p in (ROOT / "tests" / "states").glob("*.json")),
                  key=lambda r: tuple(map(int, r["release"].split("."))))
NEWER = "https://cribbage.example/problems/newer-state-version"
SECRET = RELEASES[0]["sealed"]["secret"]


@pytest.fixture(scope="module")
def plain() -> falcon.testing.TestClient:
    return falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False, state_cache=0))


@pytest.fixture(scope="module")
def sealed() -> falcon.testing.TestClient:
    return falcon.testing.TestClient(create_app(sealer=Sealer(SECRET), collect_metrics=False, state_cache=0))


def test_every_release_since_format_2_has_its_states_here():
    """This release's file is here too, so that the next one is held to it."""
    assert [r["release"] for r in RELEASES][-1] == __version__
    assert len(RELEASES) >= 2


@pytest.mark.parametrize("older, newer", list(zip(RELEASES, RELEASES[1:])), ids=lambda r: r["release"])
def test_each_release_reads_what_the_one_before_wrote_and_the_other_way(older, newer):
    for kind in ("formats", "sealed_versions"):
        assert older[kind]["writes"] in newer[kind]["reads"], kind  # upgrading
        assert newer[kind]["writes"] in older[kind]["reads"], kind  # a replica not upgraded yet


def test_this_release_is_what_its_file_says():
    """The code writes what the latest release's file says it writes (so the release before reads
    it), and reads at least what it read: the unreleased code may already read the next format
    (format 3, ``records``), which the release after it may then write."""
    latest = RELEASES[-1]
    assert state_format.VERSION == latest["formats"]["writes"]
    assert set(latest["formats"]["reads"]) <= set(state_format.READS)
    assert state_format.NEXT in state_format.READS and state_format.NEXT == state_format.VERSION + 1
    assert (int(seal.PREFIX[1:-1]), list(seal.READS)) == (latest["sealed_versions"]["writes"],
                                                          latest["sealed_versions"]["reads"])


@pytest.mark.parametrize("release", RELEASES, ids=lambda r: r["release"])
def test_every_release_s_state_is_still_read(plain, sealed, release):
    r = plain.simulate_post("/v1/games/view", json={"state": release["plain"], "seat": 0})
    assert r.status_code == 200, r.text
    assert r.json["seq"] == release["seq"]
    tokens = release["sealed"]["seat_tokens"]
    r = sealed.simulate_post("/v1/games/view", json={"state": release["sealed"]["state"], "seat_token": tokens[0]})
    assert r.status_code == 200, r.text
    assert r.json["seq"] == release["seq"]
    seat = r.json["to_act"][0]
    r = sealed.simulate_post("/v1/games/view", json={"state": release["sealed"]["state"],
                                                      "seat_token": tokens[seat]})
    action = r.json["legal_actions"][0]
    r = sealed.simulate_post("/v1/games/advance", json={"state": release["sealed"]["state"], "action": action,
                                                         "seat_token": tokens[seat]})
    assert r.status_code == 200, r.text


def _newer(body: dict, version: int, field: str, reads: tuple[int, ...] = state_format.READS) -> None:
    assert body["type"] == NEWER, body
    assert body["version"] == version and body["readable_versions"] == list(reads)
    assert fields(body) == [field]
    assert "newer release" in body["detail"]


@pytest.mark.parametrize("url", ["/v1/games/view", "/v1/games/advance", "/v1/games/suggest", "/v1/odds",
                                 "/v1/games/review", "/v1/games/bots"])
def test_a_state_of_the_next_format_is_its_own_problem(plain, url):
    """The next format may carry a field this one does not know: the version is read first."""
    future = {**RELEASES[-1]["plain"], "version": max(state_format.READS) + 1, "clock": {"seconds": 30}}
    body = {"state": future, **{"/v1/games/advance": {"action": {"type": "go", "seat": 0}},
                                "/v1/games/review": {}, "/v1/games/bots": {"bots": [{"seat": 0}]}}.get(url, {"seat": 0})}
    b = problem(plain.simulate_post(url, json=body), 422)
    _newer(b, max(state_format.READS) + 1, "/state/version")


def test_a_state_of_a_retired_or_unknown_version_is_still_a_bad_state(plain):
    for version in (1, 0, "3", None, 10**9, 10**30):  # past 9 digits a number is no format at all
        b = problem(plain.simulate_post("/v1/games/view", json={"state": {**RELEASES[-1]["plain"], "version": version},
                                                                 "seat": 0}), 422)
        assert b["type"].endswith("/invalid-request") and fields(b) == ["/state/version"], b


def test_a_token_of_the_next_version_is_its_own_problem(sealed):
    token = RELEASES[-1]["sealed"]["state"]
    future = f"v{max(seal.READS) + 1}." + token.split(".", 1)[1]
    b = problem(sealed.simulate_post("/v1/games/view", json={"state": future,
                                                              "seat_token": RELEASES[-1]["sealed"]["seat_tokens"][0]}),
                422)
    _newer(b, max(seal.READS) + 1, "/state", seal.READS)
    for bad in ("v0." + token[3:], "v2" + token[2:].replace(".", "!", 1), "v1." + token[3:]):
        b = problem(sealed.simulate_post("/v1/games/view", json={"state": bad}), 422)
        assert b["type"].endswith("/invalid-request"), b


def test_a_sealed_state_of_the_next_format_is_its_own_problem(sealed):
    """A v2 token (the envelope this release reads) holding a state of the next format."""
    release = RELEASES[-1]
    inner = {**release["plain"], "version": max(state_format.READS) + 1, "clock": None}
    token = Sealer(SECRET).seal(inner, inner["game_id"], inner["seq"])
    b = problem(sealed.simulate_post("/v1/games/view", json={"state": token}), 422)
    _newer(b, max(state_format.READS) + 1, "/state/version")


OPERATIONS = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("url", ["/v1/games/view", "/v1/games/advance", "/v1/games/suggest", "/v1/odds",
                                 "/v1/games/review", "/v1/games/bots"])
def test_the_documented_answers_are_the_service_s(plain, sealed, url):
    responses = OPERATIONS["paths"][url]["post"]["responses"]["422"]
    examples = responses["content"]["application/problem+json"]["examples"]
    future = {**RELEASES[-1]["plain"], "version": max(state_format.READS) + 1}
    body = {"state": future, **{"/v1/games/advance": {"action": {"type": "go", "seat": 0}},
                                "/v1/games/bots": {"bots": [{"seat": 0}]}}.get(url, {})}
    got = plain.simulate_post(url, json=body).json
    assert {**got, "request_id": None} == {**examples["newerState"]["value"], "request_id": None}
    if "newerSealedState" in examples:
        token = "v3." + RELEASES[-1]["sealed"]["state"].split(".", 1)[1]
        got = sealed.simulate_post(url, json={**body, "state": token}).json
        assert {**got, "request_id": None} == {**examples["newerSealedState"]["value"], "request_id": None}
