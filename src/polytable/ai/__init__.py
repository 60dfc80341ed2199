"""AI players: generic bots over the protocol (``random``, ``greedy``) and a registry of named bots.

Game-specific bots live in modules named ``bots_<game>.py`` in this package; they are found automatically.
"""

from ._arena import arena, elo_ratings, wilson
from ._bots import Bot, GreedyBot, NoisyGreedyBot, RandomBot, bot_names, make_bot, register_bot
from ._mcts import MCTSBot, MCTSConfig

__all__ = [
    "Bot",
    "GreedyBot",
    "MCTSBot",
    "MCTSConfig",
    "NoisyGreedyBot",
    "RandomBot",
    "arena",
    "bot_names",
    "elo_ratings",
    "make_bot",
    "register_bot",
    "wilson",
]
