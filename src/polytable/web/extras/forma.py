"""Forma's web extras: the piece tables of its dedicated board.

Every orientation of every piece as the cells it covers relative to the cell the notation names, found by
placing each piece once on an empty board through the engine, so the tables and the notation can never
disagree.
"""

from __future__ import annotations

import re
from typing import Any

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
    return {"pieces": pieces}


EXTRAS = Extras(GAME.spec.id, board_data=board_tables)
