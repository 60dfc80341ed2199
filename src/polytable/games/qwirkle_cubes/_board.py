"""The table: cubes on an unbounded grid, and everything that asks "what fits where".

A :class:`Board` is an immutable index over the cubes placed so far (a dict cell -> face, the frontier of
empty cells that touch a cube, and memo tables). States that share a board (every state of one turn)
share the object, so the memo tables pay off across counting, sampling and the greedy AI.

Placement generation, and why it is fast enough:

* All cubes of one turn lie in one row or column with no gap once placed, so a placement is fixed by its
  first new cell ``p``, a direction, and the faces in order: the k new cubes take the first k *empty*
  cells from ``p`` onwards (cubes already there in between join the line).
* A depth-first walk from ``p`` keeps the faces of the main line so far as a 36-bit mask; the faces that
  may go on the next empty cell are ``addable(line) & hand & fits_across(cell)``, one ``&`` each.
* Orders of the same faces reach the same (cell, line) node, so counting memoises on it and a uniform
  random placement is drawn by walking down the memoised counts: no list of placements is ever built to
  count or sample, even when a hand of six makes 720 orders of one line.
* A placement must touch the table (some new cube is on a frontier cell), so a walk starts only within
  five cells before a frontier cell and is cut as soon as the frontier can no longer be reached.
* A single cube is one placement whichever way it is read: it is generated for rows only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from polytable.geometry import Memo

from ._tiles import _ADDABLE as _ADD
from ._tiles import _LINE_OK, ALL_FACES, LINE_MAX, STRIDE, addable, cell, line_ok

__all__ = ["START", "Board", "Placement"]

Placement = tuple[tuple[int, int], ...]
"""``((face, cell), ...)`` sorted by cell: along a row by x, along a column by y."""

START = cell(0, 0)
"""The first cube of the game lies here; every coordinate is relative to it."""

_DIRS = (1, STRIDE)
_COLOUR = tuple(0x3F << (6 * c) for c in range(6))
"""The six faces of each colour (bits ``6 * colour + shape``)."""
_SHIFTS = tuple((2 * j, 2 * j * STRIDE) for j in range(1, LINE_MAX))
"""Memo-key offsets of the five cells after (or before) a cell along a row and along a column."""


_LONGEST: Memo[int, int] = Memo(100_001)


def _longest(faces: int) -> int:
    """The most faces of ``faces`` that can share one line (one colour, or one shape)."""
    got = _LONGEST.get(faces)
    if got is not None:
        return got
    best = 0
    for c in range(6):
        best = max(best, (faces >> (6 * c) & 0x3F).bit_count())
    for s in range(6):
        best = max(best, (faces >> s & 0x1041041041).bit_count())
    return _LONGEST.put(faces, best)


class Board:
    """Cubes on the table (immutable once built) with lazily filled memo tables."""

    __slots__ = (
        "_fit",
        "_info",
        "_last",
        "_last_key",
        "_nodes",
        "_pl",
        "_placeable",
        "_sorted",
        "cells",
        "frontier",
        "order",
    )

    cells: dict[int, int]
    frontier: set[int]
    _fit: dict[int, int]
    _info: dict[int, tuple[int, int, int, int]]
    _nodes: dict[int, tuple[int, int, int, bool, int]]
    _pl: dict[int, int]

    def __init__(self, order: tuple[tuple[int, int], ...] = (), parent: Board | None = None) -> None:
        """``order``: every (face, cell) placed so far; ``parent``: the board before the last cubes, whose
        dict and frontier are copied and updated rather than rebuilt."""
        self.order = order
        if parent is None:
            cells: dict[int, int] = {}
            frontier: set[int] = set()
            new = order
            fit: dict[int, int] = {}
            info: dict[int, tuple[int, int, int, int]] = {}
            nodes: dict[int, tuple[int, int, int, bool, int]] = {}
        else:
            cells = dict(parent.cells)
            frontier = set(parent.frontier)
            new = order[len(parent.order) :]
            fit = dict(parent._fit)
            info = dict(parent._info)
            nodes = dict(parent._nodes)
        for t, c in new:
            cells[c] = t
        fresh = [c for _, c in new]  # cells whose status changed: new cubes, new frontier cells
        for _, c in new:
            frontier.discard(c)
            for n in (c - 1, c + 1, c - STRIDE, c + STRIDE):
                if n not in cells and n not in frontier:
                    frontier.add(n)
                    fresh.append(n)
        if parent is not None:
            # Forget exactly what the new cubes can change. A memo entry of an empty cell depends on the
            # runs of cubes next to it (its fits, the line before and after it, the next empty cell: only
            # the empty cells at the two ends of a run through a new cube, along either axis, see a
            # change) and, for the start information, on which of the five cells before it are empty and
            # off the frontier (only the new cubes and the cells that just joined the frontier change).
            pl = dict(parent._pl)
            fpop, npop, ipop, ppop = fit.pop, nodes.pop, info.pop, pl.pop
            ends = set()
            for _, c in new:
                ppop(c, None)
                for ax in _DIRS:
                    for d in (ax, -ax):
                        e = c + d
                        while e in cells:
                            e += d
                        ends.add(2 * e + (ax != 1))
            for k in ends:
                fpop(k, None)
                e2 = k & ~1
                npop(e2, None)
                npop(e2 + 1, None)
                ipop(e2, None)
                ipop(e2 + 1, None)
                ppop(k >> 1, None)
            for z in fresh:
                z2 = 2 * z
                for a, b in _SHIFTS:
                    ipop(z2 + a, None)
                    ipop(z2 + b + 1, None)
                    npop(z2 - a, None)
                    npop(z2 - b + 1, None)
        else:
            pl = {}
        self._pl = pl
        self.cells = cells
        self.frontier = frontier
        self._fit = fit
        self._info = info
        self._nodes = nodes
        self._placeable = -1
        self._sorted: list[int] | None = None
        self._last_key: tuple[int, int] | None = None
        self._last: tuple[dict[int, int], list[tuple[int, int, int, bool, int]], int] = ({}, [], 0)

    def with_cubes(self, placed: Placement) -> Board:
        return Board(self.order + placed, self)

    @staticmethod
    def from_parts(order: tuple[tuple[int, int], ...], cells: dict[int, int], frontier: set[int]) -> Board:
        """``Board(order)`` from its cells and frontier computed elsewhere (the compiled playout's table):
        the same board, without the Python loop over every cube."""
        b = Board().scratch(())
        b.order, b.cells, b.frontier = order, cells, frontier
        return b

    def scratch(self, placed: Placement) -> Board:
        """This board plus ``placed``, for *looking at lines only* (``run``, ``run_length``,
        ``fits_across``, ``score_placed``): no frontier and empty memo tables, so it costs one dict copy
        instead of a full :meth:`with_cubes` (the greedy AI scores every placement this way)."""
        b = object.__new__(Board)
        cells = dict(self.cells)
        for t, c in placed:
            cells[c] = t
        b.cells = cells
        b.order = self.order + placed
        b.frontier = set()
        b._fit = {}
        b._info = {}
        b._nodes = {}
        b._pl = {}
        b._placeable = -1
        b._sorted = None
        b._last_key = None
        b._last = ({}, [], 0)
        return b

    # ------------------------------------------------------------------ lines
    def run(self, c: int, step: int) -> int:
        """The faces of the cubes from ``c`` onwards in direction ``step`` up to the first empty cell."""
        cells = self.cells
        mask = 0
        t = cells.get(c)
        while t is not None:
            mask |= 1 << t
            c += step
            t = cells.get(c)
        return mask

    def run_length(self, c: int, step: int) -> int:
        cells = self.cells
        n = 0
        while c in cells:
            n += 1
            c += step
        return n

    def fits_across(self, c: int, step: int) -> int:
        """Faces a new cube on empty cell ``c`` may show, judged by the line through ``c`` along ``step``
        (the cubes already there on both sides, which the new cube would join)."""
        key = c * 2 + (step != 1)
        got = self._fit.get(key)
        if got is None:
            a = self.run(c - step, -step)
            b = self.run(c + step, step)
            if a & b:
                got = 0
            elif a | b:
                got = addable(a | b) if line_ok(a | b) else 0
            else:
                got = ALL_FACES
            self._fit[key] = got
        return got

    def placeable(self) -> int:
        """Every face that could be placed alone somewhere (the union over the frontier). A hand can play
        iff it holds one of these; the pass rule asks whether its colours meet them at all. The faces per
        frontier cell are inherited from the board before (only cells at the ends of changed runs move)."""
        if self._placeable < 0:
            if not self.cells:
                self._placeable = ALL_FACES
            else:
                out = 0
                pl = self._pl
                for c in self.frontier:
                    v = pl.get(c)
                    if v is None:
                        v = pl[c] = self.fits_across(c, 1) & self.fits_across(c, STRIDE)
                    out |= v
                self._placeable = out
        return self._placeable

    # ------------------------------------------------------------------ placements
    def _start_info(self, f: int, step: int) -> tuple[int, int, int, int]:
        """For frontier cell ``f`` and a walk along ``step``: the faces the line across ``f`` allows, the
        faces of the line just before and just after ``f``, and how many empty cells with no neighbour lie
        just before it (where a walk may start and run into ``f``, its first cube to touch the table).
        Memoised per board, inherited from the board before (new cubes forget their neighbourhood)."""
        key = 2 * f + (step != 1)
        got = self._info.get(key)
        if got is None:
            before = self.run(f - step, -step)
            back = 0
            if not before:
                cells, frontier = self.cells, self.frontier
                p = f - step
                while back < LINE_MAX - 1 and p not in frontier and p not in cells:
                    back += 1
                    p -= step
            got = (self.fits_across(f, STRIDE + 1 - step), before, back, self.run(f + step, step))
            self._info[key] = got
        return got

    def _roots(self, hand: int, need: int) -> list[tuple[int, int, int, bool]]:
        """(first cell, step, line faces before it, touching already) for every walk worth making with
        this hand. A walk starts on a frontier cell ``f``, or on one of the free cells just before it (each
        such start belongs to one ``f``: the first touching cell ahead, so nothing is found twice); free
        starts are skipped when ``f`` takes no face of the hand, or when the free run is longer than the
        hand can fill in one line with ``f``."""
        if not self.cells:
            return [(START, 1, 0, True)]
        out = []
        info = self._info
        add = _ADD
        if self._sorted is None:
            self._sorted = sorted(self.frontier)
        for f in self._sorted:
            for step in _DIRS:
                got = info.get(2 * f + (step != 1)) or self._start_info(f, step)
                cross, before, back, after = got
                fits = hand & cross
                if not fits:
                    continue
                if before:
                    a = add.get(before)
                    if fits & (addable(before) if a is None else a):
                        out.append((f, step, before, False))
                    continue
                a = add.get(after)
                after_fits = addable(after) if a is None else a
                if not fits & after_fits:
                    continue
                out.append((f, step, 0, False))
                if back:
                    longest = _longest(hand & after_fits if after else hand)
                    cap = min(back, longest - 1, LINE_MAX - 1 - after.bit_count())
                    for j in range(1, cap + 1):
                        out.append((f - j * step, step, 0, False))
        return out

    def _reach(self, q: int, step: int, size: int) -> bool:
        """Whether a walk not yet touching the table, at empty cell ``q`` with ``size`` cubes in its line,
        can still reach a frontier cell before the line is full."""
        frontier = self.frontier
        while size < LINE_MAX:
            if q in frontier:
                return True
            q += step
            size += 1
        return False

    def count(self, hand: int, need: int = 0) -> int:
        """How many placements the distinct faces ``hand`` allow (``need``: exactly that many cubes, for
        the first turn; 0 for any number)."""
        return self._table(hand, need)[2]

    def _table(self, hand: int, need: int) -> tuple[dict[int, int], list[tuple[int, int, int, bool, int]], int]:
        """The memo of subtree counts, the roots with their counts and the total (kept for the last hand).

        A root is a walk's first empty cell; its count is :meth:`_count` with no cube placed yet (the memo
        entry it leaves is never read again, which costs a dictionary store per root, a small share of a count:
        docs/benchmarks/design-figures.md)."""
        if self._last_key == (hand, need):
            return self._last
        memo: dict[int, int] = {}
        roots = []
        total = 0
        count = self._count
        for p, step, line, conn in self._roots(hand, need):
            n = count(p, step, line, conn, 0, hand, need, memo)
            if n:
                roots.append((p, step, line, conn, n))
                total += n
        self._last_key = (hand, need)
        self._last = (memo, roots, total)
        return self._last

    def _node(self, p: int, step: int) -> tuple[int, int, int, bool, int]:
        """For a walk along ``step`` reaching empty cell ``p``: the faces the line across ``p`` allows,
        the faces of the cubes just after ``p``, the next empty cell, whether ``p`` touches the table, and
        how many steps on the first frontier cell lies (``p`` itself: 0; ``LINE_MAX`` for none in reach).
        Memoised per board and inherited (a new cube forgets the cells whose answers it can change)."""
        key = 2 * p + (step != 1)
        got = self._nodes.get(key)
        if got is None:
            after = self.run(p + step, step)
            frontier = self.frontier
            reach = 0
            while reach < LINE_MAX and p + reach * step not in frontier:
                reach += 1
            got = (
                self.fits_across(p, STRIDE + 1 - step),
                after,
                p + step * (after.bit_count() + 1),
                reach == 0,
                reach,
            )
            self._nodes[key] = got
        return got

    def _count(
        self,
        p: int,
        step: int,
        line: int,
        conn: bool,
        k: int,
        hand: int,
        need: int,
        memo: dict[int, int],
    ) -> int:
        key = ((((2 * p + (step != 1)) << 1 | conn) << 3 | (k if need else k > 0)) << 36) | line
        got = memo.get(key)
        if got is not None:
            return got
        total = 0
        nodes = self._nodes
        dirbit = step != 1
        cross, after, q, touch, _ = nodes.get(2 * p + dirbit) or self._node(p, step)
        a = _ADD.get(line)
        fits = (addable(line) if a is None else a) & hand & cross
        if fits:
            here = conn or touch
            k1 = k + 1
            counts_here = here and (k1 == need if need else (k1 >= 2 or step == 1))
            go_on = not need or k1 < need
            if go_on:
                nxt = nodes.get(2 * q + dirbit) or self._node(q, step)
                child = (((2 * q + dirbit) << 1 | here) << 3 | (k1 if need else 1)) << 36
                reach = nxt[4]
            while fits:
                bit = fits & -fits
                fits ^= bit
                m = line | bit
                if after:
                    if m & after:
                        continue
                    m |= after
                    ok = _LINE_OK.get(m)
                    if not (line_ok(m) if ok is None else ok):
                        continue
                if counts_here:
                    total += 1
                if go_on:
                    size = m.bit_count()
                    if size < LINE_MAX and (here or size + reach < LINE_MAX):
                        got = memo.get(child | m)
                        if got is not None:
                            total += got
                            continue
                        a = _ADD.get(m)
                        if (addable(m) if a is None else a) & hand & nxt[0]:
                            total += self._count(q, step, m, here, k1, hand, need, memo)
        memo[key] = total
        return total

    def sample(self, hand: int, need: int, r: int) -> Placement:
        """The placement number ``r`` (0 <= r < count) in the walk order: with ``r`` uniform this is a
        uniform random placement, found by descending the memoised counts."""
        memo, roots, _ = self._table(hand, need)
        for p, step, line, conn, n in roots:
            if r < n:
                return self._locate(p, step, line, conn, 0, hand, need, memo, r, ())
            r -= n
        raise IndexError("placement index out of range")

    def _locate(
        self,
        p: int,
        step: int,
        line: int,
        conn: bool,
        k: int,
        hand: int,
        need: int,
        memo: dict[int, int],
        r: int,
        acc: Placement,
    ) -> Placement:
        q, here, steps = self._steps(p, step, line, conn, k, hand, need)
        for bit, m, counts, deeper in steps:
            seq = (*acc, (bit.bit_length() - 1, p))
            if counts:
                if r == 0:
                    return seq
                r -= 1
            if deeper:
                n = self._count(q, step, m, here, k + 1, hand, need, memo)
                if r < n:
                    return self._locate(q, step, m, here, k + 1, hand, need, memo, r, seq)
                r -= n
        raise IndexError("placement index out of range")

    def placements(self, hand: int, need: int = 0) -> Iterator[Placement]:
        """Every placement, each once, in the same order as :meth:`count` and :meth:`sample` number them."""
        for p, step, line, conn in self._roots(hand, need):
            yield from self._walk(p, step, line, conn, 0, hand, need, ())

    def placements_by_colour(self, counts: Sequence[int]) -> Iterator[Placement]:
        """Every placement (any number of cubes) whose faces some roll of cubes with these colour counts
        (``counts[c]`` cubes of colour ``c``) could show: a roll changes shapes, never colours, so the walk
        of :meth:`placements` is offered at each step every face of the colours of which a cube is unused.
        A reroll-choosing AI tabulates a decision's every possible hand with one such walk."""
        left = list(counts)
        offer = 0
        for c, n in enumerate(left):
            if n:
                offer |= _COLOUR[c]
        for p, step, line, conn in self._roots(offer, 0):
            yield from self._walk_colours(p, step, line, conn, 0, left, offer, ())

    def _walk_colours(
        self, p: int, step: int, line: int, conn: bool, k: int, left: list[int], offer: int, acc: Placement
    ) -> Iterator[Placement]:
        q, here, steps = self._steps(p, step, line, conn, k, offer, 0)
        for bit, m, counts_here, deeper in steps:
            f = bit.bit_length() - 1
            seq = (*acc, (f, p))
            if counts_here:
                yield seq
            if deeper:
                c = f // 6
                left[c] -= 1
                more = offer if left[c] else offer & ~_COLOUR[c]
                yield from self._walk_colours(q, step, m, here, k + 1, left, more, seq)
                left[c] += 1

    def _walk(
        self, p: int, step: int, line: int, conn: bool, k: int, hand: int, need: int, acc: Placement
    ) -> Iterator[Placement]:
        q, here, steps = self._steps(p, step, line, conn, k, hand, need)
        for bit, m, counts, deeper in steps:
            seq = (*acc, (bit.bit_length() - 1, p))
            if counts:
                yield seq
            if deeper:
                yield from self._walk(q, step, m, here, k + 1, hand, need, seq)

    def _steps(
        self, p: int, step: int, line: int, conn: bool, k: int, hand: int, need: int
    ) -> tuple[int, bool, list[tuple[int, int, bool, bool]]]:
        """One step of a walk that has placed ``k`` cubes and reaches empty cell ``p`` with ``line``: the
        next empty cell, whether the walk now touches the table, and for each face that can go on ``p``
        (in walk order) its bit, the line it makes, whether the placement ending here counts, and whether
        the walk can go on. The count (:meth:`_count`) inlines this for speed; walking and locating share it."""
        fits = addable(line) & hand & self.fits_across(p, STRIDE + 1 - step)
        if not fits:
            return p, conn, []
        after = self.run(p + step, step)
        here = conn or p in self.frontier
        q = p + step * (after.bit_count() + 1)
        k1 = k + 1
        counts_here = here and (k1 == need if need else (k1 >= 2 or step == 1))
        go_on = not need or k1 < need
        out = []
        while fits:
            bit = fits & -fits
            fits ^= bit
            m = line | bit
            if after:
                if m & after or not line_ok(m | after):
                    continue
                m |= after
            deeper = go_on and m.bit_count() < LINE_MAX and (here or self._reach(q, step, m.bit_count()))
            out.append((bit, m, counts_here, deeper))
        return q, here, out

    def is_legal(self, placed: Placement, hand: int, need: int) -> bool:
        """Whether ``placed`` (sorted by cell) is legal for the distinct faces ``hand``: the same walk as
        the generator, following the given cubes (the fast path of checking a move)."""
        if not placed or (need and len(placed) != need):
            return False
        p = placed[0][1]
        step = 1 if len(placed) == 1 or placed[1][1] - p < STRIDE else STRIDE
        if self.cells:
            if p in self.cells:
                return False
            line = self.run(p - step, -step)
            conn = False
        elif p != START or step != 1:
            return False
        else:
            line, conn = 0, True
        for t, c in placed:
            if c != p:
                return False
            cross, after, q, touch, _ = self._node(p, step)
            bit = 1 << t
            if not addable(line) & hand & cross & bit:
                return False
            m = line | bit
            if after:
                if m & after or not line_ok(m | after):
                    return False
                m |= after
            line = m
            conn = conn or touch
            p = q
        return conn

    # ------------------------------------------------------------------ scoring
    def score(self, placed: Placement) -> tuple[int, int]:
        """(points, Qwirkles) for ``placed`` on this board (the board *before* the placement)."""
        return self.scratch(placed).score_placed(placed)

    def score_placed(self, placed: Placement) -> tuple[int, int]:
        """(points, Qwirkles) of ``placed``, already on this board: every line of 2+ cubes that holds a new
        cube scores its length once, and a line of 6 scores 6 more."""
        points = 0
        qwirkles = 0
        c0 = placed[0][1]
        if len(placed) == 1:
            axes: tuple[int, ...] = (1, STRIDE)
        else:
            main = 1 if placed[1][1] - c0 < STRIDE else STRIDE
            n = self.run_length(c0, -main) + self.run_length(c0 + main, main)
            if n == LINE_MAX:
                qwirkles += 1
            points += n + (LINE_MAX if n == LINE_MAX else 0)
            axes = (STRIDE + 1 - main,)
        for _, c in placed:
            for ax in axes:
                n = self.run_length(c, -ax) + self.run_length(c + ax, ax)
                if n >= 2:
                    points += n
                    if n == LINE_MAX:
                        points += LINE_MAX
                        qwirkles += 1
        return points, qwirkles
