"""Solo Foldris: the chance that a flawless sheet stays flawless over the next cards, and the perfect-game search.

Why: 23 blocks and the start square are exactly the 96 squares of 12 rows, so a perfect game needs every
block drawn without a hole or a trim. This answers "can the next ``depth`` cards all be drawn cleanly?" as
an expectimax over the multiset left (never the order), on column heights alone: a flawless sheet is
solid from the floor, so its heights are the whole sheet. A clean drop rests on the surface with every
column, uses no trim and keeps off the round's barrier (or completes every row over a gap, checked on the
full sheet). The tests check this model against the rules' own drops.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...games.foldris import WIDTH, VariantTable, fold, heights

__all__ = ["CleanSurvival", "OutOfNodes", "clean_drops", "clean_shape"]

Shape = tuple[tuple[int, int, tuple[int, ...], tuple[int, ...], int, int, tuple[int, ...], int], ...]
"""Per untrimmed variant, cheapest first: (cost, width, lowest row per column, top per column, height, bits,
squares per row, index in the table)."""

_SHAPES: dict[int, Shape] = {}
"""A table's ``number`` -> its clean shape (tables live for the process, one per shape and trim price)."""
_FILL = tuple(sum(1 << (WIDTH * r) for r in range(h)) for h in range(64))
"""``_FILL[h]``: column 0 solid from the floor to row ``h`` (a flawless sheet is its columns shifted into place)."""


def clean_shape(table: VariantTable) -> Shape:
    """The untrimmed variants of a card as bottom and top profiles (memoised per table)."""
    hit = _SHAPES.get(table.number)
    if hit is None:
        out = []
        for i, v in enumerate(table.variants):
            if v.trim:
                continue
            tops = [0] * v.width
            for x in range(v.width):
                for r in range(v.height):
                    if (v.bits >> (WIDTH * r + x)) & 1:
                        tops[x] = r + 1
            rows = tuple(((v.bits >> (WIDTH * r)) & 0xFF).bit_count() for r in range(v.height))
            out.append((v.cost, v.width, tuple(b for _, b in v.profile), tuple(tops), v.height, v.bits, rows, i))
        out.sort()
        hit = _SHAPES[table.number] = tuple(out)
    return hit


def clean_drops(
    hts: tuple[int, ...], height: int, lane: int, bonus: int, shape: Shape
) -> Iterator[tuple[tuple[int, ...], int, int, int, int]]:
    """Every clean drop on a flawless sheet: (heights after folding, rows folded, cost, variant, column).

    ``lane``: the barrier of the round (0: none). Most clean drops rest on the surface with every column
    and keep off the barrier's columns; those are found on the heights alone. A drop that rests on the
    barrier or over a gap is clean too when every row over the gap is completed and folded away (the fold
    leaves the gap open to the sky); such drops, which must complete a row, are resolved on the full sheet.
    """
    if lane:
        lo, hi = lane - 1, lane
        yb = hts[lo] if hts[lo] > hts[hi] else hts[hi]
        if yb >= height:
            lo = hi = WIDTH  # no room for the barrier: it does not fall
    else:
        lo = hi = WIDTH
    rest = list(hts)
    if lo < WIDTH:
        rest[lo] = rest[hi] = yb + 1
    ink = -1
    for cost, w, bots, tops, vh, bits, rows, vi in shape:
        if cost > bonus:
            break
        for col in range(WIDTH - w + 1):
            y = 0
            for j in range(w):
                d = rest[col + j] - bots[j]
                if d > y:
                    y = d
            if y + vh > height:
                continue
            flat = col > hi or col + w <= lo
            if flat:
                for j in range(w):
                    if hts[col + j] - bots[j] != y:
                        flat = False
                        break
            if flat:
                new = list(hts)
                for j in range(w):
                    new[col + j] = y + tops[j]
                n = min(new)
                yield (tuple(x - n for x in new) if n else tuple(new)), n, cost, vi, col
                continue
            # Over a gap: clean only if a row is completed (and with it every row over the gap).
            if not any(sum(1 for x in hts if x > r) + rows[r - y] == WIDTH for r in range(y, y + vh)):
                continue
            if ink < 0:
                ink = 0
                for c, x in enumerate(hts):
                    ink |= _FILL[x] << c
            board = ink | (bits << (WIDTH * y + col))
            n = 0
            for r in range(y + vh - 1, y - 1, -1):
                if (board >> (WIDTH * r)) & 0xFF == 0xFF:
                    board = fold(board, r)
                    n += 1
            new_h = heights(board)
            if n and sum(new_h) == board.bit_count():
                yield new_h, n, cost, vi, col


