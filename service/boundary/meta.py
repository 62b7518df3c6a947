"""The service's own answers as JSON: ``GET /healthz``, ``GET /readyz`` and ``GET /version``.

Each names the rules kernel in use (:data:`service.core.engine.KERNEL`:
compiled or interpreted) where an operator looks for it.
"""

from __future__ import annotations

from typing import Any

import orjson

from service.core import engine

HEALTHY = orjson.dumps({"status": "ok"})
"""``/healthz``: the process is up and answering (the same bytes every time)."""


def ready_json(state: str) -> dict[str, Any]:
    """``/readyz`` of a warm process taking requests; ``state``: how it keeps game states."""
    return {"status": "ready", "checks": {
        "openapi": "loaded", "state": state, "warm": True, "draining": False, "kernel": engine.KERNEL}}


def version_json(service: str, api: str, openapi: str | None, revision: str | None) -> dict[str, Any]:
    """``/version``: the service's version, the API's (``info.version``), the
    OpenAPI version, the source's git revision and the rules kernel."""
    return {"service": service, "api": api, "openapi": openapi, "revision": revision, "kernel": engine.KERNEL}
