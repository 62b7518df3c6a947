"""The kernel's sources as the compiler takes them: one module made of the kernel package's modules.

The kernel is a package (:mod:`.kernel`: rules, the deal, codes, searches) and
is compiled together, as one module, so that every call between its parts
stays a native call: :func:`compiled_source` writes its modules one after the
other in the order its ``__init__`` imports them, without the imports between
them (their names are distinct), and records :func:`source_sha256`, which
:mod:`.engine` checks before it runs a compiled kernel.  Standard library
only, and no import of the service: setup.py loads this file by its path.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

KERNEL = Path(__file__).resolve().parent / "kernel"
ORDER = ("rules", "deal", "codes", "search")
"""The kernel's modules in the order they build on one another (``__init__`` re-exports them)."""
SOURCES = tuple(sorted(KERNEL.glob("*.py")))
_SIBLING = re.compile(r"^from \.(\w+) import \((?:[^)]*)\)\n|^from \.(\w+) import [^\n]*\n", re.MULTILINE)
_FUTURE = b"from __future__ import annotations\n"


def source_sha256() -> str:
    """The SHA-256 of the kernel package: each module's name, a NUL, its bytes and a NUL, by name."""
    digest = hashlib.sha256()
    for path in SOURCES:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def compiled_source() -> bytes:
    """One module of the kernel's modules, in :data:`ORDER`, the imports between them left out, and a
    record of :func:`source_sha256` (``SOURCE_SHA256``)."""
    names = {path.stem for path in SOURCES} - {"__init__"}
    if names != set(ORDER):
        raise ValueError(f"the kernel's modules are {sorted(names)}, ORDER says {list(ORDER)}")
    parts = [b'"""The rules kernel compiled: service/core/kernel/ as one module (kernel_source.py)."""\n\n'
             + _FUTURE + b"\nfrom typing import Final\n"]
    for name in ORDER:
        text = (KERNEL / f"{name}.py").read_text()
        text = _SIBLING.sub("", text).replace(_FUTURE.decode(), "")
        parts.append(f"\n# ---- {name}.py\n".encode() + text.encode())
    parts.append(f'\n\nSOURCE_SHA256: Final = "{source_sha256()}"\n'.encode())
    return b"".join(parts)
