"""Counting a colour's bridges: the largest set of bridges that obeys Forma's sharing rules.

A *bridge* is a path of orthogonally adjacent cells of one colour (pieces and markers) from one side of
the board to the opposite side. A set of bridges is allowed when two north-south bridges share no cell,
two east-west bridges share no cell, and a north-south and an east-west bridge share at most one cell.
A colour holds as many bridges as the largest allowed set; each bridge added to that number scores 50.

The algorithm (exact unless the search budget runs out; see the end):

1. ``ns`` = the most pairwise cell-disjoint north-south paths, ``ew`` likewise east-west. By Menger's
   theorem these are maximum flows with unit cell capacities (augmenting paths on the split-cell graph).
2. If either is 0 the answer is ``ns + ew``.
3. Otherwise the crossing rule matters. A north-south path and an east-west path always meet (a 4-connected
   path from top to bottom cuts the board into a left and a right side, and a 4-connected left-right path
   cannot slip past it), so "at most one shared cell" means "exactly one". Only subsets matter, so every
   north-south path may be taken *minimal*: an induced path (no two non-consecutive cells adjacent) that
   touches the top and bottom rows only at its ends; shrinking a path to such a subpath never breaks a
   sharing rule. For each set of ``k`` disjoint minimal north-south paths P1..Pk, ordered left to right,
   the best number of east-west paths is again a maximum flow, in a layered directed graph: the cells of
   the colour that are neither on a Pi nor in a pocket of one get layer 2j (right of P1..Pj, left of the
   rest), the cells of Pi get layer 2i-1, and a step from cell u to an adjacent cell v is allowed within an
   even layer, from layer L to L+1, and from an odd layer to the next odd one (two paths side by side). A
   left-right path of that graph crosses every Pi in exactly one cell, and every allowed east-west path
   has this form, so the flow is exact for that P. The answer is the best ``k + flow`` over all such P
   (``k`` from ``ns`` down to 1, stopping as soon as ``ns + ew`` is reached). The direction with fewer
   disjoint paths plays the role of "north-south" (the board is transposed when needed). Before the
   exhaustive search, the greedy system "shortest path first, then the shortest path in what is left"
   (leftmost on ties) and its prefixes are tried: straight bridges usually reach ``ns + ew`` at once.
4. Limits: the number of minimal paths can grow quickly in solid blocks of one colour, so the search is
   capped (:data:`PATH_CAP` minimal paths found within :data:`STEP_CAP` search steps, :data:`SYSTEM_CAP`
   path sets). If a cap is reached, the result is the best set found, which is a real allowed set (a lower
   bound), and the caller never lowers a colour's count (cells are never removed, so a set once allowed
   stays allowed).

Paths and flows work on ``(x, y)`` cell sets and the sides of a path are flooded on a small bitboard; all
of it runs only when a move joins opposite sides of the board, so clarity wins over speed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator

__all__ = ["PATH_CAP", "STEP_CAP", "SYSTEM_CAP", "BridgeCount", "bridge_paths", "count_bridges", "max_disjoint"]

Cell = tuple[int, int]
PATH_CAP = 300
SYSTEM_CAP = 24
STEP_CAP = 4_000


class BridgeCount(tuple[int, int, int, bool]):
    """(total, north-south part, east-west part, exact): the largest allowed set found."""

    __slots__ = ()

    @property
    def total(self) -> int:
        return self[0]

    @property
    def exact(self) -> bool:
        return self[3]


def _nbrs(c: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    x, y = c
    return (x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)


def _flow(
    nodes: Iterable[Cell],
    edges: dict[Cell, list[Cell]],
    sources: set[Cell],
    sinks: set[Cell],
    paths: list[list[Cell]] | None = None,
) -> int:
    """Most vertex-disjoint source-to-sink paths in a directed graph (unit cell capacities).

    Node-split formulation: cell ``i`` becomes ``2i`` (in) and ``2i + 1`` (out) joined by capacity 1; edges
    are stored in flat lists (edge ``e`` and its reverse ``e ^ 1``) and augmenting paths are found
    breadth-first (Edmonds-Karp); each augmentation adds one path, and there are at most a handful.
    When ``paths`` is given, the flow's paths (cells in order) are appended to it: only the board view
    needs them (to draw the bridges), so the scoring never pays for the decomposition.
    """
    index = {c: i for i, c in enumerate(nodes)}
    m = len(index)
    src, snk = 2 * m, 2 * m + 1
    head: list[list[int]] = [[] for _ in range(2 * m + 2)]
    to: list[int] = []
    cap: list[int] = []

    def add(u: int, v: int) -> None:
        head[u].append(len(to))
        to.append(v)
        cap.append(1)
        head[v].append(len(to))
        to.append(u)
        cap.append(0)

    for c, i in index.items():
        add(2 * i, 2 * i + 1)
        for d in edges.get(c, ()):
            j = index.get(d)
            if j is not None:
                add(2 * i + 1, 2 * j)
        if c in sources:
            add(src, 2 * i)
        if c in sinks:
            add(2 * i + 1, snk)
    flow = 0
    while True:
        via = [-1] * (2 * m + 2)
        via[src] = -2
        queue = deque([src])
        while queue and via[snk] == -1:
            u = queue.popleft()
            for e in head[u]:
                v = to[e]
                if cap[e] and via[v] == -1:
                    via[v] = e
                    queue.append(v)
        if via[snk] == -1:
            if paths is not None:
                paths.extend(_decompose(head, to, cap, src, snk, list(index)))
            return flow
        v = snk
        while v != src:
            e = via[v]
            cap[e] -= 1
            cap[e ^ 1] += 1
            v = to[e ^ 1]
        flow += 1


def _decompose(
    head: list[list[int]], to: list[int], cap: list[int], src: int, snk: int, cells: list[Cell]
) -> list[list[Cell]]:
    """The paths of a unit-capacity flow: from the source, follow forward edges that carry flow (an even
    edge whose capacity is used up); unit cell capacities make every walk a simple path to the sink."""
    out = []
    for e in head[src]:
        if e % 2 or cap[e]:
            continue
        path: list[Cell] = []
        u = to[e]
        while u != snk:
            if u % 2 == 0:
                path.append(cells[u // 2])
            u = next(to[f] for f in head[u] if f % 2 == 0 and not cap[f])
        out.append(path)
    return out


def max_disjoint(cells: set[Cell], n: int, paths: list[list[Cell]] | None = None) -> int:
    """The most cell-disjoint north-south paths through ``cells`` on an ``n`` x ``n`` board (appended to
    ``paths`` when given)."""
    edges = {c: [d for d in _nbrs(c) if d in cells] for c in cells}
    return _flow(cells, edges, {c for c in cells if c[1] == 0}, {c for c in cells if c[1] == n - 1}, paths)


def _spanning(cells: set[Cell], n: int) -> set[Cell]:
    """The cells of the components that touch both the top and the bottom row."""
    out: set[Cell] = set()
    seen: set[Cell] = set()
    for start in cells:
        if start in seen:
            continue
        comp = {start}
        todo = [start]
        while todo:
            for d in _nbrs(todo.pop()):
                if d in cells and d not in comp:
                    comp.add(d)
                    todo.append(d)
        seen |= comp
        if any(c[1] == 0 for c in comp) and any(c[1] == n - 1 for c in comp):
            out |= comp
    return out


def _minimal_paths(cells: set[Cell], n: int, cap: int) -> tuple[list[frozenset[Cell]], bool]:
    """Every minimal north-south path (see the module docstring), up to ``cap`` of them."""
    out: list[frozenset[Cell]] = []
    last = n - 1
    steps = [0]

    def dfs(path: list[Cell], on: set[Cell]) -> Iterator[frozenset[Cell]]:
        u = path[-1]
        steps[0] += 1
        if steps[0] > STEP_CAP:
            return
        for v in _nbrs(u):
            if v not in cells or v in on or v[1] == 0:
                continue
            # Induced: v may touch no path cell but u.
            if any(w in on and w != u for w in _nbrs(v)):
                continue
            if v[1] == last:
                yield frozenset([*path, v])
                continue
            path.append(v)
            on.add(v)
            yield from dfs(path, on)
            on.discard(v)
            path.pop()

    for s in sorted(c for c in cells if c[1] == 0):
        if n == 1:
            out.append(frozenset([s]))
            continue
        for p in dfs([s], {s}):
            out.append(p)
            if len(out) >= cap:
                return out, False
    return out, steps[0] <= STEP_CAP


def _side(path: frozenset[Cell], n: int, column: int) -> int:
    """Board cells off ``path`` 8-connected (avoiding it) to the given border column, as a bitboard of
    stride ``n + 1`` (one empty guard column stops sideways and diagonal steps from wrapping)."""
    st = n + 1
    board = sum(((1 << n) - 1) << (y * st) for y in range(n))
    blocked = 0
    for x, y in path:
        blocked |= 1 << (y * st + x)
    passable = board & ~blocked
    region = sum(1 << (y * st + column) for y in range(n)) & passable
    while True:
        h = region | (region << 1) | (region >> 1)
        grown = (h | (h << st) | (h >> st)) & passable
        if grown == region:
            return region
        region = grown


def _crossing_flow(
    cells: set[Cell], paths: list[frozenset[Cell]], n: int, found: list[list[Cell]] | None = None
) -> int:
    """Most east-west paths that are pairwise disjoint and cross each of ``paths`` exactly once."""
    st = n + 1
    lefts = [_side(p, n, 0) for p in paths]
    rights = [_side(p, n, n - 1) for p in paths]

    def bit(c: Cell) -> int:
        return 1 << (c[1] * st + c[0])

    # Order left to right: a path lies right of every path whose right side holds it.
    first = [bit(min(p)) for p in paths]
    order = sorted(range(len(paths)), key=lambda i: sum(1 for j in range(len(paths)) if first[i] & rights[j]))
    k = len(paths)
    layer: dict[Cell, int] = {}
    for rank, i in enumerate(order):
        for c in paths[i]:
            layer[c] = 2 * rank + 1
    for c in cells:
        if c in layer:
            continue
        j = 0
        ok = True
        b = bit(c)
        for rank, i in enumerate(order):
            if b & rights[i]:
                if rank != j:
                    ok = False
                    break
                j += 1
            elif not b & lefts[i]:
                ok = False  # in a pocket of this path: no east-west path can use it
                break
        if ok:
            layer[c] = 2 * j
    edges: dict[Cell, list[Cell]] = {}
    for c, lc in layer.items():
        out = []
        for d in _nbrs(c):
            ld = layer.get(d)
            if ld is None:
                continue
            if (ld == lc and lc % 2 == 0) or ld == lc + 1 or (lc % 2 == 1 and ld == lc + 2):
                out.append(d)
        edges[c] = out
    sources = {c for c, lc in layer.items() if c[0] == 0 and lc <= 1}
    sinks = {c for c, lc in layer.items() if c[0] == n - 1 and lc >= 2 * k - 1}
    return _flow(layer, edges, sources, sinks, found)


def count_bridges(cells: Iterable[Cell], n: int) -> BridgeCount:
    """The largest allowed set of bridges through ``cells`` (one colour) on an ``n`` x ``n`` board."""
    return _search(set(cells), n)[0]


def bridge_paths(cells: Iterable[Cell], n: int) -> tuple[list[list[Cell]], list[list[Cell]]]:
    """The bridges of the set :func:`count_bridges` finds: (north-south paths, east-west paths), each a
    list of cells in order from the top (left) border to the bottom (right) one.

    Why: the board draws each scored bridge. The paths come from the same search, so there are as many as
    counted; each is then shortened to a shortest path inside its own cells, which keeps every sharing
    rule (a subset of a bridge shares no more cells with the others) and makes the drawing tidy."""
    all_cells = set(cells)
    count, system, swap = _search(all_cells, n)
    ns: list[list[Cell]] = []
    ew: list[list[Cell]] = []
    tr = {(y, x) for x, y in all_cells}
    if system is None:
        if count[1]:
            max_disjoint(_spanning(all_cells, n), n, ns)
        if count[2]:
            max_disjoint(_spanning(tr, n), n, ew)
            ew = [[(x, y) for y, x in p] for p in ew]
    else:
        base = tr if swap else all_cells
        across: list[list[Cell]] = []
        _crossing_flow(base, system, n, across)
        along = [list(p) for p in system]
        if swap:  # the search ran on the transposed board: its north-south paths are east-west ones
            ns, ew = [[(y, x) for x, y in p] for p in across], [[(y, x) for x, y in p] for p in along]
        else:
            ns, ew = along, across
    return [_tidy(p, n, 1) for p in ns], [_tidy(p, n, 0) for p in ew]


def _tidy(path: list[Cell], n: int, axis: int) -> list[Cell]:
    """A shortest path from border to border (``axis`` 1: top to bottom, 0: left to right) inside ``path``."""
    own = set(path)
    starts = sorted(c for c in own if c[axis] == 0)
    parent: dict[Cell, Cell | None] = dict.fromkeys(starts)
    queue = deque(starts)
    while queue:
        u = queue.popleft()
        if u[axis] == n - 1:
            out = []
            w: Cell | None = u
            while w is not None:
                out.append(w)
                w = parent[w]
            return out[::-1]
        for v in _nbrs(u):
            if v in own and v not in parent:
                parent[v] = u
                queue.append(v)
    return path  # not reached: every path of the search joins the two borders


def _search(all_cells: set[Cell], n: int) -> tuple[BridgeCount, list[frozenset[Cell]] | None, bool]:
    """The count, the north-south path set it was reached with (None: one direction only) and whether
    the search ran on the transposed board."""
    ns_cells = _spanning(all_cells, n)
    tr = {(y, x) for x, y in all_cells}
    ew_cells_t = _spanning(tr, n)
    ns = max_disjoint(ns_cells, n) if ns_cells else 0
    ew = max_disjoint(ew_cells_t, n) if ew_cells_t else 0
    if ns == 0 or ew == 0:
        return BridgeCount((ns + ew, ns, ew, True)), None, False
    # Enumerate path sets in the direction with fewer disjoint paths (transposing if that is east-west).
    if ns <= ew:
        base, k_max, other, swap = all_cells, ns, ew, False
        pcells = ns_cells
    else:
        base, k_max, other, swap = tr, ew, ns, True
        pcells = ew_cells_t
    best = (max(ns, ew), ns if ns >= ew else 0, ew if ew > ns else 0)
    best_system: list[frozenset[Cell]] | None = None
    greedy = _greedy_system(pcells, n, k_max)
    for k in range(len(greedy), 0, -1):
        flow = _crossing_flow(base, greedy[:k], n)
        if k + flow > best[0]:
            best = (k + flow, flow, k) if swap else (k + flow, k, flow)
            best_system = greedy[:k]
    if best[0] == k_max + other:
        return BridgeCount((best[0], best[1], best[2], True)), best_system, swap
    paths, exact = _minimal_paths(pcells, n, PATH_CAP)
    paths.sort(key=lambda p: (len(p), sorted(p)))
    evaluated = 0
    for k in range(k_max, 0, -1):
        if k + other <= best[0]:
            break
        for system in _systems(paths, k):
            evaluated += 1
            if evaluated > SYSTEM_CAP:
                exact = False
                break
            flow = _crossing_flow(base, list(system), n)
            if k + flow > best[0]:
                best = (k + flow, flow, k) if swap else (k + flow, k, flow)
                best_system = list(system)
            if best[0] == k_max + other:
                return BridgeCount((best[0], best[1], best[2], exact)), best_system, swap
        if evaluated > SYSTEM_CAP:
            break
    return BridgeCount((best[0], best[1], best[2], exact)), best_system, swap


def _shortest(cells: set[Cell], n: int) -> frozenset[Cell] | None:
    """A shortest north-south path through ``cells`` (leftmost start on ties), or None.

    A shortest path is minimal: a chord or a second cell on the top or bottom row would shorten it."""
    starts = sorted((c for c in cells if c[1] == 0), key=lambda c: c[0])
    parent: dict[Cell, Cell | None] = dict.fromkeys(starts)
    queue = deque(starts)
    while queue:
        u = queue.popleft()
        if u[1] == n - 1:
            out = []
            w: Cell | None = u
            while w is not None:
                out.append(w)
                w = parent[w]
            return frozenset(out)
        for v in _nbrs(u):
            if v in cells and v not in parent:
                parent[v] = u
                queue.append(v)
    return None


def _greedy_system(cells: set[Cell], n: int, k: int) -> list[frozenset[Cell]]:
    """Up to ``k`` disjoint minimal paths: repeatedly the shortest one in the cells still free."""
    left = set(cells)
    out: list[frozenset[Cell]] = []
    while len(out) < k:
        p = _shortest(left, n)
        if p is None:
            break
        out.append(p)
        left -= p
    return out


def _systems(paths: list[frozenset[Cell]], k: int) -> Iterator[tuple[frozenset[Cell], ...]]:
    """Sets of ``k`` pairwise disjoint paths (each set once, in list order)."""

    def rec(
        start: int, chosen: tuple[frozenset[Cell], ...], used: frozenset[Cell]
    ) -> Iterator[tuple[frozenset[Cell], ...]]:
        if len(chosen) == k:
            yield chosen
            return
        for i in range(start, len(paths)):
            p = paths[i]
            if used.isdisjoint(p):
                yield from rec(i + 1, (*chosen, p), used | p)

    yield from rec(0, (), frozenset())
