"""What a move would do, asked before it is made: the dedicated boards' score preview and piece tables.

Why on the server: the boards hold no rules. A preview applies the candidate action to the room's current
state (states are immutable, so nothing of the room changes) through the engine and answers with the
scores before and after and the asking seat's own view of the result, so a board can show the points a
placement would earn (cells, enclosures, tower, bridges) and the cells it would cover before the player
confirms. Only a seat the connection holds may ask, and only its own view comes back, so a preview
reveals nothing that seat could not see by playing the move; chance after the move is never resolved.

The piece tables (``GET /api/boards/{game}``) describe every orientation of every piece by the cells it
covers relative to the cell the notation names, found by placing each piece once on an empty board through
the engine, so the tables and the notation can never disagree.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from ..core import PolytableError, get_game
from ..match import engine_reason

if TYPE_CHECKING:
    from ._rooms import Room

__all__ = ["board_data", "preview", "puzzle_answer", "puzzle_check"]


def preview(room: Room, seat: int, text: str) -> dict[str, Any]:
    """The outcome of ``text`` played by ``seat`` now: ``ok``, a ``message`` and its ``reason`` if illegal,
    the scores before and after, ``delta`` (the seat's gain) and the seat's ``view`` after the move."""
    game, state = room.game, room.match.state
    out: dict[str, Any] = {"action": text, "version": room.version, "ok": False}
    if room.is_over():
        out["message"] = "the game is over"
        out["reason"] = "game_over"
        return out
    if seat not in room.match.acting_players():
        out["message"] = "it is not your turn"
        out["reason"] = "not_your_turn"
        return out
    try:
        action = game.parse_action(text, state)
        after = game.apply(state, action, seat)
    except PolytableError as exc:  # IllegalActionError included: shown by its code (error.engine.<code>)
        out["message"] = str(exc)
        out.update(engine_reason(exc))
        return out
    before_scores = [float(x) for x in game.scores(state)]
    after_scores = [float(x) for x in game.scores(after)]
    out.update(
        ok=True,
        action=game.format_action(action, state),
        scores_before=before_scores,
        scores_after=after_scores,
        delta=after_scores[seat] - before_scores[seat],
        view=game.view(after, seat),
    )
    return out


_CELL = re.compile(r"^([a-z])(\d{1,2})$")


def _xy(name: str) -> tuple[int, int]:
    m = _CELL.match(name)
    if not m:
        raise ValueError(name)
    return ord(m.group(1)) - 97, int(m.group(2)) - 1


@functools.cache
def board_data(game_id: str) -> dict[str, Any] | None:
    """Static tables a dedicated board needs (piece orientations), or None for games without any."""
    if game_id == "forma":
        return _forma()
    if game_id == "quadefy":
        return _quadefy()
    return None


def _forma() -> dict[str, Any]:
    game = get_game("forma")
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


def _quadefy() -> dict[str, Any]:
    from ..games.quadefy import PATTERN_NOTES, PATTERNS

    game = get_game("quadefy")
    state = game.new_game({"reachability": False, "stability": False}, 0, 2)
    blocks = []
    for name in game.view(state, 0)["in_hand"][0]:
        orients = []
        for r in range(24):
            try:
                cells = _qcells(game, state, f"{name} r{r} @ a1.1")
            except PolytableError:
                break
            orients.append(cells)
        blocks.append({"name": name, "orients": orients})
    patterns = [
        {"name": k, "note": PATTERN_NOTES.get(k, ""), "dark": [i for i in range(64) if v >> i & 1]}
        for k, v in PATTERNS.items()
    ]
    return {"blocks": blocks, "patterns": patterns}


def _qcells(game: Any, state: Any, text: str) -> list[list[int]]:
    """Cells (x, y, z) a Quadefy placement covers, from the view of the state after it (index x+4y+16z)."""
    after = game.apply(state, game.parse_action(text, state))
    return [[i % 4, i // 4 % 4, i // 16] for i, c in enumerate(game.view(after, 0)["cells"]) if c is not None]


def puzzle_answer(pattern: str) -> dict[str, Any]:
    """The Quadefy bonus puzzle solver's answer for a pattern (a name or pattern text): per cell its colour
    (0 dark, 1 light) and block, or the colour that has no tiling. Raises PolytableError on a bad pattern."""
    from ..games.quadefy import BLOCKS, PLACEMENTS, parse_pattern, solve_pattern

    dark = parse_pattern(pattern)
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
    """Every Quadefy placement by (block name, mask of its cells)."""
    from ..games.quadefy import BLOCKS, PLACEMENTS

    return {(BLOCKS[p.block], p.mask): p.id for p in PLACEMENTS}


def puzzle_check(pattern: object, blocks: object) -> dict[str, Any]:
    """The engine's verdict on a bonus puzzle built by hand: ``{"valid", "reasons", "problems"}``.

    Why on the server: the page checks each block as it goes, but only the rules code may say "solved".
    ``blocks`` is a list of ``{"colour": 0 | 1, "block": name, "cells": [cell index x+4y+16z, ...]}``; each
    must be a real placement of its block, and the whole is judged by the package's
    :func:`~polytable.games.quadefy._puzzle.verify_solution` (every cell covered once by its own colour,
    each block of each colour used once). ``reasons`` are English sentences, ``problems`` the same as a
    ``reason`` and its parameters for the page's translations. Raises PolytableError on a bad pattern,
    ValueError on bad input."""
    from ..games.quadefy import parse_pattern, verify_solution

    if not isinstance(pattern, str) or not pattern or len(pattern) > 1000:
        raise ValueError("give a pattern: a name or 64 cells of X and . (at most 1000 characters)")
    if not isinstance(blocks, list) or len(blocks) > 16:
        raise ValueError("blocks must be a list of at most 16 placed blocks")
    dark = parse_pattern(pattern)
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
            raise ValueError("each block is {colour: 0 or 1, block: a name, cells: cell numbers 0-63}")
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
