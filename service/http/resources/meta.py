"""Operational endpoints: health, readiness, version, the OpenAPI document, Swagger UI, metrics."""

from __future__ import annotations

import functools
import os
import re
import subprocess
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import falcon
import orjson

from service.boundary.meta import HEALTHY, ready_json, version_json

from .. import metrics
from ..problems import ProblemError
from ..readiness import LIFECYCLE, Lifecycle, WSGIApp
from ..._version import __version__

_SERVICE_DIR = Path(__file__).resolve().parents[2]

OPENAPI = resources.files("service") / "openapi.yaml"
"""The OpenAPI document, package data (the repository's root ``openapi.yaml`` links to it),
so an installed wheel serves it as a checkout does."""


def openapi_path() -> Traversable:
    """Where the OpenAPI document is: ``$CRIBBAGE_OPENAPI``, else the package's own."""
    override = os.environ.get("CRIBBAGE_OPENAPI")
    return Path(override) if override else OPENAPI


class Health:
    """``GET /healthz``: the process is up and answering."""

    BODY = HEALTHY

    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        resp.data = self.BODY
        resp.content_type = falcon.MEDIA_JSON
        resp.cache_control = ["no-store"]


class Ready:
    """``GET /readyz``: this process should be sent requests (see :mod:`service.http.readiness`).

    200 once the app is built and its request path warmed (warmed here on the
    first call when no one did it before), 503 ``not-ready`` from the moment
    the process starts shutting down.
    """

    def __init__(self, app: WSGIApp, *, state: str, lifecycle: Lifecycle = LIFECYCLE) -> None:
        self.app = app  # the WSGI app to warm up (itself)
        self.state = state
        self.lifecycle = lifecycle

    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        lifecycle = self.lifecycle
        if lifecycle.draining:
            raise ProblemError(503, "not-ready", "Not ready",
                               "this process is shutting down: it finishes the requests it has and "
                               "takes no new ones; send requests to another replica",
                               headers={"Cache-Control": "no-store"})
        if not lifecycle.warm and not lifecycle.warm_up(self.app):
            raise ProblemError(503, "not-ready", "Not ready",
                               "the warm-up request was not answered 200; see the service's log",
                               headers={"Cache-Control": "no-store"})
        resp.data = orjson.dumps(ready_json(self.state))
        resp.content_type = falcon.MEDIA_JSON
        resp.cache_control = ["no-store"]


_SEMVER = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?")
_REVISION = re.compile(r"[0-9a-f]{7,64}")


def api_version(document: bytes) -> str:
    """``info.version`` of the OpenAPI document (read without a YAML parser: the
    document is hand-written, ``info:`` at the top level, ``version:`` two spaces in)."""
    m = re.search(rb"(?m)^info:[ \t]*\r?\n(?:(?:[ \t]{3,}.*|[ \t]{2}(?!version:).*|[ \t]*)\r?\n)*"
                  rb"[ \t]{2}version:[ \t]*[\"']?([^\"'\s#]+)", document)
    if m is None:
        raise RuntimeError("the OpenAPI document has no info.version")
    return m.group(1).decode()


@functools.lru_cache(maxsize=1)
def git_revision() -> str | None:
    """The source's git commit: ``$CRIBBAGE_GIT_REVISION`` (the image sets it at build
    time), else ``git rev-parse HEAD`` in a checkout, else ``None``.  Only a hex
    commit id is reported."""
    given = os.environ.get("CRIBBAGE_GIT_REVISION", "").strip().lower()
    if given:
        return given if _REVISION.fullmatch(given) else None
    root = _SERVICE_DIR.parent
    if not (root / ".git").exists():
        return None
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=5, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return out if _REVISION.fullmatch(out) else None


class Version:
    """``GET /version``: the service's version, the API's (``info.version`` of
    openapi.yaml, semantic versioning), the OpenAPI version, the git revision
    and which rules kernel runs (:data:`service.core.engine.KERNEL`)."""

    def __init__(self, document: bytes) -> None:
        api = api_version(document)
        if not _SEMVER.fullmatch(api):
            raise RuntimeError(f"info.version {api!r} of the OpenAPI document is not a semantic version")
        spec = re.search(rb"(?m)^openapi:[ \t]*[\"']?([0-9.]+)", document)
        self.data = orjson.dumps(version_json(__version__, api, spec.group(1).decode() if spec else None,
                                              git_revision()))

    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        resp.data = self.data
        resp.content_type = falcon.MEDIA_JSON
        resp.cache_control = ["no-cache"]


class OpenAPIDocument:
    """``GET /openapi.yaml``: the hand-written API description, as is."""

    def __init__(self, path: Traversable | None = None) -> None:
        path = path or openapi_path()
        try:
            self.data = path.read_bytes()
        except OSError as err:
            raise RuntimeError(
                f"cannot read the OpenAPI document at {path}: set CRIBBAGE_OPENAPI"
            ) from err

    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        resp.data = self.data
        resp.content_type = "application/yaml; charset=utf-8"


DOCS_HTML = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Cribbage rules service - API docs</title>
  <link rel="stylesheet" href="/docs/static/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/static/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/static/swagger-ui-bundle.js"></script>
  <script src="/docs/static/swagger-ui-standalone-preset.js"></script>
  <script>
    window.onload = function () {
      window.ui = SwaggerUIBundle({
        url: "/openapi.yaml",
        dom_id: "#swagger-ui",
        deepLinking: true,
        presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
        layout: "StandaloneLayout",
        validatorUrl: null
      });
    };
  </script>
</body>
</html>
""".encode()


class Docs:
    """``GET /docs``: Swagger UI, served from the ``swagger_ui_bundle`` package (no CDN)."""

    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        resp.data = DOCS_HTML
        resp.content_type = falcon.MEDIA_HTML


def swagger_ui_dir() -> Path:
    """The folder of Swagger UI's static files (a version with OpenAPI 3.1 support)."""
    from swagger_ui_bundle import swagger_ui_path

    return Path(str(swagger_ui_path))


class Metrics:
    """``GET /metrics``: Prometheus text format, all workers aggregated."""

    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        resp.data, resp.content_type = metrics.exposition()
        resp.cache_control = ["no-store"]
