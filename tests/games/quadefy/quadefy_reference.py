"""A slow, obviously-correct reference of Quadefy's placement rules, written from the rules text with cell
sets and a breadth-first search over translations, sharing no code with the bitboard engine (only the
block shapes from polytable.geometry). Tests compare the engine with it position by position."""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from itertools import product

from polytable.geometry import TETRACUBES, orientations3

BLOCKS = ("I", "O", "T", "L", "S", "B", "SL", "SR")
Cell = tuple[int, int, int]


def cells_of(mask: int) -> set[Cell]:
    return {(i % 4, (i // 4) % 4, i // 16) for i in range(64) if mask >> i & 1}


def in_cube(c: Cell) -> bool:
    return all(0 <= v < 4 for v in c)


def reachable_translations(shape: tuple[Cell, ...], occ: set[Cell], drop_only: bool = False) -> set[Cell]:
    """Translations reachable by unit moves from translations wholly outside the cube, never overlapping a
    placed cube or going below the floor. Every path from outside to a placement inside passes only
    through translations within [-4, 4] x [-4, 4] x [0, 5] after its last wholly-outside position."""

    def placed(t: Cell) -> list[Cell]:
        return [(t[0] + a, t[1] + b, t[2] + c) for a, b, c in shape]

    box = list(product(range(-4, 5), range(-4, 5), range(0, 6)))
    free = {t for t in box if not any(c in occ for c in placed(t))}
    seen = {t for t in free if not any(in_cube(c) for c in placed(t))}
    todo = deque(seen)
    steps = ((0, 0, -1),) if drop_only else ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))
    if drop_only:  # only straight down from wholly above the cube
        seen = {t for t in seen if t[2] >= 4}
        todo = deque(seen)
    while todo:
        x, y, z = todo.popleft()
        for dx, dy, dz in steps:
            n = (x + dx, y + dy, z + dz)
            if n in free and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def stable(cells: list[Cell], resting: list[Cell]) -> bool:
    """Centre of mass strictly inside the convex hull of the resting squares (exact arithmetic): it is not
    when some closed half-plane bounded by a line through the centre holds every support corner, and such
    a half-plane can always be turned about the centre until its line meets a corner."""
    cx = sum(Fraction(2 * x + 1, 2) for x, _, _ in cells) / len(cells)
    cy = sum(Fraction(2 * y + 1, 2) for _, y, _ in cells) / len(cells)
    pts = {(x + dx, y + dy) for x, y, _ in resting for dx in (0, 1) for dy in (0, 1)}
    for qx, qy in pts:
        vx, vy = qx - cx, qy - cy
        if vx == 0 and vy == 0:
            continue
        for nx, ny in ((-vy, vx), (vy, -vx)):
            if all(nx * (px - cx) + ny * (py - cy) >= 0 for px, py in pts):
                return False
    return True


def legal(occ_mask: int, hand: int, reach: bool = True, stability: bool = False, drop_only: bool = False) -> set[str]:
    """Every legal placement, in notation, for the blocks of ``hand`` (bit set over BLOCKS). ``drop_only``
    replaces reachability by "dropped straight down from above" (a model the rules do not use; tests
    compare with it to show placements only a sideways insertion reaches)."""
    occ = cells_of(occ_mask)
    out = set()
    for b, name in enumerate(BLOCKS):
        if not hand >> b & 1:
            continue
        for r, shape in enumerate(orientations3(TETRACUBES[name])):
            reach_set = reachable_translations(shape, occ, drop_only) if reach else set()
            for x, y, z in product(range(4), repeat=3):
                cells = [(x + a, y + bb, z + c) for a, bb, c in shape]
                if not all(in_cube(c) for c in cells) or any(c in occ for c in cells):
                    continue
                resting = [c for c in cells if c[2] == 0 or (c[0], c[1], c[2] - 1) in occ]
                if not resting:
                    continue
                if stability and not stable(cells, resting):
                    continue
                if reach and (x, y, z) not in reach_set:
                    continue
                out.add(f"{name} r{r} @ {'abcd'[x]}{y + 1}.{z + 1}")
    return out
