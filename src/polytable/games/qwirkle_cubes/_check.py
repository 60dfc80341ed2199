"""Why a placement is illegal, in a sentence a player understands (the slow, explicit path).

The move generator in :mod:`._board` never builds an illegal placement; this module judges any placement
a person or an id names, and a test checks the two agree on random positions.
"""

from __future__ import annotations

from ._board import START, Board, Placement
from ._tiles import LINE_MAX, STRIDE, cell_xy, face_text, faces_of, line_ok

__all__ = ["largest_line", "placement_error"]


def largest_line(hand: int) -> int:
    """The most cubes of a hand (distinct faces ``hand``) that can go in one line: the first turn's size."""
    best = 0
    for c in range(6):
        best = max(best, (hand >> (6 * c) & 0x3F).bit_count())
    for s in range(6):
        best = max(best, sum(hand >> (6 * c + s) & 1 for c in range(6)))
    return best


def _xy(c: int) -> str:
    x, y = cell_xy(c)
    return f"{x},{y}"


def _line_name(step: int) -> str:
    return "row" if step == 1 else "column"


def placement_error(board: Board, placed: Placement, hand: tuple[int, ...], need: int) -> str | None:
    """None if ``placed`` is legal from ``hand`` on ``board``, else the reason. ``need`` is the size the
    first turn demands (0 after it)."""
    if not placed:
        return "place at least one cube"
    left = list(hand)
    for t, _ in placed:
        if t not in left:
            have = sum(1 for h in hand if h == t)
            if have:
                return f"you have only {have} {face_text(t)} in your hand"
            return f"you have no {face_text(t)} in your hand"
        left.remove(t)
    cells = [c for _, c in placed]
    if len(set(cells)) != len(cells):
        dup = next(c for c in cells if cells.count(c) > 1)
        return f"you name cell {_xy(dup)} twice"
    for _, c in placed:
        if c in board.cells:
            return f"cell {_xy(c)} is already taken by {face_text(board.cells[c])}"
    step = 1
    if len(placed) > 1:
        xs = {cell_xy(c)[0] for c in cells}
        ys = {cell_xy(c)[1] for c in cells}
        if len(ys) == 1:
            step = 1
        elif len(xs) == 1:
            step = STRIDE
        else:
            return "all cubes placed in one turn must lie in one row or one column"
        lo, hi = min(cells), max(cells)
        mine = set(cells)
        for c in range(lo, hi, step):
            if c not in mine and c not in board.cells:
                return (
                    f"cell {_xy(c)} between your cubes would stay empty: cubes placed in one turn form an unbroken line"
                )
    if not board.cells:
        if len(placed) != need:
            return f"on the first turn you must place as many cubes as you can in one line: {need}, not {len(placed)}"
        if placed[0][1] != START or step != 1:
            return (
                "the first play starts at 0,0 and runs to the right along row 0 (coordinates count from the first cube)"
            )
    elif not any(c in board.frontier for c in cells):
        return "your cubes must touch a cube on the table along a side (touching only at a corner does not count)"
    after = board.with_cubes(placed)
    axes = (1, STRIDE)
    for _, c in placed:
        for ax in axes:
            if len(placed) > 1 and ax == step and c != placed[0][1]:
                continue  # the main line is judged once, from the first cube
            first = c
            while first - ax in after.cells:
                first -= ax
            faces = []
            x = first
            while x in after.cells:
                faces.append(after.cells[x])
                x += ax
            if len(faces) < 2:
                continue
            where = f"the {_line_name(ax)} through {_xy(c)}"
            if len(faces) > LINE_MAX:
                return f"{where} would be {len(faces)} cubes long; a line holds at most {LINE_MAX}"
            mask = 0
            for f in faces:
                if mask >> f & 1:
                    return f"{where} would hold two {face_text(f)}: a line never repeats a cube"
                mask |= 1 << f
            if not line_ok(mask):
                shown = " ".join(face_text(f) for f in faces_of(mask))
                return (
                    f"{where} would mix colours and shapes ({shown}): a line is one colour with different "
                    "shapes, or one shape with different colours"
                )
    return None
