"""Qwirkle Cubes' evaluator: the score lead (at the end, the result), and an action's one-ply value
(:func:`._eval.action_value`: a reroll by the best placement it keeps, a placement by its points
and the chances it hands on)."""

from __future__ import annotations

from typing import Any

from ...core import Game
from ._eval import action_value

__all__ = ["QwirkleEvaluator"]


class QwirkleEvaluator:
    def evaluate(self, game: Game[Any, Any], state: Any, player: int) -> float:
        if game.is_terminal(state):
            return 1000.0 * game.returns(state)[player]
        others = [v for p, v in enumerate(state.points) if p != player]
        return float(state.points[player] - max(others))

    def action_value(self, game: Game[Any, Any], state: Any, action: Any, player: int) -> float:
        return action_value(state, action, player)
