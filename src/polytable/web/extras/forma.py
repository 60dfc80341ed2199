"""Forma's web extras: the piece tables of its dedicated board, and what its scoring parts are worth.

Every orientation of every piece as the cells it covers relative to the cell the notation names, found by
placing each piece once on an empty board through the engine, so the tables and the notation can never
disagree. The points of an enclosed cell and of a bridge (the board explains a previewed placement's
points part by part) are found the same way: by playing a placement that encloses one cell, and pieces
that build one bridge, and reading the scores.
"""

from __future__ import annotations

import re
from typing import Any

from ...core import PolytableError
from ...games.forma import GAME
from . import Extras

__all__ = ["EXTRAS", "board_tables"]

_CELL = re.compile(r"^([a-z])(\d{1,2})$")


def _xy(name: str) -> tuple[int, int]:
    m = _CELL.match(name)
    if not m:
        raise ValueError(name)
    return ord(m.group(1)) - 97, int(m.group(2)) - 1


def board_tables() -> dict[str, Any]:
    """``{"pieces": [{"name", "orients": [{"text", "cells"}], "of_k"}]}``: ``of_k`` maps each of the 8
    rotation/flip codes to its distinct orientation."""
    game = GAME
    state = game.new_game({"setup": "tower r17", "obstacles": 0, "touch_move": False}, 0, 2)
    names = list(game.view(state, 0)["players"][0]["stock"])
    ax, ay = _xy("j10")
    pieces = []
    for name in names:
        seen: dict[str, list[list[int]]] = {}
        of_k: list[int] = []
        for k in range(8):
            text = f"{name} r{k % 4}{'f' if k >= 4 else ''} @ j10"
            action = game.parse_action(text, state)
            canon = game.format_action(action, state).split(" @ ")[0].split(" ", 1)[1]
            if canon not in seen:
                cells = game.view(game.apply(state, action, 0), 0)["players"][0]["pieces"]
                seen[canon] = [[x - ax, y - ay] for x, y in map(_xy, cells)]
            of_k.append(list(seen).index(canon))
        orients = [{"text": t, "cells": c} for t, c in seen.items()]
        pieces.append({"name": name, "orients": orients, "of_k": of_k})
    return {"pieces": pieces, "points": points(state)}


def _mine(state: Any) -> tuple[int, int, int, float]:
    """Player 1's cells, enclosed cells (markers), bridges and score."""
    me = GAME.view(state, 0)["players"][0]
    return len(me["pieces"]), len(me["markers"]), int(me["bridges"]), float(GAME.scores(state)[0])


def _play(state: Any, text: str, player: int) -> Any:
    return GAME.apply(state, GAME.parse_action(text, state), player)


def _worth(before: Any, after: Any, enclosure: float = 0.0) -> float:
    """What the placement from ``before`` to ``after`` scored beyond its cells and enclosed cells."""
    (cells, marks, _, score), (cells2, marks2, _, score2) = _mine(before), _mine(after)
    return score2 - score - (cells2 - cells) - enclosure * (marks2 - marks)


def points(state: Any) -> dict[str, float]:
    """``{"enclosure", "bridge"}``: the points of one enclosed cell and of one bridge, played on ``state``
    (an empty board, no touch-move): a V3 in the corner encloses a1; straight pieces fill column a (the
    other player places single cells in the middle) until it bridges the board."""
    enclosure = None
    for k in range(4):
        for cell in ("a1", "a2", "b1", "b2"):
            try:
                after = _play(state, f"V3 r{k} @ {cell}", 0)
            except PolytableError:
                continue
            if _mine(after)[1] == 1 and _mine(after)[2] == 0:
                enclosure = _worth(state, after)
                break
        if enclosure is not None:
            break
    assert enclosure is not None, "no V3 in the corner enclosed a1"
    others = iter(("1 r0 @ e5", "1 r0 @ g9", "1 r0 @ j3", "1 r0 @ m12", "2 r0 @ p5", "2 r0 @ e15"))
    size, top = state.config.int("size"), 0
    while top < size:
        for name, n in (("I5", 5), ("I4", 4), ("I3", 3), ("2", 2), ("1", 1)):
            after = _column_piece(state, name, n, top) if top + n <= size else None
            if after is not None:
                break
        assert after is not None, f"no straight piece fits column a from row {top + 1}"
        if _mine(after)[2] > _mine(state)[2]:
            return {"enclosure": enclosure, "bridge": _worth(state, after, enclosure)}
        state, top = _play(after, next(others), 1), top + n
    raise AssertionError("column a never bridged the board")


def _column_piece(state: Any, name: str, n: int, top: int) -> Any | None:
    """``state`` after player 1 places straight piece ``name`` (``n`` cells) in column a from row
    ``top + 1`` upwards, or None when it does not fit."""
    before = set(GAME.view(state, 0)["players"][0]["pieces"])
    for k in range(4):
        for anchor in (f"a{top + 1}", f"a{top + n}"):
            try:
                after = _play(state, f"{name} r{k} @ {anchor}", 0)
            except PolytableError:
                continue
            cells = set(GAME.view(after, 0)["players"][0]["pieces"]) - before
            if len(cells) == n and all(c[0] == "a" for c in cells):
                return after
    return None


EXTRAS = Extras(GAME.spec.id, board_data=board_tables)
