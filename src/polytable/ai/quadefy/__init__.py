"""Quadefy's players: the mobility ``greedy`` with endgame checks, the exact ``solver``, and ``hard``."""

from ._player import PLAYERS, QuadefyConfig, QuadefyGreedyBot, QuadefyHardBot, QuadefySolverBot, greedy_choice

__all__ = ["PLAYERS", "QuadefyConfig", "QuadefyGreedyBot", "QuadefyHardBot", "QuadefySolverBot", "greedy_choice"]
