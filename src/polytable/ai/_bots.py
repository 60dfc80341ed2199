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
            self._greedy = make_bot("greedy", game.spec.id)
        return self._greedy.choose(game, state, player, rng)


_FACTORIES: dict[tuple[str, str], Callable[..., Bot]] = {}


def register_bot(name: str, factory: Callable[..., Bot], game_id: str = "*") -> None:
    """Register a bot factory for one game (or ``*`` for every game). A factory may take keyword
    parameters, given on the command line as ``NAME:key=value,key=value``."""
    _FACTORIES[(game_id, name)] = factory


def _mcts(**kw: Any) -> Bot:
    from ._mcts import MCTSBot, MCTSConfig

    return MCTSBot(MCTSConfig(**kw), name="mcts")


def _hard(**kw: Any) -> Bot:
    from ._mcts import MCTSBot, MCTSConfig

    params: dict[str, Any] = {"iterations": None, "seconds": 2.0, "use_prior": True}
    params.update(kw)
    return MCTSBot(MCTSConfig(**params), name="hard")


def _medium(**kw: Any) -> Bot:
    from ._mcts import MCTSBot, MCTSConfig

    params: dict[str, Any] = {"iterations": None, "seconds": 0.25, "use_prior": True}
    params.update(kw)
    return MCTSBot(MCTSConfig(**params), name="medium")


def _plugin(name: str, target: str) -> Callable[..., Bot]:
    """A player another package provides (entry point group ``polytable.bots``), imported when first made.

    Why by name: the OpenSpiel peer lives in ``polytable.interop``, which itself builds on the players, so
    importing it here would close a loop between the two packages."""

    def make(**kw: Any) -> Bot:
        from importlib.metadata import EntryPoint

        try:
            factory = EntryPoint(name=name, value=target, group="polytable.bots").load()
        except ImportError:
            raise ConfigError(f"{name} needs an optional extra that is not installed (see the README)") from None
        bot: Bot = factory(**kw)
        return bot

    return make


def _load_plugins() -> None:
    from importlib.metadata import entry_points

    for ep in entry_points(group="polytable.bots"):
        if ("*", ep.name) not in _FACTORIES:
            register_bot(ep.name, _plugin(ep.name, ep.value))


register_bot("random", RandomBot)
register_bot("greedy", GreedyBot)
register_bot("easy", NoisyGreedyBot)
register_bot("medium", _medium)
register_bot("hard", _hard)
register_bot("mcts", _mcts)


def _load_game_bots() -> None:
    import importlib
    import pkgutil

    import polytable.ai as pkg

    _load_plugins()
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("bots_"):
            importlib.import_module(f"polytable.ai.{info.name}")


def bot_names(game_id: str) -> list[str]:
    """The bots available for a game."""
    _load_game_bots()
    return sorted({n for (g, n) in _FACTORIES if g in ("*", game_id)})


def _value(text: str) -> Any:
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    try:
        return int(low)
    except ValueError:
        pass
    try:
        return float(low)
    except ValueError:
        return text.strip()


def make_bot(name: str, game_id: str) -> Bot:
    """A new bot by name for a game (a game's own bot of that name wins over the generic one).

    ``NAME:key=value,...`` passes parameters, e.g. ``hard:seconds=0.5`` or ``mcts:iterations=2000``.
    """
    _load_game_bots()
    base, _, params = name.partition(":")
    base = base.strip()
    factory = _FACTORIES.get((game_id, base)) or _FACTORIES.get(("*", base))
    if factory is None:
        raise ConfigError(f"no AI named {base!r} for {game_id} (AIs: {', '.join(bot_names(game_id))})")
    kwargs: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in params.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise ConfigError(f"AI parameter {item!r} must be key=value (as in {base}:seconds=0.5)")
        kwargs[key.strip()] = _value(value)
    try:
        return factory(**kwargs)
    except TypeError as exc:
        raise ConfigError(f"AI {base!r} does not take these parameters: {exc}") from None
