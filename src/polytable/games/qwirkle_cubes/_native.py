"""Qwirkle Cubes' compiled kernel, when it is built: ``_cqwirkle`` (C, next to these rules) or None.

Why here, inside the game's package: rules code imports only ``core`` and ``geometry``, and the kernel
is this game's rules in another language, so it lives beside the Python it mirrors; the lookup (and the
``POLYTABLE_PURE`` switch) is :func:`polytable.core.native_module`. The kernel covers placement
generation (count, the uniform sample with the same draw as ``_game._sample``, the list, all in the order
of ``Board.placements``), the greedy evaluation of many placements at once (``_eval.py``: one hand's, or
every placement by colour counts, with their values, and a reroll's sampled rolls) and a random playout
to the end with every chance event (``_cqwirkle.c``, ``qwirkle_board.c``, ``qwirkle_flow.c``). Checking
a typed move, notation, ids and views stay in Python. The pure-Python rules remain the reference:
tests/games/qwirkle_cubes/test_qwirkle_native.py and test_qwirkle_eval_native.py play both side by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from polytable.core import Rng, native_module

from ._board import Board
from ._state import QState, evolve

__all__ = ["EXT", "native_playout", "pure_engine"]

EXT: ModuleType | None = native_module("polytable.games.qwirkle_cubes._cqwirkle")
"""The extension module, or None when the pure engine runs."""


def native_playout(state: QState, rngs: Sequence[Rng], max_actions: int | None) -> tuple[QState, int]:
    """``QwirkleCubes.playout`` in C (the caller checks ``EXT``): the same draws and the same final state."""
    assert EXT is not None
    shared = len(rngs) == 1
    used = rngs[:1] if shared else rngs[: state.config.players]
    out = EXT.playout(
        state.config.players, state.rng, state.phase, state.player, state.hands, state.bag, state.points,
        state.placed, state.rolling, state.forced, state.passes, state.turn, state.last, state.finisher,
        [r.state for r in used], shared, -1 if max_actions is None else max_actions,
    )  # fmt: skip
    rng, phase, player, hands, bag, points, placed, rolling, forced, passes, turn, last, finisher, states, n = out
    for r, st in zip(used, states, strict=True):
        r.state = st
    board = state.board if len(placed) == len(state.placed) else Board.from_parts(placed, *EXT.table(placed))
    final = evolve(
        state, rng=rng, phase=phase, player=player, hands=hands, bag=bag, points=points, placed=placed,
        rolling=rolling, forced=forced, passes=passes, turn=turn, last=last, finisher=finisher, board=board,
    )  # fmt: skip
    return final, n


class pure_engine:
    """Inside the block, the pure-Python rules run even where the kernel is built, so differential tests
    and ``polytable fuzz`` can play both engines side by side in one process. Not thread-safe."""

    def __enter__(self) -> None:
        from . import _eval, _game

        self._modules = (vars(_game), vars(_eval))
        for m in self._modules:
            m["EXT"] = None

    def __exit__(self, *exc: object) -> None:
        for m in self._modules:
            m["EXT"] = EXT
