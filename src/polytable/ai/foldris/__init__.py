"""Foldris' players: an expectimax over the public make-up of the cards left (``hard``, ``medium``).

:mod:`._player` holds the players and their config, :mod:`._search` the evaluation on raw sheets,
:mod:`._exact` the solo end of the deck, :mod:`._cap` the multiplayer line cap and :mod:`._clean` the
perfect-game terms.
"""

from ._cap import NO_CAP, line_cap, reach
from ._clean import CleanSurvival, clean_drops, clean_shape
from ._exact import last_lines, pair_lines
from ._player import EXTRA, MEDIUM, MULTI, PLAYERS, FoldrisConfig, FoldrisExpectimaxBot, flawless
from ._search import DEAD, END

__all__ = [
    "DEAD",
    "END",
    "EXTRA",
    "MEDIUM",
    "MULTI",
    "NO_CAP",
    "PLAYERS",
    "CleanSurvival",
    "FoldrisConfig",
    "FoldrisExpectimaxBot",
    "clean_drops",
    "clean_shape",
    "flawless",
    "last_lines",
    "line_cap",
    "pair_lines",
    "reach",
]
