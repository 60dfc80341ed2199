"""Forma's compiled kernel, when it is built: ``_cforma`` (C, next to these rules) or None.

Why here, inside the game's package: rules code imports only ``core`` and ``geometry``, and the kernel
is this game's rules in another language, so it lives beside the Python it mirrors; the lookup (and the
``POLYTABLE_PURE`` switch) is :func:`polytable.core.native_module`. The kernel covers move generation
(count, sample, list through the anchor table), a placement's effect and score, whose turn is next, and a
random playout to the end that includes the players' set-up (and its random fill) and touch-move picks.
The bridge count (``_cforma_bridges.c``, a line-by-line port of ``_bridges``) and the AI's placement value
and reply bonus (``_cforma_eval.c``: ``_ai.place_value`` and ``polytable.ai.forma.best_bonus``) are in C
too. Notation, views and checks stay in Python. The pure-Python rules remain the reference:
tests/games/forma/test_forma_native.py plays both side by side, test_forma_eval_native.py compares the
bridge count and the evaluation.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from polytable.core import Rng, native_module

if TYPE_CHECKING:
    from ._state import FormaState

__all__ = ["EXT", "native_playout", "pure_engine"]

EXT: ModuleType | None = native_module("polytable.games.forma._cforma")
"""The extension module, or None when the pure engine runs."""


def native_playout(state: FormaState, rngs: Sequence[Rng], max_actions: int | None) -> tuple[FormaState, int]:
    """``Forma.playout`` in C (the caller checks ``EXT``): the set-up, touch-move picks and placements."""
    from ._state import FormaState  # here: _state's users import this module

    assert EXT is not None
    shared = len(rngs) == 1
    used = rngs[:1] if shared else rngs[: state.config.players]
    out = EXT.playout(
        state.size, state.obstacles, state.tower, state.pieces, state.markers, state.filled, state.stock,
        state.scores, state.bridges, state.closed, state.watch, state.turn, state.moves, state.last, state.exact,
        [r.state for r in used], shared, -1 if max_actions is None else max_actions,
        bool(state.config["touch_move"]), state.picked,
        state.misses, state.placing, state.rng,
    )  # fmt: skip
    pieces, markers, filled, stocks, scores, bridges, closed, watch, turn, moves, last, exact, states, taken = out[:14]
    obstacles, tower, picked, misses, placing, rng = out[14:]
    for r, st in zip(used, states, strict=True):
        r.state = st
    final = FormaState(
        state.config, state.size, obstacles, tower, pieces, markers, filled, stocks, scores, bridges, closed, watch,
        turn, picked, misses, moves, last, exact,
        stocks_orients(state, stocks), placing, rng,
    )  # fmt: skip
    return final, taken


def stocks_orients(state: FormaState, stocks: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """Each player's available orientations after a playout (unchanged stocks keep their tuples)."""
    from ._rules import avail_orients

    return tuple(
        o if s == s0 else avail_orients(s) for s, s0, o in zip(stocks, state.stock, state.orients, strict=True)
    )


class pure_engine:
    """Inside the block, the pure-Python rules run even where the kernel is built, so differential tests
    and ``polytable fuzz`` can play both engines side by side in one process. Not thread-safe."""

    def __enter__(self) -> None:
        from . import _ai, _game, _pieces, _rules, _setup

        self._modules = (vars(_rules), vars(_game), vars(_setup), vars(_ai))
        for d in self._modules:
            d["EXT"] = None
        for tb in _pieces._TABLES.values():
            tb.anchors = tb.pure_anchors

    def __exit__(self, *exc: object) -> None:
        from . import _pieces

        for d in self._modules:
            d["EXT"] = EXT
        for tb in _pieces._TABLES.values():
            tb.anchors = tb.native_anchors or tb.pure_anchors
