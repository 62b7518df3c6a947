"""The service's release, in one place: pyproject.toml reads it (``dynamic``), ``GET /version``
and ``cribbage-service --version`` report it; tests/system/test_versions.py holds openapi.yaml's
``info.version``, CHANGELOG.md and the Kubernetes image tag to it."""

__version__ = "1.2.0"
