"""Qwirkle Cubes' players: ``greedy`` (and ``greedy-keep``, ``greedy-points``), and the sampling search of
``medium``/``hard``; their evaluation (:mod:`._eval`: a placement's points minus the Qwirkle chances it
hands on; :mod:`._values`: many placements at once, compiled in ``_cqwirkle_eval.c`` beside the compiled
kernel)."""

from .._registry import learned_player
from ._eval import QWIRKLE_VALUE, REROLL_HIT, action_value, best_placement, placement_value, threat, unused_mask
from ._evaluator import QwirkleEvaluator
from ._player import PLAYERS as _PLAYERS
from ._player import QwirkleConfig, QwirkleGreedy, QwirkleSearch
from ._reroll import RollTable, reachable_placements
from ._values import CompiledValues, QwirkleValues, values_of

expert = learned_player(__name__)
"""``expert``: ``hard`` with the learned value (:mod:`._value`), offered to tables only with shipped weights."""

__all__ = [
    "EVALUATOR",
    "PLAYERS",
    "QWIRKLE_VALUE",
    "REROLL_HIT",
    "CompiledValues",
    "QwirkleConfig",
    "QwirkleEvaluator",
    "QwirkleGreedy",
    "QwirkleSearch",
    "QwirkleValues",
    "RollTable",
    "action_value",
    "best_placement",
    "placement_value",
    "reachable_placements",
    "threat",
    "unused_mask",
    "values_of",
]

PLAYERS = {**_PLAYERS, "expert": expert}
"""Qwirkle Cubes' own players by name (``expert``: :mod:`._value`, learnt by ``polytable train qwirkle-cubes``)."""

EVALUATOR = QwirkleEvaluator()
"""This game's evaluator (``polytable.ai.evaluator`` finds it)."""
