"""FORMFINITY's players: ``hard``/``medium``, a one-turn lookahead over determinised card samples, and
``expert``, ``hard`` with a learned value at its horizons (:mod:`._value`); their evaluation (:mod:`._eval`,
one heuristic per goal) and the lines goal's fast greedy (:mod:`._greedy`)."""

from .._registry import learned_player
from ._eval import evaluate, goal_value
from ._evaluator import FormfinityEvaluator
from ._fast import WIN_TABLE, claimable_holes, fast_greedy_place, line_potential, lines_win_value
from ._greedy import claim_starts, greedy_place, greedy_run, line_rooms, near_lines
from ._player import MAX_SCALE, MEDIUM, FormfinityConfig, FormfinityLookahead, fits, leaf_value
from ._player import PLAYERS as _PLAYERS

expert = learned_player(__name__)
"""``expert``: ``hard`` with the learned value (:mod:`._value`), offered to tables only with shipped weights."""

__all__ = [
    "EVALUATOR",
    "MAX_SCALE",
    "MEDIUM",
    "PLAYERS",
    "WIN_TABLE",
    "FormfinityConfig",
    "FormfinityEvaluator",
    "FormfinityLookahead",
    "claim_starts",
    "claimable_holes",
    "evaluate",
    "fast_greedy_place",
    "fits",
    "goal_value",
    "greedy_place",
    "greedy_run",
    "leaf_value",
    "line_potential",
    "line_rooms",
    "lines_win_value",
    "near_lines",
]

PLAYERS = {**_PLAYERS, "expert": expert}
"""FORMFINITY's own players by name (``expert``: :mod:`._value`, learnt by ``polytable train formfinity``)."""

EVALUATOR = FormfinityEvaluator()
"""This game's evaluator (``polytable.ai.evaluator`` finds it)."""
