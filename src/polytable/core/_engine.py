"""Which engine runs: the compiled accelerators or the pure-Python rules.

Every hot path that has a compiled twin (a C extension built with the package, see ``setup.py``) asks
:func:`native_module` for it and falls back to the pure-Python rules when it gets None. The pure rules
are the reference; the compiled code must give identical states, actions and scores (differential tests
check it). ``POLYTABLE_PURE=1`` in the environment forces the pure engine; when an extension was not
built (no compiler at install time), polytable says so once on standard error and carries on.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

__all__ = ["native_module", "pure_engine_forced"]

_CACHE: dict[str, ModuleType | None] = {}
_WARNED = [False]


def pure_engine_forced() -> bool:
    """True when ``POLYTABLE_PURE`` is set to anything but empty or ``0``."""
    return os.environ.get("POLYTABLE_PURE", "") not in ("", "0")


def native_module(name: str) -> ModuleType | None:
    """The compiled extension module ``name`` (a full dotted name), or None for the pure engine.

    Looked up once per process. A missing extension is reported once on standard error (all of them
    together: one line), unless the pure engine was asked for."""
    if name in _CACHE:
        return _CACHE[name]
    mod: ModuleType | None = None
    if not pure_engine_forced():
        try:
            mod = importlib.import_module(name)
        except ImportError:
            mod = None
            if not _WARNED[0]:
                _WARNED[0] = True
                print(
                    "polytable: the compiled engine is not built here; running the pure-Python engine",
                    file=sys.stderr,
                )
    _CACHE[name] = mod
    return mod
