"""Find the optional per-game modules of a package (``bench``, ``printables``, ``cli``, ``ai``).

Why: each game brings its own benchmark, printables and commands as one new file; discovery by name keeps
five games being written at once from all editing the same registry file.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

__all__ = ["discover"]


def discover(package: str, prefix: str = "") -> list[ModuleType]:
    """Import and return the modules of ``package`` whose names start with ``prefix`` (and not ``_``)."""
    pkg = importlib.import_module(package)
    out = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if info.name.startswith("_") or not info.name.startswith(prefix):
            continue
        out.append(importlib.import_module(f"{package}.{info.name}"))
    return out
