"""Quadefy's rules kernel, the one seam between the pure-Python rules and the compiled ``_cquadefy``.

The game object picks its kernel once, when it is made (``get_game("quadefy", engine=...)``): a
:class:`QuadefyKernel` (the Python rules of :mod:`._moves`, the reference) or a :class:`CompiledQuadefy`
(the same interface over the C extension built with the package; its bit logic is the exact solver's,
``ai/_native/quadefy_solve.c``, fed with the tables of :func:`._native.export_tables`). The kernel covers
legal placements (count, list, any), the legality test of a placement, sampling with the same draws as
``_moves.sample_placement``, apply, a random playout and batches of seeded playouts. Where the compiled
kernel declines (None, or -1 for a draw), the game takes its checked Python path. The solvers take the
kernel too, for their move ordering. ``polytable fuzz quadefy`` and tests/games/quadefy/test_quadefy_kernel.py
play both kernels side by side; docs/engine.md describes the seam.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import ModuleType

from polytable.core import Rng, StateLayout

from ._moves import any_legal, legal_count, placement_ids, sample_placement
from ._native import export_tables, solver_args
from ._state import QuadefyState
from ._tables import PLACEMENTS

__all__ = ["POSITION", "CompiledQuadefy", "QuadefyKernel"]

POSITION = StateLayout(
    (
        ("occupied", "Q", 1),
        ("owned", "Q", 2),
        ("remaining", "q", 2),
        ("to_move", "q", 1),
        ("loser", "q", 1),
        ("flags", "q", 1),
    )
)
"""The compiled kernel's state buffer (``_cquadefy.c``'s QBuf): a :class:`QuadefyState`'s numbers, each named
after its field (``owned`` and ``remaining``: a pair each). The one description of it: the kernel binds the
state class with it (``bind``, which checks it against the struct) and reads and makes states through it; the
C also reports the struct (``layout()``) and tests/kernel/test_layouts.py compares. The config and the moves
travel as the state's own objects."""


class QuadefyKernel:
    """The pure-Python kernel: the reference every compiled answer must equal."""

    def count(self, occ: int, rem: int, flags: int) -> int:
        """How many placements hand ``rem`` has in position ``occ``."""
        return legal_count(occ, rem, flags)

    def any(self, occ: int, rem: int, flags: int) -> bool:
        """Whether hand ``rem`` can place some block."""
        return any_legal(occ, rem, flags)

    def legal(self, occ: int, rem: int, flags: int) -> Iterable[int]:
        """Every legal placement id, in the order ``_moves.legal_sets`` gives them."""
        return placement_ids(occ, rem, flags)

    def sample(self, occ: int, rem: int, flags: int, rng: Rng) -> int | None:
        """A uniformly random legal placement id (None when there is none)."""
        return sample_placement(occ, rem, flags, rng.u64)

    def draw(self, state: QuadefyState, player: int, rng: Rng) -> int:
        """The legal-action view's ``sample`` in one call, or -1 (generator untouched): ask :meth:`sample`."""
        return -1

    def allowed(self, occ: int, pid: int, flags: int) -> bool:
        """True when placement ``pid`` is certainly legal here (False: the Python check judges and explains)."""
        return False

    def apply(self, state: QuadefyState, pid: int, player: int | None) -> QuadefyState | None:
        """A legal move checked and applied in one call, or None: the game's checked path decides."""
        return None

    def playout(
        self, state: QuadefyState, rngs: Sequence[Rng], max_actions: int | None
    ) -> tuple[QuadefyState, int] | None:
        """The whole random playout in one call, or None: the game plays it step by step."""
        return None

    def playouts(self, state: QuadefyState, seeds: Sequence[int], stream: int) -> list[tuple[QuadefyState, int]] | None:
        """A batch of seeded playouts in one call, or None: the game plays them one by one."""
        return None


class CompiledQuadefy(QuadefyKernel):
    """The same kernel in C (``_cquadefy``): identical placements, draws and states, faster."""

    _ready: set[int] = set()  # noqa: RUF012 (the extensions whose tables are loaded: once a process)

    def __init__(self, ext: ModuleType) -> None:
        self.ext = ext
        if id(ext) not in self._ready:
            t = export_tables()
            ext.init(
                solver_args(t), t["pmask"], t["pblock"], [p.orient for p in PLACEMENTS], [p.pbit for p in PLACEMENTS]
            )
            ext.bind(QuadefyState, POSITION.codec_spec(QuadefyState))
            self._ready.add(id(ext))

    def count(self, occ: int, rem: int, flags: int) -> int:
        return int(self.ext.count(occ, rem, flags))

    def any(self, occ: int, rem: int, flags: int) -> bool:
        return bool(self.ext.any(occ, rem, flags))

    def legal(self, occ: int, rem: int, flags: int) -> Iterable[int]:
        return self.ext.legal(occ, rem, flags)  # type: ignore[no-any-return]

    def sample(self, occ: int, rem: int, flags: int, rng: Rng) -> int | None:
        p, rng.state = self.ext.sample(occ, rem, flags, rng.state)
        return None if p < 0 else int(p)

    def draw(self, state: QuadefyState, player: int, rng: Rng) -> int:
        return int(self.ext.draw(state, player, rng))

    def allowed(self, occ: int, pid: int, flags: int) -> bool:
        return not self.ext.why(occ, pid, flags)

    def apply(self, state: QuadefyState, pid: int, player: int | None) -> QuadefyState | None:
        return self.ext.apply(state, pid, player)  # type: ignore[no-any-return]

    def playout(
        self, state: QuadefyState, rngs: Sequence[Rng], max_actions: int | None
    ) -> tuple[QuadefyState, int] | None:
        if state.loser >= 0:
            return None
        return self.ext.playout(state, list(rngs[:2]), -1 if max_actions is None else max_actions)  # type: ignore[no-any-return]

    def playouts(self, state: QuadefyState, seeds: Sequence[int], stream: int) -> list[tuple[QuadefyState, int]] | None:
        return self.ext.playouts(state, list(seeds), stream)  # type: ignore[no-any-return]
