"""Clients generated from openapi.yaml, driven against a real gunicorn (gunicorn.conf.py).

* Python: ``openapi-python-client`` generates a client package into a
  temporary directory (never committed); the test imports it and, through its
  typed functions and models only, scores a hand and plays a whole plain game
  (start, ``advance`` with the first legal action until the phase is
  ``over``, a ``view`` now and then).  Every answer parsed by a generated
  model must turn back into exactly the JSON the service sent
  (``to_dict()``), and each next request is built from those models.
  The generator's warnings about openapi.yaml fail the test, quoting it (the
  one warning accepted: ``GET /openapi.yaml`` answers YAML, which it cannot
  type).
* TypeScript: in a temporary directory, npm installs the versions pinned in
  tests/clients/package.json (openapi-typescript, openapi-fetch, typescript);
  ``openapi-typescript`` generates ``schema.d.ts``; ``tsc --checkJs`` checks
  tests/clients/play.mjs against it; node runs play.mjs, which scores a hand
  and plays one whole hand of a game with openapi-fetch and prints JSON,
  checked here.  Skipped only when node or npm is missing.

Every step is bounded in time; the server is always stopped.
"""

from __future__ import annotations

import importlib
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

ROOT = Path(__file__).resolve().parent.parent
OPENAPI = ROOT / "openapi.yaml"
CLIENTS = Path(__file__).resolve().parent / "clients"
PACKAGE = "cribbage_client"
HAND = {"cards": ["5H", "5C", "5S", "JD"], "starter": "5D", "crib": False}
GAME_SECONDS = 120

pytestmark = pytest.mark.slow

# The generator's only accepted complaint: a YAML answer cannot be typed.
ACCEPTED_WARNINGS = [re.compile(r"WARNING parsing GET /openapi\.yaml .*\n.*Unsupported content_type application/yaml")]


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> str:
    with gunicorn(tmp_path_factory.mktemp("gunicorn") / "gunicorn.log") as base:
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


def generate_python_client(spec: Path, out: Path) -> tuple[Any, str]:
    """Generate the client package of ``spec`` under ``out``; import it; return (package, log)."""
    config = out / "generator.yaml"
    config.write_text(f"package_name_override: {PACKAGE}\nproject_name_override: cribbage-client\n")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    proc = run([sys.executable, "-m", "openapi_python_client", "generate", "--path", str(spec),
                "--output-path", str(out / "client"), "--meta", "none", "--config", str(config)],
               cwd=out, timeout=300, env=env)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"openapi-python-client refused {spec.name}:\n{log}"
    complaints = generator_complaints(log)
    assert not complaints, (
        f"openapi-python-client mis-generates {len(complaints)} part(s) of {spec.name} "
        "(the client would lack these operations, answers or models):\n\n" + "\n\n----\n\n".join(complaints))
    sys.path.insert(0, str(out))
    try:
        # --meta none writes the package itself at the output path.
        (out / PACKAGE).symlink_to(out / "client", target_is_directory=True)
        return importlib.import_module(PACKAGE), log
    finally:
        sys.path.remove(str(out))


@pytest.fixture()
def python_client(tmp_path) -> Any:
    """Generates and imports the client in the test itself (a refusal is a failure, not an error)."""
    yield lambda: generate_python_client(OPENAPI, tmp_path)[0]
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


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
            action = game.legal_actions[0].to_dict()
            r = games["advance_game"].sync_detailed(
                client=client, body=models.AdvanceRequest.from_dict({"state": state, "action": action}))
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


# --- TypeScript: openapi-typescript + openapi-fetch ------------------------------------------

NODE, NPM = shutil.which("node"), shutil.which("npm")


@pytest.mark.skipif(not (NODE and NPM), reason="node and npm are needed for the TypeScript client (not found on PATH)")
def test_typescript_client_scores_a_hand_and_plays_a_hand(server, tmp_path):
    work = tmp_path / "ts"
    work.mkdir()
    for name in ("package.json", "package-lock.json", "play.mjs"):
        shutil.copy(CLIENTS / name, work / name)
    env = {**os.environ, "npm_config_update_notifier": "false", "npm_config_fund": "false",
           "npm_config_audit": "false"}
    proc = run([NPM, "ci", "--no-audit", "--no-fund"], cwd=work, timeout=300, env=env)
    assert proc.returncode == 0, f"npm ci failed:\n{proc.stdout}\n{proc.stderr}"
    npx = [NPM, "exec", "--no", "--"]

    # Request fields with a default (GameOptions.players, .target) are optional to a client:
    # --default-non-nullable false, or the generated types would demand them.
    proc = run([*npx, "openapi-typescript", str(OPENAPI), "-o", "schema.d.ts", "--default-non-nullable", "false"],
               cwd=work, timeout=300, env=env)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and (work / "schema.d.ts").exists(), f"openapi-typescript failed:\n{out}"
    assert not re.search(r"(?i)\b(warn|error)", out), f"openapi-typescript complained:\n{out}"

    proc = run([*npx, "tsc", "--noEmit", "--allowJs", "--checkJs", "--strict", "--target", "es2022",
                "--module", "nodenext", "--moduleResolution", "nodenext", "--types", "node", "play.mjs"],
               cwd=work, timeout=300, env=env)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"play.mjs does not type-check against the generated types:\n{out}"

    proc = run([NODE, "play.mjs", server], cwd=work, timeout=GAME_SECONDS, env=env)
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
