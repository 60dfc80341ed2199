"""Forma's notation and dense action ids: ``F5 r3f @ k7`` (piece, quarter turns, ``f`` flipped, the cell the
piece's reference square covers), ``pick F5`` (touch-move), ``obstacle k7``, ``tower j10`` and ``fill`` (the
set-up). Ids: placements (orientation * 400 + row * 20 + column), then picks, obstacles, towers, the fill."""

from __future__ import annotations

import re

from polytable.core import IllegalActionError

from . import _pieces as P
from ._state import Fill, Obstacle, Pick, Place, Tower, cell_name, parse_cell

FormaAction = Place | Pick | Obstacle | Tower | Fill

__all__ = ["NUM_IDS", "FormaAction", "action_from_id", "action_id", "format_action", "orient_text", "parse_action"]

_PLACE_IDS = P.NUM_ORIENTS * 400
_OBSTACLE_IDS = _PLACE_IDS + P.NUM_PIECES
"""Ids: placements, then picks, then obstacles (400: row * 20 + col), towers (400) and the fill (1)."""
_TOWER_IDS = _OBSTACLE_IDS + 400
_FILL_ID = _TOWER_IDS + 400
NUM_IDS = _FILL_ID + 1
_SETUP = re.compile(r"^\s*(?:(?P<kind>obstacle|tower)\s+(?P<cell>\S+)|(?P<fill>fill))\s*$", re.IGNORECASE)
_ACTION = re.compile(
    r"^\s*(?:(?P<pick>pick)\s+(?P<pname>\S+)|(?P<name>[^\s@]+)(?:\s+r(?P<rot>[0-3])(?P<flip>f?))?\s*@\s*(?P<cell>\S+))\s*$",
    re.IGNORECASE,
)


def format_action(action: FormaAction) -> str:
    """The canonical text of an action: ``F5 r3f @ k7``, ``pick F5``, ``obstacle k7``, ``tower j10``, ``fill``."""
    if isinstance(action, Pick):
        return f"pick {P.PIECE_NAMES[action.piece]}"
    if isinstance(action, Obstacle):
        return f"obstacle {cell_name(action.col, action.row)}"
    if isinstance(action, Tower):
        return f"tower {cell_name(action.col, action.row)}"
    if isinstance(action, Fill):
        return "fill"
    p, k, col, row = action
    return f"{P.PIECE_NAMES[p]} {orient_text(P.canonical_k(p, k))} @ {cell_name(col, row)}"


def parse_action(text: str, size: int) -> FormaAction:
    """Read an action's text on a ``size`` board; :class:`IllegalActionError` says what cannot be read."""
    if not isinstance(text, str):
        raise IllegalActionError("a move is text like 'F5 r3f @ k7' or, with touch-move, 'pick F5'", "forma.move_type")
    setup = _SETUP.match(text)
    if setup:
        if setup.group("fill"):
            return Fill()
        try:
            col, row = parse_cell(setup.group("cell"), size)
        except ValueError as e:
            raise IllegalActionError.relay(e) from None
        return (Tower if setup.group("kind").lower() == "tower" else Obstacle)(col, row)
    m = _ACTION.match(text)
    if not m:
        raise IllegalActionError(
            f"cannot read {text.strip()!r}: write a piece, an orientation and a cell, like 'F5 r3f @ k7'",
            "forma.unreadable",
            {"text": f"{text.strip()!r}"},
        )
    if m.group("pick"):
        p = P.piece_index(m.group("pname"))
        if p < 0:
            raise IllegalActionError(
                f"there is no piece called {m.group('pname')!r} ({', '.join(P.PIECE_NAMES)})",
                "forma.no_such_piece",
                {"name": f"{m.group('pname')!r}", "names": ", ".join(P.PIECE_NAMES)},
            )
        return Pick(p)
    p = P.piece_index(m.group("name"))
    if p < 0:
        raise IllegalActionError(
            f"there is no piece called {m.group('name')!r} ({', '.join(P.PIECE_NAMES)})",
            "forma.no_such_piece",
            {"name": f"{m.group('name')!r}", "names": ", ".join(P.PIECE_NAMES)},
        )
    k = int(m.group("rot") or 0) + (4 if m.group("flip") else 0)
    try:
        col, row = parse_cell(m.group("cell"), size)
    except ValueError as e:
        raise IllegalActionError.relay(e) from None
    return Place(p, P.canonical_k(p, k), col, row)


def action_id(action: FormaAction) -> int:
    """The dense integer id of an action (see the layout above)."""
    if isinstance(action, Pick):
        return _PLACE_IDS + action.piece
    if isinstance(action, Obstacle):
        return _OBSTACLE_IDS + action.row * 20 + action.col
    if isinstance(action, Tower):
        return _TOWER_IDS + action.row * 20 + action.col
    if isinstance(action, Fill):
        return _FILL_ID
    p, k, col, row = action
    return int(P.ORIENT_GK[p * 8 + k] * 400 + row * 20 + col)


def action_from_id(action_id: int) -> FormaAction:
    """The action of a dense id; :class:`IllegalActionError` for an id out of range."""
    if not _is_int(action_id) or not 0 <= action_id < NUM_IDS:
        raise IllegalActionError(
            f"action id {action_id!r} is out of range (0 to {NUM_IDS - 1})",
            "forma.action_id_range",
            {"action_id": f"{action_id!r}", "num_ids": NUM_IDS - 1},
        )
    if action_id == _FILL_ID:
        return Fill()
    if action_id >= _OBSTACLE_IDS:
        row, col = divmod((action_id - _OBSTACLE_IDS) % 400, 20)
        return (Tower if action_id >= _TOWER_IDS else Obstacle)(col, row)
    if action_id >= _PLACE_IDS:
        return Pick(action_id - _PLACE_IDS)
    g, rest = divmod(action_id, 400)
    row, col = divmod(rest, 20)
    return Place(P.ORIENT_PIECE[g], P.ORIENT_K[g], col, row)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def orient_text(k: int) -> str:
    """``r0``-``r3``, with ``f`` when flipped."""
    return f"r{k % 4}{'f' if k >= 4 else ''}"
