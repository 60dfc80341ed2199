"""FORMFINITY templates as data: a plain-text format a person can copy from graph paper.

Format (one row of the template per line, squares separated by spaces so numbers can have two digits)::

    ; a comment runs from ';' to the end of the line
    . . . # . .        .  a free square          #  a black square (obstacle)
    A A B B . .        -  outside the template    *  a start/goal black square (variant 3)
    A A B B 3 .        12 a free square holding the number 12 (variant 4)
    - - . . . .        A  a free square of area A (variant 2; any word of letters and digits
                          that starts with a letter names an area)

Rows may have different lengths; missing squares at the end of a row are outside. Blank lines and
comment lines are skipped, so line numbers in error messages are the lines of the file as typed. Every
error names the line and column of the square at fault ("line 4, column 9: ...").

Why spaces between squares: numbers need two characters and area names read better as words; squares
are still one token each, so the file looks like the sheet. The parser only reads the grid; which
features a variant needs (areas, numbers, start squares) is checked by :func:`validate` with the goal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from polytable.core import ConfigError, phrase

__all__ = ["MAX_SIDE", "Template", "TemplateError", "parse_template", "template_text"]

MAX_SIDE = 40
"""The largest template side: 40 x 40 squares (1,640-bit boards) is far more than a sheet of paper holds."""

_AREA = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


class TemplateError(ConfigError):
    """A template that cannot be read or does not suit the variant; the message names line and column."""


@dataclass(frozen=True)
class Template:
    """A parsed template. Cells are ``(x, y)`` with ``y`` growing downwards.

    ``kinds`` maps every cell of the bounding box to one of ``free``, ``black``, ``outside``, ``star``;
    ``areas`` maps an area name to its cells (in reading order of first appearance of the name);
    ``numbers`` maps a number to its cell; ``where`` maps a cell to its (line, column) in the text.
    """

    width: int
    height: int
    kinds: tuple[tuple[str, ...], ...]
    areas: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]
    numbers: tuple[tuple[int, tuple[int, int]], ...]
    where: tuple[tuple[tuple[int, int], ...], ...]

    def kind(self, x: int, y: int) -> str:
        return self.kinds[y][x]

    def cells(self, kind: str) -> list[tuple[int, int]]:
        return [(x, y) for y in range(self.height) for x in range(self.width) if self.kinds[y][x] == kind]

    def at(self, cell: tuple[int, int]) -> str:
        """``line L, column C`` of a cell, for error messages."""
        line, col = self.where[cell[1]][cell[0]]
        return f"line {line}, column {col}"

    def at_part(self, cell: tuple[int, int]) -> dict[str, object]:
        """:meth:`at` as a translatable part of an error's params."""
        line, col = self.where[cell[1]][cell[0]]
        return phrase("formfinity.line_column", f"line {line}, column {col}", {"line": line, "column": col})

    def label(self, x: int, y: int) -> str:
        """The token of a cell as written (area name, number, or the symbol)."""
        for name, cells in self.areas:
            if (x, y) in cells:
                return name
        for n, c in self.numbers:
            if c == (x, y):
                return str(n)
        return {"free": ".", "black": "#", "outside": "-", "star": "*"}[self.kinds[y][x]]


def parse_template(text: str) -> Template:
    """Read a template; :class:`TemplateError` names the line and column of the first problem."""
    rows: list[list[tuple[str, int, int]]] = []  # (token, line, column)
    for lineno, raw in enumerate(text.splitlines(), 1):
        body = raw.split(";", 1)[0]
        tokens = [(m.group(), lineno, m.start() + 1) for m in re.finditer(r"\S+", body)]
        if tokens:
            rows.append(tokens)
        elif rows and body.strip() == "" and raw.strip() == "":
            # A blank line inside the grid ends nothing: blank lines are skipped everywhere.
            continue
    if not rows:
        raise TemplateError(
            "the template is empty: write one line per row, squares separated by spaces",
            "formfinity.template_empty",
        )
    height = len(rows)
    width = max(len(r) for r in rows)
    if width > MAX_SIDE or height > MAX_SIDE:
        line = rows[MAX_SIDE][0][1] if height > MAX_SIDE else next(r for r in rows if len(r) > MAX_SIDE)[MAX_SIDE][1]
        raise TemplateError(
            f"line {line}: the template is {width} x {height}; at most {MAX_SIDE} x {MAX_SIDE}",
            "formfinity.template_too_big",
            {"line": line, "width": width, "height": height, "max_side": MAX_SIDE},
        )
    kinds: list[tuple[str, ...]] = []
    where: list[tuple[tuple[int, int], ...]] = []
    areas: dict[str, list[tuple[int, int]]] = {}
    numbers: dict[int, tuple[int, int]] = {}
    for y, tokens in enumerate(rows):
        row_kinds: list[str] = []
        row_where: list[tuple[int, int]] = []
        for x in range(width):
            if x >= len(tokens):
                row_kinds.append("outside")
                row_where.append((tokens[-1][1], tokens[-1][2] + 2 * (x - len(tokens) + 1)))
                continue
            tok, line, col = tokens[x]
            row_where.append((line, col))
            if tok == ".":
                row_kinds.append("free")
            elif tok == "#":
                row_kinds.append("black")
            elif tok == "-":
                row_kinds.append("outside")
            elif tok == "*":
                row_kinds.append("star")
            elif tok.isdigit():
                n = int(tok)
                if not 1 <= n <= 999:
                    raise TemplateError(
                        f"line {line}, column {col}: numbers start at 1, not {tok}",
                        "formfinity.template_number_start",
                        {"line": line, "col": col, "token": tok},
                    )
                if n in numbers:
                    px, py = numbers[n]
                    first = rows[py][px]
                    raise TemplateError(
                        f"line {line}, column {col}: the number {n} is already at line {first[1]}, column {first[2]}",
                        "formfinity.template_number_twice",
                        {"line": line, "col": col, "n": n, "first_line": first[1], "first_column": first[2]},
                    )
                numbers[n] = (x, y)
                row_kinds.append("free")
            elif _AREA.match(tok):
                areas.setdefault(tok, []).append((x, y))
                row_kinds.append("free")
            else:
                raise TemplateError(
                    f"line {line}, column {col}: {tok!r} is not a template square; use . (free), # (black), "
                    "- (outside), * (start square), a number, or an area name such as A",
                    "formfinity.template_square",
                    {"line": line, "col": col, "token": f"{tok!r}"},
                )
        kinds.append(tuple(row_kinds))
        where.append(tuple(row_where))
    if not any(k == "free" for row in kinds for k in row):
        raise TemplateError(
            f"line {rows[0][0][1]}: the template has no free square to draw on",
            "formfinity.template_no_free",
            {"line": rows[0][0][1]},
        )
    return Template(
        width,
        height,
        tuple(kinds),
        tuple((name, tuple(cells)) for name, cells in areas.items()),
        tuple(sorted((n, c) for n, c in numbers.items())),
        tuple(where),
    )


def template_text(t: Template) -> str:
    """Write a template back in the file format (parse(template_text(t)) == t up to positions)."""
    out = []
    for y in range(t.height):
        toks = [t.label(x, y) for x in range(t.width)]
        while toks and toks[-1] == "-":
            toks.pop()
        out.append(" ".join(toks))
    return "\n".join(out) + "\n"
