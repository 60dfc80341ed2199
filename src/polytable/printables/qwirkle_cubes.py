"""Qwirkle Cubes printables (``polytable print qwirkle-cubes-scores``).

The rulebook says "you need pen and paper to keep the score": this is that paper. One page: a name box
and a column per player, a row per turn with room for the points and the running total, and a reference
strip with the scoring rules and the notation's colour letters and shape symbols (drawn, with their
ASCII letters), so a game on the physical set can be scored and typed into the app.
Options: ``players`` (2-4, default 4), ``turns`` (rows, 10-60, default 40).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ..games.qwirkle_cubes import COLOUR_LETTERS, COLOUR_NAMES, SHAPE_ASCII, SHAPE_NAMES
from ._common import int_option, new_canvas

__all__ = ["PRINTABLES", "print_scores"]

_RGB = (
    (0.85, 0.15, 0.15),
    (0.95, 0.55, 0.1),
    (0.9, 0.8, 0.1),
    (0.2, 0.65, 0.25),
    (0.15, 0.35, 0.85),
    (0.55, 0.25, 0.7),
)


def _star(c: object, x: float, y: float, r: float, points: int) -> None:
    """A filled star with ``points`` tips centred on (x, y)."""
    path = c.beginPath()  # type: ignore[attr-defined]
    for i in range(2 * points):
        rad = r if i % 2 == 0 else r * (0.42 if points == 4 else 0.55)
        a = math.pi / 2 + i * math.pi / points
        px, py = x + rad * math.cos(a), y + rad * math.sin(a)
        if i == 0:
            path.moveTo(px, py)
        else:
            path.lineTo(px, py)
    path.close()
    c.drawPath(path, stroke=0, fill=1)  # type: ignore[attr-defined]


def _shape(c: object, shape: int, x: float, y: float, r: float) -> None:
    """Shape ``shape`` (0-5: circle, square, diamond, clover, 4-point star, 8-point star) at (x, y)."""
    if shape == 0:
        c.circle(x, y, r, stroke=0, fill=1)  # type: ignore[attr-defined]
    elif shape == 1:
        c.rect(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7, stroke=0, fill=1)  # type: ignore[attr-defined]
    elif shape == 2:
        path = c.beginPath()  # type: ignore[attr-defined]
        path.moveTo(x, y + r)
        path.lineTo(x + r, y)
        path.lineTo(x, y - r)
        path.lineTo(x - r, y)
        path.close()
        c.drawPath(path, stroke=0, fill=1)  # type: ignore[attr-defined]
    elif shape == 3:
        for dx, dy in ((0, 0.55), (0.55, 0), (0, -0.55), (-0.55, 0)):
            c.circle(x + dx * r, y + dy * r, r * 0.45, stroke=0, fill=1)  # type: ignore[attr-defined]
    else:
        _star(c, x, y, r, 4 if shape == 4 else 8)


def print_scores(out_path: str, paper: str = "a4", options: Mapping[str, str] | None = None) -> None:
    options = options or {}
    players = int_option(options, "players", 4, 2, 4)
    turns = int_option(options, "turns", 40, 10, 60)
    c, page_w, page_h = new_canvas(out_path, paper, "Qwirkle Cubes score pad")
    margin = 36.0
    c.setFont("Helvetica-Bold", 16)
    c.drawString(margin, page_h - margin - 4, "Qwirkle Cubes - score pad")
    # grid
    top = page_h - margin - 30
    ref_h = 110.0
    row_h = (top - margin - ref_h - 24) / (turns + 3)
    turn_w = 34.0
    col_w = (page_w - 2 * margin - turn_w) / players
    c.setFont("Helvetica", 8)
    c.setLineWidth(0.5)
    for p in range(players):
        x = margin + turn_w + p * col_w
        c.rect(x, top - row_h, col_w, row_h)
        c.drawString(x + 3, top - row_h + 3, f"Player {p + 1}:")
    c.drawString(margin + 2, top - 2 * row_h + 3, "turn")
    for p in range(players):
        x = margin + turn_w + p * col_w
        c.drawString(x + 3, top - 2 * row_h + 3, "points")
        c.drawString(x + col_w / 2 + 3, top - 2 * row_h + 3, "total")
    for r in range(turns + 1):
        y = top - (r + 3) * row_h
        c.rect(margin, y, turn_w, row_h)
        if r < turns:
            c.drawRightString(margin + turn_w - 4, y + 3, str(r + 1))
        else:
            c.drawString(margin + 2, y + 3, "+6 end")
        for p in range(players):
            x = margin + turn_w + p * col_w
            c.rect(x, y, col_w / 2, row_h)
            c.rect(x + col_w / 2, y, col_w / 2, row_h)
    # reference strip
    y0 = margin + ref_h - 10
    c.setFont("Helvetica-Bold", 9)
    c.drawString(margin, y0, "Scoring")
    c.setFont("Helvetica", 8)
    notes = [
        "Each line of 2+ cubes holding a new cube scores its length (old cubes count too); "
        "a cube in two lines counts twice.",
        "A line of 6 scores 6 more (a Qwirkle). A line is one colour with all shapes different, "
        "or one shape with all colours different.",
        "Bag empty: no refills; the first player to place their last cube ends the game and scores 6 more. "
        "Ties share the win.",
        "App notation: colour letter, shape letter, @x,y (x right, y up; 0,0 is the first cube): "
        "Bd@0,1 is a blue diamond at 0,1.",
    ]
    for i, line in enumerate(notes):
        c.drawString(margin, y0 - 12 - 11 * i, line)
    y1 = margin + 14
    x = margin
    for colour in range(6):
        c.setFillColorRGB(*_RGB[colour])
        c.rect(x, y1 - 4, 10, 10, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.drawString(x + 13, y1 - 2, f"{COLOUR_LETTERS[colour]} {COLOUR_NAMES[colour]}")
        x += 70
    x = margin
    for shape in range(6):
        _shape(c, shape, x + 5, y1 - 18, 5)
        c.drawString(x + 13, y1 - 21, f"{SHAPE_ASCII[shape]}  {SHAPE_NAMES[shape]}")
        x += 82
    c.showPage()
    c.save()


PRINTABLES = {"qwirkle-cubes": print_scores, "qwirkle-cubes-scores": print_scores}
