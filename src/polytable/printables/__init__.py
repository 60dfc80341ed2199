"""Printables: templates, sheets and cards as PDF files (``polytable print NAME``).

Each module here exports ``PRINTABLES = {name: fn}`` with ``fn(out_path, paper, options)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..core import discover

__all__ = ["PrintFn", "printables"]

PrintFn = Callable[[str, str, Mapping[str, str]], None]


def printables() -> dict[str, PrintFn]:
    out: dict[str, PrintFn] = {}
    for mod in discover(__name__):
        out.update(getattr(mod, "PRINTABLES", {}))
    return out
