"""The wheel is the product: built as a release is, installed outside the checkout, it serves.

``python -m build`` makes the sdist and, from it, the wheel; the wheel is
installed into a fresh virtualenv in a temporary folder, and
``cribbage-service serve`` is started from another temporary folder (not the
checkout, no ``PYTHONPATH``, no ``CRIBBAGE_OPENAPI``) on a free loopback port.
Every file the service reads at run time must then come from the installed
package: the OpenAPI document (``/openapi.yaml``, ``/docs``, ``/version``), the
gunicorn settings (``serve``), the tuned crib table (``/v1/discards`` and the
strong bot, ``/v1/games/suggest``), the playground's files.

The fast tests keep the checkout's two entry points tied to the package: the
root ``openapi.yaml`` is the package's document, the root ``gunicorn.conf.py``
gives gunicorn the package's settings.
"""

from __future__ import annotations

import importlib
import os
import runpy
import subprocess
import sys
import zipfile
from pathlib import Path

import httpx
import pytest
from gunicorn_server import free_port, serving

from service._version import __version__

ROOT = Path(__file__).resolve().parents[2]
HAND = {"cards": ["5H", "5C", "5S", "JD"], "starter": "5D", "crib": False}
RUNTIME_FILES = ["service/openapi.yaml", "service/gunicorn_conf.py", "service/advice/data/tuned_crib.json",
                 "service/web/static/index.html", "service/web/static/table.js"]


def test_the_root_openapi_yaml_is_the_packages():
    """The contract people find at the root is the file the package serves (a link to it)."""
    assert (ROOT / "openapi.yaml").resolve() == (ROOT / "service" / "openapi.yaml").resolve()


def test_the_root_gunicorn_conf_is_the_packages(monkeypatch, tmp_path):
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))  # reading the settings would set it
    from gunicorn.config import Config

    settings = Config().settings
    root = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    package = vars(importlib.import_module("service.gunicorn_conf"))
    given = {k for k in package if k in settings}
    assert {"wsgi_app", "bind", "worker_class", "workers", "threads", "logger_class", "post_worker_init"} <= given
    assert {k: root.get(k) for k in given} == {k: package[k] for k in given}


def _run(cmd: list, cwd: Path, timeout: float, env: dict | None = None) -> subprocess.CompletedProcess:
    try:
        proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"{' '.join(map(str, cmd))} took more than {timeout} s:\n{e.stdout}\n{e.stderr}")
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh virtualenv, outside the checkout, with the built wheel installed; its bin folder."""
    work = tmp_path_factory.mktemp("wheel")
    _run([sys.executable, "-m", "build", "--outdir", work / "dist", ROOT], cwd=work, timeout=600)
    (wheel,) = (work / "dist").glob("cribbage_service-*.whl")
    assert wheel.name.startswith(f"cribbage_service-{__version__}-")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        assert not [f for f in RUNTIME_FILES if f not in names], sorted(names)
        assert z.read("service/openapi.yaml") == (ROOT / "openapi.yaml").read_bytes()
    _run([sys.executable, "-m", "venv", work / "venv"], cwd=work, timeout=300)
    _run([work / "venv/bin/python", "-m", "pip", "install", "--quiet", wheel], cwd=work, timeout=900)
    return work / "venv" / "bin"


@pytest.fixture(scope="module")
def served(installed, tmp_path_factory) -> str:
    """``cribbage-service serve`` from the installed wheel, in a folder that is not the checkout."""
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CRIBBAGE_", "PYTHON", "PROMETHEUS_", "GUNICORN_", "VIRTUAL_ENV"))}
    env.update(HOST="127.0.0.1", WEB_CONCURRENCY="2", PATH=f"{installed}{os.pathsep}{env.get('PATH', '')}")
    port = free_port()
    # serve execs gunicorn: the process started is the master.
    with serving([str(installed / "cribbage-service"), "serve", "--port", str(port)], elsewhere, env, port,
                 elsewhere / "serve.log") as base:
        yield base


slow = pytest.mark.slow


@slow
def test_the_installed_package_is_not_the_checkout(installed, tmp_path):
    proc = _run([installed / "python", "-c", "import service, service.app; print(service.__file__)"],
                cwd=tmp_path, timeout=120, env={"PATH": os.environ.get("PATH", "")})
    where = Path(proc.stdout.strip())
    assert where.is_relative_to(installed.parent) and not where.is_relative_to(ROOT), where


@slow
def test_the_installed_command(installed, tmp_path):
    proc = _run([installed / "cribbage-service", "--version"], cwd=tmp_path, timeout=60)
    assert proc.stdout == f"cribbage-service {__version__}\n"


@slow
def test_meta_routes(served):
    r = httpx.get(f"{served}/healthz", timeout=10)
    assert r.status_code == 200 and r.json() == {"status": "ok"}
    r = httpx.get(f"{served}/openapi.yaml", timeout=10)
    assert r.status_code == 200 and r.content == (ROOT / "openapi.yaml").read_bytes()
    r = httpx.get(f"{served}/docs", timeout=10)
    assert r.status_code == 200 and "swagger-ui-bundle.js" in r.text
    assert httpx.get(f"{served}/docs/static/swagger-ui-bundle.js", timeout=10).status_code == 200
    r = httpx.get(f"{served}/version", timeout=10)
    assert r.status_code == 200
    assert r.json()["service"] == __version__ and r.json()["revision"] is None  # no checkout, no git
    r = httpx.get(f"{served}/readyz", timeout=10)
    assert r.status_code == 200 and r.json()["checks"]["warm"] is True
    for page in ("/", "/play/scorer", "/play/static/table.js"):
        assert httpx.get(f"{served}{page}", timeout=10).status_code == 200, page


@slow
def test_a_hand_score(served):
    r = httpx.post(f"{served}/v1/hands/score", json=HAND, timeout=10)
    assert r.status_code == 200, r.text
    assert r.json()["total"] == 29


@slow
def test_discards_read_the_tuned_table(served):
    r = httpx.post(f"{served}/v1/discards", timeout=30,
                   json={"cards": ["5H", "5C", "5S", "JD", "2C", "9H"], "dealer": True})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["model"] == "tuned" and len(body["choices"]) == 15  # C(6, 2) throws
    assert sorted(body["choices"][0]["discard"]) == ["2C", "9H"]  # keeping 5 5 5 J


@slow
def test_the_strong_bot_suggests(served):
    r = httpx.post(f"{served}/v1/games", timeout=10,
                   json={"options": {"deck": "seeded", "seed": "wheel"}, "dealer": 0})
    assert r.status_code == 201, r.text
    game = r.json()
    r = httpx.post(f"{served}/v1/games/advance", json={"state": game["state"], "action": game["legal_actions"][0]},
                   timeout=10)
    assert r.status_code == 200 and r.json()["phase"] == "discard", r.text
    state = r.json()["state"]
    r = httpx.post(f"{served}/v1/games/suggest", json={"state": state, "seat": 1, "level": "strong"}, timeout=60)
    assert r.status_code == 200, r.text
    action = r.json()["action"]
    assert action["type"] == "discard" and action["seat"] == 1 and len(action["cards"]) == 2
    r = httpx.post(f"{served}/v1/games/advance", json={"state": state, "action": action}, timeout=10)
    assert r.status_code == 200, r.text
