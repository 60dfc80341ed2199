"""Foldris' players: an expectimax over the public make-up of the cards left (``hard``, ``medium``) and a
solo planner that plays sampled orders of the unseen cards out (``expert``).

:mod:`._player` holds the expectimax players and their config, :mod:`._search` the evaluation on raw
sheets, :mod:`._exact` the solo end of the deck, :mod:`._cap` the multiplayer line cap, :mod:`._clean` the
perfect-game terms and :mod:`._plan` the beam search over a card order (compiled in ``_cplan.c``), the
planner and the clairvoyant bound.
"""

from ._cap import NO_CAP, line_cap, reach
from ._clean import CleanSurvival, clean_drops, clean_shape
from ._evaluator import FoldrisEvaluator
from ._exact import last_lines, pair_lines
from ._plan import PLAYERS as _PLAN_PLAYERS
from ._plan import FoldrisPlanner, PlanConfig, beam_lines, clairvoyant_lines, deal_order, sample_orders
from ._player import EXTRA, MEDIUM, MULTI, FoldrisConfig, FoldrisExpectimaxBot, flawless
from ._player import PLAYERS as _SEARCH_PLAYERS
from ._search import DEAD, END

PLAYERS = {**_SEARCH_PLAYERS, **_PLAN_PLAYERS}
"""Foldris' own players by level name (the registry's table points here)."""

__all__ = [
    "DEAD",
    "END",
    "EVALUATOR",
    "EXTRA",
    "MEDIUM",
    "MULTI",
    "NO_CAP",
    "PLAYERS",
    "CleanSurvival",
    "FoldrisConfig",
    "FoldrisEvaluator",
    "FoldrisExpectimaxBot",
    "FoldrisPlanner",
    "PlanConfig",
    "beam_lines",
    "clairvoyant_lines",
    "clean_drops",
    "clean_shape",
    "deal_order",
    "flawless",
    "last_lines",
    "line_cap",
    "pair_lines",
    "reach",
    "sample_orders",
]

EVALUATOR = FoldrisEvaluator()
"""This game's evaluator (``polytable.ai.evaluator`` finds it)."""
