"""Forma's players: the pruned ``greedy`` and the two-ply lookahead of ``medium``/``hard``; and their
evaluation (:mod:`._eval`, compiled in ``_cforma_eval.c`` beside the compiled kernel)."""

from ._bridge import frontier
from ._eval import ENGINE_WEIGHTS, Weights, compiled_eval, place_value
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
    "ENGINE_WEIGHTS",
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
    "Weights",
    "best_bonus",
    "bridge_threat",
    "candidates",
    "compiled_eval",
    "frontier",
    "place_value",
]

EVALUATOR = FormaEvaluator()
"""This game's evaluator (``polytable.ai.evaluator`` finds it)."""
