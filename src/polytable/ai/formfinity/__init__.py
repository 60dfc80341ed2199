"""FORMFINITY's players: ``hard``/``medium``, a one-turn lookahead over determinised card samples."""

from ._evaluator import FormfinityEvaluator
from ._fast import WIN_TABLE, claimable_holes, fast_greedy_place, line_potential, lines_win_value
from ._player import MAX_SCALE, MEDIUM, PLAYERS, FormfinityConfig, FormfinityLookahead, fits, leaf_value

__all__ = [
    "EVALUATOR",
    "MAX_SCALE",
    "MEDIUM",
    "PLAYERS",
    "WIN_TABLE",
    "FormfinityConfig",
    "FormfinityEvaluator",
    "FormfinityLookahead",
    "claimable_holes",
    "fast_greedy_place",
    "fits",
    "leaf_value",
    "line_potential",
    "lines_win_value",
]

EVALUATOR = FormfinityEvaluator()
"""This game's evaluator (``polytable.ai.evaluator`` finds it)."""
