"""``mypy --strict`` over service/ (the settings: [tool.mypy] in pyproject.toml).

The core's kinds, phases and results are enums, its events one type per kind,
and the kernel is compiled by mypyc, which turns annotations into run-time
checks: a type error is a bug waiting for a request to find it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_service_is_clean_under_mypy_strict() -> None:
    r = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT, capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]
