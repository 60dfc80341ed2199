"""One interface for the AI's judgement of positions and moves, beside the players (as OpenSpiel keeps its
evaluators beside its bots): a game object holds rules only.

An :class:`Evaluator` answers ``evaluate`` (a heuristic value of a state for a player, higher is better:
what ``greedy``'s one ply and the MCTS leaves use) and ``action_value`` (an action's one-ply value). Each
game's players package (``ai/<game>/``, named in ``GAME_PLAYERS``) may export its own as ``EVALUATOR``;
any other game gets :class:`ScoreEvaluator`. Evaluators are stateless and take the game object, so they
ask its kernel for whatever they compute in C.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from ..core import Game

__all__ = ["Evaluator", "ScoreEvaluator", "evaluator"]


class Evaluator(Protocol):
    """How the AI values a state and an action for one player."""

    def evaluate(self, game: Game[Any, Any], state: Any, player: int) -> float: ...

    def action_value(self, game: Game[Any, Any], state: Any, action: Any, player: int) -> float: ...


class ScoreEvaluator:
    """The default: at the end 1000 x the player's return, else the player's score; an action is worth the
    evaluation of the state after it (a game whose actions do not resolve alone brings its own evaluator)."""

    def evaluate(self, game: Game[Any, Any], state: Any, player: int) -> float:
        if game.is_terminal(state):
            return 1000.0 * game.returns(state)[player]
        return float(game.scores(state)[player])

    def action_value(self, game: Game[Any, Any], state: Any, action: Any, player: int) -> float:
        return self.evaluate(game, game.apply(state, action, player), player)


_DEFAULT = ScoreEvaluator()
_BY_GAME: dict[str, Evaluator] = {}


def evaluator(game: Game[Any, Any]) -> Evaluator:
    """The evaluator of a game: its players package's ``EVALUATOR``, else :class:`ScoreEvaluator`."""
    gid = game.spec.id
    got = _BY_GAME.get(gid)
    if got is None:
        from ._registry import GAME_PLAYERS

        module = GAME_PLAYERS.get(gid)
        found = getattr(importlib.import_module(module), "EVALUATOR", None) if module else None
        got = _BY_GAME[gid] = found if found is not None else _DEFAULT
    return got
