"""Cached temporary venvs for the reference sides of the benchmarks.

A reference implementation (OpenSpiel, cribbage-scorer, Flask ...) is never a
dependency of the project: it is installed into its own venv under
``$BENCH_VENVS`` (default ``<tmp>/cribbage-bench-venvs/<name>``), made once and
reused while its check still passes.  ``python(name, packages, check)``
returns that venv's interpreter, or ``None`` (with a message) when it cannot
be had -- no network, no wheel -- so that the bench skips that reference only.

>>> python("openspiel", ["open_spiel==2.0.2"], "import pyspiel")  # doctest: +SKIP
PosixPath('/tmp/cribbage-bench-venvs/openspiel/bin/python')
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_VENVS", Path(tempfile.gettempdir()) / "cribbage-bench-venvs"))
INSTALL_TIMEOUT = 600  # seconds for one pip install


def venv_dir(name: str) -> Path:
    return ROOT / name


def python(name: str, packages: list[str], check: str) -> Path | None:
    """The interpreter of the cached venv ``name`` holding ``packages``.

    ``check`` is Python code that must run without error in the venv (e.g.
    ``"import pyspiel"``); when it does not, the venv is made anew and the
    packages installed with pip.  A marker file records the package list, so
    changing a pin remakes the venv.
    """
    venv = venv_dir(name)
    exe = venv / "bin" / "python"
    marker = venv / ".bench-packages"
    wanted = "\n".join(packages)
    same = not marker.exists() or marker.read_text() == wanted  # no marker: a venv made before markers
    if exe.exists() and same and subprocess.run([exe, "-c", check], capture_output=True).returncode == 0:
        marker.write_text(wanted)
        return exe
    try:
        subprocess.run([sys.executable, "-m", "venv", "--clear", venv], check=True, capture_output=True)
        subprocess.run([exe, "-m", "pip", "install", "--quiet", *packages], check=True,
                       capture_output=True, timeout=INSTALL_TIMEOUT)
        subprocess.run([exe, "-c", check], check=True, capture_output=True)
    except (subprocess.SubprocessError, OSError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        tail = detail.decode(errors="replace").strip().splitlines()[-1:] if detail else []
        print(f"  ({name} reference unavailable: {exc}{': ' + tail[0] if tail else ''})", flush=True)
        return None
    marker.write_text(wanted)
    return exe
