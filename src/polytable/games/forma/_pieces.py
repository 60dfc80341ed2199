"""Forma's piece set and the bitboard tables built from it once, at import.

Why tables: move generation is the hot loop of every playout. A board is one Python int with a row stride
of ``size + 4`` (four always-empty guard columns: a piece is at most 5 cells wide, so shifting a set by up
to 4 columns never wraps a cell onto the next row). For every one of the 91 fixed orientations of the 21
free polyominoes, ``AND over the piece's cells of (free >> offset)`` is the set of every legal anchor at
once. The 91 ANDs share their operands: the generated function below computes each distinct shifted copy
of ``free`` once and each common prefix of the sorted offset lists once (a trie), so the whole table costs
about 25 shifts and 170 ANDs of 440-bit ints.

Pieces are numbered 0-20 in :func:`polytable.geometry.free_polyominoes` order (by size, then canonical
form) and named with :func:`polytable.geometry.free_name` (``1``, ``2``, ``I3`` ... ``X5``). An
orientation is a square symmetry ``k`` (0-7: ``k % 4`` quarter turns clockwise, then a left-right mirror if
``k >= 4``) applied to the canonical form; symmetric pieces keep only the first ``k`` of each distinct
shape, so every placement has exactly one name and one id.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from polytable.geometry import Shape, bits, free_name, free_polyominoes, select_bit, transform

__all__ = [
    "GUARD",
    "NUM_ORIENTS",
    "NUM_PIECES",
    "ORIENT_CELLS",
    "ORIENT_GK",
    "ORIENT_H",
    "ORIENT_K",
    "ORIENT_OF",
    "ORIENT_PIECE",
    "ORIENT_REF",
    "ORIENT_SIZE",
    "ORIENT_W",
    "PIECE_NAMES",
    "PIECE_ORIENTS",
    "PIECE_SHAPES",
    "PIECE_SIZES",
    "START_COUNTS",
    "Tables",
    "canonical_k",
    "piece_index",
    "select_bit",
    "tables",
]

GUARD = 4
"""Empty guard columns right of the board: a piece spans at most 5 columns, so shifts never wrap."""

PIECE_SHAPES: tuple[Shape, ...] = tuple(s for n in range(1, 6) for s in free_polyominoes(n))
"""The 21 free polyominoes of 1-5 cells, each in its canonical form, indexed by piece number."""
PIECE_NAMES: tuple[str, ...] = tuple(free_name(s) for s in PIECE_SHAPES)
PIECE_SIZES: tuple[int, ...] = tuple(len(s) for s in PIECE_SHAPES)
NUM_PIECES = len(PIECE_SHAPES)
START_COUNTS: tuple[int, ...] = tuple(2 if n == 1 else 1 for n in PIECE_SIZES)
"""One colour's set: every free polyomino of 1-5 cells once, the single square twice (22 pieces, 90 cells)."""

_orients: list[tuple[int, int, Shape]] = []
_piece_orients: list[tuple[int, ...]] = []
_canon: dict[tuple[int, int], int] = {}
for _p, _shape in enumerate(PIECE_SHAPES):
    _seen: dict[Shape, int] = {}
    _mine: list[int] = []
    for _k in range(8):
        _s = transform(_shape, _k)
        if _s not in _seen:
            _seen[_s] = len(_orients)
            _mine.append(len(_orients))
            _orients.append((_p, _k, _s))
        _canon[(_p, _k)] = _seen[_s]
    _piece_orients.append(tuple(_mine))

NUM_ORIENTS = len(_orients)
"""How many distinct orientations the pieces have in all: the 91 fixed polyominoes of 1-5 cells."""
ORIENT_PIECE: tuple[int, ...] = tuple(p for p, _, _ in _orients)
ORIENT_K: tuple[int, ...] = tuple(k for _, k, _ in _orients)
ORIENT_CELLS: tuple[Shape, ...] = tuple(s for _, _, s in _orients)
ORIENT_SIZE: tuple[int, ...] = tuple(len(s) for s in ORIENT_CELLS)
ORIENT_W: tuple[int, ...] = tuple(max(c[0] for c in s) + 1 for s in ORIENT_CELLS)
ORIENT_H: tuple[int, ...] = tuple(max(c[1] for c in s) + 1 for s in ORIENT_CELLS)
ORIENT_REF: tuple[int, ...] = tuple(s[0][0] for s in ORIENT_CELLS)
"""Column (within the bounding box) of the reference cell: the first covered cell of the top row."""
PIECE_ORIENTS: tuple[tuple[int, ...], ...] = tuple(_piece_orients)
ORIENT_OF: dict[tuple[int, int], int] = dict(_canon)
"""(piece, any symmetry k) -> global orientation index (0-90) of the shape that symmetry gives."""
ORIENT_GK: tuple[int, ...] = tuple(_canon[(p, k)] for p in range(NUM_PIECES) for k in range(8))
"""The same as a flat tuple indexed by ``piece * 8 + k`` (faster than hashing a pair in the hot path)."""


