"""Quadefy's compiled move generator, when it is built: ``_cquadefy`` (C) or None.

Why here, inside the game's package: rules code imports only ``core`` and ``geometry``. The C bit logic
is the exact solver's (``ai/_native/quadefy_solve.c``, compiled into this extension as well), fed with the
tables of :func:`export_tables`, so the geometry stays single-sourced in Python. The kernel covers legal
placements (count, list, any), the legality test of a placement, sampling with the same draws as
``_moves.sample_placement``, apply, a random playout and batches of seeded playouts; it builds
:class:`QuadefyState` values itself (``bind``). The pure rules remain the reference (``polytable fuzz
quadefy``).
"""

from __future__ import annotations

from types import ModuleType

from polytable.core import native_module

from ._state import QuadefyState
from ._symmetry import transform_cells
from ._tables import BLOCK_INDEX, ORIENTS, PLACE_AT, PLACEMENTS

__all__ = ["EXT", "export_tables", "pure_engine"]

_MAXSUB = 24


def export_tables() -> dict[str, list[int]]:
    """The rules tables as flat integer lists, in the layout ``qs_init`` reads (see the C file)."""
    word = (1 << 64) - 1
    oblock: list[int] = []
    ooff: list[int] = []
    omasks: list[int] = []
    osub: list[int] = []
    pat: list[int] = []
    for o in ORIENTS:
        oblock.append(o.block)
        ooff.extend(o.offsets)
        for m in (o.inside, o.box, o.seed):
            omasks.extend((m >> (64 * w)) & word for w in range(4))
        assert len(o.stable) <= _MAXSUB  # the C tables' limit; the tetracubes have at most a handful
        for s in range(_MAXSUB):
            if s < len(o.stable):
                sub = list(o.stable[s])
                osub.extend([len(sub), *sub, *[0] * (4 - len(sub))])
            else:
                osub.extend([0] * 5)
        pat.extend(PLACE_AT[o.index])
    perm = []
    for t in range(8):
        for cell in range(64):
            perm.append(transform_cells(t, 1 << cell).bit_length() - 1)
    return {
        "oblock": oblock,
        "ooff": ooff,
        "omasks": omasks,
        "osub": osub,
        "place_at": pat,
        "pmask": [p.mask for p in PLACEMENTS],
        "pblock": [p.block for p in PLACEMENTS],
        "perm": perm,
        "screws": [BLOCK_INDEX["SL"], BLOCK_INDEX["SR"]],
    }


def solver_args(t: dict[str, list[int]]) -> tuple[object, ...]:
    """The arguments of the C ``qs_init`` (and of ``_qsolve.init``) in order."""
    return (
        t["oblock"], t["ooff"], t["omasks"], t["osub"], t["place_at"], t["pmask"], t["pblock"], t["perm"],
        t["screws"][0], t["screws"][1],
    )  # fmt: skip


def _load() -> ModuleType | None:
    ext = native_module("polytable.games.quadefy._cquadefy")
    if ext is not None:
        t = export_tables()
        ext.init(solver_args(t), t["pmask"], t["pblock"], [p.orient for p in PLACEMENTS], [p.pbit for p in PLACEMENTS])
        ext.bind(QuadefyState)
    return ext


EXT: ModuleType | None = _load()
"""The extension module, or None when the pure engine runs."""


class pure_engine:
    """Inside the block, the pure-Python rules run even where the kernel is built (differential tests)."""

    def __enter__(self) -> None:
        from . import _game, _moves

        self._modules = (vars(_moves), vars(_game))
        for d in self._modules:
            d["EXT"] = None

    def __exit__(self, *exc: object) -> None:
        for d in self._modules:
            d["EXT"] = EXT
