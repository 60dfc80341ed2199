"""AI players: generic bots over the protocol (``random``, ``greedy``) and a registry of named bots.

Game-specific bots live in modules named ``bots_<game>.py`` in this package; they are found automatically.
"""

from ._bots import Bot, GreedyBot, RandomBot, bot_names, make_bot, register_bot

__all__ = ["Bot", "GreedyBot", "RandomBot", "bot_names", "make_bot", "register_bot"]
