"""A fast replica of the one-ply ``greedy`` for FORMFINITY's lines goal, for the lookahead's playouts.

Why: the playouts of ``hard`` are greedy turns, and the generic greedy values each of the ~50 placements
of an element by applying it and evaluating the whole board, which is nearly all of a playout's time.
Here one bitboard pass per direction over ``drawn | placement`` gives both the windows it completes and
the threats it leaves, and only the chosen placement is applied. More playouts per second means less
noise in the lookahead's estimates (figures: docs/ai-ladder-formfinity.md).

The value is the greedy's own (``_ai.evaluate`` of the state after the placement): 100 per claimed
line (mine minus the best opponent's), +4 per threat while I still have an element to place and -8
once the turn passes, +-10,000 for a win. Two shortcuts, both rare: "I still have an element to place"
is ``left > 1`` (the greedy also checks that the next element has a legal placement), and a placement
that completes lines which exclude each other (a claim choice) is valued as the greedy values the claim
phase (no line yet, my move next). The choice among equal values is uniform, as the greedy's.
"""

from __future__ import annotations

import math

from ...core import Rng
from ...games.formfinity import FormfinityState, Setup, forbidden, placements, window
from ...geometry import Memo, bits

__all__ = ["WIN_TABLE", "claimable_holes", "fast_greedy_place", "line_potential", "line_rooms", "lines_win_value"]

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


def _claim_starts(setup: Setup, st: FormfinityState) -> list[int]:
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


def _near_lines(board: int, off: int, length: int) -> tuple[int, int]:
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


def fast_greedy_place(setup: Setup, st: FormfinityState, player: int, rng: Rng) -> tuple[int, int, int] | None:
    """The greedy's placement (shape, anchor bit, mask) for ``player``'s next element, or None if none."""
    options = placements(setup, st, player)
    if not options:
        return None
    L = setup.rules.length
    rooms = line_rooms(setup)
    claim_ok = _claim_starts(setup, st)
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
                short, full = _near_lines(new, off, L)
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


# P(the player about to draw wins | my lines, the opponent's lines), 2 players, 4 lines to win: measured
# over 1,400 greedy-vs-greedy games of variant 1 (45,000 positions at a draw; rows: my lines 0-3,
# columns: the opponent's 0-3). The mover's edge grows towards the end (0.51 at 0-0, 0.56 at 3-3).
WIN_TABLE = (
    (0.508, 0.351, 0.218, 0.123),
    (0.680, 0.518, 0.349, 0.189),
    (0.801, 0.692, 0.531, 0.314),
    (0.904, 0.836, 0.744, 0.560),
)
HOLE_LOGIT = 0.05
"""Each square that would complete a claimable line, in log-odds for the player about to draw (fitted
on the same games: a small edge, since holes the mover cannot fill pass to the opponent)."""


def claimable_holes(setup: Setup, st: FormfinityState) -> int:
    """How many free squares would each complete a line that may still be claimed."""
    L = setup.rules.length
    drawn = st.drawn
    holes = 0
    for (d, off, _), ok in zip(line_rooms(setup), _claim_starts(setup, st), strict=True):
        one_short = _near_lines(drawn, off, L)[0] & ok
        for i in bits(one_short):
            holes |= window(setup, d, i) & ~drawn
    return holes.bit_count()


def lines_win_value(setup: Setup, st: FormfinityState, me: int) -> float:
    """The lines goal's horizon value for ``me``, who draws next, on the scale of a finished game
    (+-10,000): the chance to win from the line counts (:data:`WIN_TABLE`; other targets and player
    counts: a logistic in the line difference), nudged by the open holes. Why not the greedy's 100 per
    line: near the end a line and the game are the same thing, and far from it they are not; on one
    scale the lookahead weighs "the opponent may finish" against "I may finish" as the result does."""
    n = setup.players
    counts = [0] * n
    for o, _, _ in st.lines:
        counts[o] += 1
    mine = counts[me]
    opp = max(c for p, c in enumerate(counts) if p != me)
    target = setup.rules.target
    if n == 2 and target == 4 and mine < 4 and opp < 4:
        p = WIN_TABLE[mine][opp]
        logit = math.log(p / (1.0 - p))
    else:
        logit = 2.8 * (mine - opp) / target
    logit += HOLE_LOGIT * claimable_holes(setup, st)
    return 10_000.0 * (2.0 / (1.0 + math.exp(-logit)) - 1.0)


def line_potential(setup: Setup, st: FormfinityState, mask: int) -> int:
    """How many claimable windows touching ``mask`` hold at least 6 of their 8 squares once it is drawn:
    the lookahead's tie-break among placements the greedy values alike (there can be 150 of them)."""
    L = setup.rules.length
    new = st.drawn | mask
    total = 0
    for (_, off, _), ok in zip(line_rooms(setup), _claim_starts(setup, st), strict=True):
        touch = 0
        b0 = b1 = b2 = b3 = 0
        for i in range(L):
            touch |= mask >> (off * i)
            x = new >> (off * i)
            c0 = b0 & x
            b0 ^= x
            c1 = b1 & c0
            b1 ^= c0
            c2 = b2 & c1
            b2 ^= c1
            b3 |= c2
        total += (((b1 & b2) | b3) & ok & touch).bit_count()
    return total
