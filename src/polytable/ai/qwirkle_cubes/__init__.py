"""Qwirkle Cubes' players: ``greedy`` (and ``greedy-keep``, ``greedy-points``), and the sampling search of
``medium``/``hard``."""

from ._evaluator import QwirkleEvaluator
from ._player import PLAYERS, QwirkleConfig, QwirkleGreedy, QwirkleSearch
from ._reroll import RollTable, reachable_placements

__all__ = [
    "EVALUATOR",
    "PLAYERS",
    "QwirkleConfig",
    "QwirkleEvaluator",
    "QwirkleGreedy",
    "QwirkleSearch",
    "RollTable",
    "reachable_placements",
]

EVALUATOR = QwirkleEvaluator()
"""This game's evaluator (``polytable.ai.evaluator`` finds it)."""
