"""The registry of games: one place that maps a game id to its rules object.

Games register themselves when ``polytable.games`` is imported, so adding a game is one module and one
line in ``polytable/games/__init__.py``; the CLI, the conformance suite and simulations find it here.
"""

from __future__ import annotations

from typing import Any

from ._errors import ConfigError
from ._protocol import Game

__all__ = ["all_games", "game_ids", "get_game", "register"]

_GAMES: dict[str, Game[Any, Any]] = {}


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    """Add a game instance to the registry (its ``spec.id`` must be new)."""
    gid = game.spec.id
    if gid in _GAMES and type(_GAMES[gid]) is not type(game):
        raise ValueError(f"a different game is already registered as {gid!r}")
    _GAMES[gid] = game
    return game


def _load() -> None:
    import polytable.games  # noqa: F401  (registers the built-in games)


def get_game(game_id: str) -> Game[Any, Any]:
    """The game registered under ``game_id`` (case-insensitive; ``_`` and ``-`` are the same)."""
    _load()
    key = game_id.strip().lower().replace("_", "-")
    if key in _GAMES:
        return _GAMES[key]
    known = ", ".join(sorted(_GAMES)) or "none"
    raise ConfigError(f"unknown game {game_id!r} (games: {known})")


def game_ids() -> list[str]:
    _load()
    return sorted(_GAMES)


def all_games() -> list[Game[Any, Any]]:
    _load()
    return [_GAMES[k] for k in sorted(_GAMES)]
