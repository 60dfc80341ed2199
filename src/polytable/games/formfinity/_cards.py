"""FORMFINITY cards: shapes, the card value, its notation, the seeded generator and deck files.

A card is (shape, count, entry edges, rotation flag). The shape is a *fixed* polyomino of 1-5 squares
(as drawn: mirroring is never allowed, rotation only when the card says so). There are 91 of them
(1 + 2 + 6 + 19 + 63), numbered in :data:`SHAPES` order (by size, then by their sorted cells), so a card
has a dense id in ``range(NUM_CARDS)`` = 91 shapes x 3 counts x 16 edge sets x 2 rotation flags.

Notation (compact, one token): ``SHAPE x COUNT : EDGES : ROT`` without spaces, e.g. ``##/#.x2:TR:r``.

* ``SHAPE`` is the drawing row by row, ``#`` a square and ``.`` a gap, rows separated by ``/``;
* ``COUNT`` is 1, 2 or 3 (how many identical elements the card gives);
* ``EDGES`` is a subset of ``TRBL`` (top, right, bottom, left), in that order, or ``-`` for none (the
  element goes anywhere);
* ``ROT`` is ``r`` when the element may be rotated, ``f`` when it is fixed as drawn.

Why a generator and not a printed deck: no public card list exists (CLARIFICATIONS), so cards come from a
seeded generator with configurable weights; a deck file (JSON or TOML, see :func:`parse_deck`) may
replace it. All draws use the pure functions of ``polytable.core`` on an int state kept in the game state.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from polytable.core import MAX_DEPTH, ConfigError, PolytableError, below, json_depth
from polytable.geometry import Shape, fixed_polyominoes, is_connected, normalize, transform

__all__ = [
    "EDGE_LETTERS",
    "EDGE_NAMES",
    "NUM_CARDS",
    "NUM_SHAPES",
    "ROTATIONS",
    "SHAPES",
    "SHAPE_INDEX",
    "Card",
    "CardGenerator",
    "card_art",
    "parse_card",
    "parse_deck",
    "parse_shape",
    "shape_text",
]

SHAPES: tuple[Shape, ...] = tuple(s for n in range(1, 6) for s in fixed_polyominoes(n))
"""Every fixed polyomino of 1-5 squares (91), the index is the shape id."""
NUM_SHAPES = len(SHAPES)
"""How many shapes a card can show: the 91 fixed polyominoes of 1-5 squares."""
SHAPE_INDEX: dict[Shape, int] = {s: i for i, s in enumerate(SHAPES)}
SIZE_SHAPES: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, s in enumerate(SHAPES) if len(s) == n) for n in range(6)
)
"""Shape ids by size (index 0 is empty)."""


def _rotation_table() -> tuple[tuple[int, ...], ...]:
    out = []
    for s in SHAPES:
        ids: list[int] = []
        for k in range(4):
            i = SHAPE_INDEX[transform(s, k)]
            if i not in ids:
                ids.append(i)
        out.append(tuple(ids))
    return tuple(out)


ROTATIONS: tuple[tuple[int, ...], ...] = _rotation_table()
"""For each shape id, the distinct shape ids of its quarter turns clockwise (the shape itself first)."""

_SHAPE_TEXT: tuple[str, ...] = ()  # filled below, once _shape_text exists

EDGE_LETTERS = "TRBL"
"""Edge bit k (1 << k) is the letter at index k: top, right, bottom, left."""
EDGE_NAMES = ("top", "right", "bottom", "left")
NUM_CARDS = NUM_SHAPES * 3 * 16 * 2


def shape_text(shape_id: int) -> str:
    """The drawing of a shape in notation form: rows of ``#``/``.`` joined by ``/``."""
    return _SHAPE_TEXT[shape_id]


def _shape_text(shape_id: int) -> str:
    cells = set(SHAPES[shape_id])
    w = max(x for x, _ in cells) + 1
    h = max(y for _, y in cells) + 1
    return "/".join("".join("#" if (x, y) in cells else "." for x in range(w)) for y in range(h))


