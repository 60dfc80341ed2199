"""The lines goal's greedy, fast: its placement choice on bitboards and its playout to a horizon.

Why here: it is the AI's (the lookahead of ``hard`` spends nearly all of a decision in greedy playouts),
so it lives beside the players, and so does its compiled copy: the AI's own extension
``_cformfinity_greedy.c``, which includes the game's kernel downward (:mod:`._native`). This Python is the
reference (tests/games/formfinity/test_formfinity_greedy.py plays both over random positions) and what
runs beside the pure kernel.

:func:`greedy_place` is the one-ply ``greedy``'s choice for the next element: the greedy values each
placement by applying it and evaluating the board (``_eval.evaluate``); here one bitboard pass per direction
over ``drawn | placement`` gives both the windows it completes and the threats it leaves, and only the
chosen placement is applied. The value is the greedy's own: 100 per claimed line (mine minus the best
opponent's), +4 per threat while I still have an element to place and -8 once the turn passes, 10,000
for a win. Two shortcuts, both rare: "I still have an element to place" is ``left > 1`` (the greedy also
checks that the next element has a legal placement), and a placement that completes lines which exclude
each other (a claim choice) is valued as the greedy values the claim phase (no line yet, my move next).
The choice among equal values is uniform (``rng.below``), as the greedy's.
"""

from __future__ import annotations

from ...core import Rng
from ...games.formfinity import (
    CHOOSE,
    DRAW,
    OVER,
    PLACE,
    FormfinityState,
    Setup,
    apply_card,
    apply_place,
    draw_card,
    forbidden,
    placements,
    window,
)
from ...geometry import Memo, bits
from ._native import Run, compiled_greedy_run

__all__ = ["claim_starts", "claimable_holes", "greedy_place", "greedy_run", "line_rooms", "near_lines"]

_ROOMS: Memo[Setup, tuple[tuple[int, int, int], ...]] = Memo(33)


def line_rooms(setup: Setup) -> tuple[tuple[int, int, int], ...]:
    """Per line direction: (direction, bit offset, start bits of windows wholly on playable squares)."""
    got = _ROOMS.get(setup)
    if got is None:
        L = setup.rules.length
        out = []
        for d, off in setup.line_offsets:
            room = setup.playable
            for i in range(1, L):
                room &= setup.playable >> (off * i)
            out.append((d, off, room))
        got = _ROOMS.put(setup, tuple(out))
    return got


def claim_starts(setup: Setup, st: FormfinityState) -> list[int]:
    """Per direction (in ``line_offsets`` order): start bits of windows that may still be claimed."""
    L = setup.rules.length
    avoid = forbidden(setup, st)
    out = []
    for d, off, room in line_rooms(setup):
        forbid = avoid[d]
        ok = room
        if forbid:
            spread = forbid
            for i in range(1, L):
                spread |= forbid >> (off * i)
            ok &= ~spread
        out.append(ok)
    return out


def near_lines(board: int, off: int, length: int) -> tuple[int, int]:
    """Start bits of the windows of ``length`` squares along ``off`` that ``board`` fills but for one
    square, and of those it fills (prefix and suffix ANDs of the shifted planes: one pass)."""
    planes = [board >> (off * i) for i in range(length)]
    pre = -1
    pres = [pre]
    for p in planes:
        pre &= p
        pres.append(pre)
    suf = -1
    one_short = 0
    for i in range(length - 1, -1, -1):
        one_short |= pres[i] & suf
        suf &= planes[i]
    return one_short & ~suf, suf


