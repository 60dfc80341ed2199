"""Observation planes for every game, built from ``Game.view`` so they show exactly what a player may see.

An observation is a ``uint8`` array of shape ``(height, width, channels)`` (channels last, as PettingZoo's
classic games). Board data is a 0/1 plane (or a small number per cell); numbers that are not about one cell
(scores, counts, flags, the card in hand) are *features*, written row by row into the last channel(s)
(``features0``, ``features1`` ... as many as they need) instead of one constant plane each, which kept
Forma's observation at 42,959 floats and Qwirkle Cubes' at 102,827. Values saturate at 255 (a score above
255 reads 255). Seats are *relative*: the first seat block is the observer, then the next seats in turn
order, so one policy can play any seat. Every channel and feature has a name (``Planes.names``,
``Planes.features``); docs/research.md lists them per game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["ENCODED_GAMES", "Encoder", "Planes", "encoder_for"]

Array = npt.NDArray[np.uint8]


class Planes:
    """A growing stack of named ``height x width`` planes and named integer features."""

    def __init__(self, height: int, width: int) -> None:
        self.height = height
        self.width = width
        self.names: list[str] = []
        self.features: list[str] = []
        self._planes: list[Array] = []
        self._values: list[int] = []

    def plane(self, name: str) -> Array:
        """A new zero plane, returned for filling in place."""
        arr = np.zeros((self.height, self.width), np.uint8)
        self.names.append(name)
        self._planes.append(arr)
        return arr

    def const(self, name: str, value: float) -> None:
        """A feature: an integer in 0..255 (rounded, saturated)."""
        self.features.append(name)
        self._values.append(min(255, max(0, round(value))))

    def cells(self, name: str, cells: Sequence[tuple[int, int]], value: int = 1) -> None:
        """A plane with ``value`` on each (row, column) inside the plane."""
        arr = self.plane(name)
        for r, c in cells:
            if 0 <= r < self.height and 0 <= c < self.width:
                arr[r, c] = value

    def feature_channels(self) -> int:
        area = self.height * self.width
        return -(-len(self._values) // area)

    def channel_names(self) -> list[str]:
        """The names of every channel: the planes, then ``features0`` ... holding the features."""
        return self.names + [f"features{k}" for k in range(self.feature_channels())]

    def array(self) -> Array:
        h, w = self.height, self.width
        k = self.feature_channels()
        out = np.zeros((h, w, len(self._planes) + k), np.uint8)
        for i, arr in enumerate(self._planes):
            out[:, :, i] = arr
        if k:
            flat = np.zeros(k * h * w, np.uint8)
            flat[: len(self._values)] = self._values
            out[:, :, len(self._planes) :] = flat.reshape(k, h, w).transpose(1, 2, 0)
        return out


Encoder = Callable[[Mapping[str, Any], int, int, Sequence[float]], Planes]
"""(view for the observer, observer seat, player count, scores) -> planes."""


def _seats(observer: int, players: int) -> list[tuple[str, int]]:
    """Relative seat labels: ``self``, ``next1`` ... in turn order after the observer."""
    return [("self" if k == 0 else f"next{k}", (observer + k) % players) for k in range(players)]


def _cell(name: str) -> tuple[int, int]:
    """``c5`` -> (row 4, column 2): columns are letters (``aa`` after ``z``), rows count from 1."""
    i = 0
    while i < len(name) and name[i].isalpha():
        i += 1
    letters, digits = name[:i].lower(), name[i:]
    col = ord(letters[0]) - 97 if len(letters) == 1 else 26 + ord(letters[1]) - 97
    return int(digits.split(".")[0]) - 1, col


# --------------------------------------------------------------------------------------------- Foldris
def _foldris(view: Mapping[str, Any], observer: int, players: int, height: int) -> Planes:
    pl = Planes(height, 8)
    sheets = {p["player"]: p for p in view["players"]}
    for label, seat in _seats(observer, players):
        sheet = sheets[seat]
        for key in ("ink", "barrier"):
            arr = pl.plane(f"{label}.{key}")
            for r, bits in enumerate(sheet[key][:height]):
                for c in range(8):
                    if bits >> c & 1:
                        arr[r, c] = 1
        pl.plane(f"{label}.rows")[: min(sheet["height"], height), :] = 1
        pl.const(f"{label}.lines", sheet["lines"])
        pl.const(f"{label}.bonus", sheet["bonus"])
        pl.const(f"{label}.out", 1.0 if sheet["out"] else 0.0)
        pl.const(f"{label}.chosen", 1.0 if sheet.get("chosen") else 0.0)
    card = view.get("card")
    shape = pl.plane("card.shape")
    lane = pl.plane("card.lane")
    if card:
        rows = card["shape"].split("/")
        for i, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch == "#" and i < height and c < 8:
                    shape[height - 1 - i, c] = 1
        lane[:, card["lane"] - 1 : card["lane"] + 1] = 1
    pl.const("deck_left", view.get("deck_left") or 0)
    return pl


# --------------------------------------------------------------------------------------------- Forma
def _forma(view: Mapping[str, Any], observer: int, players: int, size: int, pieces: Sequence[str]) -> Planes:
    pl = Planes(size, size)
    # "tower j10; obstacles c3 k7 ..." (during the players' set-up either part may still be missing)
    tower: list[tuple[int, int]] = []
    obstacles: list[tuple[int, int]] = []
    for part in view["setup"].split(";"):
        words = part.split()
        if words and words[0] == "tower":
            tower = [_cell(c) for c in words[1:]]
        elif words and words[0] == "obstacles":
            obstacles = [_cell(c) for c in words[1:]]
    pl.cells("tower", tower)
    pl.cells("obstacles", obstacles)
    seats = view["players"]
    for label, seat in _seats(observer, players):
        p = seats[seat]
        pl.cells(f"{label}.pieces", [_cell(c) for c in p["pieces"]])
        pl.cells(f"{label}.markers", [_cell(c) for c in p["markers"]])
        pl.const(f"{label}.score", p["score"])
        for name in pieces:
            pl.const(f"{label}.stock.{name}", p["stock"].get(name, 0))
    picked = view.get("picked")
    for name in pieces:
        pl.const(f"picked.{name}", 1.0 if picked == name else 0.0)
    return pl


# --------------------------------------------------------------------------------------------- FORMFINITY
FORMFINITY_CARD = (
    *(f"card.shape.r{r}c{c}" for r in range(5) for c in range(5)),
    *(f"card.count{k}" for k in (1, 2, 3)),
    *(f"card.edge.{e}" for e in "TRBL"),
    "card.rotate",
)
"""The card's features: its shape in a 5 x 5 box (top row first), count, edge arrows, whether it may turn."""


