"""The one-ply sheet evaluation used by the ``greedy`` AI (through :class:`FoldrisEvaluator`'s ``action_value``).

Why this shape: Foldris is Tetris where a completed line does not make room (the sheet folds and gets a
row shorter), so every hole is a square of the 96 lost for good and the final score is the number of
lines. The features are El-Tetris's (landing height, lines, row and column transitions, holes, wells)
plus what is special here: bonus points (a point spent now is a mirror or trim not available later),
squares walled in under a barrier (in solo the barrier always falls in this card's lane, so its effect
on the next round is known), and the rows left free under the top of the sheet (elimination).
Weights were tuned by coordinate search on seeded solo games and measured on other seeds: mean 9.808 lines
over seeds 0-999 (docs/games/foldris.md; reproduce with ``polytable foldris-solo -n 1000``).
"""

from __future__ import annotations

from ...games.foldris import (
    COLUMN,
    WIDTH,
    Drop,
    FoldrisGame,
    FoldrisState,
    Reveal,
    Sheet,
    barrier_drop,
    complete_rows,
    deck_of,
    fold,
    heights,
    rest_row,
    table_of,
)
from ...geometry import lowest

__all__ = ["WEIGHTS", "action_value", "evaluate_sheet", "evaluate_state"]

WEIGHTS: dict[str, float] = {
    "landing": -0.39375,
    "lines": 5.8752,
    "row_transitions": -2.56,
    "col_transitions": -10.416,
    "holes": -7.9,
    "wells": -1.7,
    "bonus": 12.96,
    "barrier_gap": -2.0,
    "danger": -10.0,
    "trimmed": -9.6,
    "bump": 0.0,
    "hole_rows": 0.0,
}

_ROW7 = sum(0x7F << (WIDTH * r) for r in range(64))
_COL0 = COLUMN
_COL7 = COLUMN << 7


def evaluate_sheet(ink: int, height: int, barrier: int = 0, w: dict[str, float] = WEIGHTS) -> float:
    """Features of a sheet of ``height`` visible rows (landing height, lines and costs excluded)."""
    rows = (1 << (WIDTH * height)) - 1
    hts = heights(ink)
    holes = sum(hts) - ink.bit_count()
    empty = ~ink & rows
    row_t = ((ink ^ (ink >> 1)) & _ROW7 & rows).bit_count() + (empty & _COL0).bit_count() + (empty & _COL7).bit_count()
    b = (ink << WIDTH) | 0xFF
    col_t = ((b ^ (b >> WIDTH)) & rows).bit_count()
    surface = hts
    wells = 0
    bump = 0
    left = height
    for c in range(WIDTH):
        right = surface[c + 1] if c < WIDTH - 1 else height
        d = (left if left < right else right) - surface[c]
        if d > 0:
            wells += d * (d + 1) // 2
        if c:
            bump += abs(surface[c] - left)
        left = surface[c]
    hole_rows = 0
    if holes and w["hole_rows"]:
        mask = 0
        for c in range(WIDTH):
            mask |= (COLUMN << c) & ((1 << (WIDTH * hts[c])) - 1)
        mask &= ~ink
        hole_rows = sum(1 for r in range(height) if (mask >> (WIDTH * r)) & 0xFF)
    top = max(surface)
    free = height - top
    danger = (4 - free) if free < 4 else 0
    value = (
        w["row_transitions"] * row_t
        + w["col_transitions"] * col_t
        + w["holes"] * holes
        + w["wells"] * wells
        + w["danger"] * danger
        + w["bump"] * bump
        + w["hole_rows"] * hole_rows
    )
    if barrier:
        c = lowest(barrier)
        y, c = divmod(c, WIDTH)
        gap = 2 * y - hts[c] - hts[c + 1]
        value += w["barrier_gap"] * gap
    return value


def action_value(state: FoldrisState, action: Drop | Reveal, player: int) -> float:
    """The value of ``player``'s sheet after its own drop resolves (others' choices are unknown)."""
    assert isinstance(action, Drop)
    w = WEIGHTS
    s = state.sheets[player]
    table = table_of(state)
    v = table.variants[table.by_key[(action.mirror, action.trim, action.rot)]]
    y = rest_row(v, heights(s.ink | s.barrier), action.col)
    ink = s.ink | (v.bits << (WIDTH * y + action.col))
    lines = complete_rows(ink, y, y + v.height)
    for r in lines:
        ink = fold(ink, r)
    n = len(lines)
    height = s.height - n
    barrier = 0
    if state.config.players == 1 or n == 0:
        # Solo: the barrier falls in this card's lane for sure; otherwise it falls if someone else scores.
        barrier = barrier_drop(ink, deck_of(state.config).cards[state.card][1], height)
    value = evaluate_sheet(ink, height, barrier, w)
    value += w["landing"] * (y + (v.height - 1) / 2 - n) + w["lines"] * n * 4
    value += w["bonus"] * (n - v.cost)
    if action.trim:
        value += w["trimmed"]
    return value


def evaluate_state(game: FoldrisGame, state: FoldrisState, player: int) -> float:
    """A value for any state: the result at the end, else lines and bonus plus the sheet's shape."""
    if game.is_terminal(state):
        return 1000.0 * game.returns(state)[player]
    s: Sheet = state.sheets[player]
    if s.out:
        return -1000.0
    return 100.0 * s.lines + WEIGHTS["bonus"] * s.bonus + evaluate_sheet(s.ink, s.height, s.barrier)
