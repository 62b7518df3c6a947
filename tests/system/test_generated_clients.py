"""Clients generated from openapi.yaml by ``make clients``' script (tools/clients.py), driven
against a real gunicorn (gunicorn.conf.py).

* Python: tools/clients.py's ``python_client`` generates the package
  (openapi-python-client) into a temporary directory (never committed); the
  test imports it and, through its typed functions and models only, scores a
  hand and plays a whole plain game (start, ``advance`` with the first legal
  action until the phase is ``over``, a ``view`` now and then).  Every answer
  parsed by a generated model must turn back into exactly the JSON the
  service sent (``to_dict()``), and each next request is built from those
  models.  The generator's warnings about openapi.yaml fail the test, quoting
  it (the one warning accepted: ``GET /openapi.yaml`` answers YAML, which it
  cannot type).  The README's Python example runs as written (its base URL
  the server's) and prints what its comments say.
* TypeScript: tools/clients.py's ``typescript_client`` installs the npm
  versions pinned in tools/typescript-client/ and generates ``schema.d.ts``
  (openapi-typescript) beside ``client.mjs``; ``tsc --checkJs`` checks
  tests/clients/play.mjs and the README's TypeScript example against the
  generated types; node runs both: play.mjs scores a hand and plays one whole
  hand of a game and prints JSON, checked here; the README's example prints
  what its comments say.  Skipped only when node or npm is missing.

Every step is bounded in time; the server is always stopped.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from gunicorn_server import gunicorn

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = Path(__file__).resolve().parents[1] / "clients"
README = (ROOT / "README.md").read_text(encoding="utf-8")
README_BASE = "http://localhost:8000"
"""The base URL the README's examples call, replaced by the test server's."""


def _load_tools():
    spec = importlib.util.spec_from_file_location("clients_tool", ROOT / "tools" / "clients.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _load_tools()
"""tools/clients.py, the script behind ``make clients``."""
PACKAGE = TOOL.PACKAGE
HAND = {"cards": ["5H", "5C", "5S", "JD"], "starter": "5D", "crib": False}
GAME_SECONDS = 120

pytestmark = pytest.mark.slow

# The generator's only accepted complaint: a YAML answer cannot be typed.
ACCEPTED_WARNINGS = [re.compile(r"WARNING parsing GET /openapi\.yaml .*\n.*Unsupported content_type application/yaml")]


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> str:
    with gunicorn(tmp_path_factory.mktemp("gunicorn") / "gunicorn.log") as base:
        yield base


@pytest.fixture(scope="module")
def sealed_server(tmp_path_factory) -> str:
    """A server as production runs it: with a state secret, every state sealed and every seat's action
    authorised by its token."""
    with gunicorn(tmp_path_factory.mktemp("gunicorn-sealed") / "gunicorn.log",
                  CRIBBAGE_STATE_SECRET="generated-clients-" + "s" * 32) as base:
        yield base


def run(cmd: list[str], cwd: Path, timeout: float, env: dict | None = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"{' '.join(cmd)} took more than {timeout} s:\n{e.stdout}\n{e.stderr}")


# --- Python: openapi-python-client ------------------------------------------------------------

HEADING = re.compile(r"^(WARNING parsing .*|Unable to parse schema .*|Unable to process schema .*)$", re.M)


def generator_complaints(log: str) -> list[str]:
    """Each warning of openapi-python-client's output that is not accepted: its heading
    (the operation or the schema path), the generator's message, what it removed, and the
    start of the part of openapi.yaml it quotes."""
    heads = list(HEADING.finditer(log))
    complaints = []
    for i, head in enumerate(heads):
        body = log[head.end():heads[i + 1].start() if i + 1 < len(heads) else len(log)]
        lines = [line for line in body.splitlines() if line.strip()]
        text = "\n".join([head.group(0), *lines[:12], *(["  ..."] if len(lines) > 12 else [])])
        if not any(p.search(text) for p in ACCEPTED_WARNINGS):
            complaints.append(text)
    return complaints


def readme_example(language: str) -> str:
    """The README's one example in ``language`` (a fenced block of the Clients section)."""
    section = README[README.index("### Clients"):]
    section = section[:section.index("\n## ")]
    (block,) = re.findall(rf"(?ms)^```{language}\n(.*?)^```", section)
    return block


def comments(example: str) -> list[str]:
    """The output an example's lines promise in their comments: ``print(...)  # <what>``."""
    return [m.group(1) for m in re.finditer(r"(?:print|console\.log)\(.*\);?\s+(?:#|//) (.*)$", example, re.M)]


def matches(promised: str, printed: str) -> bool:
    """A printed line against its comment, with the comment's ``...`` standing for any text."""
    return re.fullmatch(".*".join(re.escape(part) for part in promised.split("...")), printed) is not None