def formfinity_card(card: str) -> list[int]:
    """The values of :data:`FORMFINITY_CARD` for a card's notation (all zero without a card)."""
    shape_text, _, rest = card.partition("x")
    count, _, rest = rest.partition(":")
    edges, _, rot = rest.partition(":")
    rows = shape_text.split("/") if card else []
    shape = [int(r < len(rows) and c < len(rows[r]) and rows[r][c] == "#") for r in range(5) for c in range(5)]
    return [*shape, *(int(count == str(k)) for k in (1, 2, 3)), *(int(e in edges) for e in "TRBL"), int(rot == "r")]


_CARD_TABLE: list[npt.NDArray[np.uint8]] = []


def formfinity_card_table() -> npt.NDArray[np.uint8]:
    """:func:`formfinity_card` of every card id, one row each (made once: what a compiled batch reads)."""
    if not _CARD_TABLE:
        from ..games.formfinity import NUM_CARDS, Card

        rows = [formfinity_card(Card.from_id(i).notation()) for i in range(NUM_CARDS)]
        _CARD_TABLE.append(np.array(rows, np.uint8))
    return _CARD_TABLE[0]


def _formfinity(view: Mapping[str, Any], observer: int, players: int) -> Planes:
    w, h = view["width"], view["height"]
    pl = Planes(h, w)
    tpl = view["template"]
    labels = [[str(tpl[y][x]) for x in range(w)] for y in range(h)]
    areas = sorted({lab for row in labels for lab in row if lab.isalpha() and lab.isupper()})
    blocked, start, number, area_id = (pl.plane(n) for n in ("blocked", "start", "number", "area"))
    current, finished = pl.plane("area.current"), pl.plane("area.finished")
    for y in range(h):
        for x in range(w):
            lab = labels[y][x]
            if lab in ("#", " ", ""):
                blocked[y, x] = 1
            elif lab == "*":
                start[y, x] = 1
            elif lab.isdigit():
                number[y, x] = int(lab)
            if lab in areas:
                area_id[y, x] = areas.index(lab) + 1
                current[y, x] = lab == view.get("area")
                finished[y, x] = lab in view.get("finished_areas", ())
    pl.cells("last", [_cell(c) for c in view["last"]])
    for label, seat in _seats(observer, players):
        pl.cells(f"{label}.drawn", [_cell(c) for c in view["drawn"][seat]])
        pl.cells(f"{label}.lines", [_cell(c) for ln in view["lines"] if ln["owner"] == seat for c in ln["cells"]])
        pl.const(f"{label}.score", float(view["scores"][seat]))
    # The card: its shape in a 5 x 5 box (top row first), count, edge arrows and whether it may turn.
    for name, value in zip(FORMFINITY_CARD, formfinity_card(view.get("card") or ""), strict=True):
        pl.const(name, value)
    pl.const("elements_left", view["elements_left"])
    for phase in ("choose", "draw", "place", "claim"):
        pl.const(f"phase.{phase}", 1.0 if view["phase"] == phase else 0.0)
    return pl


