"""Bridge awareness for Forma's lookahead players.

Why: a bridge is worth 50 points and two-player games are often decided by one, yet the greedy's
candidates (placements that can close a cell now, plus 250 random ones) reach the few placements that
complete or block a bridge only by chance, and its reply model counted enclosures only. The *growth
frontier* of a colour is where its long groups (spanning at least ``min_span`` rows or columns) can
still grow along their long direction: the free cells next to the group beyond its current extent.
Placements over it are the ones that extend (or complete) a bridge, and the opponent's frontier is where
a bridge is blocked.
"""

from __future__ import annotations

import functools

from ...games import forma as P
from ...games.forma import flood, neighbours
from ._eval import extent

__all__ = ["frontier"]


@functools.lru_cache(maxsize=4)
def _col_masks(size: int) -> tuple[int, ...]:
    """For each column c, the cells of columns < c (index c) of a board of ``size``."""
    tb = P.tables(size)
    out = [0]
    for c in range(size):
        out.append(out[-1] | (tb.left << c))
    return tuple(out)


def frontier(tb: P.Tables, own: int, empty: int, min_span: int) -> int:
    """The free cells where ``own``'s groups spanning at least ``min_span`` rows (columns) touch rows
    (columns) they do not reach yet: the cells a bridge from those groups grows through."""
    st, n = tb.stride, tb.size
    cols = _col_masks(n)
    out = 0
    rest = own
    while rest:
        comp = flood(tb, rest & -rest, own)
        rest &= ~comp
        if comp.bit_count() < min_span:
            continue
        r0, r1, c0, c1 = extent(tb, comp)
        grow = 0
        if r1 - r0 + 1 >= min_span:  # rows above r0 or below r1
            grow |= ((1 << (r0 * st)) - 1) | (tb.board & ~((1 << ((r1 + 1) * st)) - 1))
        if c1 - c0 + 1 >= min_span:  # columns left of c0 or right of c1
            grow |= cols[c0] | (tb.board & ~cols[c1 + 1])
        if grow:
            out |= neighbours(tb, comp) & empty & grow
    return out
