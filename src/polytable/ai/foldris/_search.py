"""The Foldris search's evaluation on raw int sheets: the one-ply terms, the leaves and the drops of a card.

Why raw ints and not states: the expectimax (:mod:`._player`) resolves tens of thousands of drops a move,
so the drop, the fold, the memoised barrier-free sheet value and the barrier are inlined here; a state is
built only for the move played.
"""

from __future__ import annotations

from ...games.foldris import WIDTH, VariantTable, drops, heights
from ...geometry import Memo
from ._cap import NO_CAP
from ._eval import evaluate_sheet

__all__ = ["DEAD", "END", "Group", "Search", "groups"]

END = 1000.0
"""Value of one line when the leaf ends the game (dominates every shape term)."""
DEAD = -5000.0
"""Value of an elimination (before the lines already made)."""
SPARE = 100.0
"""Value of a line past ``cap`` (it cannot change the result): small, so a risk of elimination of more than
2% outweighs it, yet lines still break ties between drops the search cannot tell apart (when every drop
looks lost, for instance, since the search assumes the barrier falls)."""
Group = tuple[VariantTable, dict[int, int]]


def groups(deck: tuple[int, ...], tables: tuple[VariantTable, ...], cards: tuple[tuple[str, int], ...]) -> list[Group]:
    """The remaining cards as a multiset: per shape table, the count of each lane (the order is never used)."""
    out: dict[int, Group] = {}
    for idx in deck:
        t = tables[idx]
        g = out.get(t.number)
        if g is None:
            g = out[t.number] = (t, {})
        ln = cards[idx][1]
        g[1][ln] = g[1].get(ln, 0) + 1
    return list(out.values())


class Search:
    """The evaluation used by the search: the one-ply weights (optionally overridden) and a sheet cache."""

    def __init__(self, weights: dict[str, float]) -> None:
        self.w = weights
        self.flaw = 0.0
        """``perfect`` while a perfect game is still possible (no hole, no trim yet), else 0: the cost of a
        first flaw on top of the shape terms, since any hole or trim rules out the last line."""
        self.tie = 0.0
        """Value of a bonus point gained or spent when the search reaches the end (a tie-break in multiplayer)."""
        self.end_dead = 0.0
        """Value of an elimination in an exact search: no more lines in solo, a lost game otherwise."""
        self.root_height = 0
        """The sheet height at the root of this move's search (its drop in height counts the lines made since)."""
        self.cap = NO_CAP
        """In an exact multiplayer search: the lines still worth making (more cannot change the result)."""
        self.land = weights["landing"]
        self.line4 = weights["lines"] * 4
        self.bonus = weights["bonus"]
        self.trim = weights["trimmed"]
        self.gap = weights["barrier_gap"]
        self.cache: Memo[tuple[int, int], tuple[float, tuple[int, ...]]] = Memo(200_001)

    def line_gain(self, height: int, n: int) -> float:
        """Exact-search value of ``n`` lines made on a sheet of ``height`` rows: ``END`` each, but only up to
        ``cap`` lines since the root (a line past what beats every opponent is worth nothing, so no risk is
        taken for it)."""
        made = self.root_height - height
        cap = self.cap
        counted = (made + n if made + n < cap else cap) - (made if made < cap else cap)
        return END * counted + SPARE * (n - counted)

    def sheet_value(self, ink: int, height: int) -> tuple[float, tuple[int, ...]]:
        """The barrier-free sheet evaluation and the column heights, memoised (sheets recur across branches)."""
        key = (ink, height)
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache.put(key, (evaluate_sheet(ink, height, 0, self.w), heights(ink)))
        return hit

    def gap_term(self, hts: tuple[int, ...], lane: int, height: int) -> float:
        """The barrier term of the one-ply evaluation for a barrier falling in ``lane`` on this surface."""
        c = lane - 1
        a, b = hts[c], hts[c + 1]
        y = a if a > b else b
        if y >= height:
            return 0.0
        return self.gap * (2 * y - a - b)

    def leaf(
        self,
        table: VariantTable,
        ink: int,
        barrier: int,
        height: int,
        budget: int,
        lanes: tuple[int, ...],
        last: bool,
    ) -> list[float]:
        """For each lane of ``lanes``: the best one-ply value of dropping a card of this shape with that lane.

        Cards of one shape share the drop search; only the barrier term depends on the lane. ``last``: the
        deck ends with this card, so a drop is worth its lines only.
        """
        hts = heights(ink | barrier)
        best = [float("-inf")] * len(lanes)
        gains = [self.line_gain(height, n) for n in range(5)] if last else []
        w_land, w_line4, w_bonus = self.land, self.line4, self.bonus
        for _, v, _, y, new, n in drops(table, ink, hts, height, budget):
            if last:
                value = gains[n] + self.tie * (n - v.cost)
                for k in range(len(lanes)):
                    if value > best[k]:
                        best[k] = value
                continue
            h2 = height - n
            base, hts2 = self.sheet_value(new, h2)
            extra = w_bonus * -v.cost + (self.trim if v.trim else 0.0)
            value = base + extra + w_land * (y + (v.height - 1) / 2 - n) + (w_line4 + w_bonus) * n
            if self.flaw and (v.trim or sum(hts2) != new.bit_count()):
                value += self.flaw
            for k, lane in enumerate(lanes):
                val = value + self.gap_term(hts2, lane, h2)
                if val > best[k]:
                    best[k] = val
        return best

    def children(
        self, table: VariantTable, ink: int, barrier: int, height: int, budget: int, lane: int, falls: bool, exact: bool
    ) -> list[tuple[float, float, int, int, int, int, int, int]]:
        """Every drop of a card on a sheet, best first: (one-ply value, own terms, variant, column, ink,
        barrier, height, bonus).

        ``falls``: the barrier falls in ``lane`` whatever happens (solo); otherwise only when no line is
        made. In ``exact`` mode the own terms are the lines alone (the search reaches the end of the deck).
        The drop, the fold, the memoised sheet value and the barrier are inlined (this is the search's
        inner loop); the barrier rests on the higher of its two columns, as ``barrier_drop`` puts it.
        """
        hts = heights(ink | barrier)
        out = []
        cache = self.cache
        land, line4, w_bonus, w_trim, flaw, gap = self.land, self.line4, self.bonus, self.trim, self.flaw, self.gap
        c0 = lane - 1
        for i, v, col, y, new, n in drops(table, ink, hts, height, budget):
            cost = v.cost
            h = height - n
            terms = land * (y + (v.height - 1) / 2 - n) + line4 * n + w_bonus * (n - cost) + (w_trim if v.trim else 0.0)
            hit = cache.get((new, h))
            if hit is None:
                hit = self.sheet_value(new, h)
            base, hts2 = hit
            if flaw and (v.trim or sum(hts2) != new.bit_count()):
                terms += flaw
            value = terms + base
            bar = 0
            if falls or n == 0:
                a, b2 = hts2[c0], hts2[lane]
                yb = a if a > b2 else b2
                if yb < h:
                    bar = 0b11 << (WIDTH * yb + c0)
                    value += gap * (2 * yb - a - b2)
            own = self.line_gain(height, n) + self.tie * (n - cost) if exact else terms
            out.append((value, own, i, col, new, bar, h, budget + n - cost))
        out.sort(key=lambda t: -t[0])
        return out
