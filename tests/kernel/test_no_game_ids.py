"""Generic code names no game: what differs between games comes from the game (its spec, its declared
companion) or from its web extras (``web/extras/<game>.py``), never from a branch on a game's id."""

from __future__ import annotations

import ast
import pathlib
import re

import polytable

SRC = pathlib.Path(polytable.__file__).parent
GAMES = sorted(p.name for p in (SRC / "games").iterdir() if (p / "__init__.py").is_file())
"""The built-in games' packages (``qwirkle_cubes``); their ids are the same words (``qwirkle-cubes``)."""
NAMES = re.compile(r"\b(" + "|".join(re.escape(w) for g in GAMES for w in {g, g.replace("_", "-")}) + r")\b")


def _generic_modules() -> list[pathlib.Path]:
    web = [p for p in (SRC / "web").rglob("*.py") if "extras" not in p.relative_to(SRC / "web").parts]
    return sorted(web + list((SRC / "match").rglob("*.py")))


def _prose(tree: ast.AST) -> set[int]:
    """The string nodes that are statements of their own: docstrings, which may name a game as an example."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }


def test_the_builtin_games_are_found() -> None:
    assert len(GAMES) >= 5, GAMES


def test_no_generic_web_or_match_module_holds_a_game_id() -> None:
    bad = []
    for path in _generic_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _prose(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                if m := NAMES.search(node.value):
                    bad.append(f"{path.relative_to(SRC)}:{node.lineno} names {m.group(1)!r}: {node.value[:60]!r}")
            elif isinstance(node, ast.ImportFrom) and node.module and NAMES.search(node.module.replace(".", " ")):
                bad.append(f"{path.relative_to(SRC)}:{node.lineno} imports {node.module}")
    why = "generic code must not branch on a game: declare it on the game or put it in web/extras/<game>.py\n"
    assert not bad, why + "\n".join(bad)


def test_the_companion_client_names_no_game() -> None:
    text = (SRC / "web" / "static" / "companion.js").read_text(encoding="utf-8")
    found = [f"line {text[: m.start()].count(chr(10)) + 1}: {m.group(1)}" for m in NAMES.finditer(text)]
    assert not found, "companion.js must take what differs between games from the server's message:\n" + "\n".join(
        found
    )
