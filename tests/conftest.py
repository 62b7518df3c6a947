"""Shared fixtures for the HTTP tests."""

from __future__ import annotations

import pathlib

import falcon
import falcon.testing
import pytest

# The schemathesis hooks (filter_case) are global: load them once for every test.
import schemathesis_hooks  # noqa: F401  (tests/ is on sys.path: pyproject.toml's pythonpath)

from service.app import create_app

ROOT = pathlib.Path(__file__).resolve().parent.parent

# tests/data holds data and the record of how it was made, not tests.
collect_ignore_glob = ["data/*"]


@pytest.fixture(scope="session")
def app() -> falcon.App:
    return create_app()


@pytest.fixture()
def client(app: falcon.App) -> falcon.testing.TestClient:
    return falcon.testing.TestClient(app)


def problem(result: falcon.testing.Result, status: int) -> dict:
    """Assert ``result`` is an RFC 9457 problem with ``status``; return its body."""
    assert result.status_code == status, result.text
    assert result.headers["content-type"] == "application/problem+json"
    body = result.json
    for key in ("type", "title", "status", "detail", "instance", "errors"):
        assert key in body, key
    assert body["status"] == status
    assert body["type"].startswith("https://cribbage.example/problems/")
    assert body["request_id"] == result.headers["x-request-id"]
    return body


def fields(body: dict) -> list[str]:
    return [e["field"] for e in body["errors"]]


def running_kernel() -> str:
    """Which rules kernel the core's modules call: the interpreted reference or the compiled extension."""
    from service.core import engine, kernel

    module = engine.kernel
    if module is kernel:
        return "interpreted"
    assert module.__name__ == "cribbage_kernel" and str(module.__file__).endswith(".so"), module
    return "compiled"
