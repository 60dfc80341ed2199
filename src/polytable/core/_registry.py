"""The registry of games: one place that maps a game id to its rules object.

A game registers itself (``register(GAME)``) when its package is imported. The kernel never imports a
game: on first use it discovers them by name, every subpackage of ``polytable.games`` (so a built-in game
is one new package there) and every module named by a ``polytable.games`` entry point (a game installed
as its own distribution). An unknown id triggers one more look before the error, so a game installed
while the process runs is found too.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

from ._discover import discover
from ._errors import ConfigError
from ._protocol import Game

__all__ = ["BUILTIN_GAMES", "ENTRY_POINT_GROUP", "all_games", "game_ids", "get_game", "register"]

BUILTIN_GAMES = "polytable.games"  # the package whose subpackages are the built-in games
ENTRY_POINT_GROUP = "polytable.games"  # entry points naming the module of an installed game

_GAMES: dict[str, Game[Any, Any]] = {}
_ON: dict[tuple[str, str], Game[Any, Any]] = {}  # (id, "pure" or "compiled") -> that game object
_loaded: set[str] = set()


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    """Add a game instance to the registry (its ``spec.id`` must be new)."""
    gid = game.spec.id
    if gid in _GAMES and type(_GAMES[gid]) is not type(game):
        raise ValueError(f"a different game is already registered as {gid!r}")
    _GAMES[gid] = game
    return game


def _load(again: bool = False) -> None:
    """Import the built-in games once, and the entry-point games not imported yet."""
    if BUILTIN_GAMES not in _loaded:
        _loaded.add(BUILTIN_GAMES)
        discover(BUILTIN_GAMES)
    elif not again:
        return
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.value not in _loaded:
            _loaded.add(ep.value)
            ep.load()


def get_game(game_id: str, engine: str = "auto") -> Game[Any, Any]:
    """The game registered under ``game_id`` (case-insensitive; ``_`` and ``-`` are the same), on
    ``engine``: "auto" is the registered object (its kernel when built, unless ``POLYTABLE_PURE``),
    "pure" the Python rules, "compiled" the compiled kernel (a ``ValueError`` when there is none)."""
    key = game_id.strip().lower().replace("_", "-")
    if key not in _GAMES:
        _load(again=True)
    if key in _GAMES:
        game = _GAMES[key]
        if engine == "auto" or engine == game.engine:
            return game
        if (key, engine) not in _ON:
            _ON[key, engine] = game.with_engine(engine)
        return _ON[key, engine]
    known = ", ".join(sorted(_GAMES)) or "none"
    raise ConfigError(
        f"unknown game {game_id!r} (games: {known})",
        "game.unknown",
        {"game_id": f"{game_id!r}", "known": known},
    )


def game_ids() -> list[str]:
    """The ids of every known game, sorted."""
    _load()
    return sorted(_GAMES)


def all_games() -> list[Game[Any, Any]]:
    """Every known game, sorted by id."""
    _load()
    return [_GAMES[k] for k in sorted(_GAMES)]
