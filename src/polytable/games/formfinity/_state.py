"""FORMFINITY state and actions (frozen values) and the cell naming used by the notation.

Board layout: the template's bounding box, ``W`` x ``H``, cell ``(x, y)`` is bit ``y * S + x`` with
``S = W + 1`` (a guard column that is always empty, so shifts never wrap)::

     0  1  2 ..  W-1 | W (guard)
     S S+1 ...

People name cells spreadsheet-style: column letters ``a`` ... ``z``, ``aa`` ... then the row number from
the top, starting at 1 (``c5`` is x = 2, y = 4).
"""

from __future__ import annotations

from dataclasses import dataclass

from polytable.core import Config, PolytableError

from ._cards import Card

__all__ = [
    "CHOOSE",
    "CLAIM",
    "DRAW",
    "OVER",
    "PLACE",
    "Action",
    "ChooseArea",
    "Claim",
    "FormfinityState",
    "Place",
    "cell_name",
    "col_name",
    "evolve",
    "parse_cell",
]

CHOOSE, DRAW, PLACE, CLAIM, OVER = 0, 1, 2, 3, 4
PHASE_NAMES = ("choose", "draw", "place", "claim", "over")


@dataclass(frozen=True, slots=True)
class Place:
    """Draw one element: fixed shape ``shape`` (id) with its bounding box's top-left corner at (x, y)."""

    shape: int
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim the line in direction ``direction`` (0 horizontal, 1 vertical, 2 diagonal down-right,
    3 anti-diagonal down-left) that starts at (x, y), its top (or left) end."""

    direction: int
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class ChooseArea:
    """Choose the area (index in template order) to fill next (variant 2)."""

    area: int


Action = Card | Place | Claim | ChooseArea


@dataclass(frozen=True)
class FormfinityState:
    """The whole game. Everything is ints and tuples of ints, shared between successive states.

    ``owners[p]`` is the bitboard of squares player ``p`` has drawn; ``turn`` is whose turn it is;
    ``phase`` one of CHOOSE (pick an area), DRAW (a chance node: the card), PLACE (place the next element
    of ``card``), CLAIM (choose which line to claim), OVER. ``left`` is how many elements of the card are
    still to place and ``placed`` how many were placed this turn. ``lines`` holds claimed lines as
    ``(owner, direction, start bit)``; ``area``/``done_areas``/``fails``/``points`` belong to the areas
    goal; ``numbers`` lists who claimed each number so far, in order. ``rng`` is the card generator state
    and ``deck`` the card ids still in the deck (deck files only). ``last`` is the bitboard of the last
    element drawn and ``unused`` how many elements of the last finished card were left unused.
    """

    config: Config
    rng: int
    deck: tuple[int, ...]
    owners: tuple[int, ...]
    turn: int = 0
    phase: int = DRAW
    card: int = -1
    left: int = 0
    placed: int = 0
    lines: tuple[tuple[int, int, int], ...] = ()
    area: int = -1
    done_areas: int = 0
    fails: int = 0
    points: tuple[int, ...] = ()
    numbers: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    cards_drawn: int = 0
    last: int = 0
    unused: int = 0

    @property
    def drawn(self) -> int:
        out = 0
        for m in self.owners:
            out |= m
        return out


def evolve(st: FormfinityState, **changes: object) -> FormfinityState:
    """``dataclasses.replace`` without its per-call introspection (several times faster:
    docs/benchmarks/design-figures.md; states have no ``__post_init__``, so copying the field dict is exactly
    what replace would do)."""
    new = object.__new__(FormfinityState)
    d = new.__dict__
    d.update(st.__dict__)
    d.update(changes)
    return new


def col_name(x: int) -> str:
    """``a`` ... ``z``, then ``aa`` ... ``an`` (templates are at most 40 wide)."""
    return chr(97 + x) if x < 26 else "a" + chr(97 + x - 26)


def cell_name(x: int, y: int) -> str:
    return f"{col_name(x)}{y + 1}"


def parse_cell(text: str) -> tuple[int, int]:
    """``c5`` -> (2, 4); ValueError for anything else."""
    t = text.strip().lower()
    i = 0
    while i < len(t) and t[i].isalpha():
        i += 1
    letters, digits = t[:i], t[i:]
    if not letters or not digits.isdigit() or len(letters) > 2 or len(digits) > 3:
        raise PolytableError(
            f"{text!r} is not a square; name squares like c5 (column letter, row number)",
            "formfinity.not_a_square",
            {"text": f"{text!r}"},
        )
    if len(letters) == 1:
        x = ord(letters) - 97
    elif letters[0] == "a":
        x = 26 + ord(letters[1]) - 97
    else:
        raise PolytableError(
            f"{text!r} is not a square; columns run a ... z, aa ... an",
            "formfinity.square_column",
            {"text": f"{text!r}"},
        )
    return x, int(digits) - 1
