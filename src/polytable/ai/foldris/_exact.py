"""Exact line counts for the end of a solo Foldris game: the last card, and the last two.

Why a separate search: with one or two cards left only lines count, and the sheets are short (3-5 rows),
so the best play can be found by trying every drop instead of a beam ordered by the shape evaluation; what
makes it affordable is a bound. A row can only be completed if it lacks at most a block's squares, none of
them under an overhang (or the barrier), and all within a block's width; a block completes at most the rows
whose missing squares add up to its size. A scan stops as soon as it reaches that bound, and does not start
when it is 0 (most sheets, most of the time).
"""

from __future__ import annotations

from ...games.foldris import WIDTH, VariantTable, barrier_drop, drops, heights

__all__ = ["last_lines", "pair_lines"]


def last_lines(table: VariantTable, ink: int, barrier: int, height: int, budget: int, size: int) -> int:
    """The most lines one drop of a card of this shape can make on a sheet (0 if none, or if it does not fit).

    Only rows lacking at most ``size`` squares can be completed, and a block completes at most those whose
    missing squares add up to ``size``: that count bounds the answer, so the scan stops when it is reached
    (and does not start when it is 0).
    """
    hts = heights(ink | barrier)
    missing = []
    for r in range(height):
        empty = ~(ink >> (WIDTH * r)) & 0xFF
        m = empty.bit_count()
        if m > size or empty.bit_length() - (empty & -empty).bit_length() >= size:
            continue
        while empty:
            low = empty & -empty
            if hts[low.bit_length() - 1] > r:
                break
            empty ^= low
        else:
            missing.append(m)
    missing.sort()
    bound = 0
    for m in missing:
        if m > size:
            break
        size -= m
        bound += 1
    if bound == 0:
        return 0
    best = 0
    for _, _, _, _, _, n in drops(table, ink, hts, height, budget):
        if n > best:
            best = n
            if best >= bound:
                return best
    return best


def pair_lines(
    first: VariantTable,
    lane: int,
    last: VariantTable,
    ink: int,
    barrier: int,
    height: int,
    budget: int,
    size: int,
    memo: dict[tuple[int, int, int, int, int], int],
) -> int:
    """The most lines a card of shape ``first`` (lane ``lane``) then one of shape ``last`` can make (solo).

    Every drop of the first card is tried (its barrier falls in its lane), unless even its lines plus the
    squares left cannot beat the best found; the last card's lines (:func:`last_lines`) are memoised in
    ``memo`` by sheet and shape.
    """
    bound = (ink.bit_count() + 2 * size) // WIDTH
    if bound > height:
        bound = height
    if bound == 0:
        return 0
    hts = heights(ink | barrier)
    best = 0
    tid = last.number
    dear = last.variants[-1].cost  # variants come cheapest first: a budget past this buys nothing more
    for _, v, _, _, new, n in drops(first, ink, hts, height, budget):
        h = height - n
        after = (new.bit_count() + size) // WIDTH
        if n + (after if after < h else h) <= best:
            continue
        bar = barrier_drop(new, lane, h)
        bon = budget + n - v.cost
        if bon > dear:
            bon = dear
        key = (tid, new, bar, h, bon)
        got = memo.get(key)
        if got is None:
            got = memo[key] = last_lines(last, new, bar, h, bon, size)
        if n + got > best:
            best = n + got
            if best >= bound:
                return best
    return best
