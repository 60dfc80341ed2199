"""Forma's state as JSON data (whole state, validated on load) and the per-player view.

Cells are named as people see them (``k7``); the set-up is the ``setup`` string of :mod:`._state`. The view
is the whole state (Forma hides nothing) less the generator of the set-up's random fill, plus the cells of
each bridge so a board can draw them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from polytable.core import CHANCE, TERMINAL, Config, ConfigError, StateFormatError, require, require_int, require_list
from polytable.geometry import bits

from . import _pieces as P
from ._bridges import bridge_paths
from ._rules import avail_orients, neighbours
from ._state import FormaState, cell_name, format_setup, parse_cell, parse_setup

__all__ = ["cell_names", "state_from_dict", "state_to_dict", "view"]


def state_to_dict(state: FormaState) -> dict[str, Any]:
    tb = P.tables(state.size)
    n = state.size
    return {
        "game": "forma",
        "config": state.config.to_dict(),
        "setup": format_setup(state),
        "placing": state.placing,
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
        "rng": state.rng,
    }


def state_from_dict(config_of: Any, data: Mapping[str, Any]) -> FormaState:
    """``config_of(options, players)``: the game's spec validation (it raises ConfigError). A view reads
    back too: without ``rng`` the generator is 0 (it matters only for a random fill still to come)."""
    if require(data, "game") != "forma":
        raise StateFormatError("this is not a Forma state", "forma.not_a_state")
    cfg = require(data, "config")
    placing = require_int(data, "placing", 0, 26)
    try:
        config: Config = config_of(require(cfg, "options"), require_int(cfg, "players", 2, 4))
        n = config.int("size")
        tower_xy, obstacle_xy = parse_setup(str(require(data, "setup")), n, partial=placing > 0)
    except ConfigError as e:
        raise StateFormatError.relay(e) from None
    tb = P.tables(n)
    st = tb.stride
    tower = 1 << (tower_xy[1] * st + tower_xy[0]) if tower_xy else 0
    obstacles = sum(1 << (y * st + x) for x, y in obstacle_xy)
    if placing and placing != _left_to_place(config, obstacles, tower):
        raise StateFormatError(
            f"field 'placing' says {placing} left to place, which does not match the set-up",
            "forma.state_placing",
            {"placing": placing},
        )
    players = require_list(data, "players", config.players)
    filled = obstacles | tower
    pieces, markers, stocks, scores, bridges = [], [], [], [], []
    mult = 2 if config.players == 2 else 1
    for i, pd in enumerate(players):
        pc = _mask(tb, require_list(pd, "pieces"), n)
        mk = _mask(tb, require_list(pd, "markers"), n)
        for part in (pc, mk):
            if part & filled:
                raise StateFormatError(
                    f"player {i + 1}'s cells overlap other pieces, markers or obstacles",
                    "forma.state_cells_overlap",
                    {"player": i + 1},
                )
            filled |= part
        stock_d = require(pd, "stock")
        if not isinstance(stock_d, Mapping):
            raise StateFormatError("field 'stock' must map piece names to counts", "forma.state_stock")
        counts = [0] * P.NUM_PIECES
        for name, c in stock_d.items():
            p = P.piece_index(str(name))
            if p < 0 or isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= P.START_COUNTS[p] * mult:
                raise StateFormatError(
                    f"bad stock entry {name!r}: {c!r}",
                    "forma.state_stock_entry",
                    {"name": f"{name!r}", "count": f"{c!r}"},
                )
            counts[p] = c
        pieces.append(pc)
        markers.append(mk)
        stocks.append(tuple(counts))
        scores.append(require_int(pd, "score", 0))
        bridges.append(require_int(pd, "bridges", 0))
    if placing and filled != obstacles | tower:
        raise StateFormatError(
            "pieces or markers are on the board before the set-up is finished", "forma.state_pieces_in_setup"
        )
    closed = _mask(tb, require_list(data, "closed"), n)
    if closed & ~(obstacles | tower):
        raise StateFormatError("field 'closed' may list only obstacles and the tower", "forma.state_closed")
    turn = require_int(data, "turn")
    if placing:
        if turn not in (0, CHANCE):
            raise StateFormatError(
                f"during the set-up the starting player or chance acts, not {turn}",
                "forma.state_setup_turn",
                {"turn": turn},
            )
    elif turn != TERMINAL and not 0 <= turn < config.players:
        raise StateFormatError(f"field 'turn' is out of range: {turn}", "forma.state_turn", {"turn": turn})
    picked_name = require(data, "picked")
    picked = -1 if picked_name is None else P.piece_index(str(picked_name))
    if picked_name is not None and (picked < 0 or turn < 0 or not stocks[turn][picked]):
        raise StateFormatError(
            f"field 'picked' names no piece the player holds: {picked_name!r}",
            "forma.state_picked",
            {"picked_name": f"{picked_name!r}"},
        )
    exact = require(data, "exact")
    if not isinstance(exact, bool):
        raise StateFormatError("field 'exact' must be true or false", "forma.state_exact")
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
        neighbours(tb, (obstacles | tower) & ~closed) if not placing else 0,
        turn,
        picked,
        require_int(data, "misses", 0, 1),
        require_int(data, "moves", 0),
        _mask(tb, require_list(data, "last"), n),
        exact,
        tuple(avail_orients(st_) for st_ in stocks),
        placing,
        require_int(data, "rng", 0, (1 << 64) - 1) if "rng" in data else 0,  # a view has none
    )


def _left_to_place(config: Config, obstacles: int, tower: int) -> int:
    return config.int("obstacles") - obstacles.bit_count() + (0 if tower else 1)


def view(state: FormaState, player: int | None) -> dict[str, Any]:
    """Forma has no hidden information: everyone sees the whole state, less the generator of the random
    fill (the future is nobody's to see).

    Each player also gets ``bridge_paths``: the cells of each bridge counted, in order from border to
    border, so a board can draw them (the state keeps only the count). During the set-up ``obstacles_left``
    and ``tower_placed`` say what is still to be placed."""
    out = state_to_dict(state)
    del out["rng"]
    out["current_player"] = state.turn
    if state.placing:
        out["obstacles_left"] = state.placing - (0 if state.tower else 1)
        out["tower_placed"] = bool(state.tower)
    n = state.size
    for i, pd in enumerate(out["players"]):
        own = state.pieces[i] | state.markers[i]
        pd["bridge_paths"] = [list(path) for path in _bridge_lines(own, n)] if state.bridges[i] else []
    return out


@functools.lru_cache(maxsize=64)
def _bridge_lines(own: int, n: int) -> tuple[tuple[str, ...], ...]:
    """The cells of each bridge of one colour (north-south ones first), by name; cached because every
    seat's view of one position asks for the same thing."""
    st = P.tables(n).stride
    cells = [(i % st, i // st) for i in bits(own)]
    ns, ew = bridge_paths(cells, n)
    return tuple(tuple(cell_name(x, n - 1 - y) for x, y in path) for path in (*ns, *ew))


def cell_names(tb: P.Tables, b: int, n: int) -> list[str]:
    """The names of the cells of a bitboard, in board order (top row first)."""
    st = tb.stride
    return [cell_name(i % st, n - 1 - i // st) for i in bits(b)]


def _mask(tb: P.Tables, names: list[Any], n: int) -> int:
    out = 0
    for name in names:
        try:
            col, row = parse_cell(str(name), n)
        except ValueError as e:
            raise StateFormatError.relay(e) from None
        bit = 1 << ((n - 1 - row) * tb.stride + col)
        if out & bit:
            raise StateFormatError(f"cell {name} is listed twice", "forma.state_cell_twice", {"name": name})
        out |= bit
    return out
