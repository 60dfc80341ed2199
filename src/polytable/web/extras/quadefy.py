"""Quadefy's web extras: the block tables of its dedicated board and the bonus puzzle.

    ``GET /api/puzzle/quadefy?pattern=P``    the bonus puzzle solver's answer for a pattern
    ``POST /api/puzzle/quadefy/check``       the engine's verdict on a bonus puzzle built by hand

Why on the server: the page checks each block as it goes, but only the rules code may say "solved".
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...core import PolytableError
from ...games.quadefy import (
    BLOCKS,
    GAME,
    PATTERN_NOTES,
    PATTERNS,
    PLACEMENTS,
    parse_pattern,
    solve_pattern,
    verify_solution,
)
from .._base import RoomError
from .._http import engine_response, error_response, json_body, room_error_response
from . import Extras

if TYPE_CHECKING:
    from .._hub import Hub

__all__ = ["EXTRAS", "board_tables", "puzzle_answer", "puzzle_check"]


def board_tables() -> dict[str, Any]:
    """``{"blocks": [{"name", "orients": [cells]}], "patterns": [{"name", "note", "dark"}]}``: every
    orientation of every block as the cells (x, y, z) it covers from a1.1, found through the engine."""
    game = GAME
    state = game.new_game({"reachability": False, "stability": False}, 0, 2)
    blocks = []
    for name in game.view(state, 0)["in_hand"][0]:
        orients = []
        for r in range(24):
            try:
                cells = _cells(game, state, f"{name} r{r} @ a1.1")
            except PolytableError:
                break
            orients.append(cells)
        blocks.append({"name": name, "orients": orients})
    patterns = [
        {"name": k, "note": PATTERN_NOTES.get(k, ""), "dark": [i for i in range(64) if v >> i & 1]}
        for k, v in PATTERNS.items()
    ]
    return {"blocks": blocks, "patterns": patterns}


def _cells(game: Any, state: Any, text: str) -> list[list[int]]:
    """Cells (x, y, z) a placement covers, from the view of the state after it (index x+4y+16z)."""
    after = game.apply(state, game.parse_action(text, state))
    return [[i % 4, i // 4 % 4, i // 16] for i, c in enumerate(game.view(after, 0)["cells"]) if c is not None]


def _known_name(pattern: str) -> str:
    """The pattern, unless it is a word that names no pattern (RoomError ``no_pattern_name``): a word such as
    "spirals" is a misspelt name, not pattern text with a stray letter."""
    word = pattern.strip().lower()
    if re.fullmatch(r"[a-z][a-z_-]*", word) and word not in PATTERNS and not set(word) <= set("xdlo"):
        names = ", ".join(PATTERNS)
        raise RoomError(
            f"there is no pattern named {word[:30]!r} (patterns: {names})",
            reason="no_pattern_name",
            params={"name": word[:30], "patterns": names},
        )
    return pattern


def puzzle_answer(pattern: str) -> dict[str, Any]:
    """The bonus puzzle solver's answer for a pattern (a name or pattern text): per cell its colour (0 dark,
    1 light) and block, or the colour that has no tiling. Raises PolytableError on a bad pattern."""
    dark = parse_pattern(_known_name(pattern))
    result = solve_pattern(dark)
    cells: list[dict[str, Any] | None] = [None] * 64
    for colour, tiling in enumerate(result.tilings):
        for pid in tiling or []:
            p = PLACEMENTS[pid]
            for i in range(64):
                if p.mask >> i & 1:
                    cells[i] = {"owner": colour, "block": BLOCKS[p.block]}
    return {
        "dark": [i for i in range(64) if dark >> i & 1],
        "solved": result.solved,
        "unsolvable": [c for c, t in enumerate(result.tilings) if t is None],
        "cells": cells,
        "nodes": [s.nodes for s in result.stats],
    }


@functools.cache
def _placement_ids() -> dict[tuple[str, int], int]:
    """Every placement by (block name, mask of its cells)."""
    return {(BLOCKS[p.block], p.mask): p.id for p in PLACEMENTS}


def puzzle_check(pattern: object, blocks: object) -> dict[str, Any]:
    """The engine's verdict on a bonus puzzle built by hand: ``{"valid", "reasons", "problems"}``.

    ``blocks`` is a list of ``{"colour": 0 | 1, "block": name, "cells": [cell index x+4y+16z, ...]}``; each
    must be a real placement of its block, and the whole is judged by the game's ``verify_solution``
    (every cell covered once by its own colour, each block of each colour used once). ``reasons`` are
    English sentences, ``problems`` the same as a ``reason`` and its parameters for the page's
    translations. Raises PolytableError on a bad pattern, RoomError (with its reason) on bad input."""
    if not isinstance(pattern, str) or not pattern or len(pattern) > 1000:
        raise RoomError("give a pattern: a name or 64 cells of X and . (at most 1000 characters)", reason="no_pattern")
    if not isinstance(blocks, list) or len(blocks) > 16:
        raise RoomError("blocks must be a list of at most 16 placed blocks", reason="puzzle_blocks", params={"max": 16})
    dark = parse_pattern(_known_name(pattern))
    ids = _placement_ids()
    tilings: tuple[list[int], list[int]] = ([], [])
    labels: dict[int, dict[str, Any]] = {}
    problems: list[dict[str, Any]] = []
    for item in blocks:
        colour = item.get("colour") if isinstance(item, dict) else None
        name = item.get("block") if isinstance(item, dict) else None
        cells = item.get("cells") if isinstance(item, dict) else None
        if (
            colour not in (0, 1)
            or not isinstance(name, str)
            or not isinstance(cells, list)
            or len(cells) > 64
            or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 64 for c in cells)
        ):
            raise RoomError(
                "each block is {colour: 0 or 1, block: a name, cells: cell numbers 0-63}", reason="puzzle_block"
            )
        where = " ".join(f"{'abcd'[c % 4]}{c // 4 % 4 + 1}.{c // 16 + 1}" for c in sorted(set(cells)))
        about = {"colour": colour, "block": name[:4], "cells": where}
        pid = ids.get((name, sum(1 << c for c in set(cells))))
        if pid is None:
            problems.append({"reason": "shape", **about})
            continue
        labels[pid] = about
        tilings[int(colour)].append(pid)
    if not problems:
        problems = [_problem(text, labels) for text in verify_solution(dark, tilings)]
    return {"valid": not problems, "reasons": [_problem_text(p) for p in problems], "problems": problems}


def _problem(text: str, labels: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """One message of ``verify_solution`` as a reason and its parameters (for the translations)."""
    if m := re.match(r"colour (\d) does not use each block exactly once", text):
        return {"reason": "blocks", "colour": int(m.group(1))}
    if m := re.match(r"placement (\d+) (overlaps another|covers a cell of the other colour)", text):
        return {"reason": "overlap" if m.group(2).startswith("overlaps") else "colour", **labels[int(m.group(1))]}
    if m := re.match(r"(\d+) cells are not covered", text):
        return {"reason": "uncovered", "n": int(m.group(1))}
    return {"reason": "other", "text": text}


def _problem_text(p: dict[str, Any]) -> str:
    """The English sentence of a problem (the client shows its own translation of the reason)."""
    shade = "light" if p.get("colour") else "dark"
    return {
        "shape": lambda: f"the {shade} {p.get('block')} block cannot cover {p.get('cells')}",
        "blocks": lambda: f"the {shade} blocks are not each used exactly once",
        "overlap": lambda: f"the {shade} {p.get('block')} block at {p.get('cells')} overlaps another block",
        "colour": lambda: f"the {shade} {p.get('block')} block at {p.get('cells')} covers a square of the other colour",
        "uncovered": lambda: f"{p.get('n')} cells are not covered",
    }.get(str(p["reason"]), lambda: str(p.get("text")))()


def routes(hub: Hub) -> Sequence[BaseRoute]:
    """The puzzle's two routes; the solver runs on the hub's worker threads (it may search for a while)."""

    async def answer(request: Request) -> Response:
        pattern = request.query_params.get("pattern", "")
        if not pattern or len(pattern) > 1000:
            return error_response(
                "give a pattern: a name or 64 cells of X and . (at most 1000 characters)", 400, "no_pattern"
            )
        try:
            out = await asyncio.get_running_loop().run_in_executor(hub.ai_pool, puzzle_answer, pattern)
        except RoomError as exc:
            return room_error_response(exc, 400)
        except PolytableError as exc:
            return engine_response(exc)
        return JSONResponse(out)

    async def check(request: Request) -> Response:
        body = await json_body(request)
        if isinstance(body, Response):
            return body
        try:
            verdict = puzzle_check(body.get("pattern"), body.get("blocks"))
        except RoomError as exc:
            return room_error_response(exc, 400)
        except PolytableError as exc:
            return engine_response(exc)
        return JSONResponse(verdict)

    return [Route("/api/puzzle/quadefy", answer), Route("/api/puzzle/quadefy/check", check, methods=["POST"])]


EXTRAS = Extras(GAME.spec.id, routes=routes, board_data=board_tables)
