"""Benchmarks behind ``polytable bench``: one module per game (``run(quick) -> dict``) plus geometry.

Benchmarks print what they measured; a comparison with a peer measures both in the same run and reports
the ratio. Speed targets are checked here, never by timed tests.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core import discover

__all__ = ["ai_benchmark", "benchmarks"]


def ai_benchmark(quick: bool = False) -> dict[str, object]:
    """MCTS iterations per second per game (``polytable bench --ai``); not one of :func:`benchmarks`."""
    from ._ai import run

    return run(quick)


def benchmarks() -> dict[str, Callable[[bool], dict[str, object]]]:
    """Benchmark name -> ``run(quick)``; the module name is the name (``geometry``, game packages)."""
    out: dict[str, Callable[[bool], dict[str, object]]] = {}
    for mod in discover(__name__):
        name = mod.__name__.rsplit(".", 1)[1].replace("_", "-")
        out[getattr(mod, "NAME", name)] = mod.run
    return out
