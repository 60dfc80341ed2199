"""FORMFINITY's learned value (the lines goal, 2 players): the features a value network reads, the
``expert`` player it drives, and the game's part of the training pipeline (:mod:`polytable.ai._learn`).

The value is the chance that the player about to draw wins, the quantity ``hard``'s horizon reads from
:data:`._fast.WIN_TABLE` (the line counts only) plus a small edge per open hole. The network sees more of
the shared template (41 numbers, for the player ``me`` about to draw):

* the line counts as the table's cell (4 x 4 one-hot, counts clipped at 3) and as fractions of the target;
* per line direction, how many windows that may still be claimed hold exactly 4, 5, 6 and 7 of their 8
  squares (the bit-sliced count of :func:`._fast.line_potential`), as ``log1p(n) / 4``; their totals;
* the squares that would each complete a claimable line (the holes), the share of the template drawn and
  the cards drawn (the round).

The cards come from a seeded generator with fixed weights (no deck without a deck file), so what is left
to draw is the same at every point of a game: there is no deck composition to learn from in variant 1.

``expert`` is ``hard`` (:class:`._player.FormfinityLookahead`: the same candidates, the same greedy
playouts over the same card samples, the same successive halving) whose horizons are valued by the
network instead of the table: the placement chosen is the one whose greedy continuations reach sheets the
network rates best, averaged over the sampled draws.

Training data (:func:`self_play`): greedy-vs-greedy games played by the compiled greedy run (one C call
per turn, :func:`._greedy.greedy_run`), the moves of the one-ply greedy that ``hard``'s playouts use, so
the positions are the horizons ``expert`` values; each position where a player is about to draw is
labelled with that player's result (1 win, 0 loss, 1/2 a shared win).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core import ConfigError, Game, Rng, get_game
from ...games.formfinity import DRAW, OVER, FormfinityState, Setup, setup_of
from .._bots import Bot, GreedyBot
from .._learn._game import LearnedValue, label_by_result
from .._learn._net import ValueNet
from ._fast import window_counts
from ._greedy import claim_starts, claimable_holes, greedy_run, line_rooms
from ._player import FormfinityConfig, FormfinityLookahead

__all__ = ["FEATURES", "N_FEATURES", "VALUE", "FormfinityExpert", "features", "self_play"]

FEATURES = "formfinity-lines-v1"
"""The name of this feature set (a weights file records it; change it when the features change)."""
_FILLS = (4, 5, 6, 7)
_DIRS = 4
N_FEATURES = 16 + 2 + _DIRS * len(_FILLS) + len(_FILLS) + 3
_WIN = 10_000.0

Array = npt.NDArray[np.float32]


def _fill_counts(setup: Setup, st: FormfinityState) -> list[list[int]]:
    """Per direction, how many claimable windows hold exactly 4, 5, 6 and 7 drawn squares."""
    L = setup.rules.length
    out = []
    for (_, off, _), ok in zip(line_rooms(setup), claim_starts(setup, st), strict=True):
        b0, b1, b2, b3 = window_counts(st.drawn, off, L)
        n0, n1 = ~b0, ~b1
        # exactly 4 = 100, 5 = 101, 6 = 110, 7 = 111 (b3 set only at 8 or more)
        four = n0 & n1 & b2
        out.append(
            [
                (four & ~b3 & ok).bit_count(),
                (b0 & n1 & b2 & ~b3 & ok).bit_count(),
                (n0 & b1 & b2 & ~b3 & ok).bit_count(),
                (b0 & b1 & b2 & ~b3 & ok).bit_count(),
            ]
        )
    return out


def features(setup: Setup, st: FormfinityState, me: int) -> Array:
    """The feature vector of ``st`` for ``me`` (see the module docstring)."""
    out = np.zeros(N_FEATURES, np.float32)
    counts = [0] * setup.players
    for o, _, _ in st.lines:
        counts[o] += 1
    mine = counts[me]
    opp = max(c for p, c in enumerate(counts) if p != me)
    out[min(mine, 3) * 4 + min(opp, 3)] = 1.0
    target = setup.rules.target
    out[16] = mine / target
    out[17] = opp / target
    col = 18
    totals = [0] * len(_FILLS)
    for d, per in enumerate(_fill_counts(setup, st)[:_DIRS]):
        for k, n in enumerate(per):
            out[col + d * len(_FILLS) + k] = math.log1p(n) / 4.0
            totals[k] += n
    col += _DIRS * len(_FILLS)
    for k, n in enumerate(totals):
        out[col + k] = math.log1p(n) / 4.0
    col += len(_FILLS)
    out[col] = math.log1p(claimable_holes(setup, st)) / 3.0
    out[col + 1] = st.drawn.bit_count() / max(1, setup.playable.bit_count())
    out[col + 2] = st.cards_drawn / 60.0
    return out


def _check(setup: Setup) -> None:
    if setup.rules.goal != "lines" or setup.players != 2:
        raise ConfigError("the expert player knows the lines goal with 2 players only (variant 1)")


VALUE = LearnedValue("formfinity", "polytable.ai.formfinity", FEATURES, N_FEATURES, (32, 16))
"""This feature set's weights (shipped, loaded, fresh: :class:`~polytable.ai._learn._game.LearnedValue`)."""


