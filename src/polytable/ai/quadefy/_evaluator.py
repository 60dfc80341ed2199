"""Quadefy's evaluator: mobility (keep one's own placements, remove the opponent's; a won game is worth
1000), counted for both hands in one generation; an action is worth the evaluation after it."""

from __future__ import annotations

from typing import Any

from ...core import Game
from ...games.quadefy import hand_counts

__all__ = ["QuadefyEvaluator"]


class QuadefyEvaluator:
    def evaluate(self, game: Game[Any, Any], state: Any, player: int) -> float:
        if state.loser >= 0:
            return 1000.0 if state.loser != player else -1000.0
        mine, theirs = hand_counts(state.occupied, state.remaining[player], state.remaining[1 - player], state.flags)
        return float(mine - theirs)

    def action_value(self, game: Game[Any, Any], state: Any, action: Any, player: int) -> float:
        return self.evaluate(game, game.apply(state, action, player), player)
