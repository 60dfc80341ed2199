"""Quadefy's players: the mobility ``greedy`` with endgame checks, the exact ``solver``, and ``hard``; and the
compiled solver (``load_native`` and ``native_unavailable`` say whether it is built; ``solve_game_native``
runs the whole-game search on it) for the CLI and the benchmarks."""

from .._native import load as load_native
from .._native import unavailable_reason as native_unavailable
from .._native.quadefy_full import solve_game_native
from ._evaluator import QuadefyEvaluator
from ._expert import expert
from ._player import PLAYERS as _PLAYERS
from ._player import QuadefyConfig, QuadefyGreedyBot, QuadefyHardBot, QuadefySolverBot, greedy_choice

__all__ = [
    "EVALUATOR",
    "PLAYERS",
    "QuadefyConfig",
    "QuadefyEvaluator",
    "QuadefyGreedyBot",
    "QuadefyHardBot",
    "QuadefySolverBot",
    "greedy_choice",
    "load_native",
    "native_unavailable",
    "solve_game_native",
]

PLAYERS = {**_PLAYERS, "expert": expert}
"""Quadefy's own players by name (``expert``: :mod:`._value`, learnt by ``polytable train quadefy``)."""

EVALUATOR = QuadefyEvaluator()
"""This game's evaluator (``polytable.ai.evaluator`` finds it)."""
