"""The rules tables as the compiled code reads them: the game's kernel (``_cquadefy``, see :mod:`._kernel`)
and the exact solver (``polytable.ai._native``) load the same flat lists, so the geometry stays
single-sourced in Python.
"""

from __future__ import annotations

from ._symmetry import transform_cells
from ._tables import BLOCK_INDEX, ORIENTS, PLACE_AT, PLACEMENTS

__all__ = ["export_tables", "solver_args"]

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
