"""The rules kernel on bitboards: placing a piece and everything it scores, who can still place, and
uniform sampling of a legal placement without building the list.

Enclosure is the rulebook's: an empty cell is enclosed when each of its four sides is a piece, a marker,
an obstacle, the tower or the edge. That is one word-parallel test over the whole board (no flood fill is
needed: a cell's four sides decide it). Only the move can enclose a cell, because after every move each
enclosed cell already holds a marker; and filling an enclosed cell changes no other empty cell's sides
(they are all filled), so markers never chain onto empty cells. They can complete an obstacle or the
tower, which is why obstacles are tested after the markers are down.
"""

from __future__ import annotations

from typing import NamedTuple

from polytable.core import Rng, next_u64
from polytable.geometry import bits
from polytable.geometry import flood as flood_cells

from . import _pieces as P
from ._bridges import count_bridges
from ._pieces import Tables, select_bit
from ._state import FormaState

__all__ = [
    "Effect",
    "bridge_total",
    "can_place",
    "count_moves",
    "enclosed",
    "flood",
    "place_effect",
    "sample_move",
    "select_bit",
]


def enclosed(tb: Tables, filled: int, among: int) -> int:
    """The cells of ``among`` whose four sides are each filled or the edge."""
    st = tb.stride
    return (
        among
        & ((filled << 1) | tb.left)
        & ((filled >> 1) | tb.right)
        & ((filled << st) | tb.top)
        & ((filled >> st) | tb.bottom)
    )


def neighbours(tb: Tables, b: int) -> int:
    """The board cells orthogonally adjacent to any cell of the bit set ``b``."""
    st = tb.stride
    return ((b << 1) | (b >> 1) | (b << st) | (b >> st)) & tb.board


def flood(tb: Tables, seed: int, passable: int) -> int:
    """Cells of ``passable`` orthogonally connected to ``seed``."""
    return flood_cells(seed, passable, tb.stride)


def bridge_total(tb: Tables, own: int) -> tuple[int, bool]:
    """(largest allowed set of bridges, exact) for one colour's cells (see :mod:`._bridges`; the kernel's
    port gives the same count, tests/games/forma/test_forma_eval_native.py)."""
    st, n = tb.stride, tb.size
    cells = []
    b = own
    for i in bits(b):
        y, x = divmod(i, st)
        cells.append((x, y))
    c = count_bridges(cells, n)
    return c.total, c.exact


def may_bridge(tb: Tables, own: int, new: int) -> bool:
    """Cheap necessary test: the component of the new cells joins two opposite sides.

    First without a flood: a north-south bridge needs a cell of the colour in every row (fold each row's
    columns onto column 0 in windows of 8 that stop inside the guard columns), an east-west one a cell in
    every column (fold the rows onto the top row)."""
    if not ((own & tb.top and own & tb.bottom) or (own & tb.left and own & tb.right)):
        return False
    st = tb.stride
    a = own | (own >> 1)
    a |= a >> 2
    a |= a >> 4
    left = tb.left
    ns = (a | (a >> 8) | (a >> 15)) & left == left
    c = own | (own >> st)
    c |= c >> (2 * st)
    c |= c >> (4 * st)
    c |= c >> (8 * st)
    c |= c >> (16 * st)
    ew = c & tb.top == tb.top
    if not (ns or ew):
        return False
    comp = flood(tb, new, own)
    return bool((comp & tb.top and comp & tb.bottom) or (comp & tb.left and comp & tb.right))


def bridge_bound(tb: Tables, own: int) -> int:
    """An upper bound on a colour's bridges, cheap on bitboards: disjoint north-south bridges each need a
    cell in every row of the components joining top and bottom, so there are at most as many as the
    sparsest row has cells; likewise east-west with columns."""
    st = tb.stride
    ns = flood(tb, own & tb.top, own) & flood(tb, own & tb.bottom, own)
    ew = flood(tb, own & tb.left, own) & flood(tb, own & tb.right, own)
    bound = 0
    if ns:
        rm = tb.row_mask
        bound += min(((ns >> (y * st)) & rm).bit_count() for y in range(tb.size))
    if ew:
        col = tb.left
        bound += min(((ew >> x) & col).bit_count() for x in range(tb.size))
    return bound


class Effect(NamedTuple):
    """What one placement does: the new ``filled``, the new markers, newly closed obstacles (and tower),
    the points, the mover's bridge count afterwards and whether it is exact, and the mover's cells."""

    filled: int
    enc: int
    closed: int
    points: int
    bridges: int
    exact: bool
    own: int