@lru_cache(maxsize=2048)
def parse_shape(text: str) -> int:
    """The shape id of a drawing (``#`` squares, other characters gaps, rows split by ``/`` or newlines)."""
    rows = text.strip().replace("/", "\n").split("\n")
    cells = [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row.strip()) if ch in "#X"]
    if not cells:
        raise PolytableError(
            f"the shape {text!r} has no squares (draw squares with #)",
            "formfinity.shape_empty",
            {"text": f"{text!r}"},
        )
    bad = {ch for row in rows for ch in row.strip() if ch not in "#X. "}
    if bad:
        raise PolytableError(
            f"the shape {text!r} uses {''.join(sorted(bad))!r}; draw squares with # and gaps with .",
            "formfinity.shape_chars",
            {"text": f"{text!r}", "bad": f"{''.join(sorted(bad))!r}"},
        )
    if len(cells) > 5:
        raise PolytableError(
            f"the shape {text!r} has {len(cells)} squares; a card shape has 1 to 5",
            "formfinity.shape_size",
            {"text": f"{text!r}", "cells": len(cells)},
        )
    if not is_connected(cells):
        raise PolytableError(
            f"the shape {text!r} is not one piece (its squares must touch along edges)",
            "formfinity.shape_not_one_piece",
            {"text": f"{text!r}"},
        )
    return SHAPE_INDEX[normalize(cells)]


_SHAPE_TEXT = tuple(_shape_text(i) for i in range(NUM_SHAPES))


@dataclass(frozen=True, slots=True)
class Card:
    """One card: ``shape`` id, ``count`` (1-3), ``edges`` (bit set over TRBL; 0 = anywhere), ``rotate``."""

    shape: int
    count: int
    edges: int
    rotate: bool

    @property
    def id(self) -> int:
        return ((self.shape * 3 + self.count - 1) * 16 + self.edges) * 2 + int(self.rotate)

    @staticmethod
    def from_id(card_id: int) -> Card:
        if not 0 <= card_id < NUM_CARDS:
            raise PolytableError(
                f"there is no card number {card_id}", "formfinity.no_card_number", {"card_id": card_id}
            )
        if _CARDS:
            return _CARDS[card_id]
        rest, rot = divmod(card_id, 2)
        rest, edges = divmod(rest, 16)
        shape, count = divmod(rest, 3)
        return Card(shape, count + 1, edges, bool(rot))

    @property
    def size(self) -> int:
        return len(SHAPES[self.shape])

    def orientations(self) -> tuple[int, ...]:
        """The shape ids the element may take: its rotations if allowed, else the shape as drawn."""
        return ROTATIONS[self.shape] if self.rotate else (self.shape,)

    def edge_text(self) -> str:
        return "".join(EDGE_LETTERS[k] for k in range(4) if self.edges >> k & 1) or "-"

    def notation(self) -> str:
        return f"{shape_text(self.shape)}x{self.count}:{self.edge_text()}:{'r' if self.rotate else 'f'}"

    def describe(self, arrows_apply: bool = True, rotation_applies: bool | None = None) -> str:
        """A sentence for people: ``2 x L-shape (4 squares), enter from top or right, may rotate``."""
        n = self.size
        what = f"{self.count} x {'element' if self.count == 1 else 'elements'} of {n} square{'s' * (n > 1)}"
        if not arrows_apply:
            where = "anywhere (arrows do not apply)"
        elif self.edges:
            where = "enter from " + " or ".join(EDGE_NAMES[k] for k in range(4) if self.edges >> k & 1)
        else:
            where = "anywhere"
        rot = self.rotate if rotation_applies is None else rotation_applies
        return f"{what} [{shape_text(self.shape)}], {where}, {'may rotate' if rot else 'no rotation'}"


_CARDS: tuple[Card, ...] = ()
_CARDS = tuple(Card.from_id(i) for i in range(NUM_CARDS))


