"""Qwirkle Cubes' players: ``greedy`` (and ``greedy-keep``, ``greedy-points``), and the sampling search of
``medium``/``hard``."""

from ._player import PLAYERS, QwirkleConfig, QwirkleGreedy, QwirkleSearch
from ._reroll import RollTable, reachable_placements

__all__ = [
    "PLAYERS",
    "QwirkleConfig",
    "QwirkleGreedy",
    "QwirkleSearch",
    "RollTable",
    "reachable_placements",
]