class FormfinityExpert(FormfinityLookahead):
    """``hard`` whose horizons are valued by the learned network (see the module docstring)."""

    def __init__(self, config: FormfinityConfig | None = None, net: ValueNet | None = None) -> None:
        super().__init__(config, name="expert")
        self.net = net if net is not None else VALUE.load()

    def horizon_value(self, game: Game[Any, Any], st: FormfinityState, me: int, holes: int | None) -> float:
        if st.phase == OVER or st.turn != me:
            return super().horizon_value(game, st, me, holes)
        setup = setup_of(game, st)
        _check(setup)
        p = float(self.net.predict(features(setup, st, me)[None, :])[0])
        return _WIN * (2.0 * p - 1.0)


def _expert(weights: str | None = None, **kw: Any) -> FormfinityExpert:
    return FormfinityExpert(FormfinityConfig(**kw), VALUE.load(weights) if weights else None)


EXPERT: Callable[..., Bot] = _expert
"""The factory of ``expert`` (``expert:weights=FILE`` plays other weights; the rest as ``hard``)."""


# ---------------------------------------------------------------------------------------------- training
def play_greedy_game(game: Game[Any, Any], seed: int, rng: Rng) -> tuple[list[tuple[Array, int]], tuple[float, ...]]:
    """One greedy-vs-greedy game (deal ``seed``): the features of every position where a player is
    about to draw, with that player, and the game's returns."""
    st: FormfinityState = game.new_game(seed=seed)
    setup = setup_of(game, st)
    _check(setup)
    greedy = GreedyBot()
    trail: list[tuple[Array, int]] = []
    me = st.turn
    left_me = False
    steps = 100_000
    while st.phase != OVER:
        if st.phase == DRAW:
            trail.append((features(setup, st, st.turn), st.turn))
            me = (st.turn + 1) % setup.players
            left_me = True
        st, left_me, steps, done, _ = greedy_run(setup, st, me, rng, left_me, steps)
        if st.phase != OVER and not done:
            cp = game.current_player(st)
            st = game.apply(st, greedy.choose(game, st, cp, rng), cp)
            steps -= 1
        if steps <= 0:
            raise RuntimeError("a greedy game did not end")
    return trail, tuple(game.returns(st))


def self_play(
    net: ValueNet | None, games: int, seed: int, clock: str = "wall"
) -> tuple[Array, npt.NDArray[np.float32], dict[str, float]]:
    """``games`` greedy games: (features, labels, statistics) of every position where a player is about
    to draw (see the module docstring). ``net`` and ``clock`` are not used: the games are the greedy's
    (the playouts ``expert`` values) and nothing here is timed."""
    del net, clock
    x, y, stats, _ = label_by_result(get_game("formfinity"), play_greedy_game, games, seed)
    return x, y, stats
