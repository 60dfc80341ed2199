"""The 8 symmetries of Quadefy's playing space and the canonical position key of the full solver.

Gravity makes the floor special, so the symmetries of the game are those of the square footprint acting
on the columns and rows of every layer alike: 4 rotations about the vertical axis and 4 reflections
(the dihedral group D4). A rotation maps every block onto a placement of the same block. A reflection
maps the left screw ``SL`` onto a placement of the right screw ``SR`` and back (they are mirror images,
every other tetracube is its own mirror image), so a reflected position is the same game only when both
hands swap their ``SL`` and ``SR`` bits as well. With that swap all 8 transforms are exact symmetries:
the legal placements of the transformed position are the transformed legal placements (support and
reachability are defined by the cube, the floor and straight unit moves, all of which the transforms
preserve), so the transformed position has the same game value. ``tests/games/quadefy`` checks both facts
on every placement and on random positions.

A position for the solver is ``(occupied cells, hand of the player to move, hand of the other player)``:
who owns a placed cube never affects future moves. Its canonical key is the smallest packed key over the
8 transforms.
"""

from __future__ import annotations

from ._tables import BLOCK_INDEX, PLACEMENTS

__all__ = [
    "REFLECTS",
    "SYMMETRIES",
    "canonical_key",
    "pack_key",
    "swap_screws",
    "transform_cells",
    "transform_placement",
]

SYMMETRIES: tuple[str, ...] = ("id", "rot90", "rot180", "rot270", "mirror-x", "mirror-y", "diag", "anti-diag")
"""The transforms of the footprint, by index."""
REFLECTS: tuple[bool, ...] = (False, False, False, False, True, True, True, True)
"""Whether each transform is a reflection (swaps the screws)."""


def _map_xy(t: int, x: int, y: int) -> tuple[int, int]:
    return (
        (x, y),
        (3 - y, x),
        (3 - x, 3 - y),
        (y, 3 - x),
        (3 - x, y),
        (x, 3 - y),
        (y, x),
        (3 - y, 3 - x),
    )[t]


def _byte_tables() -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Per transform and per half layer (rows 1-2 or rows 3-4): the 16-bit layer image of each byte."""
    out = []
    for t in range(8):
        halves = []
        for half in range(2):
            row = []
            for v in range(256):
                m = 0
                for i in range(8):
                    if v >> i & 1:
                        x, y = i % 4, i // 4 + 2 * half
                        nx, ny = _map_xy(t, x, y)
                        m |= 1 << (nx + 4 * ny)
                row.append(m)
            halves.append(tuple(row))
        out.append((halves[0], halves[1]))
    return tuple(out)


_BYTES = _byte_tables()
_SL = BLOCK_INDEX["SL"]
_SR = BLOCK_INDEX["SR"]
_KEEP = ~((1 << _SL) | (1 << _SR)) & 255


def transform_cells(t: int, cells: int) -> int:
    """The 64-bit cell set ``cells`` under transform ``t`` (the same on every layer)."""
    lo, hi = _BYTES[t]
    out = 0
    for z in range(4):
        layer = cells >> (16 * z)
        out |= (lo[layer & 255] | hi[layer >> 8 & 255]) << (16 * z)
    return out


def swap_screws(hand: int) -> int:
    """A hand (bit set over BLOCKS) with the ``SL`` and ``SR`` bits exchanged."""
    return hand & _KEEP | (hand >> _SL & 1) << _SR | (hand >> _SR & 1) << _SL


def pack_key(occ: int, me: int, opp: int) -> int:
    """A position as one integer: the occupied cells (64 bits), then the mover's and the opponent's hands
    (8 bits each over BLOCKS); :func:`canonical_key` gives the least of these over the symmetries."""
    return occ | me << 64 | opp << 72


_TABLES = tuple(_BYTES[t][0] + _BYTES[t][1] for t in range(8))


def canonical_key(occ: int, me: int, opp: int) -> int:
    """The smallest :func:`pack_key` over the 8 transforms (reflections swap both hands' screws)."""
    b0 = occ & 255
    b1 = occ >> 8 & 255
    b2 = occ >> 16 & 255
    b3 = occ >> 24 & 255
    b4 = occ >> 32 & 255
    b5 = occ >> 40 & 255
    b6 = occ >> 48 & 255
    b7 = occ >> 56 & 255
    hands = me << 64 | opp << 72
    mirrored = swap_screws(me) << 64 | swap_screws(opp) << 72
    best = occ | hands
    for t in range(1, 8):
        tab = _TABLES[t]
        k = (
            tab[b0]
            | tab[256 + b1]
            | (tab[b2] | tab[256 + b3]) << 16
            | (tab[b4] | tab[256 + b5]) << 32
            | (tab[b6] | tab[256 + b7]) << 48
        ) | (mirrored if t >= 4 else hands)
        if k < best:
            best = k
    return best


def _placement_maps() -> tuple[tuple[int, ...], ...]:
    where = {(p.block, p.mask): p.id for p in PLACEMENTS}
    maps = []
    for t in range(8):
        row = []
        for p in PLACEMENTS:
            block = p.block
            if REFLECTS[t] and block in (_SL, _SR):
                block = _SR if block == _SL else _SL
            image = where.get((block, transform_cells(t, p.mask)))
            if image is None:  # pragma: no cover - would mean the tables are not closed under the symmetry
                raise AssertionError(f"placement {p.id} has no image under {SYMMETRIES[t]}")
            row.append(image)
        maps.append(tuple(row))
    return tuple(maps)


_PLACEMENT_MAPS = _placement_maps()


def transform_placement(t: int, pid: int) -> int:
    """The placement id that placement ``pid`` becomes under transform ``t``."""
    return _PLACEMENT_MAPS[t][pid]
