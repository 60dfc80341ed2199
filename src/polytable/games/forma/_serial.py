"""Forma states to and from JSON data (cells by name), for records, saved rooms and the web views."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from polytable.core import TERMINAL, ConfigError, GameSpec, StateFormatError, require, require_int, require_list
from polytable.geometry import bits

from . import _pieces as P
from ._rules import avail_orients, neighbours
from ._state import FormaState, cell_name, format_setup, parse_cell, parse_setup

__all__ = ["cell_mask", "cell_names", "state_from_dict", "state_to_dict"]


def cell_names(tb: P.Tables, b: int, n: int) -> list[str]:
    """The names of the cells of ``b`` (lowest bit first)."""
    out = []
    st = tb.stride
    for i in bits(b):
        y, x = divmod(i, st)
        out.append(cell_name(x, n - 1 - y))
    return out


def cell_mask(tb: P.Tables, names: list[Any], n: int) -> int:
    """The cells named in ``names`` as a bit set; a bad or repeated name is a :class:`StateFormatError`."""
    out = 0
    for name in names:
        try:
            col, row = parse_cell(str(name), n)
        except ValueError as e:
            raise StateFormatError(str(e)) from None
        bit = 1 << ((n - 1 - row) * tb.stride + col)
        if out & bit:
            raise StateFormatError(f"cell {name} is listed twice")
        out |= bit
    return out


def state_to_dict(state: FormaState) -> dict[str, Any]:
    """The state as JSON data: cells by name, stocks by piece name."""
    tb = P.tables(state.size)
    n = state.size
    return {
        "game": "forma",
        "config": state.config.to_dict(),
        "setup": format_setup(state),
        "players": [
            {
                "pieces": cell_names(tb, state.pieces[i], n),
                "markers": cell_names(tb, state.markers[i], n),
                "stock": {P.PIECE_NAMES[p]: c for p, c in enumerate(state.stock[i]) if c},
                "score": state.scores[i],
                "bridges": state.bridges[i],
            }
            for i in range(state.config.players)
        ],
        "closed": cell_names(tb, state.closed, n),
        "turn": state.turn,
        "picked": P.PIECE_NAMES[state.picked] if state.picked >= 0 else None,
        "misses": state.misses,
        "moves": state.moves,
        "last": cell_names(tb, state.last, n),
        "exact": state.exact,
    }


def state_from_dict(spec: GameSpec, data: Mapping[str, Any]) -> FormaState:
    """The state back from :func:`state_to_dict`'s data; anything inconsistent is a StateFormatError."""
    if require(data, "game") != "forma":
        raise StateFormatError("this is not a Forma state")
    cfg = require(data, "config")
    try:
        config = spec.config(require(cfg, "options"), require_int(cfg, "players", 2, 4))
        n = config.int("size")
        tower_xy, obstacle_xy = parse_setup(str(require(data, "setup")), n)
    except ConfigError as e:
        raise StateFormatError(str(e)) from None
    tb = P.tables(n)
    st = tb.stride
    tower = 1 << (tower_xy[1] * st + tower_xy[0])
    obstacles = sum(1 << (y * st + x) for x, y in obstacle_xy)
    players = require_list(data, "players", config.players)
    filled = obstacles | tower
    pieces, markers, stocks, scores, bridges = [], [], [], [], []
    mult = 2 if config.players == 2 else 1
    for i, pd in enumerate(players):
        pc = cell_mask(tb, require_list(pd, "pieces"), n)
        mk = cell_mask(tb, require_list(pd, "markers"), n)
        for part in (pc, mk):
            if part & filled:
                raise StateFormatError(f"player {i + 1}'s cells overlap other pieces, markers or obstacles")
            filled |= part
        stock_d = require(pd, "stock")
        if not isinstance(stock_d, Mapping):
            raise StateFormatError("field 'stock' must map piece names to counts")
        counts = [0] * P.NUM_PIECES
        for name, c in stock_d.items():
            p = P.piece_index(str(name))
            if p < 0 or isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= P.START_COUNTS[p] * mult:
                raise StateFormatError(f"bad stock entry {name!r}: {c!r}")
            counts[p] = c
        pieces.append(pc)
        markers.append(mk)
        stocks.append(tuple(counts))
        scores.append(require_int(pd, "score", 0))
        bridges.append(require_int(pd, "bridges", 0))
    closed = cell_mask(tb, require_list(data, "closed"), n)
    if closed & ~(obstacles | tower):
        raise StateFormatError("field 'closed' may list only obstacles and the tower")
    turn = require_int(data, "turn")
    if turn != TERMINAL and not 0 <= turn < config.players:
        raise StateFormatError(f"field 'turn' is out of range: {turn}")
    picked_name = require(data, "picked")
    picked = -1 if picked_name is None else P.piece_index(str(picked_name))
    if picked_name is not None and (picked < 0 or turn < 0 or not stocks[turn][picked]):
        raise StateFormatError(f"field 'picked' names no piece the player holds: {picked_name!r}")
    exact = require(data, "exact")
    if not isinstance(exact, bool):
        raise StateFormatError("field 'exact' must be true or false")
    return FormaState(
        config,
        n,
        obstacles,
        tower,
        tuple(pieces),
        tuple(markers),
        filled,
        tuple(stocks),
        tuple(scores),
        tuple(bridges),
        closed,
        neighbours(tb, (obstacles | tower) & ~closed),
        turn,
        picked,
        require_int(data, "misses", 0, 1),
        require_int(data, "moves", 0),
        cell_mask(tb, require_list(data, "last"), n),
        exact,
        tuple(avail_orients(st_) for st_ in stocks),
    )
