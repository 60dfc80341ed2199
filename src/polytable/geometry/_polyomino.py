"""Polyominoes as cell sets: symmetries, canonical forms, enumeration and names.

Cells are ``(x, y)`` pairs: ``x`` grows to the right, ``y`` grows *downwards* (rows as they are printed).
A *shape* is a normalised, sorted tuple of cells whose minimum x and minimum y are 0, so equal shapes are
equal tuples and can be dict keys.

The 8 symmetries of the square are numbered 0-7: ``k % 4`` quarter turns clockwise, then a mirror
(left-right flip) when ``k >= 4``. *Fixed* polyominoes are distinct under translation only, *one-sided*
under rotation, *free* under rotation and reflection. Enumeration grows shapes cell by cell (Redelmeier
would be faster; sizes up to 6 take milliseconds, which is all the games need).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from ._cells import connected, grow

__all__ = [
    "FREE_NAMES",
    "Cell",
    "Shape",
    "canonical_fixed",
    "canonical_free",
    "canonical_one_sided",
    "fixed_polyominoes",
    "free_name",
    "free_polyominoes",
    "is_connected",
    "neighbours4",
    "normalize",
    "one_sided_polyominoes",
    "orientations",
    "rotations",
    "shape_from_text",
    "shape_to_text",
    "transform",
]

Cell = tuple[int, int]
Shape = tuple[Cell, ...]


def normalize(cells: Iterable[Cell]) -> Shape:
    """Translate so the minimum x and y are 0, and sort (by y, then x)."""
    pts = list(cells)
    if not pts:
        return ()
    mx = min(x for x, _ in pts)
    my = min(y for _, y in pts)
    return tuple(sorted(((x - mx, y - my) for x, y in pts), key=lambda c: (c[1], c[0])))


def _sym(x: int, y: int, k: int) -> Cell:
    # Quarter turn clockwise with y down: (x, y) -> (-y, x).
    for _ in range(k % 4):
        x, y = -y, x
    if k >= 4:
        x = -x
    return x, y


def transform(cells: Iterable[Cell], k: int) -> Shape:
    """Apply symmetry ``k`` (0-7) and normalise."""
    if not 0 <= k < 8:
        raise ValueError("a square symmetry is numbered 0 to 7")
    return normalize(_sym(x, y, k) for x, y in cells)


def orientations(cells: Iterable[Cell], mirror: bool = True) -> tuple[Shape, ...]:
    """The distinct orientations, in symmetry order (rotations first, then mirrored ones if ``mirror``)."""
    base = tuple(cells)
    out: list[Shape] = []
    for k in range(8 if mirror else 4):
        s = transform(base, k)
        if s not in out:
            out.append(s)
    return tuple(out)


def rotations(cells: Iterable[Cell]) -> tuple[Shape, ...]:
    """The distinct rotations (no mirror)."""
    return orientations(cells, mirror=False)


def canonical_fixed(cells: Iterable[Cell]) -> Shape:
    return normalize(cells)


def canonical_one_sided(cells: Iterable[Cell]) -> Shape:
    return min(transform(tuple(cells), k) for k in range(4))


def canonical_free(cells: Iterable[Cell]) -> Shape:
    base = tuple(cells)
    return min(transform(base, k) for k in range(8))


def neighbours4(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    x, y = cell
    return (x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)


def is_connected(cells: Iterable[Cell]) -> bool:
    """True when the cells form one edge-connected set (the empty set is not connected)."""
    return connected(cells, neighbours4)


@cache
def fixed_polyominoes(n: int) -> tuple[Shape, ...]:
    """All fixed polyominoes of ``n`` cells (1, 2, 6, 19, 63, 216, ...), sorted."""
    if n < 1:
        return ()
    if n == 1:
        return (((0, 0),),)
    return tuple(sorted(grow(fixed_polyominoes(n - 1), neighbours4, normalize)))


@cache
def one_sided_polyominoes(n: int) -> tuple[Shape, ...]:
    """One representative (the canonical form) of each one-sided polyomino (1, 1, 2, 7, 18, 60, ...)."""
    return tuple(sorted({canonical_one_sided(s) for s in fixed_polyominoes(n)}))


@cache
def free_polyominoes(n: int) -> tuple[Shape, ...]:
    """One representative (the canonical form) of each free polyomino (1, 1, 2, 5, 12, 35, ...)."""
    return tuple(sorted({canonical_free(s) for s in fixed_polyominoes(n)}))


def shape_from_text(text: str) -> Shape:
    """A shape from rows of text: ``#`` (or any of ``X*O@``) is a cell, anything else is empty.

    Rows are separated by newlines or ``/``; leading and trailing blank rows are ignored.
    """
    rows = text.replace("/", "\n").split("\n")
    cells = [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch in "#X*O@"]
    return normalize(cells)


def shape_to_text(shape: Iterable[Cell], fill: str = "#", empty: str = ".", sep: str = "\n") -> str:
    """Rows of text for a shape (the inverse of :func:`shape_from_text`)."""
    cells = set(normalize(shape))
    if not cells:
        return ""
    w = max(x for x, _ in cells) + 1
    h = max(y for _, y in cells) + 1
    return sep.join("".join(fill if (x, y) in cells else empty for x in range(w)) for y in range(h))


def _named() -> dict[Shape, str]:
    # Conventional names: the pentomino letters (Golomb/Conway's F I L N P T U V W X Y Z), the tetromino
    # letters (I O T L S) and size prefixes for the smaller ones.
    drawings = {
        "1": "#",
        "2": "##",
        "I3": "###",
        "V3": "#./##",
        "I4": "####",
        "O4": "##/##",
        "T4": "###/.#.",
        "L4": "#./#./##",
        "S4": ".##/##.",
        "F5": ".##/##./.#.",
        "I5": "#####",
        "L5": "#./#./#./##",
        "N5": ".#/.#/##/#.",
        "P5": "##/##/#.",
        "T5": "###/.#./.#.",
        "U5": "#.#/###",
        "V5": "#../#../###",
        "W5": "#../##./.##",
        "X5": ".#./###/.#.",
        "Y5": ".#/##/.#/.#",
        "Z5": "##./.#./.##",
    }
    return {canonical_free(shape_from_text(d)): name for name, d in drawings.items()}


FREE_NAMES: dict[Shape, str] = _named()
"""Canonical free shape -> conventional name (``1``, ``2``, ``I3``, ``V3``, ``I4`` ... ``Z5``)."""


def free_name(cells: Iterable[Cell]) -> str:
    """The conventional name of a free polyomino of 1-5 cells (``KeyError`` for others)."""
    return FREE_NAMES[canonical_free(tuple(cells))]
