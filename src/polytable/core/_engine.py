"""Which engine a game object runs: its compiled kernel or the pure-Python rules, chosen once.

A game with a compiled twin (a C extension built with the package, see ``setup.py``) names it in
``Game.compiled_kernel``; the engine is picked when the game object is made (``get_game(id, engine=...)``)
and the object keeps it: ``"pure"`` runs the Python rules, ``"compiled"`` the kernel (an error when it is
not built), ``"auto"`` the kernel when it is built and ``POLYTABLE_PURE`` is not set. The pure rules are
the reference; the compiled kernel must give identical states, actions and scores (the differential tests
play both game objects side by side). When an extension was not built (no compiler at install time),
``"auto"`` says so once on standard error and carries on with the pure rules. docs/engine.md has more.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

__all__ = ["ENGINES", "load_kernel", "native_module", "pure_engine_forced"]

ENGINES = ("auto", "pure", "compiled")
"""The engines a game object can be made with."""

_CACHE: dict[str, ModuleType | None] = {}
_WARNED = [False]


def pure_engine_forced() -> bool:
    """True when ``POLYTABLE_PURE`` is set to anything but empty or ``0``."""
    return os.environ.get("POLYTABLE_PURE", "") not in ("", "0")


def _import(name: str) -> ModuleType | None:
    """The extension module ``name``, or None when it was not built (said once on standard error)."""
    if name not in _CACHE:
        try:
            _CACHE[name] = importlib.import_module(name)
        except ImportError:
            _CACHE[name] = None
    return _CACHE[name]


def _say_missing() -> None:
    if not _WARNED[0]:
        _WARNED[0] = True
        print("polytable: the compiled engine is not built here; running the pure-Python engine", file=sys.stderr)


def load_kernel(engine: str, name: str | None, game_id: str = "") -> ModuleType | None:
    """The compiled extension ``name`` (a full dotted name) a game made with ``engine`` runs, or None
    for the pure rules. ``name`` None: the game has no compiled kernel (``"compiled"`` is then refused).
    The engine is not a player's option, so a wrong one is a ``ValueError`` for the programmer."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (engines: {', '.join(ENGINES)})")
    if engine == "pure" or (engine == "auto" and pure_engine_forced()):
        return None
    mod = None if name is None else _import(name)
    if mod is None:
        if engine == "compiled":
            raise ValueError(f"{game_id or 'this game'} has no compiled engine here (not built, or none exists)")
        if name is not None:
            _say_missing()
    return mod


def native_module(name: str) -> ModuleType | None:
    """The compiled extension module ``name`` for code that is not a game's rules (the AI's own
    kernels), or None when ``POLYTABLE_PURE`` is set or it was not built (said once)."""
    return load_kernel("auto", name)
