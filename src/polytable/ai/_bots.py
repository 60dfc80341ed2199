"""Generic AI players that see only the game protocol.

A bot is an object with ``choose(game, state, player, rng) -> action``; its generator is injected so a
simulation replays exactly. Game-specific knowledge reaches the generic bots through the game's
:class:`~polytable.ai.Evaluator` (``evaluate`` and ``action_value``), kept beside its players in ``ai/<game>/``.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..core import ConfigError, Game, Rng
from ._evaluator import evaluator

__all__ = ["Bot", "GreedyBot", "NoisyGreedyBot", "RandomBot", "hard", "mcts", "medium"]


class Bot(Protocol):
    name: str

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any: ...


class RandomBot:
    """Uniformly random legal actions (the baseline every ladder is anchored on)."""

    name = "random"

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        return game.legal_actions(state, player).sample(rng)


class GreedyBot:
    """One ply: the action with the best ``action_value`` of the game's evaluator; ties broken at random
    (seeded)."""

    name = "greedy"

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        best: list[Any] = []
        best_value = float("-inf")
        judge = evaluator(game)
        for action in game.legal_actions(state, player):
            value = judge.action_value(game, state, action, player)
            if value > best_value + 1e-9:
                best_value = value
                best = [action]
            elif value >= best_value - 1e-9:
                best.append(action)
        if not best:
            raise ConfigError(f"{game.spec.name}: player {player + 1} has no legal action")
        return best[rng.below(len(best))] if len(best) > 1 else best[0]


class NoisyGreedyBot:
    """``easy``: the greedy move, except that with probability ``noise`` a random legal move."""

    def __init__(self, noise: float = 0.3) -> None:
        self.noise = noise
        self.name = "easy"
        self._greedy: Bot | None = None

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        if rng.random() < self.noise:
            return game.legal_actions(state, player).sample(rng)
        if self._greedy is None:  # the game's own greedy where it has one (faster, same evaluation)
            from ._registry import make_bot

            self._greedy = make_bot("greedy", game.spec.id)
        return self._greedy.choose(game, state, player, rng)


def mcts(**kw: Any) -> Bot:
    """``mcts``: the generic search with its own defaults (400 iterations, no prior)."""
    from ._mcts import MCTSBot, MCTSConfig

    return MCTSBot(MCTSConfig(**kw), name="mcts")


def hard(**kw: Any) -> Bot:
    """The generic ``hard``: MCTS with the greedy prior, 2 s a move."""
    from ._mcts import MCTSBot, MCTSConfig

    params: dict[str, Any] = {"iterations": None, "seconds": 2.0, "use_prior": True}
    params.update(kw)
    return MCTSBot(MCTSConfig(**params), name="hard")


def medium(**kw: Any) -> Bot:
    """The generic ``medium``: MCTS with the greedy prior, 0.25 s a move."""
    from ._mcts import MCTSBot, MCTSConfig

    params: dict[str, Any] = {"iterations": None, "seconds": 0.25, "use_prior": True}
    params.update(kw)
    return MCTSBot(MCTSConfig(**params), name="medium")
