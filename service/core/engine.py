"""Which kernel runs: the compiled one when it is installed and current, else :mod:`.kernel` interpreted.

An install with a C compiler builds the kernel package with mypyc, all its
modules together as one module (:mod:`.kernel_source`), under another name
(``cribbage_kernel``) that records the SHA-256 of its sources.  That
package is used only when the record matches this checkout's ``kernel/``: an
edited kernel in an editable install never runs a stale build, and no ``.so``
file ever sits beside the kernel's sources to shadow them.  ``CRIBBAGE_KERNEL=interpreted`` forces the reference (tests use
it to run everything on both).

:data:`KERNEL` says which one runs (``compiled`` or ``interpreted``) and
:data:`WHY` why, for the start-up log line, ``/version`` and ``/readyz``.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import TYPE_CHECKING

from . import kernel as reference
from . import kernel_source

COMPILED_NAME = "cribbage_kernel"
"""The import name of the compiled kernel (a top-level extension module)."""
SOURCES = kernel_source.SOURCES
source_sha256 = kernel_source.source_sha256
"""The SHA-256 of this checkout's kernel package, which a compiled kernel must record."""


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
            return compiled, "compiled", f"{COMPILED_NAME} built from this kernel package"
        why = f"the installed {COMPILED_NAME} was built from another kernel package: reinstall to rebuild it"
    if want == "compiled":
        raise ImportError(f"CRIBBAGE_KERNEL=compiled, but {why}")
    return reference, "interpreted", why


if TYPE_CHECKING:
    kernel = reference
    KERNEL = "interpreted"
    WHY = ""
else:
    kernel, KERNEL, WHY = choose(os.environ.get("CRIBBAGE_KERNEL") or None)
