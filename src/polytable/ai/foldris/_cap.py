"""How many more lines a Foldris sheet can make: the bound behind the multiplayer endgame's line cap.

Why a separate module: the expectimax player (:mod:`._player`) values a line in the exact multiplayer
endgame only while it can still change the result, and that needs an upper bound on what every opponent can
still reach with the cards left in any order. The bound drops the next cards for real and counts squares
for the rest; it reads the opponents' sheets, which are public, never their choice for the round.
"""

from __future__ import annotations

from ...games.foldris import WIDTH, FoldrisState, VariantTable, deck_of, drops, heights, tables_of

__all__ = ["NO_CAP", "line_cap", "reach"]

NO_CAP = 1 << 20
"""``cap`` when every line counts (solo, and the search that does not reach the end)."""


def reach(ink: int, height: int, squares: int) -> int:
    """At most how many more lines a sheet can make with ``squares`` more inked squares (an upper bound).

    A row with a hole (an empty square under its column's ink) can never be completed, since blocks come
    from above and folding moves the squares over it down rigidly; every other row needs its empty squares
    inked. The cheapest rows first give the most lines for the squares.
    """
    hts = heights(ink)
    need = []
    for r in range(height):
        row = (ink >> (WIDTH * r)) & 0xFF
        if any(not (row >> c) & 1 and hts[c] > r for c in range(WIDTH)):
            continue
        need.append(WIDTH - row.bit_count())
    need.sort()
    n = 0
    for k in need:
        if k > squares:
            break
        squares -= k
        n += 1
    return n


def _most_lines(
    ink: int, barrier: int, height: int, table: VariantTable, rest: list[VariantTable], size: int, plies: int
) -> int:
    """An upper bound on the lines a sheet can still make: the card ``table`` now, then ``rest`` in any order.

    The first ``plies`` cards are dropped for real (every variant, whatever its cost, and barriers only on
    the first card, which can only loosen the bound); the cards after them are bounded by :func:`reach`.
    No legal drop counts as no more lines (that player is out).
    """
    hts = heights(ink | barrier)
    later = size * len(rest)
    best = 0
    for _, _, _, _, new, n in drops(table, ink, hts, height, NO_CAP):  # every variant, whatever its cost
        h = height - n
        bound = n + reach(new, h, later)
        if bound <= best:
            continue
        if plies > 1 and rest:
            seen: set[int] = set()
            for k, t in enumerate(rest):
                if t.number in seen:
                    continue
                seen.add(t.number)
                got = n + _most_lines(new, 0, h, t, rest[:k] + rest[k + 1 :], size, plies - 1)
                if got > best:
                    best = got
                if best >= bound:
                    break
        else:
            best = bound
    return best


def line_cap(state: FoldrisState, player: int) -> int:
    """The lines still worth making on ``player``'s sheet before the deck runs out (multiplayer).

    The deck's end is decided on lines, then bonus points. Every opponent still plays the revealed card and
    the cards left (their choice this round is hidden, so it is not read; the order of the cards left is
    unknown, so every order counts), so their lines can grow by at most :func:`_most_lines`, and their points
    by as much. Being past that best case wins whatever happens; being level with it wins when the points
    already beat theirs (the search still values points, so it does not spend them casually). A line past
    that only risks an elimination, a loss.
    """
    deck = deck_of(state.config)
    tables = tables_of(state.config)
    size = max(len(shape) for _, shape in deck.shapes)
    rest = [tables[i] for i in state.deck]
    best_lines, best_bonus = -1, -1
    for i, s in enumerate(state.sheets):
        if i == player or s.out:
            continue
        reach = _most_lines(s.ink, s.barrier, s.height, tables[state.card], rest, size, 2)
        best_lines = max(best_lines, s.lines + reach)
        best_bonus = max(best_bonus, s.bonus + reach)
    if best_lines < 0:
        return NO_CAP
    own = state.sheets[player]
    need = best_lines if own.bonus > best_bonus else best_lines + 1
    return max(0, need - own.lines)
