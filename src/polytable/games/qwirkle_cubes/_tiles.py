"""Cubes, faces, lines and coordinates: the small tables every other module of the game uses.

A cube *face* (what lies on top after a roll) is a tile code ``colour * 6 + shape`` in ``range(36)``. A
set of faces is a 36-bit int, so a line on the table, a hand's distinct faces and the faces that may join
a line are all bit masks: one ``&`` answers "which of my faces fit here".

Cells are packed into one int (``_cell``) so the board is a dict of ints and neighbours are ``+-1`` and
``+-STRIDE``. Coordinates are relative to the first cube (0, 0); x grows to the right and y upwards.
A connected board of 90 cubes cannot leave ``|x|, |y| <= 89``, so ``STRIDE`` keeps rows apart.
"""

from __future__ import annotations

from polytable.core import phrase
from polytable.geometry import bits

__all__ = [
    "ALL_FACES",
    "COLOURS",
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "CUBES_PER_COLOUR",
    "HAND_SIZE",
    "LINE_MAX",
    "MAX_COORD",
    "SHAPES",
    "SHAPE_ASCII",
    "SHAPE_NAMES",
    "SHAPE_SYMBOLS",
    "STRIDE",
    "addable",
    "cell",
    "cell_xy",
    "colour_of",
    "cube_words",
    "face",
    "face_ascii",
    "face_name",
    "face_text",
    "faces_of",
    "line_ok",
    "parse_face",
    "shape_of",
]

COLOURS = 6
SHAPES = 6
CUBES_PER_COLOUR = 15
HAND_SIZE = 6
LINE_MAX = 6
MAX_COORD = 89
"""No cube can lie further than 89 steps from the first one (the board is connected and has 90 cubes)."""

COLOUR_LETTERS = "ROYGBP"
COLOUR_NAMES = ("red", "orange", "yellow", "green", "blue", "purple")
SHAPE_SYMBOLS = ("●", "■", "◆", "♣", "✦", "✸")
SHAPE_ASCII = ("o", "s", "d", "c", "x", "*")
SHAPE_NAMES = ("circle", "square", "diamond", "clover", "4-point star", "8-point star")
_COLOUR_WORDS = (
    phrase("qwirkle.red", "red"),
    phrase("qwirkle.orange", "orange"),
    phrase("qwirkle.yellow", "yellow"),
    phrase("qwirkle.green", "green"),
    phrase("qwirkle.blue", "blue"),
    phrase("qwirkle.purple", "purple"),
)
_SHAPE_WORDS = (
    phrase("qwirkle.circle", "circle"),
    phrase("qwirkle.square", "square"),
    phrase("qwirkle.diamond", "diamond"),
    phrase("qwirkle.clover", "clover"),
    phrase("qwirkle.star4", "4-point star"),
    phrase("qwirkle.star8", "8-point star"),
)
"""The colours and shapes as translatable words (:func:`cube_words`), in the order of their numbers."""

ALL_FACES = (1 << 36) - 1
_COLOUR_MASK = tuple(0x3F << (6 * c) for c in range(COLOURS))
_SHAPE_MASK = tuple(sum(1 << (6 * c + s) for c in range(COLOURS)) for s in range(SHAPES))

STRIDE = 512
_OFF = 256


def face(colour: int, shape: int) -> int:
    return colour * 6 + shape


def colour_of(t: int) -> int:
    return t // 6


def shape_of(t: int) -> int:
    return t % 6


def face_text(t: int) -> str:
    """``B◆``: the colour letter and the shape symbol (readable without colour)."""
    return COLOUR_LETTERS[t // 6] + SHAPE_SYMBOLS[t % 6]


def face_ascii(t: int) -> str:
    """``Bd``: the ASCII fallback of :func:`face_text`."""
    return COLOUR_LETTERS[t // 6] + SHAPE_ASCII[t % 6]


def face_name(t: int) -> str:
    return f"{COLOUR_NAMES[t // 6]} {SHAPE_NAMES[t % 6]}"


def cube_words(t: int) -> dict[str, object]:
    """A cube in words (``blue diamond``) as a translatable part of a message, made of its colour and
    its shape: what a player reads where the notation would say ``B◆``."""
    return phrase("qwirkle.cube", face_name(t), {"colour": _COLOUR_WORDS[t // 6], "shape": _SHAPE_WORDS[t % 6]})


_SHAPE_BY_TEXT = {**{s: i for i, s in enumerate(SHAPE_SYMBOLS)}, **{s: i for i, s in enumerate(SHAPE_ASCII)}}
# Look-alike symbols people type: other stars, hearts-less clovers, empty circles and squares.
_SHAPE_BY_TEXT.update({"○": 0, "□": 1, "◇": 2, "♧": 3, "✧": 4, "★": 5, "✶": 5, "✷": 5, "✹": 5, "+": 4, "O": 0})


def parse_face(text: str) -> int | None:
    """The face named by ``B◆`` / ``Bd`` (colour letter, shape symbol or letter), or None."""
    if len(text) != 2:
        return None
    c = COLOUR_LETTERS.find(text[0].upper())
    s = _SHAPE_BY_TEXT.get(text[1], _SHAPE_BY_TEXT.get(text[1].lower(), -1))
    if c < 0 or s < 0:
        return None
    return c * 6 + s


def cell(x: int, y: int) -> int:
    """The cell number of table coordinates ``(x, y)`` (the inverse of :func:`cell_xy`)."""
    return (y + _OFF) * STRIDE + (x + _OFF)


def cell_xy(c: int) -> tuple[int, int]:
    """The table coordinates ``(x, y)`` of a cell number (the inverse of :func:`cell`)."""
    return c % STRIDE - _OFF, c // STRIDE - _OFF


def faces_of(mask: int) -> list[int]:
    """The face codes in a mask, in increasing order."""
    return list(bits(mask))


_ADDABLE: dict[int, int] = {0: ALL_FACES}


def addable(line: int) -> int:
    """The faces that may join a line holding the faces ``line`` (distinct faces, as a mask).

    A line is one colour with different shapes or one shape with different colours, at most 6 long, so a
    face fits if it is not already there and shares the line's colour or shape. Memoised: a game meets
    only a few hundred different lines.
    """
    got = _ADDABLE.get(line)
    if got is not None:
        return got
    out = 0
    if line.bit_count() < LINE_MAX:
        for m in _COLOUR_MASK:
            if line & ~m == 0:
                out |= m
        for m in _SHAPE_MASK:
            if line & ~m == 0:
                out |= m
        out &= ~line
    _ADDABLE[line] = out
    return out


_LINE_OK: dict[int, bool] = {}


def line_ok(line: int) -> bool:
    """Whether a set of distinct faces is a legal line: at most 6, all one colour or all one shape."""
    got = _LINE_OK.get(line)
    if got is None:
        got = line.bit_count() <= LINE_MAX and any(line & ~m == 0 for m in _COLOUR_MASK + _SHAPE_MASK)
        _LINE_OK[line] = got
    return got
