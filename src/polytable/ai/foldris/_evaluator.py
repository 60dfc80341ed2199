"""Foldris's evaluator: a sheet's shape and the round's standing (:func:`._eval.evaluate_state`), and a
drop's value on the player's own sheet before the round resolves (:func:`._eval.action_value`)."""

from __future__ import annotations

from typing import Any

from ...core import Game
from ._eval import action_value, evaluate_state

__all__ = ["FoldrisEvaluator"]


class FoldrisEvaluator:
    def evaluate(self, game: Game[Any, Any], state: Any, player: int) -> float:
        return evaluate_state(game, state, player)  # type: ignore[arg-type]

    def action_value(self, game: Game[Any, Any], state: Any, action: Any, player: int) -> float:
        return action_value(state, action, player)
