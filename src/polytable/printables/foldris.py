"""The Foldris game sheet as a PDF (``polytable print foldris [--players N] [--paper a4|letter]``).

One page per player: the 8-column sheet with numbered overlapping lanes above it, a completion box to
the left of every line, fold guides, bonus storage with the 2 starting circles already drawn, and the
bonus-effects, fold and round references, so the sheet plays with the physical rules.
Options (strings, as the CLI passes them): ``players`` (1-7, pages to print), ``height`` (rows, 12).
"""

from __future__ import annotations

from collections.abc import Mapping

from ._common import int_option, new_canvas

__all__ = ["PRINTABLES", "print_sheets"]

_WIDTH = 8


def print_sheets(out_path: str, paper: str = "a4", options: Mapping[str, str] | None = None) -> None:
    """Write ``players`` game sheets (one a page) to ``out_path``."""
    options = options or {}
    players = int_option(options, "players", 1, 1, 7)
    rows = int_option(options, "height", 12, 4, 20)
    canvas, page_w, page_h = new_canvas(out_path, paper, "Foldris game sheets")
    for p in range(players):
        _page(canvas, page_w, page_h, rows, p + 1, players)
        canvas.showPage()
    canvas.save()


def _page(c: object, page_w: float, page_h: float, rows: int, number: int, players: int) -> None:
    from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped, unused-ignore]

    assert isinstance(c, Canvas)
    margin = 36.0
    cell = min(34.0, (page_h - 330.0) / rows)
    grid_w = _WIDTH * cell
    box = cell * 0.55
    left = margin + 40.0
    top = page_h - margin - 70.0
    bottom = top - rows * cell

    c.setFont("Helvetica-Bold", 26)
    c.drawString(margin, page_h - margin - 22, "FOLDRIS")
    c.setFont("Helvetica", 11)
    c.drawString(margin + 150, page_h - margin - 20, "Player: ______________________")
    if players > 1:
        c.drawRightString(page_w - margin, page_h - margin - 20, f"sheet {number} of {players}")

    # Lanes: lane k covers columns k and k+1; odd lanes on the upper tier, even lanes on the lower one.
    c.setLineWidth(0.8)
    for k in range(1, 8):
        tier = 0 if k % 2 else 1
        y = top + 8 + (1 - tier) * 18
        x0 = left + (k - 1) * cell + 3
        x1 = left + (k + 1) * cell - 3
        c.line(x0, y, x1, y)
        c.line(x0, y, x0, y - 4)
        c.line(x1, y, x1, y - 4)
        c.setFont("Helvetica-Bold", 10)
        c.drawCentredString(left + k * cell, y + 3, str(k))
    c.setFont("Helvetica", 7)
    c.drawRightString(left - 6, top + 30, "lanes")

    # The grid, with a completion box left of each line and fold guides on the right margin.
    c.setLineWidth(0.6)
    for r in range(rows + 1):
        c.line(left, bottom + r * cell, left + grid_w, bottom + r * cell)
    for k in range(_WIDTH + 1):
        c.line(left + k * cell, bottom, left + k * cell, top)
    c.setLineWidth(1.6)
    c.rect(left, bottom, grid_w, rows * cell)
    c.setLineWidth(0.6)
    for r in range(rows):
        y = bottom + r * cell + (cell - box) / 2
        c.roundRect(left - box - 10, y, box, box, 2)
        c.setDash(2, 2)
        c.line(left + grid_w + 4, bottom + r * cell, left + grid_w + 14, bottom + r * cell)
        c.setDash()
    c.setFont("Helvetica", 7)
    c.drawCentredString(left - box / 2 - 10, bottom - 11, "lines")
    c.drawString(left + grid_w + 16, bottom - 3, "fold guides")

    # Bonus storage: a field of circles as tall as the grid, the first two already drawn (starting points).
    from reportlab.lib.utils import simpleSplit  # type: ignore[import-untyped, unused-ignore]

    sx = left + grid_w + 70
    sw = page_w - margin - sx
    per_row = max(4, int((sw - 8) // 26))
    note = simpleSplit(
        "Draw a circle for each completed line; cross one out for each point spent.", "Helvetica", 7.5, sw - 14
    )
    sy = bottom
    c.setLineWidth(1.2)
    c.roundRect(sx, sy, sw, top - bottom, 6)
    c.setFont("Helvetica-Bold", 11)
    c.drawString(sx + 8, top - 16, "Bonus storage")
    c.setLineWidth(0.5)
    lowest = sy + 12 + 9 * len(note) + 10
    i = 0
    cy = top - 36
    while cy >= lowest:
        for cc in range(per_row):
            cx = sx + 8 + (sw - 8 - per_row * 26) / 2 + 13 + cc * 26
            if i < 2:
                c.setLineWidth(1.5)
                c.circle(cx, cy, 8)
                c.setLineWidth(0.5)
            else:
                c.setDash(1, 2)
                c.circle(cx, cy, 8)
                c.setDash()
            i += 1
        cy -= 26
    c.setFont("Helvetica", 7.5)
    for k, line in enumerate(note):
        c.drawString(sx + 7, sy + 8 + 9 * (len(note) - 1 - k), line)

    # References below the grid, in three columns: bonus effects, folding, the round.
    col_w = (page_w - 2 * margin - 24) / 3
    blocks = (
        (
            "Bonus effects",
            [
                "1. Mirroring (1 point): mirror the block left to right.",
                "2. Trimming (2 points, 1 in solo): delete one square of the block. A trim can't split the"
                " block into two.",
                "You can't use the same effect twice in a round, but you can use both at the same time."
                " Cross a circle in storage for each point spent.",
            ],
        ),
        (
            "How to fold",
            [
                "A line is complete when all 8 of its squares are filled (a barrier never completes a line).",
                "Circle its completion box and draw a circle in the bonus storage.",
                "Fold the sheet along the guides above and below the line so that it is hidden: everything"
                " above moves down one row and the sheet is one row shorter.",
            ],
        ),
        (
            "Each round",
            [
                "Reveal a card. Everyone draws its block: turn it, then it falls straight down (no sliding)"
                " until it rests.",
                "If someone completed a line, every player who did not drops a barrier (2 squares, flat) in"
                " the card's lane; it blocks those squares for the next round only. Solo: always.",
                "If you can't draw the block, you are out. The last player standing wins.",
            ],
        ),
    )
    for i, (title, paragraphs) in enumerate(blocks):
        x = margin + i * (col_w + 12)
        y = bottom - 34
        c.setFont("Helvetica-Bold", 10.5)
        c.drawString(x, y, title)
        y -= 14
        c.setFont("Helvetica", 8.5)
        for para in paragraphs:
            for line in simpleSplit(para, "Helvetica", 8.5, col_w):
                c.drawString(x, y, line)
                y -= 10.5
            y -= 4

    c.setFont("Helvetica", 7)
    c.drawString(margin, margin - 14, "polytable - Foldris game sheet (8 columns, lanes 1-7 overlap)")


PRINTABLES = {"foldris": print_sheets}
