"""The lookahead's helpers for FORMFINITY's lines goal: the horizon value and the tie-break.

The greedy playouts themselves (the one-ply greedy's placement choice on bitboards and the playout to
the horizon, in the compiled kernel when it is built) are the rules package's
(:func:`._greedy.greedy_place`, :func:`._greedy.greedy_run`);
``fast_greedy_place`` is the same function under its old name.
"""

from __future__ import annotations

import math

from ...games.formfinity import FormfinityState, Setup
from ._greedy import claim_starts, claimable_holes, line_rooms
from ._greedy import greedy_place as fast_greedy_place

__all__ = ["WIN_TABLE", "claimable_holes", "fast_greedy_place", "line_potential", "lines_win_value"]


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


def lines_win_value(setup: Setup, st: FormfinityState, me: int, holes: int | None = None) -> float:
    """The lines goal's horizon value for ``me``, who draws next, on the scale of a finished game
    (+-10,000): the chance to win from the line counts (:data:`WIN_TABLE`; other targets and player
    counts: a logistic in the line difference), nudged by the open holes. Why not the greedy's 100 per
    line: near the end a line and the game are the same thing, and far from it they are not; on one
    scale the lookahead weighs "the opponent may finish" against "I may finish" as the result does.
    ``holes``: :func:`claimable_holes` of ``st`` when the caller has it (a greedy run returns it)."""
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
    logit += HOLE_LOGIT * (claimable_holes(setup, st) if holes is None else holes)
    return 10_000.0 * (2.0 / (1.0 + math.exp(-logit)) - 1.0)


def line_potential(setup: Setup, st: FormfinityState, mask: int) -> int:
    """How many claimable windows touching ``mask`` hold at least 6 of their 8 squares once it is drawn:
    the lookahead's tie-break among placements the greedy values alike (there can be 150 of them)."""
    L = setup.rules.length
    new = st.drawn | mask
    total = 0
    for (_, off, _), ok in zip(line_rooms(setup), claim_starts(setup, st), strict=True):
        touch = 0
        for i in range(L):
            touch |= mask >> (off * i)
        _, b1, b2, b3 = window_counts(new, off, L)
        total += (((b1 & b2) | b3) & ok & touch).bit_count()
    return total


def window_counts(drawn: int, off: int, length: int) -> tuple[int, int, int, int]:
    """How many of ``drawn``'s squares each window of ``length`` squares ``off`` apart holds, bit-sliced
    (one bit per window start): the count's bits 0, 1 and 2, and a bit set where it is 8 or more."""
    b0 = b1 = b2 = b3 = 0
    for i in range(length):
        x = drawn >> (off * i)
        c0 = b0 & x
        b0 ^= x
        c1 = b1 & c0
        b1 ^= c0
        c2 = b2 & c1
        b2 ^= c1
        b3 |= c2
    return b0, b1, b2, b3
