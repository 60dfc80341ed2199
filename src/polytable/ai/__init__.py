"""AI players: the generic ones over the protocol, one subpackage per game for that game's own, and a
registry by name.

Generic: ``random``, ``greedy`` (one ply on ``Evaluator.action_value``), ``easy`` (greedy with noise), the MCTS
behind ``medium``/``hard``/``mcts``, the arena and the budget clock. Per game (``foldris``, ``forma``,
``formfinity``, ``quadefy``, ``qwirkle_cubes``): its players and search parts, with a typed config each,
listed in that subpackage's ``PLAYERS`` table and found through :data:`GAME_PLAYERS`.
"""

from ._arena import arena, elo_ratings, wilson
from ._bots import Bot, GreedyBot, NoisyGreedyBot, RandomBot
from ._evaluator import Evaluator, ScoreEvaluator, evaluator
from ._mcts import MCTSBot, MCTSConfig
from ._registry import GAME_PLAYERS, bot_names, make_bot, register_bot

__all__ = [
    "GAME_PLAYERS",
    "Bot",
    "Evaluator",
    "GreedyBot",
    "MCTSBot",
    "MCTSConfig",
    "NoisyGreedyBot",
    "RandomBot",
    "ScoreEvaluator",
    "arena",
    "bot_names",
    "elo_ratings",
    "evaluator",
    "make_bot",
    "register_bot",
    "wilson",
]
