"""Why a placement is illegal, in a sentence a player understands (the slow, explicit path).

The move generator in :mod:`._board` never builds an illegal placement; this module judges any placement
a person or an id names, and a test checks the two agree on random positions.
"""

from __future__ import annotations

from polytable.core import IllegalActionError, word

from ._board import START, Board, Placement
from ._tiles import LINE_MAX, STRIDE, cell_xy, cube_words, face_name, line_ok

__all__ = ["largest_line", "placement_error"]


def largest_line(hand: int) -> int:
    """The most cubes of a hand (distinct faces ``hand``) that can go in one line: the first turn's size."""
    best = 0
    for c in range(6):
        best = max(best, (hand >> (6 * c) & 0x3F).bit_count())
    for s in range(6):
        best = max(best, sum(hand >> (6 * c + s) & 1 for c in range(6)))
    return best


def _line_name(step: int) -> str:
    return "row" if step == 1 else "column"


def _no(reason: str, code: str, params: dict[str, object] | None = None) -> IllegalActionError:
    """The error for a refused placement: the reason as a sentence (capitalised), its code and params."""
    return IllegalActionError(reason[0].upper() + reason[1:], code, params)


def placement_error(board: Board, placed: Placement, hand: tuple[int, ...], need: int) -> IllegalActionError | None:
    """None if ``placed`` is legal from ``hand`` on ``board``, else the error saying why. ``need`` is the
    size the first turn demands (0 after it)."""
    if not placed:
        return _no("place at least one cube", "qwirkle.place_one")
    left = list(hand)
    for t, _ in placed:
        if t not in left:
            have, cube = sum(1 for h in hand if h == t), face_name(t)
            if have:
                return _no(
                    f"you name the {cube} more often than your hand holds it ({have})",
                    "qwirkle.only_in_hand",
                    {"cube": cube_words(t), "have": have},
                )
            return _no(f"you have no {cube} in your hand", "qwirkle.not_in_hand", {"cube": cube_words(t)})
        left.remove(t)
    cells = [c for _, c in placed]
    if len(set(cells)) != len(cells):
        return _no("you name one square twice", "qwirkle.cell_twice")
    for _, c in placed:
        if c in board.cells:
            there = board.cells[c]
            cube = face_name(there)
            return _no(
                f"the {cube} already lies on a square you name",
                "qwirkle.cell_taken",
                {"cube": cube_words(there)},
            )
    step = 1
    if len(placed) > 1:
        xs = {cell_xy(c)[0] for c in cells}
        ys = {cell_xy(c)[1] for c in cells}
        if len(ys) == 1:
            step = 1
        elif len(xs) == 1:
            step = STRIDE
        else:
            return _no("all cubes placed in one turn must lie in one row or one column", "qwirkle.one_line")
        lo, hi = min(cells), max(cells)
        mine = set(cells)
        for c in range(lo, hi, step):
            if c not in mine and c not in board.cells:
                return _no(
                    "a square between your cubes would stay empty: cubes placed in one turn form an unbroken line",
                    "qwirkle.gap",
                )
    if not board.cells:
        if len(placed) != need:
            return _no(
                f"on the first turn you must place as many cubes as you can in one line: {need}, not {len(placed)}",
                "qwirkle.first_count",
                {"need": need, "placed": len(placed)},
            )
        if placed[0][1] != START or step != 1:
            return _no(
                "the first play lies in one row and runs to the right from its first cube", "qwirkle.first_start"
            )
    elif not any(c in board.frontier for c in cells):
        return _no(
            "your cubes must touch a cube in the grid along a side (touching only at a corner does not count)",
            "qwirkle.touch",
        )
    after = board.with_cubes(placed)
    axes = (1, STRIDE)
    for t, c in placed:
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
            line, yours = _line_name(ax), face_name(t)
            at = {"line": word(line), "yours": cube_words(t)}
            if len(faces) > LINE_MAX:
                return _no(
                    f"the {line} through your {yours} would be {len(faces)} cubes long; "
                    f"a line holds at most {LINE_MAX}",
                    "qwirkle.line_long",
                    {**at, "length": len(faces), "max": LINE_MAX},
                )
            mask = 0
            for f in faces:
                if mask >> f & 1:
                    cube = face_name(f)
                    return _no(
                        f"the {line} through your {yours} would hold the {cube} twice: a line never repeats a cube",
                        "qwirkle.line_repeat",
                        {**at, "cube": cube_words(f)},
                    )
                mask |= 1 << f
            if not line_ok(mask):
                return _no(
                    f"the {line} through your {yours} would mix colours and shapes: a line is one colour with "
                    "different shapes, or one shape with different colours",
                    "qwirkle.line_mix",
                    {**at},
                )
    return None
