"""Quadefy's state and action values, and the action notation.

Notation (canonical form, parsed case-insensitively with free spacing)::

    L r17 @ b2.1

* the block: ``I``, ``O``, ``T``, ``L``, ``S``, ``B`` (branch), ``SL`` (left screw), ``SR`` (right screw);
* ``r`` and the orientation number: the index of the orientation in
  ``polytable.geometry.orientations3(TETRACUBES[block])`` (0-based; I and O have 3, B 8, T, S, SL and SR
  12, L 24);
* ``@`` and the *anchor*: the corner of the block's bounding box with the smallest column, row and layer,
  written column letter ``a``-``d``, row ``1``-``4``, a dot, layer ``1``-``4`` (layer 1 is the floor).
  The anchor need not be one of the block's cubes (an L lying on its side, for instance).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from polytable.core import Config, IllegalActionError
from polytable.geometry import TETRACUBES, orientations3

from ._tables import BLOCK_INDEX, BLOCKS, PLACEMENTS

__all__ = ["ACTIONS", "ACTION_IDS", "Placement", "QuadefyState", "format_placement", "parse_placement"]


@dataclass(frozen=True, slots=True)
class Placement:
    """Place ``block`` in orientation ``rotation`` with its bounding-box corner at cell ``(x, y, z)``."""

    block: str
    rotation: int
    x: int
    y: int
    z: int


@dataclass(frozen=True, slots=True)
class QuadefyState:
    """A position. Everything derives from ``moves`` (placement ids in order); the rest is kept so the
    rules are bit operations: ``occupied`` and ``owned`` are 64-bit cell sets, ``remaining`` each
    player's blocks in hand as a bit set over BLOCKS, ``loser`` the player who could not move (-1 while
    the game goes on), ``flags`` the option bits of the config (reachability, stability)."""

    config: Config
    occupied: int
    owned: tuple[int, int]
    remaining: tuple[int, int]
    moves: tuple[int, ...]
    to_move: int
    loser: int
    flags: int


ACTIONS: tuple[Placement, ...] = tuple(Placement(BLOCKS[p.block], p.rotation, p.x, p.y, p.z) for p in PLACEMENTS)
"""The action of each placement id (shared instances: move generation allocates nothing)."""
ACTION_IDS: dict[Placement, int] = {a: i for i, a in enumerate(ACTIONS)}

ORIENT_COUNT: dict[str, int] = {name: len(orientations3(TETRACUBES[name])) for name in BLOCKS}

_COLS = "abcd"


def format_placement(a: Placement) -> str:
    """A placement in the notation players type: ``L r3 @ b2.1`` (block, rotation, cell with its level)."""
    return f"{a.block} r{a.rotation} @ {_COLS[a.x]}{a.y + 1}.{a.z + 1}"


_RE = re.compile(r"^\s*([A-Za-z]{1,2})\s*[rR]\s*(\d+)\s*@\s*([A-Za-z])\s*(\d+)\s*\.\s*(\d+)\s*$")


def parse_placement(text: str) -> Placement:
    """Read ``L r17 @ b2.1``; errors say what is wrong for a player."""
    if not isinstance(text, str):
        raise IllegalActionError(
            f"a Quadefy move is text like 'L r17 @ b2.1', not {type(text).__name__}",
            "quadefy.move_type",
            {"name": type(text).__name__},
        )
    m = _RE.match(text)
    if not m:
        raise IllegalActionError(
            f"cannot read {text!r}: write a move as block, rotation and anchor, like 'L r17 @ b2.1' "
            "(column a-d, row 1-4, layer 1-4)",
            "quadefy.unreadable",
            {"text": f"{text!r}"},
        )
    name, rot, col, row, layer = m.groups()
    name = name.upper()
    if name not in BLOCK_INDEX:
        raise IllegalActionError(
            f"there is no block {name!r}; the blocks are {', '.join(BLOCKS)}",
            "quadefy.no_such_block",
            {"name": f"{name!r}", "blocks": ", ".join(BLOCKS)},
        )
    r = int(rot)
    if r >= ORIENT_COUNT[name]:
        raise IllegalActionError(
            f"block {name} has rotations r0 to r{ORIENT_COUNT[name] - 1}; there is no r{r}",
            "quadefy.no_such_orientation",
            {"name": name, "orient_count": ORIENT_COUNT[name] - 1, "rotation": r},
        )
    c = col.lower()
    if c not in _COLS:
        raise IllegalActionError(
            f"column {col!r} is off the field: columns are a to d", "quadefy.column_off_field", {"col": f"{col!r}"}
        )
    y, z = int(row), int(layer)
    if not 1 <= y <= 4:
        raise IllegalActionError(f"row {row} is off the field: rows are 1 to 4", "quadefy.row_off_field", {"row": row})
    if not 1 <= z <= 4:
        raise IllegalActionError(
            f"layer {layer} is outside the cube: layers are 1 (the floor) to 4",
            "quadefy.layer_outside_cube",
            {"layer": layer},
        )
    return Placement(name, r, _COLS.index(c), y - 1, z - 1)
