"""Polycubes as cell sets: the 24 rotations of the cube, canonical forms, enumeration.

Cells are ``(x, y, z)``; ``z`` is height (0 = the floor). A rotation is numbered 0-23 (the order of
:data:`CUBE_ROTATIONS`, fixed forever because notation refers to it); mirror images are never rotations,
so the two screw tetracubes stay distinct under :func:`canonical_polycube`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import permutations, product

from ._cells import connected, grow

__all__ = [
    "CUBE_ROTATIONS",
    "TETRACUBES",
    "Cell3",
    "Shape3",
    "canonical_polycube",
    "is_connected3",
    "normalize3",
    "orientations3",
    "polycubes",
    "rotate3",
]

Cell3 = tuple[int, int, int]
Shape3 = tuple[Cell3, ...]
Matrix = tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]


def _det(m: Matrix) -> int:
    return (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )


def _rotation_matrices() -> tuple[Matrix, ...]:
    out: list[Matrix] = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            rows = []
            for i in range(3):
                row = [0, 0, 0]
                row[perm[i]] = signs[i]
                rows.append((row[0], row[1], row[2]))
            m: Matrix = (rows[0], rows[1], rows[2])
            if _det(m) == 1:
                out.append(m)
    # Identity first, the rest in a fixed order.
    ident: Matrix = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    out.remove(ident)
    return (ident, *out)


CUBE_ROTATIONS: tuple[Matrix, ...] = _rotation_matrices()
"""The 24 proper rotations of the cube as integer matrices; index 0 is the identity."""
assert len(CUBE_ROTATIONS) == 24


def normalize3(cells: Iterable[Cell3]) -> Shape3:
    """Translate so each coordinate's minimum is 0 and sort (by z, y, x)."""
    pts = list(cells)
    if not pts:
        return ()
    mx = min(c[0] for c in pts)
    my = min(c[1] for c in pts)
    mz = min(c[2] for c in pts)
    return tuple(sorted(((x - mx, y - my, z - mz) for x, y, z in pts), key=lambda c: (c[2], c[1], c[0])))


def rotate3(cells: Iterable[Cell3], k: int) -> Shape3:
    """Apply rotation ``k`` (0-23) and normalise."""
    m = CUBE_ROTATIONS[k]
    return normalize3(
        (
            m[0][0] * x + m[0][1] * y + m[0][2] * z,
            m[1][0] * x + m[1][1] * y + m[1][2] * z,
            m[2][0] * x + m[2][1] * y + m[2][2] * z,
        )
        for x, y, z in cells
    )


def orientations3(cells: Iterable[Cell3]) -> tuple[Shape3, ...]:
    """The distinct rotations of a polycube, in rotation-index order of first appearance."""
    base = tuple(cells)
    out: list[Shape3] = []
    for k in range(24):
        s = rotate3(base, k)
        if s not in out:
            out.append(s)
    return tuple(out)


def canonical_polycube(cells: Iterable[Cell3], mirror: bool = False) -> Shape3:
    """The canonical form under rotation (and reflection too, with ``mirror``)."""
    base = tuple(cells)
    forms = [rotate3(base, k) for k in range(24)]
    if mirror:
        flipped = tuple((-x, y, z) for x, y, z in base)
        forms += [rotate3(flipped, k) for k in range(24)]
    return min(forms)


def _nb3(c: Cell3) -> tuple[Cell3, ...]:
    x, y, z = c
    return (x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z), (x, y, z + 1), (x, y, z - 1)


def is_connected3(cells: Iterable[Cell3]) -> bool:
    """True when the cells form one face-connected set (the empty set is not connected)."""
    return connected(cells, _nb3)


@cache
def _fixed3(n: int) -> frozenset[Shape3]:
    if n == 1:
        return frozenset({((0, 0, 0),)})
    return frozenset(grow(_fixed3(n - 1), _nb3, normalize3))


@cache
def polycubes(n: int, mirror: bool = False) -> tuple[Shape3, ...]:
    """Canonical representatives of the polycubes of ``n`` cells under rotation (with ``mirror``: also
    reflection). Sizes 1-4 under rotation: 1, 1, 2, 8; with reflection the 4th is 7."""
    if n < 1:
        return ()
    return tuple(sorted({canonical_polycube(s, mirror) for s in _fixed3(n)}))


def _tetracubes() -> dict[str, Shape3]:
    named = {
        "I": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)),
        "O": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)),
        "T": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)),
        "L": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0)),
        "S": ((0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)),
        # The branch (tripod): three cubes on the axes from one corner cube.
        "B": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)),
        # The screws: a vertical domino on each end of a bent tromino, twisted one way or the other.
        "SL": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)),
        "SR": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)),
    }
    return {k: normalize3(v) for k, v in named.items()}


TETRACUBES: dict[str, Shape3] = _tetracubes()
"""The 8 tetracubes under rotation by name: I, O, T, L, S, B (branch), SL and SR (the screws)."""
