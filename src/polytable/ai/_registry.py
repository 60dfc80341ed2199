"""Which players exist for a game, and how a name like ``hard:seconds=0.5`` becomes one.

Registration is explicit: :data:`GAME_PLAYERS` names, per game id, the subpackage whose ``PLAYERS`` table
maps its level names to factories; it is imported the first time that game's players are asked for, so a
game's search code loads only when it plays. The generic players serve every game, a game's own player of
the same name wins. Other packages add players through the entry point group ``polytable.bots`` (or
:func:`register_bot`).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any

from ..core import ConfigError
from ._bots import Bot, GreedyBot, NoisyGreedyBot, RandomBot, hard, mcts, medium

__all__ = ["GAME_PLAYERS", "bot_names", "learned_player", "make_bot", "register_bot"]

GAME_PLAYERS: Mapping[str, str] = {
    "foldris": "polytable.ai.foldris",
    "forma": "polytable.ai.forma",
    "formfinity": "polytable.ai.formfinity",
    "quadefy": "polytable.ai.quadefy",
    "qwirkle-cubes": "polytable.ai.qwirkle_cubes",
}
"""Game id -> the module whose ``PLAYERS: dict[str, factory]`` holds that game's own players."""

_FACTORIES: dict[tuple[str, str], Callable[..., Bot]] = {
    ("*", "random"): RandomBot,
    ("*", "greedy"): GreedyBot,
    ("*", "easy"): NoisyGreedyBot,
    ("*", "medium"): medium,
    ("*", "hard"): hard,
    ("*", "mcts"): mcts,
}
_LOADED: set[str] = set()


def register_bot(name: str, factory: Callable[..., Bot], game_id: str = "*") -> None:
    """Register a bot factory for one game (or ``*`` for every game). A factory may take keyword
    parameters, given on the command line as ``NAME:key=value,key=value``."""
    _FACTORIES[(game_id, name)] = factory


class _Learned:
    """A learned level's factory (``expert``): ``hard`` with learned weights, made by the ``EXPERT`` factory of
    ``<package>._value``, imported only when a player is made (it needs NumPy; the other levels load without
    it). Offered to tables only when ``<package>/value.npz`` (or the file the game names: Forma's
    ``weights.json``) is shipped; ``expert:weights=FILE`` plays a run's weights either way."""

    def __init__(self, package: str, shipped: str = "value.npz") -> None:
        self.package = package
        self.shipped = shipped

    def __call__(self, **kw: Any) -> Bot:
        try:
            module = importlib.import_module(self.package + "._value")
        except ImportError:
            raise ConfigError("the expert player needs NumPy: pip install 'polytable[learn]'") from None
        bot: Bot = module.EXPERT(**kw)
        return bot

    def offered(self) -> bool:
        # A table never offers a level that fails when picked: without NumPy (a base install) it is left out.
        return (
            importlib.util.find_spec("numpy") is not None and (resources.files(self.package) / self.shipped).is_file()
        )


def learned_player(package: str, shipped: str = "value.npz") -> Callable[..., Bot]:
    """The ``expert`` factory of a game's AI package (see :class:`_Learned`); ``shipped``: the file whose
    presence in the package makes tables offer it."""
    return _Learned(package, shipped)


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


def _load(game_id: str) -> None:
    """Register the entry-point players (once) and ``game_id``'s own players (once per game)."""
    if "*" not in _LOADED:
        from importlib.metadata import entry_points

        for ep in entry_points(group="polytable.bots"):
            if ("*", ep.name) not in _FACTORIES:
                register_bot(ep.name, _plugin(ep.name, ep.value))
        _LOADED.add("*")
    if game_id not in _LOADED:
        module = GAME_PLAYERS.get(game_id)
        if module is not None:
            players: Mapping[str, Callable[..., Bot]] = importlib.import_module(module).PLAYERS
            for name, factory in players.items():
                _FACTORIES.setdefault((game_id, name), factory)
        _LOADED.add(game_id)


def bot_names(game_id: str, offered: bool = False) -> list[str]:
    """The bots available for a game. With ``offered``, only those a table may seat as they are: a factory
    whose ``offered()`` answers False (a learned player whose weights are not shipped: it plays only with
    ``weights=FILE``) stays reachable by name but is not put before players."""
    _load(game_id)
    names = {n for (g, n) in _FACTORIES if g in ("*", game_id)}
    if offered:
        names = {n for n in names if _offered(_FACTORIES.get((game_id, n)) or _FACTORIES[("*", n)])}
    return sorted(names)


def _offered(factory: Callable[..., Bot]) -> bool:
    check = getattr(factory, "offered", None)
    return not callable(check) or bool(check())


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
    _load(game_id)
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
