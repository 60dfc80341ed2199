"""FORMFINITY's "your game, your rules" in the browser: check a variant file and print it.

The designer page writes a variant file (the TOML format of docs/games/formfinity.md, with the template as
a multi-line string); the server checks it exactly as a game would use it, by creating a game from it
through the engine (``variant=custom``), so a design that validates here plays in a room and prints.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from ..core import PolytableError, get_game

__all__ = ["MAX_VARIANT", "print_variant", "validate_variant"]

MAX_VARIANT = 16_000
"""Largest variant file accepted (a 40 x 40 template is about 3,300 characters)."""


def _check_text(text: object) -> str:
    if not isinstance(text, str) or not text.strip():
        raise ValueError("send the variant file as text")
    if len(text) > MAX_VARIANT:
        raise ValueError(f"the variant file is too long (at most {MAX_VARIANT} characters)")
    if "[goal]" not in text:
        raise ValueError("a variant file needs a [goal] table with a type: lines, areas, connection or numbers")
    return text


def validate_variant(text: object) -> dict[str, Any]:
    """``{"ok": True, "name", "players": [min, max], "width", "height", "render"}`` or ``{"ok": False,
    "message"}``: a game is created from the file for its smallest player count."""
    try:
        body = _check_text(text)
        from ..games.formfinity import parse_variant_file

        rules = parse_variant_file(body)
        game = get_game("formfinity")
        state = game.new_game({"variant": "custom", "variant_file": body}, seed=0, players=rules.min_players)
        view = game.view(state, 0)
    except (ValueError, PolytableError) as exc:
        return {"ok": False, "message": str(exc)}
    return {
        "ok": True,
        "name": rules.name,
        "goal": rules.goal,
        "players": [rules.min_players, rules.max_players],
        "width": view.get("width"),
        "height": view.get("height"),
    }


def print_variant(text: object, paper: str) -> bytes:
    """The printable template of a variant file as PDF bytes (the printable of ``polytable print``)."""
    body = _check_text(text)
    from ..printables import printables

    fn = printables()["formfinity"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "out.pdf"
        fn(str(path), paper, {"variant": body})
        return path.read_bytes()
