"""The package as pyproject.toml describes it, plus the rules kernel compiled by mypyc when it can be.

The compiled kernel is an extension module of its own name, ``cribbage_kernel``:
the modules of ``service/core/kernel/`` compiled together as one module
(``service/core/kernel_source.py`` writes it), which records the SHA-256 of the
sources; ``service.core.engine`` runs it only when that record matches the
package beside it, so an edited checkout never runs a stale build.  It is
optional: without mypyc, without a C compiler, or with any error while
compiling, the install goes on with the interpreted kernel and says so here
(and the service says so at start-up, in ``/version`` and ``/readyz``).
``CRIBBAGE_KERNEL_COMPILE=0`` skips the compilation.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
KERNEL_SOURCE = ROOT / "service" / "core" / "kernel_source.py"
COMPILED_NAME = "cribbage_kernel"  # service.core.engine.COMPILED_NAME


def _say(message: str) -> None:
    print(f"*** cribbage-service: {message}", file=sys.stderr, flush=True)


def compiled_kernel() -> list[Any]:
    """The kernel as a mypyc extension, or nothing (with a message) when it cannot be built."""
    if os.environ.get("CRIBBAGE_KERNEL_COMPILE", "1") == "0":
        _say("CRIBBAGE_KERNEL_COMPILE=0: the kernel stays interpreted")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        _say(f"mypyc is not available ({exc}): the kernel stays interpreted")
        return []
    # service/core/kernel_source.py, loaded by its path (the service's package is not imported here)
    spec = importlib.util.spec_from_file_location("kernel_source", KERNEL_SOURCE)
    assert spec is not None and spec.loader is not None
    kernel_source = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kernel_source)
    where = ROOT / "build" / "kernel-source"
    where.mkdir(parents=True, exist_ok=True)
    copy = where / f"{COMPILED_NAME}.py"
    copy.write_bytes(kernel_source.compiled_source())
    try:
        return list(mypycify([str(copy.relative_to(ROOT))], opt_level="3", target_dir="build/mypyc"))
    except (Exception, SystemExit) as exc:  # mypy reports type errors by exiting
        _say(f"mypyc could not compile the kernel ({exc!r}): the kernel stays interpreted")
        return []


class OptionalBuildExt(build_ext):
    """Build the compiled kernel if a C compiler can; never fail the install for it."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            _say(f"the compiled kernel was not built ({exc!r}): the kernel stays interpreted")

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            _say(f"the compiled kernel was not built ({exc!r}): the kernel stays interpreted")
        else:
            _say(f"the kernel is compiled ({ext.name})")


setup(ext_modules=compiled_kernel(), cmdclass={"build_ext": OptionalBuildExt})