# --------------------------------------------------------------------------------------------- Quadefy
_QUADEFY_BLOCKS = ("I", "O", "T", "L", "S", "B", "SL", "SR")


def _quadefy(view: Mapping[str, Any], observer: int, players: int) -> Planes:
    pl = Planes(4, 4)
    cells = view["cells"]
    for label, seat in _seats(observer, players):
        for z in range(4):
            arr = pl.plane(f"{label}.layer{z + 1}")
            for i in range(16):
                cell = cells[16 * z + i]
                if cell is not None and cell["owner"] == seat:
                    arr[i // 4, i % 4] = 1
        hand = view["in_hand"][seat]
        for b in _QUADEFY_BLOCKS:
            pl.const(f"{label}.in_hand.{b}", 1.0 if b in hand else 0.0)
    return pl


# --------------------------------------------------------------------------------------------- Qwirkle Cubes
QWIRKLE_WINDOW = 31
_COLOURS = "ROYGBP"
_SHAPES = "●■◆♣✦✸"


def _qwirkle(view: Mapping[str, Any], observer: int, players: int) -> Planes:
    n = QWIRKLE_WINDOW
    pl = Planes(n, n)
    table = view["table"]
    if table:
        xs = [t[0] for t in table]
        ys = [t[1] for t in table]
        cx, cy = (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2
    else:
        cx = cy = 0
    colour = [pl.plane(f"table.colour.{c}") for c in _COLOURS]
    shape = [pl.plane(f"table.shape.{s}") for s in _SHAPES]
    for x, y, cube in table:
        r, c = y - cy + n // 2, x - cx + n // 2
        if 0 <= r < n and 0 <= c < n:
            colour[_COLOURS.index(cube[0])][r, c] = 1
            if cube[1] in _SHAPES:
                shape[_SHAPES.index(cube[1])][r, c] = 1
    for label, seat in _seats(observer, players):
        hand = view["hands"][seat]
        for col in _COLOURS:
            for sh in (*_SHAPES, "?"):
                k = sum(1 for cube in hand if cube[0] == col and cube[1] == sh)
                pl.const(f"{label}.hand.{col}{sh}", k)
        pl.const(f"{label}.points", view["points"][seat])
    for i, name in enumerate(("red", "orange", "yellow", "green", "blue", "purple")):
        pl.const(f"bag.{_COLOURS[i]}", view["bag_colours"].get(name, 0))
    for phase in ("reroll", "place", "pass"):
        pl.const(f"phase.{phase}", 1.0 if view["phase"] == phase else 0.0)
    return pl


def _scores_only(view: Mapping[str, Any], observer: int, players: int, scores: Sequence[float]) -> Planes:
    pl = Planes(1, 1)
    pl.const("one", 1.0)
    for label, seat in _seats(observer, players):
        pl.const(f"{label}.score", float(scores[seat]))
    return pl


ENCODED_GAMES = ("foldris", "forma", "formfinity", "quadefy", "qwirkle-cubes")
"""Games with their own planes; any other registered game is seen through its scores only (1 x 1)."""


def encoder_for(game_id: str, first_view: Mapping[str, Any], config: Mapping[str, Any]) -> Encoder:
    """The encoder of a game for one configuration (``first_view``: a view of its initial state)."""
    if game_id == "foldris":
        height = int(config["height"])
        return lambda v, o, n, s: _foldris(v, o, n, height)
    if game_id == "forma":
        size = int(config["size"])
        pieces = tuple(first_view["players"][0]["stock"])
        return lambda v, o, n, s: _forma(v, o, n, size, pieces)
    if game_id == "formfinity":
        return lambda v, o, n, s: _formfinity(v, o, n)
    if game_id == "quadefy":
        return lambda v, o, n, s: _quadefy(v, o, n)
    if game_id == "qwirkle-cubes":
        return lambda v, o, n, s: _qwirkle(v, o, n)
    return _scores_only
