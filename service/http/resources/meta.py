"""Operational endpoints: health, the OpenAPI document, Swagger UI, metrics."""

from __future__ import annotations

import os
from pathlib import Path

import falcon

from .. import metrics

_SERVICE_DIR = Path(__file__).resolve().parents[2]


def openapi_path() -> Path:
    """Where ``openapi.yaml`` is: ``$CRIBBAGE_OPENAPI``, else the repository root.

    The root is the folder holding the ``service`` package, which is the
    checkout in an editable install and ``/app`` in the Docker image.
    """
    override = os.environ.get("CRIBBAGE_OPENAPI")
    if override:
        return Path(override)
    return _SERVICE_DIR.parent / "openapi.yaml"


class Health:
    """``GET /healthz``: the process is up and answering."""

    BODY = b'{"status":"ok"}'

    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        resp.data = self.BODY
        resp.content_type = falcon.MEDIA_JSON
        resp.cache_control = ["no-store"]


class OpenAPIDocument:
    """``GET /openapi.yaml``: the hand-written API description, as is."""

    def __init__(self, path: Path | None = None) -> None:
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
