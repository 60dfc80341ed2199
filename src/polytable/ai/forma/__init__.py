"""Forma's players: the pruned ``greedy``, the two-ply lookahead of ``medium``/``hard`` and ``expert``
(``hard`` with evaluation weights tuned by self-play, :mod:`._value`); and their
evaluation (:mod:`._eval`, compiled in ``_cforma_eval.c`` beside the compiled kernel)."""

from importlib import resources

from .._registry import learned_player
from ._bridge import frontier
from ._eval import ENGINE_WEIGHTS, Weights, compiled_eval, place_value
from ._evaluator import FormaEvaluator
from ._player import (
    HARD,
    HOT_CAP,
    MEDIUM,
    RANDOM_CANDIDATES,
    FormaConfig,
    FormaGreedy,
    FormaLookahead,
    best_bonus,
    bridge_threat,
    candidates,
)
from ._player import PLAYERS as _PLAYERS

expert = learned_player(__name__, shipped="weights.json")
"""``expert``: ``hard`` with evaluation weights tuned by self-play (:mod:`._value`), offered to tables with the
shipped ``weights.json``."""

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

SHIPPED_WEIGHTS = resources.files(__name__) / "weights.json"
PLAYERS = {**_PLAYERS, "expert": expert}
"""Forma's own players by name. ``expert`` (:mod:`._value`) is offered to tables only with its tuned weights
shipped in the package (``weights.json``; ``bot_names(..., offered=True)``); ``expert:tuned=FILE`` plays other
tuned weights and ``expert:weights=FILE`` a value network of ``polytable train forma`` (none shipped: see
docs/ai-training.md)."""

EVALUATOR = FormaEvaluator()
"""This game's evaluator (``polytable.ai.evaluator`` finds it)."""