def parse_card(text: str) -> Card:
    """Read a card in notation (``##/#.x2:TR:r``); ValueError saying what is wrong."""
    raw = text.strip()
    parts = raw.split(":")
    if len(parts) != 3 or "x" not in parts[0]:
        raise PolytableError(
            f"{raw!r} is not a card; write SHAPExCOUNT:EDGES:ROT, for example ##/#.x2:TR:r",
            "formfinity.card_format",
            {"raw": f"{raw!r}"},
        )
    drawing, _, count_text = parts[0].rpartition("x")
    shape = parse_shape(drawing)
    if count_text not in ("1", "2", "3"):
        raise PolytableError(
            f"a card gives 1, 2 or 3 elements, not {count_text!r}",
            "formfinity.card_count_text",
            {"count_text": f"{count_text!r}"},
        )
    edges = _parse_edges(parts[1])
    if parts[2] not in ("r", "f"):
        raise PolytableError(
            f"the rotation mark is r (may rotate) or f (fixed), not {parts[2]!r}",
            "formfinity.card_rotation_mark",
            {"parts": f"{parts[2]!r}"},
        )
    return Card(shape, int(count_text), edges, parts[2] == "r")


def _parse_edges(text: object) -> int:
    words = {"top": 0, "t": 0, "right": 1, "r": 1, "bottom": 2, "b": 2, "left": 3, "l": 3}
    if isinstance(text, list):
        items = [str(t).strip().lower() for t in text]
    elif isinstance(text, str):
        t = text.strip()
        if t in ("-", ""):
            return 0
        items = [t.lower()] if t.lower() in words else list(t.lower())
    else:
        raise PolytableError(
            f"arrows must be letters like 'TR' or a list like ['top', 'right'], not {text!r}",
            "formfinity.card_arrows",
            {"text": f"{text!r}"},
        )
    edges = 0
    for item in items:
        if item not in words:
            raise PolytableError(
                f"{item!r} is not an edge; use T, R, B, L (top, right, bottom, left)",
                "formfinity.card_edge",
                {"item": f"{item!r}"},
            )
        edges |= 1 << words[item]
    return edges


# ---------------------------------------------------------------------------------------------- generator
def _weights(text: str, n: int, name: str) -> tuple[int, ...]:
    try:
        values = tuple(int(v) for v in text.replace(";", ",").split(","))
    except ValueError:
        raise ConfigError(
            f"option {name!r} takes {n} whole numbers separated by commas, not {text!r}",
            "formfinity.option_numbers",
            {"name": f"{name!r}", "n": n, "text": f"{text!r}"},
        ) from None
    if len(values) != n or any(v < 0 for v in values) or not any(values):
        raise ConfigError(
            f"option {name!r} takes {n} weights (whole numbers, at least one above 0), not {text!r}",
            "formfinity.option_weights",
            {"name": f"{name!r}", "n": n, "text": f"{text!r}"},
        )
    return values


def _pick(state: int, weights: Sequence[int]) -> tuple[int, int]:
    r, state = below(state, sum(weights))
    for i, w in enumerate(weights):
        if r < w:
            return i, state
        r -= w
    raise AssertionError("weights exhausted")


_SUBSETS: tuple[tuple[int, ...], ...] = tuple(tuple(m for m in range(16) if m.bit_count() == k) for k in range(5))


@dataclass(frozen=True)
class CardGenerator:
    """The seeded card generator: weights for the size (1-5), the count (x1-x3), the number of arrows
    (0-4; the arrows themselves are then a uniform subset of that size) and the rotation chance (%).

    Within a size every fixed shape is equally likely. Every draw is a handful of ``below`` calls on the
    int generator state, so a draw is constant time and replays exactly.
    """

    sizes: tuple[int, ...] = (3, 4, 4, 4, 1)
    counts: tuple[int, ...] = (6, 3, 1)
    arrows: tuple[int, ...] = (1, 1, 1, 1, 1)
    rotation: int = 50

    @staticmethod
    def from_options(sizes: str, counts: str, arrows: str, rotation: int) -> CardGenerator:
        return CardGenerator(
            _weights(sizes, 5, "size_weights"),
            _weights(counts, 3, "count_weights"),
            _weights(arrows, 5, "arrow_weights"),
            rotation,
        )

    def draw(self, state: int) -> tuple[Card, int]:
        size, state = _pick(state, self.sizes)
        ids = SIZE_SHAPES[size + 1]
        k, state = below(state, len(ids))
        count, state = _pick(state, self.counts)
        narrows, state = _pick(state, self.arrows)
        subsets = _SUBSETS[narrows]
        j, state = below(state, len(subsets))
        r, state = below(state, 100)
        return Card(ids[k], count + 1, subsets[j], r < self.rotation), state

    def possible(self, card: Card) -> bool:
        """Whether the generator can draw ``card`` at all (non-zero probability)."""
        rot_ok = self.rotation > 0 if card.rotate else self.rotation < 100
        return (
            self.sizes[card.size - 1] > 0
            and self.counts[card.count - 1] > 0
            and self.arrows[card.edges.bit_count()] > 0
            and rot_ok
        )

    def probability(self, card: Card) -> float:
        p = self.sizes[card.size - 1] / sum(self.sizes) / len(SIZE_SHAPES[card.size])
        p *= self.counts[card.count - 1] / sum(self.counts)
        n = card.edges.bit_count()
        p *= self.arrows[n] / sum(self.arrows) / len(_SUBSETS[n])
        p *= (self.rotation if card.rotate else 100 - self.rotation) / 100
        return p

    def shapes(self) -> tuple[int, ...]:
        """Shape ids that can be drawn, smallest first."""
        return tuple(i for n in range(1, 6) if self.sizes[n - 1] for i in SIZE_SHAPES[n])


