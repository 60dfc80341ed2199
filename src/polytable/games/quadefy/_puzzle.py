"""The bonus puzzle: build the 4x4x4 cube so that it shows a pattern of dark and light cells.

A pattern colours each of the 64 cells dark or light (32 each). A solution tiles the dark region with the
8 dark blocks and the light region with the 8 light blocks, each block used exactly once in any rotation
(mirror images are not allowed: SL and SR stay themselves). Gravity and reachability play no part: this is
the puzzle on the rulebook's sheet, an exact cover problem.

Solver: Knuth's Algorithm X on bitboards. The rows are the placements inside the cube (block, orientation,
translation); the columns are the region's 32 cells plus the 8 blocks. Algorithm X branches on a column
with fewest candidate rows; here that is the region's first empty cell in index order, which every
solution must cover with a placement whose *lowest* cell it is, so the candidates are exactly the
precomputed placements by lowest cell that lie in the free part of the region and use an unused block.
(This is the classic "first empty cell" column choice; with a 32-cell region and 8 blocks it keeps every
search to at most a few thousand nodes.) After each placement, every connected component of what is
left must have a multiple of 4 cells, or the branch is cut. Each colour is solved separately: the search
is complete, so ``None`` means no tiling exists.

Pattern text (the same for the command line and for pattern files)::

    # comments run from '#' to the end of the line
    XXXX   <- layer 1 (the floor), row 4 (back)
    XXXX   <- row 3
    XXXX   <- row 2
    XXXX   <- row 1 (front); columns a to d from left to right
           <- then layer 2, 3 and 4 the same way

Dark is ``X``, ``D`` or ``1``; light is ``.``, ``L``, ``O`` or ``0`` (either case). Spaces, newlines,
``|``, ``/`` and ``,`` are ignored, so a pattern may also be written on one line, e.g.
``XXXX/XXXX/XXXX/XXXX|....`` ... Exactly 64 cells, 32 of each colour. A named pattern (see
:data:`PATTERNS`) may be given instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from polytable.core import ConfigError
from polytable.geometry import lowest

from ._tables import ALL_BLOCKS, BLOCKS, FULL, GRID, PLACEMENTS

__all__ = [
    "PATTERNS",
    "PATTERN_NOTES",
    "PuzzleResult",
    "parse_pattern",
    "pattern_text",
    "solve_pattern",
    "tile_region",
    "verify_solution",
]


def _cells_where(pred: object) -> int:
    m = 0
    for z in range(4):
        for y in range(4):
            for x in range(4):
                if pred(x, y, z):  # type: ignore[operator]
                    m |= 1 << (x + 4 * y + 16 * z)
    return m


PATTERNS: dict[str, int] = {
    # The bottom two layers dark, the top two light.
    "halves": _cells_where(lambda x, y, z: z < 2),
    # The four 2x2 columns of the plan in a checkerboard, each the full height.
    "columns": _cells_where(lambda x, y, z: (x < 2) == (y < 2)),
    # A staircase seen from the front: dark below the line x + z = 3, the line itself dark in rows 1-2.
    "steps": _cells_where(lambda x, y, z: x + z < 3 or (x + z == 3 and y < 2)),
    # Each layer half dark, the dark half turning a quarter turn per layer (left, front, right, back).
    "spiral": _cells_where(lambda x, y, z: (x < 2, y < 2, x >= 2, y >= 2)[z]),
    # Split along the diagonal of the plan; the diagonal itself dark below, light above.
    "diagonal": _cells_where(lambda x, y, z: x > y or (x == y and z < 2)),
    # The eight 2x2x2 octants in a 3D checkerboard: impossible (an I block fits in no octant).
    "octants": _cells_where(lambda x, y, z: ((x >> 1) + (y >> 1) + (z >> 1)) % 2 == 0),
    # Each layer half dark, alternating left and front halves: impossible (a complete search proves it).
    "twist": _cells_where(lambda x, y, z: x < 2 if z % 2 == 0 else y < 2),
    # Alternate flat layers: impossible (only 5 of the 8 blocks are flat, and each 4x4 layer is cut off).
    "layers": _cells_where(lambda x, y, z: z % 2 == 0),
}
"""Named patterns as dark-cell sets."""

PATTERN_NOTES: dict[str, str] = {
    "halves": "bottom two layers dark, top two light",
    "columns": "2x2 full-height columns in a checkerboard",
    "steps": "a staircase: dark below the diagonal x + z = 3",
    "spiral": "half of each layer dark, turning a quarter turn per layer",
    "diagonal": "plan split along its diagonal",
    "octants": "2x2x2 octants in a checkerboard (impossible)",
    "twist": "half of each layer dark, alternating left and front (impossible)",
    "layers": "alternate flat layers (impossible)",
}

_DARK = set("XxDd1")
_LIGHT = set(".LlOo0")
_SKIP = set(" \t\r\n|/,")


def parse_pattern(text: str) -> int:
    """A pattern name or pattern text (module docstring) as the set of dark cells; ConfigError if bad."""
    key = text.strip().lower()
    if key in PATTERNS:
        return PATTERNS[key]
    symbols: list[bool] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        for ch in line:
            if ch in _SKIP:
                continue
            if ch in _DARK:
                symbols.append(True)
            elif ch in _LIGHT:
                symbols.append(False)
            else:
                raise ConfigError(
                    f"unexpected {ch!r} in the pattern: use X (dark) and . (light), or name a pattern "
                    f"({', '.join(PATTERNS)})",
                    "quadefy.pattern_char",
                    {"char": f"{ch!r}", "patterns": ", ".join(PATTERNS)},
                )
    if len(symbols) != 64:
        raise ConfigError(
            f"a pattern has 64 cells (4 layers of 4 rows of 4); this one has {len(symbols)}",
            "quadefy.pattern_size",
            {"symbols": len(symbols)},
        )
    dark = 0
    for i, is_dark in enumerate(symbols):
        z, rest = divmod(i, 16)
        row, x = divmod(rest, 4)
        y = 3 - row
        if is_dark:
            dark |= 1 << (x + 4 * y + 16 * z)
    n = dark.bit_count()
    if n != 32:
        raise ConfigError(
            f"each colour needs exactly 32 cells (8 blocks of 4); this pattern has {n} dark cells",
            "quadefy.pattern_balance",
            {"n": n},
        )
    return dark


def pattern_text(dark: int) -> str:
    """The pattern in file format (layer 1 first, row 4 at the top of each layer)."""
    out = []
    for z in range(4):
        out.append(f"# layer {z + 1}")
        for y in range(3, -1, -1):
            out.append("".join("X" if dark >> (x + 4 * y + 16 * z) & 1 else "." for x in range(4)))
    return "\n".join(out)


def _by_lowest_cell() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    table: list[list[tuple[int, int, int]]] = [[] for _ in range(64)]
    for p in PLACEMENTS:
        low = lowest(p.mask)
        table[low].append((p.mask, p.block, p.id))
    return tuple(tuple(t) for t in table)


_BY_LOW = _by_lowest_cell()


@dataclass
class SearchStats:
    """Search effort: ``nodes`` (partial tilings expanded), ``tried`` (placements that fit the free cells
    with an unused block), ``pruned`` (branches cut by the component-size test)."""

    nodes: int = 0
    tried: int = 0
    pruned: int = 0


def _components_ok(region: int) -> bool:
    while region:
        comp = GRID.flood(region & -region, region)
        if comp.bit_count() % 4:
            return False
        region ^= comp
    return True


def tile_region(region: int, stats: SearchStats | None = None) -> list[int] | None:
    """Placement ids tiling ``region`` (32 cells) with the 8 blocks once each, or None after a complete
    search proves there is none."""
    st = stats if stats is not None else SearchStats()
    if region.bit_count() != 4 * len(BLOCKS) or not _components_ok(region):
        st.nodes += 1
        return None
    chosen: list[int] = []
    by_low = _BY_LOW

    def search(free: int, pieces: int) -> bool:
        st.nodes += 1
        if not free:
            return True
        for mask, block, pid in by_low[lowest(free)]:
            if mask & free != mask or not pieces >> block & 1:
                continue
            st.tried += 1
            rest = free ^ mask
            if rest and not _components_ok(rest):
                st.pruned += 1
                continue
            chosen.append(pid)
            if search(rest, pieces & ~(1 << block)):
                return True
            chosen.pop()
        return False

    return list(chosen) if search(region, ALL_BLOCKS) else None


@dataclass
class PuzzleResult:
    """The outcome for one pattern: per colour (0 dark, 1 light) the tiling or None, and the effort."""

    dark: int
    tilings: tuple[list[int] | None, list[int] | None]
    stats: tuple[SearchStats, SearchStats] = field(default_factory=lambda: (SearchStats(), SearchStats()))

    @property
    def solved(self) -> bool:
        return self.tilings[0] is not None and self.tilings[1] is not None


def solve_pattern(dark: int) -> PuzzleResult:
    """Solve both colours (the light one even when the dark one fails, so the report is complete)."""
    s0, s1 = SearchStats(), SearchStats()
    t0 = tile_region(dark, s0)
    t1 = tile_region(FULL & ~dark, s1)
    return PuzzleResult(dark, (t0, t1), (s0, s1))


def verify_solution(dark: int, tilings: tuple[list[int], list[int]]) -> list[str]:
    """Every problem with a claimed solution (empty when it is right): each cell covered exactly once by
    a block of its own colour, each colour's 8 blocks used once each."""
    problems = []
    seen = 0
    for colour, pids in enumerate(tilings):
        region = dark if colour == 0 else FULL & ~dark
        used = sorted(PLACEMENTS[i].block for i in pids)
        if used != list(range(len(BLOCKS))):
            problems.append(f"colour {colour} does not use each block exactly once: {used}")
        for pid in pids:
            m = PLACEMENTS[pid].mask
            if m & seen:
                problems.append(f"placement {pid} overlaps another")
            if m & ~region:
                problems.append(f"placement {pid} covers a cell of the other colour")
            seen |= m
    if seen != FULL:
        problems.append(f"{64 - seen.bit_count()} cells are not covered")
    return problems
