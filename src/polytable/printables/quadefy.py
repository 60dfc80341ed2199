"""Quadefy printables (``polytable print quadefy-puzzles`` / ``quadefy-field``).

* ``quadefy-puzzles`` (also ``quadefy``): the bonus-puzzle patterns, each drawn as its four layers
  (dark cells shaded), then solutions pages that name the block on every cell (or say the pattern is
  impossible, with the size of the search that proves it). Options: ``pattern`` or ``variant`` (one
  name, or ``all``: the default), ``solutions`` (``yes`` or ``no``, default ``yes``).
* ``quadefy-field``: the 4x4 playing field with the coordinates of the notation (columns a-d, rows 1-4)
  and a move log with room for 16 moves, so a game on the physical set can be recorded and replayed.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core import ConfigError
from ..games.quadefy import BLOCKS, PATTERN_NOTES, PATTERNS, PLACEMENTS, solve_pattern
from ._common import new_canvas

__all__ = ["PRINTABLES", "print_field", "print_puzzles"]


def _layers(c: object, x0: float, y0: float, cell: float, dark: int, labels: list[str] | None) -> None:
    """Four 4x4 layers left to right from (x0, y0) = top-left; row 4 at the top, as on screen."""
    from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped, unused-ignore]

    assert isinstance(c, Canvas)
    gap = cell * 1.2
    for z in range(4):
        left = x0 + z * (4 * cell + gap)
        c.setFont("Helvetica", 7)
        c.drawString(left, y0 + 3, f"layer {z + 1}{' (floor)' if z == 0 else ''}")
        for y in range(4):
            for x in range(4):
                i = x + 4 * y + 16 * z
                bx = left + x * cell
                by = y0 - (4 - y) * cell
                shade = 0.35 if dark >> i & 1 else 0.95
                c.setFillGray(shade)
                c.rect(bx, by, cell, cell, stroke=1, fill=1)
                if labels is not None:
                    c.setFillGray(1.0 if dark >> i & 1 else 0.0)
                    c.setFont("Helvetica-Bold", cell * 0.32)
                    c.drawCentredString(bx + cell / 2, by + cell * 0.36, labels[i])
        c.setFillGray(0.0)
        c.setFont("Helvetica", 6)
        for x in range(4):
            c.drawCentredString(left + (x + 0.5) * cell, y0 - 4 * cell - 8, "abcd"[x])
        for y in range(4):
            c.drawRightString(left - 2, y0 - (4 - y) * cell + cell * 0.35, str(y + 1))


def print_puzzles(out_path: str, paper: str = "a4", options: Mapping[str, str] | None = None) -> None:
    """The puzzle patterns (one page) and their solutions (another page)."""
    options = options or {}
    which = str(options.get("pattern") or options.get("variant") or "all").strip().lower()
    if which != "all" and which not in PATTERNS:
        raise ConfigError(
            f"unknown pattern {which!r}; patterns: all, {', '.join(PATTERNS)}",
            "print.unknown_pattern",
            {"which": f"{which!r}", "patterns": ", ".join(PATTERNS)},
        )
    solutions = str(options.get("solutions", "yes")).strip().lower() not in ("no", "false", "0", "off")
    names = list(PATTERNS) if which == "all" else [which]
    canvas, page_w, page_h = new_canvas(out_path, paper, "Quadefy bonus puzzles")
    from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped, unused-ignore]

    assert isinstance(canvas, Canvas)
    margin = 40.0
    cell = min(22.0, (page_w - 2 * margin - 3 * 26.0) / 16)
    block_h = 4 * cell + 52
    per_page = max(1, int((page_h - 2 * margin - 40) // block_h))
    pages = [False, True] if solutions else [False]
    for with_solution in pages:
        for start in range(0, len(names), per_page):
            canvas.setFont("Helvetica-Bold", 14)
            title = "Quadefy bonus puzzle: solutions" if with_solution else "Quadefy bonus puzzle"
            canvas.drawString(margin, page_h - margin, title)
            canvas.setFont("Helvetica", 8)
            canvas.drawString(
                margin,
                page_h - margin - 14,
                "Build the 4x4x4 cube so it shows the pattern: dark cells with the 8 dark blocks, light cells "
                "with the 8 light blocks.",
            )
            y = page_h - margin - 44
            for name in names[start : start + per_page]:
                dark = PATTERNS[name]
                labels = None
                verdict = PATTERN_NOTES[name]
                if with_solution:
                    result = solve_pattern(dark)
                    labels = ["" for _ in range(64)]
                    for pids in result.tilings:
                        for pid in pids or []:
                            p = PLACEMENTS[pid]
                            for i in range(64):
                                if p.mask >> i & 1:
                                    labels[i] = BLOCKS[p.block]
                    if not result.solved:
                        nodes = sum(s.nodes for s in result.stats)
                        verdict += f": no solution (complete search, {nodes} nodes)"
                canvas.setFont("Helvetica-Bold", 10)
                canvas.drawString(margin, y, f"{name}: {verdict}")
                _layers(canvas, margin + 12, y - 14, cell, dark, labels)
                y -= block_h
            canvas.showPage()
    canvas.save()


def print_field(out_path: str, paper: str = "a4", options: Mapping[str, str] | None = None) -> None:
    """The playing field with coordinates and a 16-move log."""
    canvas, page_w, page_h = new_canvas(out_path, paper, "Quadefy field and move log")
    from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped, unused-ignore]

    assert isinstance(canvas, Canvas)
    margin = 48.0
    cell = min(80.0, (page_w - 2 * margin) / 4.6)
    canvas.setFont("Helvetica-Bold", 16)
    canvas.drawString(margin, page_h - margin, "Quadefy: playing field")
    top = page_h - margin - 30
    left = (page_w - 4 * cell) / 2
    canvas.setLineWidth(1.5)
    for y in range(4):
        for x in range(4):
            canvas.rect(left + x * cell, top - (4 - y) * cell, cell, cell)
            canvas.setFont("Helvetica", 8)
            canvas.setFillGray(0.6)
            canvas.drawString(left + x * cell + 4, top - (4 - y) * cell + 4, f"{'abcd'[x]}{y + 1}")
            canvas.setFillGray(0.0)
    canvas.setFont("Helvetica-Bold", 12)
    for x in range(4):
        canvas.drawCentredString(left + (x + 0.5) * cell, top - 4 * cell - 16, "abcd"[x])
    for y in range(4):
        canvas.drawRightString(left - 8, top - (4 - y) * cell + cell / 2 - 4, str(y + 1))
    log_top = top - 4 * cell - 50
    canvas.setFont("Helvetica-Bold", 11)
    canvas.drawString(
        margin, log_top, "Move log (notation: block, rotation, anchor column-row.layer, e.g. L r17 @ b2.1)"
    )
    canvas.setFont("Helvetica", 10)
    row_h = min(20.0, (log_top - margin - 10) / 8)
    for i in range(16):
        col, row = divmod(i, 8)
        lx = margin + col * (page_w - 2 * margin) / 2
        yy = log_top - 18 - row * row_h
        who = "dark" if i % 2 == 0 else "light"
        canvas.drawString(lx, yy, f"{i + 1:>2}. ({who})")
        canvas.line(lx + 70, yy - 2, lx + (page_w - 2 * margin) / 2 - 16, yy - 2)
    canvas.showPage()
    canvas.save()


PRINTABLES = {"quadefy": print_puzzles, "quadefy-puzzles": print_puzzles, "quadefy-field": print_field}