# ---------------------------------------------------------------------------------------------- deck files
def parse_deck(text: str) -> tuple[Card, ...]:
    """Read a deck file's contents: JSON (starts with ``{``) or TOML. See docs/games/formfinity.md.

    JSON: ``{"cards": ["##/#.x2:TR:r", {"shape": "###", "count": 1, "arrows": "TB", "rotate": false,
    "copies": 2}]}``. TOML: ``cards = ["#x1:-:f"]`` and/or ``[[card]]`` tables with the same keys
    (``shape`` may be a multi-line string drawn with ``#`` and ``.``). A card given as a string uses the
    card notation. Raises ConfigError naming the card that is wrong.
    """
    body = text.strip()
    if not body:
        raise ConfigError("the deck file is empty", "formfinity.deck_empty_file")
    data: Any
    if body.startswith("{"):
        try:
            if json_depth(body) > MAX_DEPTH:
                raise ConfigError(
                    f"the deck file is nested too deep (at most {MAX_DEPTH} levels)",
                    "formfinity.deck_deep",
                    {"max": MAX_DEPTH},
                )
            data = json.loads(body)
        except json.JSONDecodeError as e:
            raise ConfigError(
                f"the deck file is not valid JSON: line {e.lineno}, column {e.colno}: {e.msg}",
                "formfinity.deck_json",
                {"lineno": e.lineno, "colno": e.colno, "msg": e.msg},
            ) from None
    else:
        try:
            data = tomllib.loads(body)
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(
                f"the deck file is not valid TOML (or JSON): {e}", "formfinity.deck_toml", {"why": e}
            ) from None
    if not isinstance(data, Mapping):
        raise ConfigError("the deck file must be an object with a list of cards", "formfinity.deck_type")
    unknown = set(data) - {"cards", "card", "name"}
    if unknown:
        raise ConfigError(
            f"the deck file has unknown keys: {', '.join(sorted(unknown))} (use cards or [[card]])",
            "formfinity.deck_unknown_keys",
            {"unknown": ", ".join(sorted(unknown))},
        )
    items: list[Any] = []
    for key in ("cards", "card"):
        value = data.get(key, [])
        if not isinstance(value, list):
            raise ConfigError(f"'{key}' in the deck file must be a list", "formfinity.deck_not_list", {"key": key})
        items += value
    cards: list[Card] = []
    for n, item in enumerate(items, 1):
        try:
            card, copies = _deck_card(item)
        except ValueError as e:
            raise ConfigError(f"deck card {n}: {e}", "formfinity.deck_card", {"card": n, "why": e}) from None
        cards += [card] * copies
    if not cards:
        raise ConfigError("the deck file has no cards", "formfinity.deck_no_cards")
    if len(cards) > 10_000:
        raise ConfigError(
            f"the deck has {len(cards)} cards; at most 10000", "formfinity.deck_too_long", {"cards": len(cards)}
        )
    return tuple(cards)


