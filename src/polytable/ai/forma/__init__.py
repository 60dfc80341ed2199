"""Forma's players: the pruned ``greedy``, the two-ply lookahead of ``medium``/``hard`` and ``expert``
(``hard`` with a learned value, :mod:`._value`); and their
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

expert = learned_player(__name__)
"""``expert``: ``hard`` with the learned value (:mod:`._value`), offered to tables only with shipped weights."""

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
PLAYERS = {**_PLAYERS, "expert": expert}
"""Forma's own players by name. ``expert`` (:mod:`._value`, learnt by ``polytable train forma``) is offered
to tables only with weights shipped in the package (none are yet: see docs/ai-training.md; ``bot_names(...,
offered=True)``), so no table lists a level that cannot play; ``expert:weights=FILE`` plays a run's weights."""

EVALUATOR = FormaEvaluator()
"""This game's evaluator (``polytable.ai.evaluator`` finds it)."""
