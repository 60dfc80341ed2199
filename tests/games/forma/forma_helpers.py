"""Helpers for the Forma tests: build positions cell by cell, by name (``k7``: column letter, row from 1
at the bottom)."""

from __future__ import annotations

from polytable.games import forma as P
from polytable.games.forma import GAME, FormaState, bridge_total

__all__ = ["GAME", "bit", "bits_of", "names_of", "new", "put", "with_stock"]


def new(players: int = 4, setup: str = "tower p15", **options: object) -> FormaState:
    """A fresh game with an explicit set-up (default: only the tower, far from the test corners); without
    touch-move unless asked, so a constructed position takes placements directly."""
    return GAME.new_game({"setup": setup, "touch_move": False, **options}, seed=0, players=players)


def bit(state: FormaState, name: str) -> int:
    col = "abcdefghijklmnopqrst".index(name[0])
    row = int(name[1:]) - 1
    st = P.tables(state.size).stride
    return 1 << ((state.size - 1 - row) * st + col)


def bits_of(state: FormaState, names: str) -> int:
    out = 0
    for n in names.split():
        out |= bit(state, n)
    return out


def names_of(state: FormaState, b: int) -> set[str]:
    st = P.tables(state.size).stride
    out = set()
    while b:
        low = b & -b
        y, x = divmod(low.bit_length() - 1, st)
        out.add(f"{'abcdefghijklmnopqrst'[x]}{state.size - y}")
        b ^= low
    return out


def put(state: FormaState, player: int, names: str, markers: str = "", turn: int | None = None) -> FormaState:
    """Add cells to a player's pieces (and markers) without scoring, as if placed earlier; the player's
    bridge count is set to what those cells hold, so only a later move's new bridges score."""
    pc = bits_of(state, names)
    mk = bits_of(state, markers) if markers else 0
    assert not (pc | mk) & state.filled, "cells already taken"
    pieces = list(state.pieces)
    pieces[player] |= pc
    mks = list(state.markers)
    mks[player] |= mk
    bridges = list(state.bridges)
    tb = P.tables(state.size)
    bridges[player] = bridge_total(tb, pieces[player] | mks[player])[0]
    return state._replace(
        pieces=tuple(pieces),
        markers=tuple(mks),
        filled=state.filled | pc | mk,
        bridges=tuple(bridges),
        turn=state.turn if turn is None else turn,
    )


def with_stock(state: FormaState, player: int, counts: dict[str, int]) -> FormaState:
    """Give a player exactly these pieces (name -> count)."""
    stock = [0] * P.NUM_PIECES
    for name, c in counts.items():
        stock[P.piece_index(name)] = c
    stocks = list(state.stock)
    stocks[player] = tuple(stock)
    orients = list(state.orients)
    orients[player] = tuple(g for p, c in enumerate(stock) if c for g in P.PIECE_ORIENTS[p])
    return state._replace(stock=tuple(stocks), orients=tuple(orients))
