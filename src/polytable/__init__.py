"""polytable: a digital table for grid-and-block tabletop games.

The public API is small on purpose: the kernel protocol and registry live in :mod:`polytable.core`,
shared geometry in :mod:`polytable.geometry`, matches and records in :mod:`polytable.match`.
"""

from .core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    ConfigError,
    Game,
    GameSpec,
    IllegalActionError,
    Option,
    PolytableError,
    StateFormatError,
    game_ids,
    get_game,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "ConfigError",
    "Game",
    "GameSpec",
    "IllegalActionError",
    "Option",
    "PolytableError",
    "StateFormatError",
    "__version__",
    "game_ids",
    "get_game",
]
