"""Forma's evaluator: the score lead, and a placement's one-ply value (:func:`._eval.action_value`: points
now plus position; in C, ``_cforma_eval``, when the game object runs the compiled kernel)."""

from __future__ import annotations

from typing import Any

from ...core import Game
from ...games.forma import Fill, Obstacle, Tower, kernel_of
from ._eval import action_value, score_lead

__all__ = ["FormaEvaluator"]


class FormaEvaluator:
    def evaluate(self, game: Game[Any, Any], state: Any, player: int) -> float:
        if game.is_terminal(state):
            return 1000.0 * game.returns(state)[player]
        return score_lead(state, player)

    def action_value(self, game: Game[Any, Any], state: Any, action: Any, player: int) -> float:
        if isinstance(action, (Obstacle, Tower, Fill)):
            return 0.0  # the set-up earns nothing by itself; the bots fill it at random
        return action_value(kernel_of(game), state, action, player)
