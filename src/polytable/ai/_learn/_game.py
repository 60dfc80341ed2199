"""What every game's learned value shares, so each game's ``_value`` module keeps only its own parts (the
features, the network's place in ``hard``, the self-play games):

* :class:`LearnedValue`: where a game's weights are shipped, how a weights file loads (checked against the
  game's current rules version and the feature set; a clear error when none are shipped) and a fresh
  network of the game's shape;
* :func:`label_by_result`: the self-play of the games whose positions are labelled with the result of the
  game played (1 a win, 0 a loss, 1/k a win shared by k).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core import Game, Rng, get_game
from ._net import ValueNet, WeightsError, load_value_net

__all__ = ["LearnedValue", "label_by_result"]

Array = npt.NDArray[np.float32]
Trail = list[tuple[Array, int]]
"""One game's positions: the features of each, with the player they are labelled for."""


@dataclass(frozen=True)
class LearnedValue:
    """A game's value network: its game id, the AI package that ships ``value.npz``, the feature set's
    name and size, and the hidden layers of a fresh network."""

    game_id: str
    package: str
    features: str
    n_features: int
    hidden: tuple[int, ...]

    def rules_version(self) -> str:
        return str(get_game(self.game_id).spec.rules_version)

    def shipped_weights(self) -> Path:
        """The weights shipped with the package for the current rules (the file may not exist)."""
        return Path(str(resources.files(self.package) / "value.npz"))

    def load(self, path: str | Path | None = None) -> ValueNet:
        """The network in ``path`` (default: the shipped one, when there is one), refused with a
        :class:`WeightsError` unless it was made for this game's rules version and feature set."""
        if not path and not self.shipped_weights().exists():
            name = get_game(self.game_id).spec.name
            raise WeightsError(
                f"no {name} weights are shipped (none measured at least as strong as hard): "
                f"give expert:weights=FILE, from polytable train {self.game_id}"
            )
        where = Path(path) if path else self.shipped_weights()
        return load_value_net(where, self.game_id, self.rules_version(), self.features)

    def new_net(self, seed: int, hidden: tuple[int, ...] | None = None) -> ValueNet:
        """A fresh network (``hidden`` layers, default the game's) for the current rules."""
        sizes = (self.n_features, *(self.hidden if hidden is None else hidden), 1)
        return ValueNet(self.game_id, self.rules_version(), self.features, sizes, seed)


def label_by_result(
    game: Game[Any, Any],
    play: Callable[[Game[Any, Any], int, Rng], tuple[Trail, tuple[float, ...]]],
    games: int,
    seed: int,
) -> tuple[Array, npt.NDArray[np.float32], dict[str, float], list[tuple[float, ...]]]:
    """``games`` games of ``play(game, deal, rng)`` (each deal and generator drawn from ``seed``): the
    features of every position of their trails, each labelled with its player's result (1 a win, 0 a loss,
    1/k a win shared by k), the statistics (games, positions, the first player's wins) and each game's
    returns (for a game's own statistics)."""
    rng = np.random.default_rng(seed)
    xs: list[Array] = []
    ys: list[float] = []
    first_wins = 0.0
    results: list[tuple[float, ...]] = []
    for _ in range(games):
        deal = int(rng.integers(1 << 62))
        trail, returns = play(game, deal, Rng(int(rng.integers(1 << 62))))
        results.append(returns)
        best = max(returns)
        winners = [p for p, r in enumerate(returns) if r == best]
        first_wins += (0 in winners) / len(winners)
        for x, p in trail:
            xs.append(x)
            ys.append((p in winners) / len(winners))
    stats = {"games": games, "positions": len(ys), "first_player_wins": first_wins / max(1, games)}
    return np.stack(xs), np.asarray(ys, np.float32), stats, results
