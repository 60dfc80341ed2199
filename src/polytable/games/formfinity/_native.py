"""FORMFINITY's compiled kernel, when it is built: ``_cformfinity`` (C, next to these rules) or None.

Why here, inside the game's package: rules code imports only ``core`` and ``geometry``, and the kernel
is this game's rules in another language, so it lives beside the Python it mirrors; the lookup (and the
``POLYTABLE_PURE`` switch) is :func:`polytable.core.native_module`. The kernel covers the hot path the
profile shows: where an element may go (``_board.element_anchors``: every orientation, anywhere or slid
in from the card's edges, as bitboards), the flood of a region (``Setup.flood``, which the connection
and numbers goals ask for at every step) and the connection goal's "no element may take the opponent's
last way" filter (``_flow.keeps_a_way``, a flood per risky anchor). Turn flow, lines, areas, cards and notation stay in
Python, so counts, samples and states are the pure rules' by construction; the pure-Python rules remain
the reference (tests/games/formfinity/test_formfinity_native.py plays both side by side).
"""

from __future__ import annotations

from types import ModuleType

from polytable.core import native_module

from ._cards import SHAPES

__all__ = ["EXT", "pure_engine"]

EXT: ModuleType | None = native_module("polytable.games.formfinity._cformfinity")
"""The extension module (its shapes set), or None when the pure engine runs."""

if EXT is not None:
    EXT.init(SHAPES)


class pure_engine:
    """Inside the block, the pure-Python rules run even where the kernel is built, so differential tests
    and ``polytable fuzz`` can play both engines side by side in one process (the placement memo is
    emptied on the way in and out, so neither engine reads the other's answers). Not thread-safe."""

    def __enter__(self) -> None:
        from . import _board, _flow

        self._modules = (vars(_board), vars(_flow))
        for d in self._modules:
            d["EXT"] = None
        _flow.clear_caches()

    def __exit__(self, *exc: object) -> None:
        from . import _flow

        for d in self._modules:
            d["EXT"] = EXT
        _flow.clear_caches()
