"""Forma's players: the pruned ``greedy`` and the two-ply lookahead of ``medium``/``hard``."""

from ._bridge import frontier
from ._evaluator import FormaEvaluator
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
    "EVALUATOR",
    "HARD",
    "HOT_CAP",
    "MEDIUM",
    "PLAYERS",
    "RANDOM_CANDIDATES",
    "FormaConfig",
    "FormaEvaluator",
    "FormaGreedy",
    "FormaLookahead",
    "best_bonus",
    "bridge_threat",
    "candidates",
    "frontier",
]

EVALUATOR = FormaEvaluator()
"""This game's evaluator (``polytable.ai.evaluator`` finds it)."""