def place_effect(tb: Tables, s: FormaState, player: int, mask: int, size: int) -> Effect:
    """Apply the scoring rules of one placement of ``size`` cells (``mask``) by ``player``."""
    filled = s.filled | mask
    enc = enclosed(tb, filled, tb.board & ~filled)
    filled |= enc
    points = size + 10 * enc.bit_count()
    own = s.pieces[player] | s.markers[player] | mask | enc
    closed = 0
    if (mask | enc) & s.watch:
        pending = (s.obstacles | s.tower) & ~s.closed
        closed = enclosed(tb, filled, pending)
        if closed:
            if closed & s.tower:
                points += 50
            mine = enclosed(tb, own, closed & s.obstacles)
            points += 10 * mine.bit_count()
    bridges = s.bridges[player]
    exact = True
    if may_bridge(tb, own, mask | enc) and bridge_bound(tb, own) > bridges:
        total, exact = bridge_total(tb, own)
        if total > bridges:
            points += 50 * (total - bridges)
            bridges = total
    return Effect(filled, enc, closed, points, bridges, exact, own)


def can_place(tb: Tables, stock: tuple[int, ...], gs: tuple[int, ...], free: int) -> bool:
    """Whether any piece with a positive count (orientations ``gs``) fits somewhere on ``free``."""
    if not free or not gs:
        return False
    if stock[0]:
        return True  # the single square fits on any free cell
    table = tb.table(free)
    for g in gs:  # noqa: SIM110 (a plain loop is faster than any() over a generator here)
        if table[g]:
            return True
    return False


ONE_OF = tuple(tuple(int(i == p) for i in range(P.NUM_PIECES)) for p in range(P.NUM_PIECES))
"""A stock holding one piece, per piece: a kernel's ``can_place`` of it says whether that piece fits."""


def piece_fits(tb: Tables, piece: int, free: int) -> bool:
    if piece == 0:
        return free != 0
    table = tb.table(free)
    return any(table[g] for g in P.PIECE_ORIENTS[piece])


def count_moves(tb: Tables, stock: tuple[int, ...], free: int, only: int = -1) -> int:
    table = tb.table(free)
    total = 0
    for p in range(P.NUM_PIECES) if only < 0 else (only,):
        if stock[p]:
            for g in P.PIECE_ORIENTS[p]:
                total += table[g].bit_count()
    return total


TRIES = 6
"""Rejection-sampling attempts before falling back to counting (see :func:`sample_move`)."""


def avail_orients(stock: tuple[int, ...]) -> tuple[int, ...]:
    """The orientations of the pieces a stock still holds."""
    return tuple(g for p, c in enumerate(stock) if c for g in P.PIECE_ORIENTS[p])


def sample_move(
    tb: Tables, stock: tuple[int, ...], gs: tuple[int, ...], free: int, rng: Rng, only: int = -1
) -> tuple[int, int]:
    """A uniformly random legal placement as (orientation, cell mask).

    While the board is mostly empty, first up to :data:`TRIES` rejection draws from every placement on the
    empty board (accepted when the player holds the piece and its cells are free): each accepted draw is
    uniform over the legal moves and costs a couple of microseconds. Otherwise, or if every draw is
    rejected, count the anchors of each orientation, draw an index and locate it, which is uniform too
    (a mixture of uniform samplers is uniform).
    """
    if only < 0 and free.bit_count() * 100 > tb.cells * 72:
        pieces, orients, masks = tb.flat()
        n = len(masks)
        shift = 64 - (n - 1).bit_length()
        g = rng.state
        try:
            for _ in range(TRIES):
                # Exactly Rng.below(n), inlined (same draws, same generator state): it is the hot loop.
                while True:
                    v, g = next_u64(g)
                    r = v >> shift
                    if r < n:
                        break
                if stock[pieces[r]] and not masks[r] & ~free:
                    return orients[r], masks[r]
        finally:
            rng.state = g
    table = tb.table(free)
    if only >= 0:
        gs = P.PIECE_ORIENTS[only]
    counts = [table[g].bit_count() for g in gs]
    total = sum(counts)
    if not total:
        raise ValueError("no legal placement")
    r = rng.below(total)
    for g, c in zip(gs, counts, strict=True):
        if r < c:
            return g, tb.masks[g] << select_bit(table[g], r)
        r -= c
    raise AssertionError("count and draw disagree")