def generate_python_client(out: Path) -> tuple[Any, str]:
    """Generate the client package with tools/clients.py under ``out``; import it; return (package, log)."""
    try:
        log = TOOL.python_client(out / "python")
    except TOOL.GenerationError as e:
        pytest.fail(f"openapi-python-client refused openapi.yaml:\n{e}")
    complaints = generator_complaints(log)
    assert not complaints, (
        f"openapi-python-client mis-generates {len(complaints)} part(s) of openapi.yaml "
        "(the client would lack these operations, answers or models):\n\n" + "\n\n----\n\n".join(complaints))
    sys.path.insert(0, str(out / "python"))
    try:
        return importlib.import_module(PACKAGE), log
    finally:
        sys.path.remove(str(out / "python"))


@pytest.fixture()
def python_client(tmp_path) -> Any:
    """Generates and imports the client in the test itself (a refusal is a failure, not an error)."""
    yield lambda: generate_python_client(tmp_path)[0]
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def ACTION_MODELS(models: Any) -> tuple[type, ...]:
    """The models of GameAction's six kinds, as advance's ``action`` and every ``legal_actions`` item are typed."""
    return tuple(getattr(models, f"Action{kind}") for kind in ("Deal", "Discard", "Cut", "Play", "Go", "Count"))


def same_json(parsed: Any, response: Any) -> dict:
    """The generated model's ``to_dict()`` is exactly the JSON the service sent; return it."""
    sent = json.loads(response.content)
    assert parsed.to_dict() == sent, "the generated model changed the answer"
    return sent


def test_python_client_scores_a_hand_and_plays_a_whole_game(server, python_client):
    pkg = python_client()
    score_hand = importlib.import_module(f"{PACKAGE}.api.hands.score_hand")
    games = {op: importlib.import_module(f"{PACKAGE}.api.games.{op}")
             for op in ("start_game", "advance_game", "view_game")}
    models = importlib.import_module(f"{PACKAGE}.models")

    with pkg.Client(base_url=server, raise_on_unexpected_status=True, timeout=10) as client:
        r = score_hand.sync_detailed(client=client, body=models.HandScoreRequest.from_dict(HAND))
        assert r.status_code == 200, r.content
        assert isinstance(r.parsed, models.HandScore)
        assert r.parsed.total == 29
        assert [item.kind.value for item in r.parsed.breakdown].count("fifteen") == 8
        same_json(r.parsed, r)

        deadline = time.monotonic() + GAME_SECONDS
        body = models.StartGameRequest.from_dict({"options": {"players": 2, "deck": "seeded", "seed": "py-client"},
                                                  "dealer": 0})
        r = games["start_game"].sync_detailed(client=client, body=body)
        assert r.status_code == 201, r.content
        game = r.parsed
        assert isinstance(game, models.GameResponse)
        same_json(game, r)
        steps = views = 0
        phases = [game.phase.value]
        while game.phase.value != "over":
            assert time.monotonic() < deadline, f"the game took more than {GAME_SECONDS} s ({steps} actions)"
            assert steps < 3000, "no winner after 3000 actions"
            state = game.state.to_dict() if hasattr(game.state, "to_dict") else game.state
            if steps % 40 == 0:
                # A view as seat 1, built from the last answer's state model.
                r = games["view_game"].sync_detailed(
                    client=client, body=models.ViewRequest.from_dict({"state": state, "seat": 1}))
                assert r.status_code == 200, r.content
                assert isinstance(r.parsed, models.GameResponse)
                seen = same_json(r.parsed, r)
                assert seen["view"]["seat"] == 1 and seen["seq"] == game.seq
                views += 1
            # A legal action is of the model advance takes, and the answer's state of the model it
            # takes back: the request is built from the last answer's models, converting nothing.
            action = game.legal_actions[0]
            assert isinstance(action, ACTION_MODELS(models)), type(action)
            r = games["advance_game"].sync_detailed(
                client=client, body=models.AdvanceRequest(state=game.state, action=action))
            assert r.status_code == 200, (action, r.content)
            assert isinstance(r.parsed, models.GameResponse)
            same_json(r.parsed, r)
            assert r.parsed.seq == game.seq + 1
            game = r.parsed
            steps += 1
            if phases[-1] != game.phase.value:
                phases.append(game.phase.value)

    view = game.to_dict()["view"]
    front = [s["front"] for s in view["scores"]]
    winner = view["result"]["winner"]
    assert front[winner] >= 121 > front[1 - winner]
    assert {"deal", "discard", "cut", "play", "show", "over"} == set(phases)
    assert views >= 1
    print(f"python client: a whole game in {steps} advances and {views} views, scores {front}")


def test_python_client_models_have_names(python_client):
    """No model is named by the generator's fallback (``…Type0``, ``…Type2Type1``): every nullable
    object or enum of openapi.yaml is a titled schema of its own, referenced beside null."""
    pkg = python_client()
    models = Path(pkg.__file__).parent / "models"
    fallback = sorted(p.stem for p in models.glob("*.py") if re.search(r"_type_\d", p.stem))
    assert not fallback, f"models named by position, not by openapi.yaml: {fallback}"


