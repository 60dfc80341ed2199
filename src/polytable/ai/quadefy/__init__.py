"""Quadefy's players: the mobility ``greedy`` with endgame checks, the exact ``solver``, and ``hard``; the
exact searches (:mod:`._solver`: a position's endgame; :mod:`._fullsolve`: the whole game from the empty
cube); and the compiled solver (``load_native`` and ``native_unavailable`` say whether it is built;
``solve_game_native`` runs the whole-game search on it) for the CLI and the benchmarks."""

from .._native import load as load_native
from .._native import unavailable_reason as native_unavailable
from .._registry import learned_player
from ._evaluator import QuadefyEvaluator
from ._fullnative import solve_game_native
from ._fullsolve import PERSIST_PLIES, FullSolver, RootMove, SolveReport, checkpoint_line, parse_checkpoint, solve_game
from ._player import PLAYERS as _PLAYERS
from ._player import QuadefyConfig, QuadefyGreedyBot, QuadefyHardBot, QuadefySolverBot, greedy_choice
from ._solver import SolveResult, solve_position

expert = learned_player(__name__)
"""``expert``: ``hard`` with its exact search's time moved to the plies where games are decided
(``EXPERT_SHARES`` in :mod:`._value`; ``weights=FILE`` adds a learned value), offered to tables only with
shipped weights."""

__all__ = [
    "EVALUATOR",
    "PERSIST_PLIES",
    "PLAYERS",
    "FullSolver",
    "QuadefyConfig",
    "QuadefyEvaluator",
    "QuadefyGreedyBot",
    "QuadefyHardBot",
    "QuadefySolverBot",
    "RootMove",
    "SolveReport",
    "SolveResult",
    "checkpoint_line",
    "greedy_choice",
    "load_native",
    "native_unavailable",
    "parse_checkpoint",
    "solve_game",
    "solve_game_native",
    "solve_position",
]

PLAYERS = {**_PLAYERS, "expert": expert}
"""Quadefy's own players by name (``expert``: :mod:`._value`, learnt by ``polytable train quadefy``)."""

EVALUATOR = QuadefyEvaluator()
"""This game's evaluator (``polytable.ai.evaluator`` finds it)."""
