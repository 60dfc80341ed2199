"""Int bitboards for 2D and 3D grids.

2D: cell ``(x, y)`` is bit ``y * stride + x`` with ``stride = width + 1``: the extra *guard column* is
always empty, so shifting a set one step left or right never wraps a cell onto the next row, and shifts
up and down fall off the ends (they are masked with :attr:`Grid.full`). A whole-board test is one ``&``.

3D (:class:`Grid3`): cell ``(x, y, z)`` is bit ``x + w*(y + d*z)`` with no guard bits, so a 4x4x4 space is
exactly one 64-bit int; shifts along x and y are masked with precomputed "not on this face" masks.

Layout of a 4x3 2D grid (stride 5; ``g`` marks guard bits)::

     0  1  2  3  g4
     5  6  7  8  g9
    10 11 12 13  g14
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Literal

from ._polyomino import Cell, Shape

__all__ = ["DIRECTIONS", "Direction", "Grid", "Grid3", "bits", "popcount"]

Direction = Literal["up", "down", "left", "right"]
DIRECTIONS: tuple[Direction, ...] = ("up", "down", "left", "right")


def bits(b: int) -> Iterator[int]:
    """The indices of the set bits of ``b``, lowest first."""
    while b:
        low = b & -b
        yield low.bit_length() - 1
        b ^= low


def popcount(b: int) -> int:
    return b.bit_count()


class Grid:
    """Geometry of a ``width`` x ``height`` board with a guard column (see the module docstring)."""

    __slots__ = ("_col0", "_col_last", "_row0", "_row_last", "full", "height", "size", "stride", "width")

    def __init__(self, width: int, height: int) -> None:
        if width < 1 or height < 1:
            raise ValueError("a grid needs at least one row and one column")
        self.width = width
        self.height = height
        self.stride = width + 1
        self.size = self.stride * height
        row = (1 << width) - 1
        self.full = sum(row << (y * self.stride) for y in range(height))
        self._col0 = sum(1 << (y * self.stride) for y in range(height))
        self._col_last = self._col0 << (width - 1)
        self._row0 = row
        self._row_last = row << ((height - 1) * self.stride)

    # ---------------------------------------------------------------- cells
    def index(self, x: int, y: int) -> int:
        return y * self.stride + x

    def bit(self, x: int, y: int) -> int:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"cell ({x}, {y}) is off the {self.width}x{self.height} grid")
        return 1 << (y * self.stride + x)

    def cell(self, index: int) -> Cell:
        y, x = divmod(index, self.stride)
        return x, y

    def mask(self, cells: Iterable[Cell]) -> int:
        """The bitboard of some cells (each must be on the grid)."""
        m = 0
        for x, y in cells:
            m |= self.bit(x, y)
        return m

    def cells(self, b: int) -> list[Cell]:
        return [self.cell(i) for i in bits(b)]

    def contains(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def column(self, x: int) -> int:
        return self._col0 << x

    def row(self, y: int) -> int:
        return self._row0 << (y * self.stride)

    # ---------------------------------------------------------------- shapes
    def shape_mask(self, shape: Shape) -> int:
        """The mask of a normalised shape anchored at (0, 0) (its cells must fit on the grid)."""
        return self.mask(shape)

    def placements(self, shape: Shape) -> list[tuple[int, int, int]]:
        """Every ``(x, y, mask)`` at which a normalised shape lies wholly on the grid."""
        w = max(c[0] for c in shape) + 1
        h = max(c[1] for c in shape) + 1
        if w > self.width or h > self.height:
            return []
        base = self.shape_mask(shape)
        return [
            (x, y, base << (y * self.stride + x)) for y in range(self.height - h + 1) for x in range(self.width - w + 1)
        ]

    def anchors(self, shape: Shape) -> int:
        """The set of anchor cells ``(x, y)`` (as a bitboard) where a shape fits on the grid."""
        w = max(c[0] for c in shape) + 1
        h = max(c[1] for c in shape) + 1
        if w > self.width or h > self.height:
            return 0
        out = 0
        for y in range(self.height - h + 1):
            out |= ((1 << (self.width - w + 1)) - 1) << (y * self.stride)
        return out

    def fits_anywhere(self, shape: Shape, free: int) -> int:
        """Bitboard of anchors where the shape lies on ``free`` cells only (word-parallel over the board):
        ``AND over the shape's cells of (free >> offset)``, restricted to the on-grid anchors."""
        ok = self.anchors(shape)
        for x, y in shape:
            ok &= free >> (y * self.stride + x)
            if not ok:
                break
        return ok

    # ---------------------------------------------------------------- shifts and neighbourhoods
    def shift(self, b: int, dx: int, dy: int) -> int:
        """Move every cell by (dx, dy); cells that leave the grid vanish."""
        for _ in range(abs(dx)):
            b = ((b & ~self._col_last) << 1) if dx > 0 else ((b & ~self._col0) >> 1)
        off = dy * self.stride
        b = b << off if off >= 0 else b >> -off
        return b & self.full

    def step(self, b: int, direction: Direction) -> int:
        if direction == "right":
            return (b << 1) & self.full
        if direction == "left":
            return (b >> 1) & self.full
        if direction == "down":
            return (b << self.stride) & self.full
        return b >> self.stride

    def neighbours4(self, b: int) -> int:
        """Cells edge-adjacent to ``b`` (not including ``b`` unless adjacent to itself)."""
        s = self.stride
        return ((b << 1) | (b >> 1) | (b << s) | (b >> s)) & self.full

    def neighbours8(self, b: int) -> int:
        """Cells edge- or corner-adjacent to ``b``."""
        s = self.stride
        h = b | (b << 1) | (b >> 1)
        return ((h | (h << s) | (h >> s)) & self.full) & ~b | (self.neighbours4(b) & b)

    def corners(self, b: int) -> int:
        """Cells that touch ``b`` only diagonally-adjacent positions (corner neighbours)."""
        s = self.stride
        d = (b << (s + 1)) | (b << (s - 1)) | (b >> (s + 1)) | (b >> (s - 1))
        return d & self.full

    def slide(self, mask: int, blocked: int, direction: Direction) -> int | None:
        """Slide ``mask`` straight in ``direction`` until the next step would hit ``blocked`` or leave the
        grid; the resting mask, or None if it overlaps ``blocked`` to begin with."""
        if mask & blocked:
            return None
        n = mask.bit_count()
        while True:
            nxt = self.step(mask, direction)
            if nxt.bit_count() != n or nxt & blocked:
                return mask
            mask = nxt

    def flood(self, seed: int, passable: int) -> int:
        """All cells of ``passable`` edge-connected to ``seed & passable``."""
        region = seed & passable
        while True:
            grown = (region | self.neighbours4(region)) & passable
            if grown == region:
                return region
            region = grown

    def components(self, b: int) -> list[int]:
        """The edge-connected components of ``b``, ordered by their lowest cell."""
        out = []
        while b:
            comp = self.flood(b & -b, b)
            out.append(comp)
            b &= ~comp
        return out

    def border(self) -> int:
        """The cells on the edge of the grid."""
        return (self._row0 | self._row_last | self._col0 | self._col_last) & self.full

    def runs(self, b: int, k: int, direction: tuple[int, int]) -> int:
        """Start cells of runs of ``k`` consecutive set cells in ``direction`` (one of (1,0), (0,1),
        (1,1), (-1,1)); the guard column stops horizontal and diagonal runs from wrapping."""
        dx, dy = direction
        off = dy * self.stride + dx
        acc = b
        for i in range(1, k):
            shifted = b >> (off * i) if off > 0 else b << (-off * i)
            acc &= shifted
        return acc & self.full

    def render(self, b: int, on: str = "#", off: str = ".") -> str:
        return "\n".join(
            "".join(on if b >> (y * self.stride + x) & 1 else off for x in range(self.width))
            for y in range(self.height)
        )


