"""Every C extension the package build lists is built and imports.

Each extension is optional in ``setup.py`` (a machine without a compiler still installs the pure engine), so
a kernel that stops compiling, or compiles but cannot load (an undefined symbol), would otherwise only make
its differential tests skip. CI sets ``POLYTABLE_REQUIRE_COMPILED=1``: there a missing extension fails.
"""

from __future__ import annotations

import ast
import importlib
import os
from pathlib import Path

import pytest

SETUP = Path(__file__).resolve().parents[2] / "setup.py"


def _names() -> list[str]:
    """The first argument of every ``ext(...)`` call in setup.py."""
    names = []
    for node in ast.walk(ast.parse(SETUP.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ext":
            first = node.args[0]
            assert isinstance(first, ast.Constant) and isinstance(first.value, str), ast.dump(first)
            names.append(first.value)
    return names


def test_setup_lists_the_kernels() -> None:
    names = _names()
    assert len(names) == len(set(names)) and len(names) >= 10, names
    assert all(n.startswith("polytable.") for n in names), names


def test_every_extension_imports() -> None:
    missing = {}
    for name in _names():
        try:
            importlib.import_module(name)
        except ImportError as exc:
            missing[name] = str(exc)
    if missing and os.environ.get("POLYTABLE_REQUIRE_COMPILED") != "1":
        pytest.skip(f"not built here (the pure engine serves): {missing}")
    assert not missing, missing
