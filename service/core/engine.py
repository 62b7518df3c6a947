"""Which kernel runs: the compiled one when it is installed and current, else :mod:`.kernel` interpreted.

An install with a C compiler builds the kernel with mypyc under another
name (``cribbage_kernel``), from a copy of ``kernel.py`` that records the
SHA-256 of its source.  That module is used only when the record matches
this checkout's ``kernel.py``: an edited kernel in an editable install never
runs a stale build, and no ``.so`` file ever sits beside ``kernel.py`` to
shadow it.  ``CRIBBAGE_KERNEL=interpreted`` forces the reference (tests use
it to run everything on both).

:data:`KERNEL` says which one runs (``compiled`` or ``interpreted``) and
:data:`WHY` why, for the start-up log line, ``/version`` and ``/readyz``.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from . import kernel as reference

COMPILED_NAME = "cribbage_kernel"
"""The import name of the compiled kernel (a top-level extension module)."""
SOURCE = Path(reference.__file__)


def source_sha256() -> str:
    """The SHA-256 of this checkout's ``kernel.py``, which a compiled kernel must record."""
    return hashlib.sha256(SOURCE.read_bytes()).hexdigest()


def choose(want: str | None = None) -> tuple[ModuleType, str, str]:
    """``(module, "compiled" or "interpreted", why)`` for ``want``
    (``CRIBBAGE_KERNEL``: ``compiled``, ``interpreted`` or unset for the best available)."""
    if want == "interpreted":
        return reference, "interpreted", "CRIBBAGE_KERNEL=interpreted"
    try:
        compiled = importlib.import_module(COMPILED_NAME)
    except ImportError as exc:
        why = f"no compiled kernel is installed ({exc})"
    else:
        recorded = getattr(compiled, "SOURCE_SHA256", None)
        if recorded == source_sha256():
            return compiled, "compiled", f"{COMPILED_NAME} built from this kernel.py"
        why = f"the installed {COMPILED_NAME} was built from another kernel.py: reinstall to rebuild it"
    if want == "compiled":
        raise ImportError(f"CRIBBAGE_KERNEL=compiled, but {why}")
    return reference, "interpreted", why


if TYPE_CHECKING:
    kernel = reference
    KERNEL = "interpreted"
    WHY = ""
else:
    kernel, KERNEL, WHY = choose(os.environ.get("CRIBBAGE_KERNEL") or None)
