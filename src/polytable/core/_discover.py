"""Find modules by name: the discovery hook of the registry and of the per-game extras.

Why: the kernel must not import the games (they import the kernel), and the CLI, bench and printables
take one optional file per game; finding both by name means adding a game edits no shared list.
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