def canonical_k(piece: int, k: int) -> int:
    """The first symmetry number that gives the same shape as ``k`` for this piece."""
    return ORIENT_K[ORIENT_OF[(piece, k)]]


def piece_index(name: str) -> int:
    """Piece number from its name (case-insensitive), or -1. The long form ``P5-F`` (polyomino of 5
    cells, letter F) is accepted too, as are ``P1`` and ``P2`` (``P5`` alone is the P pentomino)."""
    up = name.strip().upper()
    if up in ("P1", "P2"):
        up = up[1]
    elif len(up) == 4 and up[0] == "P" and up[2] == "-":  # P5-F: size, dash, letter
        up = up[3] + up[1]
    for i, n in enumerate(PIECE_NAMES):
        if n == up:
            return i
    return -1


class Tables:
    """Per board size: masks, border masks and the generated all-anchors function."""

    __slots__ = (
        "_flat",
        "_last_free",
        "_last_table",
        "anchors",
        "board",
        "bottom",
        "cells",
        "left",
        "masks",
        "right",
        "row_mask",
        "size",
        "stride",
        "top",
    )

    def __init__(self, size: int, anchors: Callable[[int], tuple[int, ...]] | None = None) -> None:
        """The tables of one board size; ``anchors`` replaces the generated anchor function (a kernel's)."""
        self.size = size
        st = self.stride = size + GUARD
        row = (1 << size) - 1
        self.row_mask = row
        self.cells = size * size
        self.board = sum(row << (y * st) for y in range(size))
        self.top = row
        self.bottom = row << ((size - 1) * st)
        col = sum(1 << (y * st) for y in range(size))
        self.left = col
        self.right = col << (size - 1)
        self.masks: tuple[int, ...] = tuple(sum(1 << (y * st + x) for x, y in cells) for cells in ORIENT_CELLS)
        self.anchors = anchors or _build_anchor_function(st)
        self._last_free = -1
        self._last_table: tuple[int, ...] = ()
        self._flat: tuple[list[int], list[int], list[int]] | None = None

    def flat(self) -> tuple[list[int], list[int], list[int]]:
        """Every placement on the empty board as parallel lists (piece, orientation, cell mask), built on
        first use: the universe that rejection sampling draws from."""
        if self._flat is None:
            pieces: list[int] = []
            orients: list[int] = []
            masks: list[int] = []
            for g, a in enumerate(self.anchors(self.board)):
                m = self.masks[g]
                p = ORIENT_PIECE[g]
                for i in bits(a):
                    pieces.append(p)
                    orients.append(g)
                    masks.append(m << i)
            self._flat = (pieces, orients, masks)
        return self._flat

    def table(self, free: int) -> tuple[int, ...]:
        """Anchor sets of all 91 orientations for this set of free cells (one-entry cache: the next
        player's pass check and the next move usually ask about the same board)."""
        if free == self._last_free:
            return self._last_table
        t = self.anchors(free)
        self._last_free = free
        self._last_table = t
        return t

    def forget(self) -> None:
        """Empty the one-entry cache of :meth:`table` (a benchmark measures a fresh generation with it)."""
        self._last_free = -1


def _build_anchor_function(stride: int) -> Callable[[int], tuple[int, ...]]:
    """Generate straight-line code ``free -> (anchors of orientation 0, ..., anchors of orientation 90)``.

    Straight-line code with shared shifts and shared prefixes is about twice as fast as an interpreted
    loop over an op list; the source is built from the tables above only (no outside input).
    """
    offsets = [tuple(sorted(y * stride + x for x, y in cells)) for cells in ORIENT_CELLS]
    lines = ["def _anchors(f):"]
    shifted: dict[int, str] = {0: "f"}
    for offs in offsets:
        for o in offs:
            if o not in shifted:
                shifted[o] = f"s{o}"
                lines.append(f"    s{o} = f >> {o}")
    trie: dict[tuple[int, ...], str] = {}
    result: list[str] = []
    counter = 0
    for offs in offsets:
        name = shifted[offs[0]]
        for i in range(2, len(offs) + 1):
            prefix = offs[:i]
            if prefix in trie:
                name = trie[prefix]
                continue
            counter += 1
            new = f"t{counter}"
            lines.append(f"    {new} = {name} & {shifted[offs[i - 1]]}")
            trie[prefix] = new
            name = new
        result.append(name)
    lines.append("    return (" + ", ".join(result) + ",)")
    namespace: dict[str, object] = {}
    exec(compile("\n".join(lines), f"<forma anchors stride {stride}>", "exec"), namespace)
    return cast(Callable[[int], tuple[int, ...]], namespace["_anchors"])


_TABLES: dict[int, Tables] = {19: Tables(19), 20: Tables(20)}


def tables(size: int) -> Tables:
    """The tables of a board size (19 and 20 are built at import)."""
    t = _TABLES.get(size)
    if t is None:
        t = _TABLES[size] = Tables(size)
    return t
