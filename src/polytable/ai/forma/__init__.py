"""Forma's players: the pruned ``greedy``, the two-ply lookahead of ``medium``/``hard`` and ``expert``
(``hard`` with a learned value, :mod:`._value`); and their
evaluation (:mod:`._eval`, compiled in ``_cforma_eval.c`` beside the compiled kernel)."""

from importlib import resources

from ._bridge import frontier
from ._eval import ENGINE_WEIGHTS, Weights, compiled_eval, place_value
from ._evaluator import FormaEvaluator
from ._expert import expert
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

SHIPPED_WEIGHTS = resources.files(__name__) / "value.npz"
PLAYERS = {**_PLAYERS, **({"expert": expert} if SHIPPED_WEIGHTS.is_file() else {})}
"""Forma's own players by name. ``expert`` (:mod:`._value`, learnt by ``polytable train forma``) is offered
only with weights shipped in the package (none are yet: see docs/ai-training.md), so no table lists a
level that cannot play; importing :mod:`._value` registers it for runs' weights (``expert:weights=FILE``:
the training loop's gate, the arena through ``polytable.ai.forma._value``)."""

EVALUATOR = FormaEvaluator()
"""This game's evaluator (``polytable.ai.evaluator`` finds it)."""
