"""The block cards: the default deck, deck files, and the per-card table of placement variants.

Why a table: every legal action of a round is a distinct *resting position*. Two actions rest on the same
cells exactly when they produce the same oriented (normalised) shape at the same column, so the
deduplication does not depend on the sheet at all: it is done once per card shape here. For each distinct
oriented shape we keep one canonical way to reach it, the cheapest: the smallest key
``(cost, mirror, trim, rotation)`` (no mirror before mirror, no trim before trim, lower square and
rotation numbers first). Variants are sorted by that key, so the ones a player can afford form a prefix.

Order of the effects (chosen; the rulebook does not fix one): mirror the card's drawing left-right (if
``m``), then delete square ``t`` (squares numbered 1.. in reading order of the possibly mirrored drawing),
then turn ``r`` quarter turns clockwise. Every reachable shape is reachable this way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import count

from polytable.core import ConfigError
from polytable.geometry import Shape, is_connected, normalize, shape_from_text, shape_to_text, transform

__all__ = [
    "DEFAULT_DECK",
    "MAX_CELLS",
    "STANDARD_SHAPES",
    "Deck",
    "Variant",
    "VariantTable",
    "parse_deck",
    "variant_table",
]

WIDTH = 8
_RESERVED = re.compile(r"m|reveal|[rtc]\d+")
MAX_CELLS = 8
"""Largest card a deck file may use (it keeps action ids independent of the deck)."""

STANDARD_SHAPES: dict[str, str] = {
    "I": "####",
    "O": "##/##",
    "T": "###/.#.",
    "S": ".##/##.",
    "Z": "##./.##",
    "J": "#../###",
    "L": "..#/###",
}
"""The seven one-sided tetrominoes as drawn on the cards (rotation 0)."""

_DEFAULT_ORDER = "IIIIOOOOTTTTSSSZZZJJJLLL"


def _default_deck_text() -> str:
    # CLARIFICATIONS: 3 of each one-sided tetromino plus one more I, O and T; lanes 1-7 round-robin over
    # the cards listed by shape, so each shape shows different lanes.
    return "\n".join(f"{name} {i % 7 + 1}" for i, name in enumerate(_DEFAULT_ORDER)) + "\n"


DEFAULT_DECK = _default_deck_text()
"""The default deck as deck-file text: ``I 1``, ``I 2``, ... ``L 3`` (24 cards)."""


@dataclass(frozen=True)
class Deck:
    """A parsed deck: the cards as (name, lane) and each name's shape.

    ``names`` lists the distinct card names: the seven standard letters first (fixed order I O T S Z J L,
    so their action ids never move), then the deck file's own shapes in order of appearance.
    """

    cards: tuple[tuple[str, int], ...]
    shapes: tuple[tuple[str, Shape], ...]
    names: tuple[str, ...]

    def shape(self, name: str) -> Shape:
        for n, s in self.shapes:
            if n == name:
                return s
        raise KeyError(name)


@cache
def parse_deck(text: str | None) -> Deck:
    """Read a deck file: one card a line, ``NAME LANE`` or ``NAME LANE DRAWING``.

    ``NAME`` is a standard letter (I O T S Z J L) or a new name followed by a drawing of the shape in rows
    separated by ``/`` (``#`` a square, ``.`` empty), e.g. ``P 3 ##/##/#.``; later cards of that name may
    omit the drawing. Lines starting with ``#`` and blank lines are ignored. Raises ConfigError with the
    line number on any problem.
    """
    if text is None:
        text = DEFAULT_DECK
    shapes: dict[str, Shape] = {}
    cards: list[tuple[str, int]] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) not in (2, 3):
            raise ConfigError(
                f"deck line {lineno}: expected 'NAME LANE' or 'NAME LANE DRAWING', not {line!r}",
                "foldris.deck_line_format",
                {"lineno": lineno, "line": f"{line!r}"},
            )
        name, lane_text = parts[0], parts[1]
        if not name.isalnum() or len(name) > 8 or _RESERVED.fullmatch(name.lower()):
            raise ConfigError(
                f"deck line {lineno}: card name {name!r} must be 1-8 letters or digits and must not read like"
                " a part of the action notation (m, reveal, r1, t2, c3)",
                "foldris.deck_card_name",
                {"lineno": lineno, "name": f"{name!r}"},
            )
        if name.upper() in STANDARD_SHAPES:
            name = name.upper()
        try:
            lane = int(lane_text)
        except ValueError:
            raise ConfigError(
                f"deck line {lineno}: the lane must be a number from 1 to 7, not {lane_text!r}",
                "foldris.deck_lane_number",
                {"lineno": lineno, "lane_text": f"{lane_text!r}"},
            ) from None
        if not 1 <= lane <= 7:
            raise ConfigError(
                f"deck line {lineno}: the lane must be from 1 to 7, not {lane}",
                "foldris.deck_lane_range",
                {"lineno": lineno, "lane": lane},
            )
        if len(parts) == 3:
            if name in STANDARD_SHAPES:
                raise ConfigError(
                    f"deck line {lineno}: {name} is a standard block; give a new name to a new shape",
                    "foldris.deck_standard_redrawn",
                    {"lineno": lineno, "name": name},
                )
            shape = shape_from_text(parts[2])
            if not shape or not set(parts[2]) <= set("#./"):
                raise ConfigError(
                    f"deck line {lineno}: the drawing {parts[2]!r} must use '#', '.' and '/' only",
                    "foldris.deck_drawing_chars",
                    {"lineno": lineno, "drawing": f"{parts[2]!r}"},
                )
            if not is_connected(shape):
                raise ConfigError(
                    f"deck line {lineno}: the block {parts[2]!r} is not in one piece",
                    "foldris.deck_not_one_piece",
                    {"lineno": lineno, "drawing": f"{parts[2]!r}"},
                )
            if len(shape) > MAX_CELLS:
                raise ConfigError(
                    f"deck line {lineno}: a block may have at most {MAX_CELLS} squares",
                    "foldris.deck_too_many_squares",
                    {"lineno": lineno, "max_cells": MAX_CELLS},
                )
            if max(max(x, y) for x, y in shape) >= WIDTH:
                raise ConfigError(
                    f"deck line {lineno}: a block must fit in 8 columns whichever way it turns",
                    "foldris.deck_too_wide",
                    {"lineno": lineno},
                )
            if name in shapes and shapes[name] != shape:
                raise ConfigError(
                    f"deck line {lineno}: {name} was drawn differently earlier in the deck",
                    "foldris.deck_drawn_twice",
                    {"lineno": lineno, "name": name},
                )
            shapes[name] = shape
        elif name in STANDARD_SHAPES:
            shapes[name] = shape_from_text(STANDARD_SHAPES[name])
        elif name not in shapes:
            raise ConfigError(
                f"deck line {lineno}: {name} is not a standard block; draw it the first time",
                "foldris.deck_unknown_block",
                {"lineno": lineno, "name": name},
            )
        cards.append((name, lane))
    if len(cards) < 2:
        raise ConfigError("a deck needs at least 2 cards (the start card and one block)", "foldris.deck_too_short")
    if len(cards) > 200:
        raise ConfigError("a deck may hold at most 200 cards", "foldris.deck_too_long")
    names = [n for n in STANDARD_SHAPES] + [n for n in shapes if n not in STANDARD_SHAPES]
    return Deck(tuple(cards), tuple(sorted(shapes.items())), tuple(names))


@dataclass(frozen=True, slots=True)
class Variant:
    """One distinct oriented shape a card can be drawn as, with its canonical (cheapest) effects.

    ``bits`` has the shape's bottom row in bits 0-7 (bit = column), the next row in bits 8-15, and so on;
    ``profile`` lists, per column ``j`` of the shape, its lowest square's row ``b``: the shape dropped with
    its left column at ``c`` rests at row ``max(heights[c + j] - b)``.
    """

    mirror: int
    trim: int
    rot: int
    cost: int
    width: int
    height: int
    bits: int
    profile: tuple[tuple[int, int], ...]
    cells: Shape
    columns: tuple[tuple[tuple[int, int], ...], ...]
    """Per left column ``c``: the profile as (sheet column, lowest row) pairs, precomputed for speed."""
    needs: tuple[tuple[int, int], ...] = ()
    """Per column ``j`` of the shape: the free rows its column needs above the surface (``height - b``): the
    variant fits at left column ``c`` exactly when every sheet column ``c + j`` has that much room."""
    colmask: int = 0
    """Bit ``c`` set for every left column ``c`` that keeps the shape inside the 8 columns."""
    shifts: tuple[int, ...] = ()
    """Per column ``j`` of the shape: ``8 * need_j + j``, its shift into the packed room masks (see
    ``_rules.room``)."""


@dataclass(frozen=True)
class VariantTable:
    """All variants of one card shape for one trim price, plus counts for fast uniform sampling."""

    variants: tuple[Variant, ...]
    by_key: dict[tuple[int, int, int], int]
    """(mirror, trim, rot) -> index of the variant it produces (absent when the trim is not allowed)."""
    costs: tuple[int, ...]
    columns_prefix: tuple[int, ...]
    """``columns_prefix[k]`` = number of (variant, column) pairs among the first k variants."""
    max_height: int
    size: int
    number: int = field(default=-1, compare=False)
    """A number no other table of this process has: the key of data derived from a table (the kernel's
    registration, the AIs' memos), a value where an ``id()`` could be reused once a table is collected."""


_NUMBERS = count()


def _make_variant(cells: Shape, m: int, t: int, r: int, cost: int) -> Variant:
    w = max(x for x, _ in cells) + 1
    h = max(y for _, y in cells) + 1
    bits = 0
    lowest: dict[int, int] = {}
    for x, y in cells:
        row = h - 1 - y  # geometry has y down; the sheet counts rows from the bottom
        bits |= 1 << (row * WIDTH + x)
        lowest[x] = min(lowest.get(x, row), row)
    profile = tuple(sorted(lowest.items()))
    columns = tuple(tuple((c + j, b) for j, b in profile) for c in range(WIDTH - w + 1))
    needs = tuple((j, h - b) for j, b in profile)
    shifts = tuple(WIDTH * need + j for j, need in needs)
    return Variant(m, t, r, cost, w, h, bits, profile, cells, columns, needs, (1 << (WIDTH - w + 1)) - 1, shifts)


@cache
def variant_table(shape: Shape, trim_cost: int) -> VariantTable:
    """Every distinct oriented shape reachable from ``shape`` with mirror (1 point) and trim."""
    best: dict[Shape, tuple[tuple[int, int, int, int], Variant]] = {}
    produced: dict[tuple[int, int, int], Shape] = {}
    n = len(shape)
    for m in (0, 1):
        base = transform(shape, 4) if m else normalize(shape)
        for t in range(n + 1):
            if t:
                if n == 1:
                    continue
                rest = tuple(c for i, c in enumerate(base) if i != t - 1)
                if not is_connected(rest):
                    continue
                cells = normalize(rest)
            else:
                cells = base
            for r in range(4):
                oriented = transform(cells, r)
                cost = m + (trim_cost if t else 0)
                key = (cost, m, t, r)
                produced[(m, t, r)] = oriented
                if oriented not in best or key < best[oriented][0]:
                    best[oriented] = (key, _make_variant(oriented, m, t, r, cost))
    ordered = sorted(best.values(), key=lambda kv: kv[0])
    variants = tuple(v for _, v in ordered)
    index = {v.cells: i for i, v in enumerate(variants)}
    prefix = [0]
    for v in variants:
        prefix.append(prefix[-1] + WIDTH - v.width + 1)
    return VariantTable(
        variants=variants,
        by_key={k: index[s] for k, s in produced.items()},
        costs=tuple(v.cost for v in variants),
        columns_prefix=tuple(prefix),
        max_height=max(v.height for v in variants),
        size=len(variants),
        number=next(_NUMBERS),
    )


@lru_cache(maxsize=1024)
def drawing(shape: Shape) -> str:
    """The shape as ``/``-separated rows (for views and messages); remembered per shape (bounded: a deck
    file may bring its own), as every view of every seat draws the current card: drawing it was nearly half
    of a view's time."""
    return shape_to_text(shape, sep="/")
