"""Qwirkle Cubes' rules kernel, the one seam between the pure-Python rules and the compiled ``_cqwirkle``.

The game object picks its kernel once, when it is made (``get_game("qwirkle-cubes", engine=...)``): a
:class:`QwirkleKernel` (the Python ``Board``, the reference) or a
:class:`CompiledQwirkle` (the same interface over the C extension built with the package). The kernel
covers placement generation (count, the uniform sample with the same draw as ``_game._sample``, the list,
all in the order of ``Board.placements``) and a random playout to the end with every chance event. Checking
a typed move, notation, ids and views stay in Python; the AI's values (``polytable.ai.qwirkle_cubes``) are
not the kernel's: its compiled evaluation is its own extension, which reads this one's table through a
capsule (``QwirkleAPI`` in ``qwirkle_api.h``). tests/games/qwirkle_cubes/test_qwirkle_native.py plays both
kernels side by side; docs/engine.md describes the seam.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import ModuleType

from polytable.core import Rng

from ._board import Board, Placement
from ._state import QState, evolve

__all__ = ["CompiledQwirkle", "QwirkleKernel"]


class QwirkleKernel:
    """The pure-Python kernel: the reference every compiled answer must equal. ``memo`` (placement ->
    value) lets the Python keep the values of one board and one look across calls; the compiled kernel
    ignores it (a value costs less there than a dictionary lookup here)."""

    def placements(self, state: QState, hand: int, need: int) -> Iterable[Placement]:
        return state.board.placements(hand, need)

    def count(self, state: QState, hand: int, need: int) -> int:
        return state.board.count(hand, need)

    def sample(self, state: QState, hand: int, need: int, rng: Rng) -> Placement | None:
        """A uniformly random placement (``rng.below(count)``), None when none fits."""
        n = state.board.count(hand, need)
        return state.board.sample(hand, need, rng.below(n)) if n else None

    def playout(self, state: QState, rngs: Sequence[Rng], max_actions: int | None) -> tuple[QState, int] | None:
        """The whole random playout in one call, or None: the game plays it step by step."""
        return None

    # The players' batch values: the Python of ._eval is the reference (the same signatures below).


class CompiledQwirkle(QwirkleKernel):
    """The same kernel in C (``_cqwirkle``): the same placements in the same order, the same draws and
    doubles, faster."""

    def __init__(self, ext: ModuleType) -> None:
        self.ext = ext

    def placements(self, state: QState, hand: int, need: int) -> Iterable[Placement]:
        return self.ext.placements(state.placed, hand, need)  # type: ignore[no-any-return]

    def count(self, state: QState, hand: int, need: int) -> int:
        return int(self.ext.count(state.placed, hand, need))

    def sample(self, state: QState, hand: int, need: int, rng: Rng) -> Placement | None:
        cubes, rng.state = self.ext.sample(state.placed, hand, need, rng.state)
        return cubes  # type: ignore[no-any-return]

    def playout(self, state: QState, rngs: Sequence[Rng], max_actions: int | None) -> tuple[QState, int]:
        """The turns to the end in C: the same draws and the same final state."""
        shared = len(rngs) == 1
        used = rngs[:1] if shared else rngs[: state.config.players]
        out = self.ext.playout(
            state.config.players, state.rng, state.phase, state.player, state.hands, state.bag, state.points,
            state.placed, state.rolling, state.forced, state.passes, state.turn, state.last, state.finisher,
            [r.state for r in used], shared, -1 if max_actions is None else max_actions,
        )  # fmt: skip
        rng, phase, player, hands, bag, points, placed, rolling, forced, passes, turn, last, finisher, states, n = out
        for r, st in zip(used, states, strict=True):
            r.state = st
        same = len(placed) == len(state.placed)
        board = state.board if same else Board.from_parts(placed, *self.ext.table(placed))
        final = evolve(
            state, rng=rng, phase=phase, player=player, hands=hands, bag=bag, points=points, placed=placed,
            rolling=rolling, forced=forced, passes=passes, turn=turn, last=last, finisher=finisher, board=board,
        )  # fmt: skip
        return final, n