class Grid3:
    """A dense ``w`` x ``d`` x ``h`` 3D grid in one int: bit ``x + w*(y + d*z)`` (4x4x4 = 64 bits)."""

    __slots__ = ("_not_x0", "_not_xl", "_not_y0", "_not_yl", "d", "full", "h", "layer0", "size", "w")

    def __init__(self, w: int, d: int, h: int) -> None:
        self.w, self.d, self.h = w, d, h
        self.size = w * d * h
        self.full = (1 << self.size) - 1
        x0 = xl = y0 = yl = 0
        for z in range(h):
            for y in range(d):
                for x in range(w):
                    i = self.index(x, y, z)
                    if x == 0:
                        x0 |= 1 << i
                    if x == w - 1:
                        xl |= 1 << i
                    if y == 0:
                        y0 |= 1 << i
                    if y == d - 1:
                        yl |= 1 << i
        self._not_x0 = self.full & ~x0
        self._not_xl = self.full & ~xl
        self._not_y0 = self.full & ~y0
        self._not_yl = self.full & ~yl
        self.layer0 = (1 << (w * d)) - 1

    def index(self, x: int, y: int, z: int) -> int:
        return x + self.w * (y + self.d * z)

    def cell(self, index: int) -> tuple[int, int, int]:
        z, rest = divmod(index, self.w * self.d)
        y, x = divmod(rest, self.w)
        return x, y, z

    def contains(self, x: int, y: int, z: int) -> bool:
        return 0 <= x < self.w and 0 <= y < self.d and 0 <= z < self.h

    def mask(self, cells: Iterable[tuple[int, int, int]]) -> int:
        m = 0
        for x, y, z in cells:
            if not self.contains(x, y, z):
                raise ValueError(f"cell ({x}, {y}, {z}) is outside the {self.w}x{self.d}x{self.h} space")
            m |= 1 << self.index(x, y, z)
        return m

    def cells(self, b: int) -> list[tuple[int, int, int]]:
        return [self.cell(i) for i in bits(b)]

    def layer(self, z: int) -> int:
        return self.layer0 << (z * self.w * self.d)

    def step(self, b: int, axis: int, sign: int) -> int:
        """Move every cell one unit along ``axis`` (0 x, 1 y, 2 z) in direction ``sign``; cells that
        leave the space vanish."""
        if axis == 0:
            return ((b & self._not_xl) << 1) if sign > 0 else ((b & self._not_x0) >> 1)
        if axis == 1:
            return ((b & self._not_yl) << self.w) if sign > 0 else ((b & self._not_y0) >> self.w)
        off = self.w * self.d
        return ((b << off) & self.full) if sign > 0 else (b >> off)

    def neighbours6(self, b: int) -> int:
        out = 0
        for axis in range(3):
            out |= self.step(b, axis, 1) | self.step(b, axis, -1)
        return out

    def flood(self, seed: int, passable: int) -> int:
        region = seed & passable
        while True:
            grown = (region | self.neighbours6(region)) & passable
            if grown == region:
                return region
            region = grown
