"""Cell-set algorithms shared by squares and cubes.

Polyominoes and polycubes differ only in their cells' neighbours and in how a set of cells is moved to the
origin, so connectivity and growing the fixed shapes of one more cell are written once here, for any
hashable cell type, and each module passes its own ``neighbours`` and ``normalize``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

C = TypeVar("C", bound=Hashable)


def connected(cells: Iterable[C], neighbours: Callable[[C], Iterable[C]]) -> bool:
    """True when the cells form one set connected through ``neighbours`` (the empty set is not connected)."""
    pts = set(cells)
    if not pts:
        return False
    start = next(iter(pts))
    seen = {start}
    todo = [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n in pts and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(pts)


def grow(
    shapes: Iterable[tuple[C, ...]],
    neighbours: Callable[[C], Iterable[C]],
    normalize: Callable[[set[C]], tuple[C, ...]],
) -> set[tuple[C, ...]]:
    """Every normalised shape made by adding one neighbouring cell to one of ``shapes`` (the fixed shapes
    of ``n + 1`` cells from those of ``n``: each appears at least once, duplicates merge in the set)."""
    out: set[tuple[C, ...]] = set()
    for shape in shapes:
        cells = set(shape)
        for c in shape:
            for nb in neighbours(c):
                if nb not in cells:
                    out.add(normalize(cells | {nb}))
    return out