def greedy_place(setup: Setup, st: FormfinityState, player: int, rng: Rng) -> tuple[int, int, int] | None:
    """The greedy's placement (shape, anchor bit, mask) for ``player``'s next element, or None if none."""
    options = placements(setup, st, player)
    if not options:
        return None
    L = setup.rules.length
    rooms = line_rooms(setup)
    claim_ok = claim_starts(setup, st)
    counts = [0] * setup.players
    for o, _, _ in st.lines:
        counts[o] += 1
    mine = counts[player]
    best_opp = max(c for p, c in enumerate(counts) if p != player)
    target = setup.rules.target
    threat_w = 4.0 if st.left > 1 else -8.0
    hard = setup.rules.difficulty == "hard"
    drawn = st.drawn
    shape_masks = setup.shape_masks
    best_value = float("-inf")
    best: list[tuple[int, int, int]] = []
    for shape, anchors in options:
        base = shape_masks[shape]
        while anchors:
            low = anchors & -anchors
            anchors ^= low
            bit = low.bit_length() - 1
            mask = base << bit
            new = drawn | mask
            threats = 0
            full_lines: list[tuple[int, int]] = []
            for k, (d, off, room) in enumerate(rooms):
                short, full = near_lines(new, off, L)
                threats += (short & room).bit_count()
                full &= claim_ok[k]
                full_lines += ((d, i) for i in bits(full))
            gained = len(full_lines)
            tw = threat_w
            if gained > 1 and not _all_compatible(setup, hard, full_lines):
                gained = 0
                tw = 4.0
            if mine + gained >= target:
                value = 10_000.0
            else:
                value = 100.0 * (mine + gained - best_opp) + tw * threats
            if value > best_value + 1e-9:
                best_value = value
                best = [(shape, bit, mask)]
            elif value >= best_value - 1e-9:
                best.append((shape, bit, mask))
    return best[rng.below(len(best))] if len(best) > 1 else best[0]


def _all_compatible(setup: Setup, hard: bool, lines: list[tuple[int, int]]) -> bool:
    masks = [(d, window(setup, d, b)) for d, b in lines]
    for i, (d1, m1) in enumerate(masks):
        for d2, m2 in masks[i + 1 :]:
            if (hard or d1 == d2) and m1 & m2:
                return False
    return True


def claimable_holes(setup: Setup, st: FormfinityState) -> int:
    """How many free squares would each complete a line that may still be claimed."""
    L = setup.rules.length
    drawn = st.drawn
    holes = 0
    for (d, off, _), ok in zip(line_rooms(setup), claim_starts(setup, st), strict=True):
        one_short = near_lines(drawn, off, L)[0] & ok
        for i in bits(one_short):
            holes |= window(setup, d, i) & ~drawn
    return holes.bit_count()


def greedy_run(setup: Setup, st: FormfinityState, me: int, rng: Rng, left_me: bool, steps: int) -> Run:
    """Greedy play of the lines goal from ``st`` towards the horizon, ``me``'s next draw (or area choice)
    once another player has moved (``left_me``: one has): card draws from the state's own generator,
    placements by :func:`greedy_place` with ``rng``, at most ``steps`` steps (a draw or a placement).

    Returns (state, left_me, steps left, done, holes): done when the horizon, the end of the game or the
    step limit is reached (then ``holes`` is :func:`claimable_holes` of the state unless the game is over,
    else 0); otherwise the next step is one this does not take (a claim choice, an element without a
    placement) and the caller takes it, then calls again. In C (:mod:`._native`) beside the compiled kernel."""
    fast = compiled_greedy_run(setup, st, me, rng, left_me, steps)
    if fast is not None:
        return fast
    while steps > 0:
        if st.phase == OVER:
            return st, left_me, steps, True, 0
        if st.phase == DRAW:
            if left_me and st.turn == me:
                break
            st = apply_card(setup, st, draw_card(setup, st))
        else:
            if st.turn != me:
                left_me = True
            elif left_me and st.phase == CHOOSE:
                break
            if st.phase != PLACE or setup.rules.goal != "lines" or setup.players < 2:
                return st, left_me, steps, False, 0
            pick = greedy_place(setup, st, st.turn, rng)
            if pick is None:
                return st, left_me, steps, False, 0
            st = apply_place(setup, st, pick[2])
        steps -= 1
    if st.phase == OVER:
        return st, left_me, steps, True, 0
    return st, left_me, steps, True, claimable_holes(setup, st)
