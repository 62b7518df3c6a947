"""The release is written in one place, service/_version.py, and everything that names it agrees.

* pyproject.toml reads it (``dynamic``), so the wheel and the installed
  distribution's metadata carry it (``cribbage-service --version`` and
  ``GET /version`` report it: tests/system/test_cli.py, tests/http/test_meta.py);
* the API's ``info.version`` shares its ``MAJOR.MINOR`` (the README's
  compatibility policy), and openapi.yaml's ``/version`` example shows both;
* the Kubernetes image tag (deploy/kubernetes/kustomization.yaml) and the
  README's ``docker build`` tag are it;
* CHANGELOG.md (Keep a Changelog) starts with ``[Unreleased]``, then its
  releases newest first, dated, the latest being this one.
"""

from __future__ import annotations

import datetime
import re
import tomllib
from importlib import metadata
from pathlib import Path

import yaml

from service._version import __version__

ROOT = Path(__file__).resolve().parents[2]
SEMVER = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)")
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))


def _numbers(version: str) -> tuple[int, int, int]:
    m = SEMVER.fullmatch(version)
    assert m, f"{version!r} is not MAJOR.MINOR.PATCH"
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def test_pyproject_reads_the_one_place():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "service._version.__version__"}
    _numbers(__version__)


def test_the_installed_distribution_has_it():
    """A stale install (pip install -e . before the last bump) fails here, not in production."""
    assert metadata.version("cribbage-service") == __version__


def test_the_api_version_shares_major_and_minor():
    api = SPEC["info"]["version"]
    assert _numbers(api)[:2] == _numbers(__version__)[:2], (api, __version__)
    example = SPEC["paths"]["/version"]["get"]["responses"]["200"]["content"]["application/json"]["example"]
    assert (example["service"], example["api"]) == (__version__, api)


def test_the_kubernetes_image_tag_is_the_release():
    kustomization = yaml.safe_load((ROOT / "deploy/kubernetes/kustomization.yaml").read_text(encoding="utf-8"))
    (image,) = [i for i in kustomization["images"] if i["name"] == "cribbage-service"]
    assert image["newTag"] == __version__
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    tags = set(re.findall(r"docker (?:build|run)[^\n]* cribbage-service:(\S+)", readme))
    assert tags == {__version__}, tags


HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\](?: - (?P<date>\d{4}-\d{2}-\d{2}))?$", re.M)
SECTIONS = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_the_changelog_ends_at_this_release():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n") and "keepachangelog.com" in text
    headings = list(HEADING.finditer(text))
    assert headings and headings[0]["version"] == "Unreleased" and headings[0]["date"] is None
    releases = [(h["version"], h["date"]) for h in headings[1:]]
    assert releases, "no release in CHANGELOG.md"
    assert all(date for _, date in releases), releases
    assert releases[0][0] == __version__, f"the latest release in CHANGELOG.md is {releases[0][0]}, not {__version__}"
    numbers = [_numbers(v) for v, _ in releases]
    dates = [datetime.date.fromisoformat(d) for _, d in releases]
    assert numbers == sorted(numbers, reverse=True) and len(set(numbers)) == len(numbers), numbers
    assert dates == sorted(dates, reverse=True), dates
    assert releases[-1][0] == "0.1.0"  # the first version of the history
    for kind in re.findall(r"^### (.+)$", text, re.M):
        assert kind in SECTIONS, kind
    assert not re.search(r"^## (?!\[)", text, re.M), "a release heading not in brackets"