@pytest.mark.parametrize("mode", ["server", "sealed_server"])
def test_the_readmes_python_example(request, mode, python_client):
    """The README's Python example, as written, against a plain and a sealed server."""
    server = request.getfixturevalue(mode)
    python_client()  # generated by tools/clients.py and imported, as `pip install clients/python` would
    example = readme_example("python")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(example.replace(README_BASE, server), "README.md (Python client)", "exec"), {})
    printed = out.getvalue().strip().splitlines()
    promised = comments(example)
    assert len(promised) == len(printed) == 3, (promised, printed)
    for want, got in zip(promised, printed):
        assert matches(want, got), (want, got)


# --- TypeScript: openapi-typescript + openapi-fetch ------------------------------------------

NODE, NPM = shutil.which("node"), shutil.which("npm")
needs_node = pytest.mark.skipif(not (NODE and NPM),
                                reason="node and npm are needed for the TypeScript client (not found on PATH)")


@pytest.fixture(scope="module")
def typescript_client(tmp_path_factory, server, sealed_server) -> Path:
    """The TypeScript client made by tools/clients.py, with tests/clients/play.mjs and the
    README's example (as readme.mjs and readme-sealed.mjs, its import this folder's and its base
    URL the plain and the sealed server's) beside it, all type-checked against the generated types."""
    work = tmp_path_factory.mktemp("typescript")
    try:
        out = TOOL.typescript_client(work)
    except TOOL.GenerationError as e:
        pytest.fail(str(e))
    assert not re.search(r"(?i)\b(warn|error)", out.split("openapi-typescript", 1)[-1]), \
        f"openapi-typescript complained:\n{out}"
    shutil.copy(CLIENTS / "play.mjs", work / "play.mjs")
    example = readme_example("js").replace("./clients/typescript/client.mjs", "./client.mjs")
    (work / "readme.mjs").write_text("// @ts-check\n" + example.replace(README_BASE, server))
    (work / "readme-sealed.mjs").write_text("// @ts-check\n" + example.replace(README_BASE, sealed_server))
    proc = run([NPM, "exec", "--no", "--", "tsc", "--noEmit", "--allowJs", "--checkJs", "--strict",
                "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext", "--types", "node",
                "play.mjs", "readme.mjs", "readme-sealed.mjs"], cwd=work, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"play.mjs or the README's example does not type-check against the generated types:\n{out}"
    return work


@needs_node
@pytest.mark.parametrize("script", ["readme.mjs", "readme-sealed.mjs"])
def test_the_readmes_typescript_example(script, typescript_client):
    """The README's TypeScript example, as written, against a plain and a sealed server."""
    example = readme_example("js")
    proc = run([NODE, script], cwd=typescript_client, timeout=60)
    assert proc.returncode == 0, f"the README's TypeScript example failed:\n{proc.stdout}\n{proc.stderr}"
    printed = proc.stdout.strip().splitlines()
    promised = comments(example)
    assert len(promised) == len(printed) == 3, (promised, printed)
    for want, got in zip(promised, printed):
        assert matches(want, got), (want, got)


@needs_node
def test_typescript_client_scores_a_hand_and_plays_a_hand(server, typescript_client):
    proc = run([NODE, "play.mjs", server], cwd=typescript_client, timeout=GAME_SECONDS)
    assert proc.returncode == 0, f"play.mjs failed:\n{proc.stdout}\n{proc.stderr}"
    result = json.loads(proc.stdout.strip().splitlines()[-1])

    score = result["score"]
    assert score["total"] == 29
    assert score["kinds"] == ["fifteen"] * 8 + ["pair"] * 6 + ["nobs"]
    assert score["call"].endswith("his nobs is twenty-nine")

    game = result["game"]
    assert game["started"]["phase"] == "deal" and game["started"]["to_act"] == [0]
    # One whole hand: dealt, both discards, the cut, the play, the show; then the next deal is due.
    assert game["phases"] == ["deal", "discard", "cut", "play", "show", "deal"] or game["phase"] == "over", game
    assert game["deal"] == 2 and game["phase"] == "deal", game
    types = game["actions"]
    assert types[0] == "deal" and types[1:3] == ["discard", "discard"] and types[3] == "cut"
    assert types.count("play") == 8 and types[-3:] == ["count", "count", "count"]
    # The pegs are the sum of every event's points.
    pegged = [0, 0]
    for e in game["events"]:
        for s in e["scores"]:
            pegged[s["side"]] += s["points"]
    assert game["scores"] == pegged, game
    # Seat 1's view: its own four cards, none of seat 0's unplayed ones.
    hands = game["seat_view"]["hands"]
    assert game["seat_view"]["seat"] == 1
    assert all(c is not None for c in hands[1])
    assert sum(c is not None for c in hands[0]) <= 1  # at most the card seat 0 has just played
    print(f"typescript client: {json.dumps(game['scores'])} after one hand, {len(types)} actions")
