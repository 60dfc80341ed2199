"""Precomputed geometry of Quadefy: blocks, orientations, placements and the masks move generation uses.

Everything here is built once at import, so move generation is a handful of shifts, ``&`` and ``|`` on
Python ints per orientation.

The playing space
-----------------
The 4x4x4 space is one 64-bit int (:class:`polytable.geometry.Grid3`): cell ``(x, y, z)`` is bit
``x + 4*y + 16*z``; ``x`` is the column (``a``-``d``), ``y`` the row (``1``-``4``), ``z`` the layer
(``1`` is the floor layer).

The translation space
---------------------
Reachability asks whether a block, in its final orientation, can be slid in from outside by unit moves.
That is a path question over *translations* of one orientation, so each orientation gets a 256-bit
"translation board": translation ``t = (tx, ty, tz)`` (the position of the corner of the block's bounding
box with the smallest coordinates) is bit ``(tx + 3) + 8*(ty + 3) + 64*tz`` for ``tx, ty`` in ``-3..3``
and ``tz`` in ``0..3``. Column 7 of each row and row 7 of each layer are *guard* bits that are never set,
so a shift by 1 (x) or 8 (y) never wraps, and a shift by 64 (z) falls off the ends.

For an orientation with extents ``(a, b, c)``:

* ``box``: the translations whose bounding box overlaps the 4x4x4 space from above the floor
  (``tx >= 1 - a``, ``ty >= 1 - b``, ``0 <= tz <= 3``). Every translation outside the box leaves the block
  wholly outside the space, where nothing blocks it; the floor (``tz < 0``) is never passable.
* ``seed``: the box translations on its outer faces (``tx = 1 - a`` or ``3``, ``ty = 1 - b`` or ``3``,
  ``tz = 3``): one unit move away from a translation wholly outside the space.
* ``inside``: the translations that keep all four cubes inside the space (the placements).

A placed cube at padded cell ``p`` blocks the translations ``p - k`` for each cube offset ``k`` of the
orientation, so the blocked set is ``OR_k (occupied_padded >> k)``: four shifts.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from polytable.geometry import TETRACUBES, Grid3, Shape3, orientations3

__all__ = [
    "ALL_BLOCKS",
    "BLOCKS",
    "BLOCK_INDEX",
    "BLOCK_ORIENTS",
    "BLOCK_TITLES",
    "FULL",
    "GRID",
    "LAYER0",
    "ORIENTS",
    "PLACEMENTS",
    "PLACE_AT",
    "Orient",
    "PlacementInfo",
    "cube_cells",
    "embed",
]

GRID = Grid3(4, 4, 4)
"""The 4x4x4 space: cell ``(x, y, z)`` is bit ``x + 4 y + 16 z`` of a cell set (``z`` = 0 on the floor)."""
FULL = GRID.full
"""Every cell of the space (64 bits set)."""
LAYER0 = GRID.layer(0)

BLOCKS: tuple[str, ...] = ("I", "O", "T", "L", "S", "B", "SL", "SR")
"""The eight blocks of each player, in a fixed order (the order of ids and of the legend)."""
BLOCK_INDEX: dict[str, int] = {name: i for i, name in enumerate(BLOCKS)}
BLOCK_TITLES: dict[str, str] = {
    "I": "I (straight)",
    "O": "O (square)",
    "T": "T",
    "L": "L",
    "S": "S (skew)",
    "B": "B (branch / tripod)",
    "SL": "SL (left screw)",
    "SR": "SR (right screw)",
}
ALL_BLOCKS = (1 << len(BLOCKS)) - 1
"""A bit set of blocks: bit ``i`` is ``BLOCKS[i]``."""

_PAD_X = 8
_PAD_Y = 64
_PAD = 256


def _pidx(tx: int, ty: int, tz: int) -> int:
    return (tx + 3) + _PAD_X * (ty + 3) + _PAD_Y * tz


def _embed_table() -> tuple[int, ...]:
    """Padded bits of one byte of the 64-bit space (two rows of one layer), before the byte's shift."""
    out = []
    for v in range(256):
        m = 0
        for i in range(8):
            if v >> i & 1:
                x, y = i % 4, i // 4
                m |= 1 << _pidx(x, y, 0)
        out.append(m)
    return tuple(out)