def _deck_card(item: object) -> tuple[Card, int]:
    if isinstance(item, str):
        return parse_card(item), 1
    if not isinstance(item, Mapping):
        raise PolytableError(
            "a card is a string in card notation or a table with shape, count, arrows, rotate",
            "formfinity.card_type",
        )
    unknown = set(item) - {"shape", "count", "arrows", "rotate", "copies"}
    if unknown:
        raise PolytableError(
            f"unknown keys {', '.join(sorted(unknown))}",
            "formfinity.card_unknown_keys",
            {"unknown": ", ".join(sorted(unknown))},
        )
    if "shape" not in item or not isinstance(item["shape"], str):
        raise PolytableError(
            "it needs a shape, drawn with # and . (rows separated by / or new lines)", "formfinity.card_no_shape"
        )
    shape = parse_shape(item["shape"])
    count = item.get("count", 1)
    if count not in (1, 2, 3) or isinstance(count, bool):
        raise PolytableError(
            f"count must be 1, 2 or 3, not {count!r}", "formfinity.card_count", {"count": f"{count!r}"}
        )
    edges = _parse_edges(item.get("arrows", ""))
    rotate = item.get("rotate", False)
    if not isinstance(rotate, bool):
        raise PolytableError(
            f"rotate must be true or false, not {rotate!r}", "formfinity.card_rotate", {"rotate": f"{rotate!r}"}
        )
    copies = item.get("copies", 1)
    if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= 100:
        raise PolytableError(
            f"copies must be a whole number from 1 to 100, not {copies!r}",
            "formfinity.card_copies",
            {"copies": f"{copies!r}"},
        )
    return Card(shape, count, edges, rotate), copies


# ---------------------------------------------------------------------------------------------- art
def card_art(card: Card, unicode: bool = True, big: bool = False) -> list[str]:
    """The card drawn as text lines: the shape in the middle, arrows on the edges it may enter from
    (pointing inwards, as on the printed card), the count and the rotation symbol below.

    ``unicode`` uses block characters and arrows; without it the art is plain ASCII (``#``, ``v^<>``).
    ``big`` doubles each square (for the companion deal).
    """
    cells = set(SHAPES[card.shape])
    w = max(x for x, _ in cells) + 1
    h = max(y for _, y in cells) + 1
    sq = ("████" if big else "██") if unicode else ("####" if big else "##")
    gap = " " * len(sq)
    reps = 2 if big else 1
    inner_w = 5 * len(sq)
    rows: list[str] = []
    top_pad = (5 * reps - h * reps) // 2
    left_pad = " " * ((inner_w - w * len(sq)) // 2)
    for y in range(5 * reps):
        sy = (y - top_pad) // reps
        line = ""
        if 0 <= y - top_pad < h * reps:
            line = left_pad + "".join(sq if (x, sy) in cells else gap for x in range(w))
        rows.append(line.ljust(inner_w))
    arrow = {"T": "▼", "B": "▲", "L": "▶", "R": "◀"} if unicode else {"T": "v", "B": "^", "L": ">", "R": "<"}
    has = {EDGE_LETTERS[k]: bool(card.edges >> k & 1) for k in range(4)}
    hz = "─" if unicode else "-"
    vt = "│" if unicode else "|"
    corner = ("┌", "┐", "└", "┘") if unicode else ("+", "+", "+", "+")
    mid_row = len(rows) // 2

    def edge_line(letter: str, left: str, right: str) -> str:
        mark = f" {arrow[letter]} " if has[letter] else hz * 3
        half = (inner_w + 2 - 3) // 2
        return left + hz * half + mark + hz * (inner_w + 2 - 3 - half) + right

    out = [edge_line("T", corner[0], corner[1])]
    for i, r in enumerate(rows):
        lch = arrow["L"] if has["L"] and i in (mid_row - 1, mid_row) else vt
        rch = arrow["R"] if has["R"] and i in (mid_row - 1, mid_row) else vt
        out.append(f"{lch} {r} {rch}")
    out.append(edge_line("B", corner[2], corner[3]))
    rot = ("↻ rotate" if unicode else "(rotate)") if card.rotate else ("fixed" if unicode else "(fixed)")
    footer = f"x{card.count}   {rot}"
    out.append(footer.center(inner_w + 4))
    return out
