"""FORMFINITY evaluation for the generic ``greedy`` bot (``Evaluator.evaluate``), one heuristic per goal.

* lines: claimed lines (mine minus the best opponent's) dominate; then *threats*, windows one square
  short of a line: good while I still have elements to place this turn, bad when the next player moves.
* areas: my squares (recorded points plus squares in unfinished areas) minus the best opponent's.
* connection: how many squares each player still needs (a breadth-first flood over the squares they
  may use), mine against the opponent's: shorter for me, longer for them (blocking) is better.
* numbers: numbers claimed, then the distance from the drawing to the next number: short while I still
  place, long when the opponent is next.

All of it is bitboard floods and shifts, so one evaluation costs a few hundred big-int operations.
"""

from __future__ import annotations

from ...games.formfinity import CLAIM, PLACE, FormfinityState, Setup

__all__ = ["evaluate", "goal_value"]

FAR = 60


def evaluate(setup: Setup, st: FormfinityState, player: int, returns: tuple[float, ...] | None) -> float:
    if returns is not None:
        return 10_000.0 * returns[player]
    mine_next = st.turn == player and st.phase in (PLACE, CLAIM)
    return goal_value(setup, st, player, mine_next)


def goal_value(setup: Setup, st: FormfinityState, player: int, mine_next: bool) -> float:
    """The variant goal's heuristic for ``player`` (``mine_next``: that player moves next)."""
    goal = setup.rules.goal
    if goal == "lines":
        return _lines(setup, st, player, mine_next)
    if goal == "areas":
        return _areas(setup, st, player)
    if goal == "connection":
        return _connection(setup, st, player)
    return _numbers(setup, st, player, mine_next)


def _lines(setup: Setup, st: FormfinityState, player: int, mine_next: bool) -> float:
    n = setup.players
    counts = [0] * n
    for o, _, _ in st.lines:
        counts[o] += 1
    best_opp = max(counts[p] for p in range(n) if p != player)
    drawn = st.drawn
    playable = setup.playable
    L = setup.rules.length
    threats = 0
    for _, off in setup.line_offsets:
        planes = [drawn >> (off * i) for i in range(L)]
        room = playable
        for i in range(1, L):
            room &= playable >> (off * i)
        pre = [-1] * (L + 1)
        for i in range(L):
            pre[i + 1] = pre[i] & planes[i]
        suf = -1
        one_short = 0
        for i in range(L - 1, -1, -1):
            one_short |= pre[i] & suf
            suf &= planes[i]
        threats += (one_short & room & ~suf).bit_count()
    return 100.0 * (counts[player] - best_opp) + (4.0 if mine_next else -8.0) * threats


def _areas(setup: Setup, st: FormfinityState, player: int) -> float:
    done = 0
    for i, m in enumerate(setup.areas):
        if st.done_areas >> i & 1:
            done |= m
    totals = [pt + (own & ~done).bit_count() for pt, own in zip(st.points, st.owners, strict=True)]
    return float(totals[player] - max(t for p, t in enumerate(totals) if p != player))


def _distance(setup: Setup, start: int, goal: int, passable: int) -> int:
    """Squares to add to ``start`` (through ``passable``) before it touches ``goal`` by an edge."""
    reach = start
    for k in range(FAR):
        if setup.n4(reach) & goal:
            return k
        grown = reach | (setup.n4(reach) & passable)
        if grown == reach:
            return FAR
        reach = grown
    return FAR


def _connection(setup: Setup, st: FormfinityState, player: int) -> float:
    free = setup.playable & ~st.drawn
    d = []
    for p in (0, 1):
        opp = st.owners[1 - p]
        ring = (opp | setup.n4(opp)) if setup.rules.corner_touch else setup.n8(opp)
        d.append(_distance(setup, st.owners[p] | setup.stars[p], setup.stars[1 - p], free & ~ring))
    return 10.0 * (d[1 - player] - d[player])


def _numbers(setup: Setup, st: FormfinityState, player: int, mine_next: bool) -> float:
    counts = [0] * setup.players
    for o in st.numbers:
        counts[o] += 1
    value = 100.0 * (counts[player] - max(c for p, c in enumerate(counts) if p != player))
    k = len(st.numbers)
    if k < len(setup.numbers) and st.drawn:
        target = setup.numbers[k]
        free = setup.playable & ~st.drawn & ~(setup.numbers_all & ~target)
        d = _distance(setup, st.drawn, target, free)
        value += -3.0 * d if mine_next else 2.0 * min(d, 10)
    return value
