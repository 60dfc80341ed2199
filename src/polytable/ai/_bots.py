"""Generic AI players that see only the game protocol.

A bot is an object with ``choose(game, state, player, rng) -> action``; its generator is injected so a
simulation replays exactly. Game-specific knowledge reaches the generic bots through the protocol's hooks
(``Game.evaluate`` and ``Game.action_value``), which the games implement next to their rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..core import ConfigError, Game, Rng

__all__ = ["Bot", "GreedyBot", "RandomBot", "bot_names", "make_bot", "register_bot"]


class Bot(Protocol):
    name: str

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any: ...


class RandomBot:
    """Uniformly random legal actions (the baseline every ladder is anchored on)."""

    name = "random"

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        return game.legal_actions(state, player).sample(rng)


class GreedyBot:
    """One ply: the action with the best ``game.action_value``; ties broken at random (seeded)."""

    name = "greedy"

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        best: list[Any] = []
        best_value = float("-inf")
        for action in game.legal_actions(state, player):
            value = game.action_value(state, action, player)
            if value > best_value + 1e-9:
                best_value = value
                best = [action]
            elif value >= best_value - 1e-9:
                best.append(action)
        if not best:
            raise ConfigError(f"{game.spec.name}: player {player + 1} has no legal action")
        return best[rng.below(len(best))] if len(best) > 1 else best[0]


_FACTORIES: dict[tuple[str, str], Callable[[], Bot]] = {}


def register_bot(name: str, factory: Callable[[], Bot], game_id: str = "*") -> None:
    """Register a bot factory for one game (or ``*`` for every game)."""
    _FACTORIES[(game_id, name)] = factory


register_bot("random", RandomBot)
register_bot("greedy", GreedyBot)


def _load_game_bots() -> None:
    import importlib
    import pkgutil

    import polytable.ai as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("bots_"):
            importlib.import_module(f"polytable.ai.{info.name}")


def bot_names(game_id: str) -> list[str]:
    """The bots available for a game."""
    _load_game_bots()
    return sorted({n for (g, n) in _FACTORIES if g in ("*", game_id)})


def make_bot(name: str, game_id: str) -> Bot:
    """A new bot by name for a game (a game's own bot of that name wins over the generic one)."""
    _load_game_bots()
    factory = _FACTORIES.get((game_id, name)) or _FACTORIES.get(("*", name))
    if factory is None:
        raise ConfigError(f"no AI named {name!r} for {game_id} (AIs: {', '.join(bot_names(game_id))})")
    return factory()
