"""The compiled engine's map and its checks.

Where the compiled code lives, and why: each game's kernel sits beside the rules it mirrors (Forma:
``games/forma/_cforma.c``, Foldris: ``games/foldris/_cfoldris.c``), because rules code may import only
``core`` and ``geometry``; the Quadefy solver, which is AI rather than rules, is ``ai/_native/_qsolve``.
All are C extensions built by setuptools from ``setup.py`` (plain C on the CPython API: no build
dependency beyond a C compiler), each optional: where one is missing,
:func:`polytable.core.native_module` returns None, the pure-Python rules
run, and polytable says so once on standard error. ``POLYTABLE_PURE=1`` forces the pure engine.

:data:`COMPILED` lists the games with a compiled kernel; :func:`fuzz` plays the compiled and the pure
engine side by side (``polytable fuzz``, and the differential tests).
"""

from __future__ import annotations

from ._fuzz import COMPILED, FuzzReport, Mismatch, engines, fuzz

__all__ = ["COMPILED", "FuzzReport", "Mismatch", "engines", "fuzz"]
