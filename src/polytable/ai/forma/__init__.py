"""Forma's players: the pruned ``greedy`` and the two-ply lookahead of ``medium``/``hard``."""

from ._bridge import frontier
from ._player import (
    HARD,
    HOT_CAP,
    MEDIUM,
    PLAYERS,
    RANDOM_CANDIDATES,
    FormaConfig,
    FormaGreedy,
    FormaLookahead,
    best_bonus,
    bridge_threat,
    candidates,
)

__all__ = [
    "HARD",
    "HOT_CAP",
    "MEDIUM",
    "PLAYERS",
    "RANDOM_CANDIDATES",
    "FormaConfig",
    "FormaGreedy",
    "FormaLookahead",
    "best_bonus",
    "bridge_threat",
    "candidates",
    "frontier",
]
