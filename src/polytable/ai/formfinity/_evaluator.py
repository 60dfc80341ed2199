"""FORMFINITY's evaluator: the goal's progress on the game object's setup (``games.formfinity.evaluate``),
the result at the end; an action is worth the evaluation after it."""

from __future__ import annotations

from typing import Any

from ...core import Game
from ...games.formfinity import setup_of
from ._eval import evaluate

__all__ = ["FormfinityEvaluator"]


class FormfinityEvaluator:
    def evaluate(self, game: Game[Any, Any], state: Any, player: int) -> float:
        returns = game.returns(state) if game.is_terminal(state) else None
        return evaluate(setup_of(game, state), state, player, returns)

    def action_value(self, game: Game[Any, Any], state: Any, action: Any, player: int) -> float:
        return self.evaluate(game, game.apply(state, action, player), player)
