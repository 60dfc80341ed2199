"""Int bitboards for 2D and 3D grids.

2D: cell ``(x, y)`` is bit ``y * stride + x`` with ``stride = width + 1``: the extra *guard column* is
always empty, so shifting a set one step left or right never wraps a cell onto the next row, and shifts
up and down fall off the ends (they are masked with the board). A whole-board test is one ``&``. Each
game keeps its own precomputed tables in this layout; the shared parts are the bit helpers below.

3D (:class:`Grid3`): cell ``(x, y, z)`` is bit ``x + w*(y + d*z)`` with no guard bits, so a 4x4x4 space is
exactly one 64-bit int; shifts along x and y are masked with precomputed "not on this face" masks.

Layout of a 4x3 2D grid (stride 5; ``g`` marks guard bits)::

     0  1  2  3  g4
     5  6  7  8  g9
    10 11 12 13  g14
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

__all__ = ["Grid3", "bits", "flood", "lowest", "popcount", "select_bit"]


def bits(b: int) -> Iterator[int]:
    """The indices of the set bits of ``b``, lowest first."""
    while b:
        low = b & -b
        yield low.bit_length() - 1
        b ^= low


def lowest(b: int) -> int:
    """The index of the lowest set bit of ``b`` (``b`` > 0); -1 for 0."""
    return (b & -b).bit_length() - 1


def select_bit(b: int, k: int) -> int:
    """The index of the ``k``-th set bit of ``b`` (0 = lowest): how a uniform draw among the cells of a set
    picks its cell. ``k`` must be below ``b.bit_count()``. Halves a long board by popcount, then walks."""
    base = 0
    width = b.bit_length()
    while width > 8:
        half = width >> 1
        low = b & ((1 << half) - 1)
        c = low.bit_count()
        if k < c:
            b = low
            width = half
        else:
            k -= c
            b >>= half
            base += half
            width -= half
    for _ in range(k):
        b &= b - 1
    return base + (b & -b).bit_length() - 1


def popcount(b: int) -> int:
    """The number of set bits (cells) of ``b``."""
    return b.bit_count()


def flood(seed: int, passable: int, stride: int) -> int:
    """The cells of ``passable`` edge-connected to ``seed & passable`` on a 2D bitboard of row length
    ``stride`` (the layout above). ``passable`` must leave the guard column empty, which keeps a step left
    or right on its row; steps off the top and bottom fall outside ``passable``."""
    region = seed & passable
    while True:
        grown = (region | (region << 1) | (region >> 1) | (region << stride) | (region >> stride)) & passable
        if grown == region:
            return region
        region = grown


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
