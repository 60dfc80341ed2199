"""Quadefy's learned value: the features a value network reads, the ``expert`` player it drives, and the
game's part of the training pipeline (:mod:`polytable.ai._learn`).

Features (the position seen by the player to move, 99 numbers): the 64 occupied cells, both hands (8 + 8
blocks), how many legal placements each block of each hand has now (8 + 8, as ``log1p(n) / 5``), both
totals and the number of blocks placed. The per-block counts are what the mobility evaluator sums; the
network learns how they, the shape of the free space and the blocks left combine into a chance to win.

``expert`` is ``hard`` whose exact search gets 0.2 of the time before the fifth placement and 0.9 from
there on (``EXPERT_SHARES``; ``hard``: 0.5 throughout). With ``weights=FILE`` it also values its MCTS
leaves with that network instead of a random game to the end: the same exact search first (a proven win
is played), then the same MCTS (the mobility prior, progressive widening, tree reuse). The shipped
network is no longer its default: at 0.5 s of CPU a move it made ``expert`` weaker
(docs/benchmarks/2026-12-05-quadefy-decided.md); it stays the pipeline's output and keeps the level
offered where NumPy is installed.

Training data (:func:`self_play`): games played by the current best network one ply deep with a
temperature (the first plies at random, for variety); every position is labelled with the exact result
when the compiled solver proves it within ``label_seconds`` (on ``clock``: ``wall``, or ``cpu`` for labels
that do not depend on the machine's load), else with the result of the game played.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core import Game, Rng, get_game
from ...games.quadefy import ACTIONS, BLOCKS, QuadefyState, kernel_of
from .._bots import Bot
from .._clock import budget_clock
from .._learn._game import LearnedValue
from .._learn._net import ValueNet
from .._mcts import MCTSBot, MCTSConfig
from ._player import QuadefyConfig, QuadefyHardBot, greedy_choice, native_verdict

__all__ = ["EXPERT_SHARES", "FEATURES", "N_FEATURES", "VALUE", "QuadefyExpertBot", "features", "self_play"]

FEATURES = "quadefy-v1"
"""The name of this feature set (a weights file records it; change it when the features change)."""
N_FEATURES = 64 + 16 + 16 + 2 + 1
_BLOCK_BITS = tuple(1 << b for b in range(len(BLOCKS)))
_CELL_SHIFTS = np.arange(64, dtype=np.uint64)

Array = npt.NDArray[np.float32]


def features(kernel: Any, state: QuadefyState) -> Array:
    """The feature vector of ``state`` for the player to move (see the module docstring)."""
    p = state.to_move
    occ, flags = state.occupied, state.flags
    out = np.empty(N_FEATURES, np.float32)
    out[:64] = (np.uint64(occ) >> _CELL_SHIFTS) & np.uint64(1)
    col = 64
    for hand in (state.remaining[p], state.remaining[1 - p]):
        total = 0
        for b, bit in enumerate(_BLOCK_BITS):
            if hand & bit:
                out[col + b] = 1.0
                n = kernel.count(occ, bit, flags)
                total += n
                out[col + 16 + b] = math.log1p(n) / 5.0
            else:
                out[col + b] = 0.0
                out[col + 16 + b] = 0.0
        out[96 + (col - 64) // 8] = math.log1p(total) / 6.0
        col += 8
    out[98] = len(state.moves) / 16.0
    return out


VALUE = LearnedValue("quadefy", "polytable.ai.quadefy", FEATURES, N_FEATURES, (64, 32))
"""This feature set's weights (shipped, loaded, fresh: :class:`~polytable.ai._learn._game.LearnedValue`)."""


class _ValueMCTS(MCTSBot):
    """The generic MCTS with the network valuing its leaves (no playouts)."""

    def __init__(self, config: MCTSConfig, net: ValueNet, name: str) -> None:
        super().__init__(config, name)
        self.net = net

    def _rollout(self, game: Game[Any, Any], state: Any, rng: Rng) -> list[float]:
        if state.loser >= 0:
            return [0.0 if state.loser == 0 else 1.0, 0.0 if state.loser == 1 else 1.0]
        v = float(self.net.predict(features(kernel_of(game), state)[None, :])[0])
        mover = state.to_move
        return [v, 1.0 - v] if mover == 0 else [1.0 - v, v]


class QuadefyExpertBot(QuadefyHardBot):
    """``hard`` whose MCTS leaves are valued by the learned network (see the module docstring)."""

    name = "expert"

    def __init__(self, config: QuadefyConfig | None = None, net: ValueNet | None = None) -> None:
        super().__init__(config)
        self.net = net if net is not None else VALUE.load()
        self._mcts = _ValueMCTS(self._mcts_config(), self.net, "expert")


