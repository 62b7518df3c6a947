"""Request body limits: the service's, and the paths that have their own.

Light on purpose (the standard library only): gunicorn.conf.py reads it, so
that the worker gathers each body in its poller up to its own path's limit
before a thread sees it (:mod:`.gather`), and the app reads it for its 413s
(:class:`.middleware.Edge`).  One home, so that the two never disagree.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

DEFAULT_MAX_BODY_BYTES = 64 * 1024
"""The service's body limit unless ``CRIBBAGE_MAX_BODY_BYTES`` says otherwise."""

OWN_LIMITS = {
    "/v1/hands/score-batch": 512 * 1024,
    "/v1/tournaments/standings": 2560 * 1024,
    "/v1/tournaments/bracket": 512 * 1024,
}
"""Paths whose bodies are larger by design, and the most each may be: the batch's 1,000
items of any documented shape; the standings' 2,000 lines and the bracket's 1,024 names
of the longest names, every character written as an escaped surrogate pair."""


def env_int(name: str, default: int, environ: Mapping[str, str] = os.environ) -> int:
    """A non-negative integer from the environment; unset or blank: ``default``."""
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = int(raw)
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {raw!r}")
    return value


def max_body_bytes(environ: Mapping[str, str] = os.environ) -> int:
    """The service's body limit: ``CRIBBAGE_MAX_BODY_BYTES``, default 64 KiB."""
    return env_int("CRIBBAGE_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES, environ)


def body_limits(limit: int) -> dict[str, int]:
    """The paths with a body limit of their own (:data:`OWN_LIMITS`), never below the
    service's ``limit``."""
    return {path: max(limit, own) for path, own in OWN_LIMITS.items()}
