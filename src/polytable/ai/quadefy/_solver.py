"""Exact endgame solver: boolean negamax with a transposition table and mobility move ordering.

Quadefy has no draws, so a position is a win or a loss for the player to move, and alpha-beta reduces to
"stop at the first move after which the opponent loses". The position key is the occupied cells plus the
two hands: who owns which cube never affects future moves, so positions reached by different owners share
one entry. Children are tried in order of the opponent's mobility (fewest replies first), which finds
wins fast and makes refutations small. A node budget keeps the search bounded: when it runs out the
result says so and callers fall back to a heuristic.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...games.quadefy import PLACEMENTS, QuadefyKernel, moves_of

__all__ = ["SolveResult", "solve_position"]


@dataclass(frozen=True, slots=True)
class SolveResult:
    """``solved``: the search finished within the budget; then ``win`` says whether the player to move
    wins and ``best`` is a winning placement id (None when losing or when there is no move); ``nodes``
    counts the positions expanded."""

    solved: bool
    win: bool
    best: int | None
    nodes: int


class _OutOfBudget(Exception):
    pass


class _Search:
    def __init__(self, flags: int, max_nodes: int, table: dict[int, bool], kernel: QuadefyKernel) -> None:
        self.flags = flags
        self.count = kernel.count
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table = table

    def children(self, occ: int, me: int, opp: int) -> list[tuple[int, int, int]]:
        """(opponent mobility, placement id, child occupancy), fewest opponent replies first."""
        flags = self.flags
        out = []
        for pid in moves_of(occ, me, flags):
            p = PLACEMENTS[pid]
            child = occ | p.mask
            out.append((self.count(child, opp, flags), pid, child))
        out.sort()
        return out

    def win(self, occ: int, me: int, opp: int) -> bool:
        key = occ | me << 64 | opp << 72
        hit = self.table.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfBudget
        result = False
        for replies, pid, child in self.children(occ, me, opp):
            if replies == 0 or not self.win(child, opp, me & ~(1 << PLACEMENTS[pid].block)):
                result = True
                break
        self.table[key] = result
        return result


def solve_position(
    occ: int,
    me: int,
    opp: int,
    flags: int,
    max_nodes: int = 20_000,
    table: dict[int, bool] | None = None,
    kernel: QuadefyKernel | None = None,
) -> SolveResult:
    """Solve the position with hands ``me`` (player to move) and ``opp`` within ``max_nodes`` expansions.

    ``table`` may be passed in to keep the transposition table between calls (its entries are exact);
    ``kernel`` counts the replies that order the moves (the game object's, ``kernel_of(game)``; default:
    the pure one)."""
    search = _Search(flags, max_nodes, {} if table is None else table, kernel or QuadefyKernel())
    try:
        search.nodes += 1
        for replies, pid, child in search.children(occ, me, opp):
            if replies == 0 or not search.win(child, opp, me & ~(1 << PLACEMENTS[pid].block)):
                return SolveResult(True, True, pid, search.nodes)
    except _OutOfBudget:
        return SolveResult(False, False, None, search.nodes)
    return SolveResult(True, False, None, search.nodes)