EXPERT_SHARES = {"solve_share": 0.2, "late_share": 0.9, "late_ply": 5}
"""``expert``'s split of a move's time: the exact search gets 0.2 of it before the fifth placement, where it
cannot finish, and 0.9 from there on, where the game is decided. Chosen by self-play against ``hard``
among four splits and confirmed over 1,200 fresh games: 0.564 (docs/benchmarks/2026-12-05-quadefy-decided.md)."""


class _SplitHard(QuadefyHardBot):
    """``expert`` as it plays by default: ``hard``'s search with ``EXPERT_SHARES``, random playouts as leaves."""

    name = "expert"


def _expert(weights: str | None = None, **kw: Any) -> QuadefyHardBot:
    # The shipped network lost at 0.5 s of CPU a move (0.36 over 100 games against hard, where the split
    # alone won 0.61): by default expert plays without it; weights=FILE plays a network (the pipeline's).
    config = QuadefyConfig(**{**EXPERT_SHARES, **kw})
    return QuadefyExpertBot(config, VALUE.load(weights)) if weights else _SplitHard(config)


EXPERT: Callable[..., Bot] = _expert
"""The factory of ``expert`` (``expert:weights=FILE`` plays other weights; the rest as ``hard``)."""


# ---------------------------------------------------------------------------------------------- training
def _choose(
    game: Game[Any, Any],
    net: ValueNet | None,
    state: QuadefyState,
    rng: np.random.Generator,
    temperature: float,
    random_plies: int,
) -> tuple[int, Array]:
    """A self-play move (placement id) and the feature vector of ``state``."""
    kernel = kernel_of(game)
    here = features(kernel, state)
    legal = list(kernel.legal(state.occupied, state.remaining[state.to_move], state.flags))
    if len(state.moves) < random_plies:
        return legal[int(rng.integers(len(legal)))], here
    if net is None:
        seed = int(rng.integers(1 << 62))
        return greedy_choice(state, state.to_move, Rng(seed), kernel=kernel), here
    children = [game.apply(state, ACTIONS[pid], state.to_move) for pid in legal]
    values = np.empty(len(legal), np.float64)
    rows = []
    where = []
    for i, child in enumerate(children):
        if child.loser >= 0:
            values[i] = 1.0  # the opponent cannot move: a win
        else:
            rows.append(features(kernel, child))
            where.append(i)
    if rows:
        values[where] = 1.0 - net.predict(np.stack(rows)).astype(np.float64)
    if temperature <= 0:
        return legal[int(np.argmax(values))], here
    logits = np.log(np.clip(values, 1e-6, 1 - 1e-6) / np.clip(1 - values, 1e-6, 1)) / temperature
    probs = np.exp(logits - logits.max())
    probs /= probs.sum()
    return legal[int(rng.choice(len(legal), p=probs))], here


def self_play(
    net: ValueNet | None,
    games: int,
    seed: int,
    temperature: float = 0.5,
    random_plies: int = 2,
    label_seconds: float = 0.02,
    clock: str = "wall",
) -> tuple[Array, npt.NDArray[np.float32], dict[str, float]]:
    """``games`` self-play games: (features, labels, statistics) of every position (see the module
    docstring). Without a network the moves are the mobility greedy's."""
    budget_clock(clock)
    game = get_game("quadefy")
    native: Any = None
    try:
        from .._native import load as load_native

        native = load_native()
    except OSError:
        native = None
    rng = np.random.default_rng(seed)
    xs: list[Array] = []
    ys: list[float] = []
    exact = 0
    first_wins = 0
    for g in range(games):
        state: QuadefyState = game.new_game(seed=g)
        trail: list[tuple[Array, int, int]] = []  # features, mover, exact label (-1: unknown)
        while state.loser < 0:
            pid, x = _choose(game, net, state, rng, temperature, random_plies)
            label = -1
            if native is not None and label_seconds > 0:
                label = native_verdict(native, state, state.to_move, label_seconds, clock == "cpu")[0]
            trail.append((x, state.to_move, label))
            state = game.apply(state, ACTIONS[pid], state.to_move)
        first_wins += state.loser == 1
        for x, mover, label in trail:
            xs.append(x)
            if label >= 0:
                exact += 1
                ys.append(float(label))
            else:
                ys.append(1.0 if state.loser != mover else 0.0)
    stats = {
        "games": games,
        "positions": len(ys),
        "exact_share": exact / max(1, len(ys)),
        "first_player_wins": first_wins / max(1, games),
    }
    return np.stack(xs), np.asarray(ys, np.float32), stats
