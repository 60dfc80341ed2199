"""Sheet mechanics on int bitboards: column heights, straight drops, lines, folding, barriers.

Why straight drops reduce to column heights: a block enters from the top and falls without lateral
moves, so in each of its columns it stops on the highest occupied square (ink or barrier) of that column;
squares below an overhang can never be reached. The resting row of a variant at column ``c`` is therefore
``max(heights[c + j] - lowest_j)`` over its columns, and it fits when its top stays within the sheet.
"""

from __future__ import annotations

from collections.abc import Iterator

from polytable.geometry import Memo, select_bit

from ._cards import MAX_CELLS, WIDTH, Variant, VariantTable

__all__ = [
    "COLUMN",
    "FULL_ROW",
    "barrier_drop",
    "complete_rows",
    "fold",
    "heights",
    "placements",
    "rest_row",
]

FULL_ROW = 0xFF
COLUMN = sum(1 << (WIDTH * r) for r in range(64))
"""Bit 0 of every row: ``(board >> c) & COLUMN`` is column ``c``."""


_HEIGHTS: Memo[int, tuple[int, ...]] = Memo(200_001)


def heights(board: int) -> tuple[int, ...]:
    """Rows up to and including the highest occupied square of each column (0 for an empty column).

    Memoised (a bounded dict): the same sheet is measured by the sampler, the check and the apply.
    """
    hts = _HEIGHTS.get(board)
    if hts is None:
        hts = _HEIGHTS.put(board, _heights(board))
    return hts


def _heights(board: int) -> tuple[int, ...]:
    return (
        ((board & COLUMN).bit_length() + 7) >> 3,
        (((board >> 1) & COLUMN).bit_length() + 7) >> 3,
        (((board >> 2) & COLUMN).bit_length() + 7) >> 3,
        (((board >> 3) & COLUMN).bit_length() + 7) >> 3,
        (((board >> 4) & COLUMN).bit_length() + 7) >> 3,
        (((board >> 5) & COLUMN).bit_length() + 7) >> 3,
        (((board >> 6) & COLUMN).bit_length() + 7) >> 3,
        (((board >> 7) & COLUMN).bit_length() + 7) >> 3,
    )


def rest_row(v: Variant, hts: tuple[int, ...], col: int) -> int:
    """The row of the variant's bottom when dropped with its left column at ``col``."""
    y = 0
    for j, b in v.profile:
        d = hts[col + j] - b
        if d > y:
            y = d
    return y


_THERMO = tuple(sum(1 << (WIDTH * k) for k in range(f + 1)) for f in range(MAX_CELLS + 1))
"""``_THERMO[f]``: bit 0 of bytes 0..f (a column with ``f`` free rows has room for any need up to f)."""


def room(hts: tuple[int, ...], height: int) -> int:
    """The packed room masks of a sheet: bit ``c`` of byte ``k`` is set when column ``c`` has at least ``k``
    free rows (k = 0..MAX_CELLS).

    Why: a variant fits at left column ``c`` when each of its columns ``j`` has ``need_j`` free rows, so
    ``colmask & AND_j(room >> (8 * need_j + j))`` gives every column it fits at in a few int operations
    (``colmask`` keeps the bits that slid in from the next byte out), and ``bit_count`` counts them.
    """
    r = 0
    for c in range(WIDTH):
        free = height - hts[c]
        if free >= 0:
            r |= _THERMO[free if free < MAX_CELLS else MAX_CELLS] << c
    return r


def fit_mask(v: Variant, r: int) -> int:
    """Bit ``c`` set for every left column ``c`` where the variant fits (see :func:`room`)."""
    m = v.colmask
    for s in v.shifts:
        m &= r >> s
    return m