class OutOfNodes(Exception):
    """The search's node budget ran out (its finished nodes stay in the memo)."""


class CleanSurvival:
    """The survival expectimax (memoised; the deck is a sorted tuple of card indices).

    ``limit``: at most this many positions are expanded (not found in the memo) per :meth:`perfect_drop`
    call; past it the call gives up (:class:`OutOfNodes` inside, ``None`` outside). A count, not a clock, so
    the play does not depend on the machine; what was finished is kept and makes the next call cheaper.
    """

    def __init__(self, tables: tuple[VariantTable, ...], cards: tuple[tuple[str, int], ...], limit: int = 0) -> None:
        self.tables = tables
        self.cards = cards
        self.memo: dict[tuple[object, ...], float] = {}
        self.fit: dict[tuple[object, ...], bool] = {}
        self.limit = limit
        self.nodes = 0

    def fits(self, hts: tuple[int, ...], height: int, lane: int, bonus: int, table: VariantTable) -> bool:
        """Whether a card of this shape has a clean drop."""
        b = bonus if bonus < 1 else 1
        key = (hts, height, lane, b, table.number)
        hit = self.fit.get(key)
        if hit is None:
            hit = self.fit[key] = next(clean_drops(hts, height, lane, b, clean_shape(table)), None) is not None
        return hit

    def survive(
        self, hts: tuple[int, ...], height: int, lane: int, bonus: int, deck: tuple[int, ...], depth: int
    ) -> float:
        """The probability that the next ``depth`` cards of ``deck`` (drawn in an unknown order) all drop
        cleanly, the player choosing each drop to maximise it; ``lane`` is the barrier for the first."""
        if depth <= 0 or not deck:
            return 1.0
        b = bonus if bonus < depth else depth  # a clean drop costs at most 1 (a mirror)
        key = (hts, height, lane, b, deck, depth)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.limit and self.nodes > self.limit:
            raise OutOfNodes
        total = 0.0
        if depth == 1:
            seen: dict[int, bool] = {}
            for i in deck:
                t = self.tables[i]
                ok = seen.get(t.number)
                if ok is None:
                    ok = seen[t.number] = self.fits(hts, height, lane, b, t)
                total += ok
        else:
            groups: dict[tuple[int, int], list[int]] = {}
            for k, i in enumerate(deck):
                groups.setdefault((self.tables[i].number, self.cards[i][1]), []).append(k)
            for ks in groups.values():
                k = ks[0]
                i = deck[k]
                rest = deck[:k] + deck[k + 1 :]
                nxt = self.cards[i][1]
                best = 0.0
                for new, n, cost, _, _ in clean_drops(hts, height, lane, b, clean_shape(self.tables[i])):
                    h = height - n
                    bar = nxt if max(new[nxt - 1], new[nxt]) < h else 0
                    p = self.survive(new, h, bar, b + n - cost, rest, depth - 1)
                    if p > best:
                        best = p
                        if best >= 1.0:
                            break
                total += best * len(ks)
        res = self.memo[key] = total / len(deck)
        return res

    def perfect_drop(
        self,
        table: VariantTable,
        card_lane: int,
        hts: tuple[int, ...],
        height: int,
        lane: int,
        bonus: int,
        rest: tuple[int, ...],
    ) -> tuple[float, int, int] | None:
        """The clean drop of the revealed card with the best chance of a perfect game: every card of ``rest``
        (in an unknown order) drops cleanly too. (chance, variant index, column); (0.0, -1, -1) without one;
        None when the node budget ran out.

        ``card_lane``: the revealed card's lane (its barrier falls for the next card); ``lane``: this round's.
        The memo is kept across calls, so the next move's search is mostly answered already.
        """
        best = (0.0, -1, -1)
        self.nodes = 0
        try:
            for new, n, cost, vi, col in clean_drops(hts, height, lane, bonus, clean_shape(table)):
                h = height - n
                if rest:
                    bar = card_lane if max(new[card_lane - 1], new[card_lane]) < h else 0
                    p = self.survive(new, h, bar, bonus + n - cost, rest, len(rest))
                else:
                    p = 1.0 if h == 0 else 0.0
                if p > best[0]:
                    best = (p, vi, col)
        except OutOfNodes:
            return None
        return best