_EMBED8 = _embed_table()
_EMBED_SHIFT = tuple(64 * (i // 2) + 16 * (i % 2) for i in range(8))


def embed(b: int) -> int:
    """A 64-bit set of cells as a padded translation-board set (cell ``(x, y, z)`` at ``_pidx(x, y, z)``)."""
    e = _EMBED8
    return (
        e[b & 255]
        | e[b >> 8 & 255] << 16
        | e[b >> 16 & 255] << 64
        | e[b >> 24 & 255] << 80
        | e[b >> 32 & 255] << 128
        | e[b >> 40 & 255] << 144
        | e[b >> 48 & 255] << 192
        | e[b >> 56 & 255] << 208
    )


def cube_cells(b: int) -> list[tuple[int, int, int]]:
    return GRID.cells(b)


def _stable_subsets(cells: Shape3) -> tuple[int, ...]:
    """The minimal sets of resting cubes (as bit sets over the orientation's cube list) that hold the block.

    A rigid block resting on some of its cubes' bottoms is stable when the horizontal projection of its
    centre of mass lies strictly inside the convex hull of the supporting unit squares (a centre exactly
    on the edge is a knife-edge balance and counts as toppling). Stability only grows with more support,
    so the minimal stable subsets describe it completely.
    """
    n = len(cells)
    cx = sum(x + 0.5 for x, _, _ in cells) / n
    cy = sum(y + 0.5 for _, y, _ in cells) / n
    stable: list[int] = []
    for size in range(1, n + 1):
        for combo in combinations(range(n), size):
            mask = sum(1 << i for i in combo)
            if any(s & mask == s for s in stable):
                continue
            pts = []
            for i in combo:
                x, y, _ = cells[i]
                pts += [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]
            if _strictly_inside(cx, cy, _hull(pts)):
                stable.append(mask)
    return tuple(stable)


def _hull(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    pts = sorted(set(points))

    def cross(o: tuple[int, int], a: tuple[int, int], b: tuple[int, int]) -> int:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[int, int]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[int, int]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _strictly_inside(px: float, py: float, hull: list[tuple[int, int]]) -> bool:
    """Counter-clockwise hull: strictly left of every edge."""
    n = len(hull)
    for i in range(n):
        (ax, ay), (bx, by) = hull[i], hull[(i + 1) % n]
        if (bx - ax) * (py - ay) - (by - ay) * (px - ax) <= 1e-12:
            return False
    return True


@dataclass(frozen=True, slots=True)
class Orient:
    """One orientation of one block with its translation-board masks (see the module docstring)."""

    index: int
    block: int
    rotation: int
    cells: Shape3
    extent: tuple[int, int, int]
    offsets: tuple[int, ...]
    """Padded-board offset of each cube: ``kx + 8*ky + 64*kz``."""
    box: int
    seed: int
    inside: int
    stable: tuple[tuple[int, ...], ...]
    """Minimal stable sets of cube offsets (for the centre-of-mass option)."""
    first: int
    """Global id of this orientation's first placement."""


@dataclass(frozen=True, slots=True)
class PlacementInfo:
    """One placement: a block in one orientation at one translation inside the space."""

    id: int
    block: int
    rotation: int
    orient: int
    x: int
    y: int
    z: int
    mask: int
    pbit: int
    """Index of the translation on the padded board."""


def _build() -> tuple[tuple[Orient, ...], tuple[PlacementInfo, ...], tuple[tuple[int, ...], ...]]:
    orients: list[Orient] = []
    placements: list[PlacementInfo] = []
    place_at: list[tuple[int, ...]] = []
    for b, name in enumerate(BLOCKS):
        for r, cells in enumerate(orientations3(TETRACUBES[name])):
            a = max(c[0] for c in cells) + 1
            bb = max(c[1] for c in cells) + 1
            c = max(c[2] for c in cells) + 1
            box = seed = inside = 0
            for tz in range(0, 4):
                for ty in range(1 - bb, 4):
                    for tx in range(1 - a, 4):
                        bit = 1 << _pidx(tx, ty, tz)
                        box |= bit
                        if tx in (1 - a, 3) or ty in (1 - bb, 3) or tz == 3:
                            seed |= bit
                        if tx <= 4 - a and ty <= 4 - bb and tz <= 4 - c and tx >= 0 and ty >= 0:
                            inside |= bit
            offsets = tuple(x + _PAD_X * y + _PAD_Y * z for x, y, z in cells)
            subsets = _stable_subsets(cells)
            stable = tuple(tuple(offsets[i] for i in range(4) if s >> i & 1) for s in subsets)
            first = len(placements)
            at = [-1] * _PAD
            o = len(orients)
            for tz in range(0, 5 - c):
                for ty in range(0, 5 - bb):
                    for tx in range(0, 5 - a):
                        mask = GRID.mask((x + tx, y + ty, z + tz) for x, y, z in cells)
                        pid = len(placements)
                        p = _pidx(tx, ty, tz)
                        placements.append(PlacementInfo(pid, b, r, o, tx, ty, tz, mask, p))
                        at[p] = pid
            orients.append(Orient(o, b, r, cells, (a, bb, c), offsets, box, seed, inside, stable, first))
            place_at.append(tuple(at))
    return tuple(orients), tuple(placements), tuple(place_at)


ORIENTS, PLACEMENTS, PLACE_AT = _build()
"""All 86 orientations; all placements inside the space (the dense action ids); per orientation, the
placement id at each padded translation bit (-1 where none)."""

BLOCK_ORIENTS: tuple[tuple[Orient, ...], ...] = tuple(
    tuple(o for o in ORIENTS if o.block == b) for b in range(len(BLOCKS))
)
