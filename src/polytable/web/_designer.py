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
from ..match import engine_reason

__all__ = ["MAX_VARIANT", "DesignError", "print_variant", "validate_variant"]

MAX_VARIANT = 16_000
"""Largest variant file accepted (a 40 x 40 template is about 3,300 characters)."""


class DesignError(ValueError):
    """A variant file the designer cannot even hand to the engine; ``reason`` names it for the translations."""

    def __init__(self, message: str, reason: str, params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: dict[str, object] = params or {}


def _check_text(text: object) -> str:
    if not isinstance(text, str) or not text.strip():
        raise DesignError("send the variant file as text", "variant_text")
    if len(text) > MAX_VARIANT:
        raise DesignError(
            f"the variant file is too long (at most {MAX_VARIANT} characters)", "variant_long", {"max": MAX_VARIANT}
        )
    if "[goal]" not in text:
        raise DesignError(
            "a variant file needs a [goal] table with a type: lines, areas, connection or numbers", "variant_goal"
        )
    return text


def validate_variant(text: object) -> dict[str, Any]:
    """``{"ok": True, "name", "players": [min, max], "width", "height", "render"}`` or ``{"ok": False,
    "message", "reason", "params"}``: a game is created from the file for its smallest player count."""
    try:
        body = _check_text(text)
        from ..games.formfinity import parse_variant_file

        rules = parse_variant_file(body)
        game = get_game("formfinity")
        state = game.new_game({"variant": "custom", "variant_file": body}, seed=0, players=rules.min_players)
        view = game.view(state, 0)
    except DesignError as exc:
        return {"ok": False, "message": str(exc), "reason": exc.reason, "params": exc.params}
    except (ValueError, PolytableError) as exc:
        return {"ok": False, "message": str(exc), **engine_reason(exc)}
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
