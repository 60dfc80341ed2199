"""Forma printables (``polytable print forma`` and ``forma-pieces``).

``forma``: the board as a PDF page: the 19 x 19 (or 20 x 20) grid with coordinates as the app names them
(columns a-s from the left, rows 1-19 from the bottom), the grey obstacles and the white tower of a set-up
(a seed or a set-up string), so a table can play a recorded or shared layout with the physical game, and a
score table with a column per player. ``forma-pieces``: one colour's 22 pieces with their names and the r0
drawing the notation turns from, to cut out or to learn the notation.
Options (strings, as the CLI passes them): ``size`` (19 or 20), ``obstacles`` (0-25), ``seed``, ``setup``,
``placement`` (default ``random`` here: the seed's layout; ``players`` prints an empty board to set up by
hand).
"""

from __future__ import annotations

from collections.abc import Mapping

from ._common import new_canvas

__all__ = ["PRINTABLES", "print_board", "print_pieces"]


def print_board(out_path: str, paper: str = "a4", options: Mapping[str, str] | None = None) -> None:
    """The board with a set-up and a score table."""
    from ..core import ConfigError
    from ..games.forma import GAME, format_setup

    options = dict(options or {})
    options.pop("players", None)  # one board for any number of players
    options.pop("files", None)
    seed_text = options.pop("seed", "0") or "0"
    options.setdefault("placement", "random")
    if not seed_text.isdigit():
        raise ConfigError(f"seed takes a whole number, not {seed_text[:20]!r}", "print.seed", {"seed": seed_text[:20]})
    state = GAME.new_game({k: v for k, v in options.items() if v != ""}, seed=int(seed_text))
    n = state.size
    canvas, page_w, page_h = new_canvas(out_path, paper, "Forma board")
    margin = 40.0
    cell = min((page_w - 2 * margin - 20) / n, (page_h * 0.62) / n)
    left = (page_w - n * cell) / 2
    top = page_h - margin - 30
    canvas.setFont("Helvetica-Bold", 16)
    canvas.drawString(margin, page_h - margin, "Forma")
    canvas.setFont("Helvetica", 8)
    canvas.drawString(margin, page_h - margin - 12, f"setup={format_setup(state)}")
    text = GAME.render(state).split("\n")
    for y in range(n):
        for x in range(n):
            ch = text[1 + y][3 + 2 * x + 1]
            bx, by = left + x * cell, top - (y + 1) * cell
            if ch == "#":
                canvas.setFillGray(0.55)
                canvas.rect(bx, by, cell, cell, stroke=1, fill=1)
            elif ch == "T":
                canvas.setFillGray(1.0)
                canvas.rect(bx, by, cell, cell, stroke=1, fill=0)
                canvas.setFillGray(0.0)
                canvas.circle(bx + cell / 2, by + cell / 2, cell * 0.35, stroke=1, fill=0)
                canvas.drawCentredString(bx + cell / 2, by + cell / 2 - 3, "T")
            else:
                canvas.rect(bx, by, cell, cell, stroke=1, fill=0)
            canvas.setFillGray(0.0)
    canvas.setFont("Helvetica", 7)
    for x in range(n):
        canvas.drawCentredString(left + (x + 0.5) * cell, top + 3, "abcdefghijklmnopqrst"[x])
        canvas.drawCentredString(left + (x + 0.5) * cell, top - n * cell - 9, "abcdefghijklmnopqrst"[x])
    for y in range(n):
        canvas.drawRightString(left - 3, top - (y + 0.65) * cell, str(n - y))
        canvas.drawString(left + n * cell + 3, top - (y + 0.65) * cell, str(n - y))
    # Score table: 4 players, one row per scoring kind.
    rows = ["cells", "enclosed cells x10", "obstacles x10", "tower 50", "bridges x50", "total"]
    ty = top - n * cell - 40
    col_w = (page_w - 2 * margin - 120) / 4
    canvas.setFont("Helvetica-Bold", 9)
    for p in range(4):
        canvas.drawCentredString(margin + 120 + (p + 0.5) * col_w, ty, f"Player {p + 1}")
    canvas.setFont("Helvetica", 9)
    for i, r in enumerate(rows):
        yy = ty - 16 * (i + 1)
        canvas.drawString(margin, yy + 4, r)
        for p in range(4):
            canvas.rect(margin + 120 + p * col_w + 4, yy, col_w - 8, 14, stroke=1, fill=0)
    canvas.showPage()
    canvas.save()


def print_pieces(out_path: str, paper: str = "a4", options: Mapping[str, str] | None = None) -> None:
    """One colour's 22 pieces, each drawn in its r0 orientation with its name."""
    from ..games import forma as P

    canvas, page_w, page_h = new_canvas(out_path, paper, "Forma pieces")
    margin = 40.0
    unit = 18.0
    canvas.setFont("Helvetica-Bold", 16)
    canvas.drawString(margin, page_h - margin, "Forma: one colour's 22 pieces (r0 orientations)")
    canvas.setFont("Helvetica", 9)
    canvas.drawString(
        margin, page_h - margin - 14, "Notation: piece r<quarter turns clockwise>[f = then flipped] @ top-left cell"
    )
    x, y = margin, page_h - margin - 40
    row_h = 0.0
    items = [(p, i) for p in range(P.NUM_PIECES) for i in range(P.START_COUNTS[p])]
    for p, _ in items:
        cells = P.ORIENT_CELLS[P.PIECE_ORIENTS[p][0]]
        w = (max(c[0] for c in cells) + 1) * unit
        h = (max(c[1] for c in cells) + 1) * unit
        if x + w > page_w - margin:
            x = margin
            y -= row_h + 30
            row_h = 0.0
        for cx, cy in cells:
            canvas.setFillGray(0.8)
            canvas.rect(x + cx * unit, y - (cy + 1) * unit, unit, unit, stroke=1, fill=1)
        canvas.setFillGray(0.0)
        canvas.drawString(x, y - h - 11, P.PIECE_NAMES[p])
        x += max(w, 24) + 22
        row_h = max(row_h, h)
    canvas.showPage()
    canvas.save()


PRINTABLES = {"forma": print_board, "forma-pieces": print_pieces}