def placements(table: VariantTable, hts: tuple[int, ...], height: int, budget: int) -> Iterator[tuple[int, int]]:
    """Every (variant index, column) that fits on a sheet of ``height`` rows, paying at most ``budget``, in
    order of variant index then column."""
    r = room(hts, height)
    for i, v in enumerate(table.variants):
        if v.cost > budget:
            return
        m = fit_mask(v, r)
        # one step per legal action: an inline loop (geometry.bits, a nested generator, is slower here)
        while m:
            low = m & -m
            yield i, low.bit_length() - 1
            m ^= low


def nth_placement(table: VariantTable, hts: tuple[int, ...], height: int, budget: int, k: int) -> tuple[int, int]:
    """The ``k``-th (0-based) pair :func:`placements` would yield, found by counting: no list is built."""
    r = room(hts, height)
    for i, v in enumerate(table.variants):
        if v.cost > budget:
            break
        m = fit_mask(v, r)
        n = m.bit_count()
        if k < n:
            return i, select_bit(m, k)
        k -= n
    raise IndexError("placement index out of range")


def affordable(table: VariantTable, budget: int) -> int:
    """How many variants (a prefix: they are sorted by cost) cost at most ``budget``."""
    k = 0
    for c in table.costs:
        if c > budget:
            break
        k += 1
    return k


def any_placement(table: VariantTable, hts: tuple[int, ...], height: int, budget: int) -> bool:
    if max(hts) + table.max_height <= height:
        return True
    r = room(hts, height)
    for v in table.variants:
        if v.cost > budget:
            return False
        if fit_mask(v, r):
            return True
    return False


def count_placements(table: VariantTable, hts: tuple[int, ...], height: int, budget: int) -> int:
    """How many pairs :func:`placements` would yield (the legal drops' count), without listing them."""
    k = affordable(table, budget)
    if max(hts) + table.max_height <= height:  # nothing can stick out: every column of every variant fits
        return table.columns_prefix[k]
    r = room(hts, height)
    return sum(fit_mask(v, r).bit_count() for v in table.variants[:k])


def complete_rows(ink: int, lo: int, hi: int) -> list[int]:
    """The completed rows among ``lo..hi-1``, highest first (so folding one keeps the others' indices)."""
    return [r for r in range(hi - 1, lo - 1, -1) if (ink >> (WIDTH * r)) & FULL_ROW == FULL_ROW]


def fold(board: int, row: int) -> int:
    """Fold a row away: everything above moves down one row, rigidly."""
    shift = WIDTH * row
    return (board & ((1 << shift) - 1)) | ((board >> (shift + WIDTH)) << shift)


def drops(
    table: VariantTable, ink: int, hts: tuple[int, ...], height: int, budget: int
) -> Iterator[tuple[int, Variant, int, int, int, int]]:
    """Every drop of a card on raw sheet values, resolved: (variant index, variant, left column, resting row,
    the ink after folding, rows folded), variants cheapest first while they cost at most ``budget``.

    ``hts``: the column heights the block rests on (ink and barrier). The one drop-and-fold loop of the
    searches that play on ints rather than states (the AIs); the barrier is the caller's (it depends on
    the lane and on the lines made).
    """
    for i, v in enumerate(table.variants):
        if v.cost > budget:
            return
        top = height - v.height
        for col, prof in enumerate(v.columns):
            y = 0
            for c, b in prof:
                d = hts[c] - b
                if d > y:
                    y = d
            if y > top:
                continue
            new = ink | (v.bits << (WIDTH * y + col))
            n = 0
            for r in range(y + v.height - 1, y - 1, -1):
                if (new >> (WIDTH * r)) & 0xFF == 0xFF:  # FULL_ROW, as a literal: the searches' inner loop
                    new = fold(new, r)
                    n += 1
            yield i, v, col, y, new, n


def barrier_drop(board: int, lane: int, height: int) -> int:
    """The barrier's squares after it falls down lane ``lane`` (1-7), or 0 if it does not fit."""
    c = lane - 1
    y = max(((board >> c) & COLUMN).bit_length() + 7 >> 3, ((board >> (c + 1)) & COLUMN).bit_length() + 7 >> 3)
    if y >= height:
        return 0
    return 0b11 << (WIDTH * y + c)
