"""Qwirkle Cubes' learned value (2 players): the features of the position a placement leaves, the ``expert``
player it drives, and the game's part of the training pipeline (:mod:`polytable.ai._learn`).

``hard`` ranks its best placements by points now minus the opponent's sampled reply plus our sampled next
turn: one turn each way. What lies beyond (openings left on the table, lines of 5 that someone will finish
for a Qwirkle, who is ahead with how many cubes left in the bag) it does not see. The network values the
position right after a placement, for the player who placed: the chance that they win the game. It reads
(``qwirkle-open-v1``, :data:`N_FEATURES` numbers):

* the score difference and both scores, the cubes left in the bag (in all and per colour), the turn, both
  hand sizes;
* the table's open lines (runs of 2 to 5 with an end where some face may go), by length and by kind (one
  colour, one shape), and the cubes with an open end along a row they are alone in;
* the lines of 5 that can still be finished (a Qwirkle): how many, how many the opponent (who moves next)
  can finish with a face in hand, how many with a cube of the right colour (a reroll away), and
  the same for us; the lines of 4 each side can extend now;
* the faces that fit at some open line end, and how many of each hand's cubes are among them.

``expert`` is ``hard`` (:class:`._player.QwirkleSearch`: the same rerolls, the same candidates and sampled
next turns, the same confidence rule) with ``weight`` points per unit of the network's log-odds added to
each candidate placement's outcomes (:meth:`~._player.QwirkleSearch.placement_bias`). The value is computed
once per candidate (10 at most), not per sample, so it costs ``expert`` a few per cent of ``hard``'s samples.

Training data (:func:`self_play`): games of the compiled greedy (the placement of the best greedy value,
the second best with probability :data:`EXPLORE`, so the network also sees the alternatives ``expert``
weighs; greedy's reroll), every placement's position labelled with the placer's result (1, 0, 1/2 a tie).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core import CHANCE, ConfigError, Game, Rng, get_game
from ...games.qwirkle_cubes import (
    LINE_MAX,
    PASS,
    PLACE,
    STRIDE,
    Board,
    Place,
    Placement,
    QState,
    addable,
    hand_mask,
    kernel_of,
    largest_line,
)
from .._bots import Bot
from .._learn._game import LearnedValue, label_by_result
from .._learn._net import ValueNet
from ._player import QwirkleConfig, QwirkleSearch, _config
from ._values import values_of

__all__ = ["EXPERT", "FEATURES", "N_FEATURES", "VALUE", "QwirkleExpert", "features", "self_play"]

FEATURES = "qwirkle-open-v1"
"""The name of this feature set (a weights file records it; change it when the features change)."""
N_FEATURES = 36
GAME_ID = "qwirkle-cubes"
EXPLORE = 0.15
"""Chance that a self-play placement is greedy's second best (when there is one)."""
WEIGHT = 6.0
"""``expert``'s default points per unit of log-odds (see the module docstring and docs/ai-training.md)."""

Array = npt.NDArray[np.float32]
_COLOURS = tuple(0x3F << (6 * c) for c in range(6))
_SHAPES = tuple(sum(1 << (6 * c + s) for c in range(6)) for s in range(6))


def _hit_groups(need: int) -> int:
    """The faces sharing a colour with some face of ``need`` (a reroll of such a cube may show it)."""
    out = 0
    for c in range(6):
        if need & _COLOURS[c]:
            out |= _COLOURS[c]
    return out


def features(board: Board, hands: tuple[tuple[int, ...], ...], points: tuple[int, ...], bag: tuple[int, ...],
             turn: int, me: int) -> Array:  # fmt: skip
    """The feature vector of the position (after ``me``'s placement, the other to move) for ``me``."""
    out = np.zeros(N_FEATURES, np.float32)
    opp = 1 - me
    cells = board.cells
    mine, theirs = hands[me], hands[opp]
    my_mask, opp_mask = hand_mask(mine), hand_mask(theirs)
    my_cols = sum(_COLOURS[t // 6] for t in set(mine))
    opp_cols = sum(_COLOURS[t // 6] for t in set(theirs))
    open_by = [0] * 8  # lengths 2..5 x (colour line, shape line)
    singles = 0  # cubes with an open end across their row (runs of 1 along it)
    fits = 0 if cells else (1 << 36) - 1
    five = five_opp = five_opp_roll = five_me = five_me_roll = 0
    four_opp = four_me = 0
    for c, t in cells.items():
        for ax in (1, STRIDE):
            if c - ax in cells:
                continue
            n = board.run_length(c, ax)
            line = board.run(c, ax)
            need = 0
            for end in (c - ax, c + n * ax):
                if end not in cells:
                    need |= addable(line) & board.fits_across(end, STRIDE + 1 - ax)
            fits |= need
            if not need or n == 1:
                singles += bool(need) and ax == 1
                continue
            same_colour = (line & _COLOURS[t // 6]) == line
            if n <= LINE_MAX - 1:
                open_by[(n - 2) * 2 + (0 if same_colour else 1)] += 1
            if n == LINE_MAX - 1:
                five += 1
                if opp_mask & need:
                    five_opp += 1
                elif opp_cols & _hit_groups(need):
                    five_opp_roll += 1
                if my_mask & need:
                    five_me += 1
                elif my_cols & _hit_groups(need):
                    five_me_roll += 1
            elif n == LINE_MAX - 2:
                four_opp += bool(opp_mask & need)
                four_me += bool(my_mask & need)
    total = sum(bag)
    lead = points[me] - points[opp]
    out[0] = lead / 30.0
    out[1] = points[me] / 150.0
    out[2] = points[opp] / 150.0
    out[3] = total / 78.0
    out[4] = turn / 60.0
    out[5] = len(mine) / 6.0
    out[6] = len(theirs) / 6.0
    out[7] = float(total == 0)
    for i, b in enumerate(bag):
        out[8 + i] = b / 15.0
    for i, v in enumerate(open_by):
        out[14 + i] = math.log1p(v) / 2.0
    out[22] = math.log1p(singles) / 2.0
    out[23] = five / 2.0
    out[24] = five_opp
    out[25] = five_opp_roll / 2.0
    out[26] = five_me / 2.0
    out[27] = five_me_roll / 2.0
    out[28] = four_opp / 3.0
    out[29] = four_me / 3.0
    out[30] = fits.bit_count() / 36.0
    out[31] = sum(1 for x in mine if fits >> x & 1) / 6.0
    out[32] = sum(1 for x in theirs if fits >> x & 1) / 6.0
    out[33] = math.tanh(lead / 15.0)
    out[34] = lead / 30.0 * (1.0 - total / 78.0)
    out[35] = 1.0
    return out


def features_after(state: QState, player: int, placed: Placement) -> Array:
    """The features of the position ``player``'s placement ``placed`` leaves (refill not yet drawn)."""
    after = state.board.scratch(placed)
    pts, _ = after.score_placed(placed)
    rest = list(state.hands[player])
    for t, _ in placed:
        rest.remove(t)
    finished = not rest and state.bag_size == 0
    points = list(state.points)
    points[player] += pts + (LINE_MAX if finished else 0)
    hands = list(state.hands)
    hands[player] = tuple(rest)
    return features(after, tuple(hands), tuple(points), state.bag, state.turn, player)


def _check(state: QState) -> None:
    if state.config.players != 2:
        raise ConfigError("the expert player knows Qwirkle Cubes with 2 players only")


VALUE = LearnedValue(GAME_ID, "polytable.ai.qwirkle_cubes", FEATURES, N_FEATURES, (32, 16))
"""This feature set's weights (shipped, loaded, fresh: :class:`~polytable.ai._learn._game.LearnedValue`)."""


class QwirkleExpert(QwirkleSearch):
    """``hard`` with the learned value of the position each candidate placement leaves (module docstring)."""

    def __init__(
        self, config: QwirkleConfig | None = None, net: ValueNet | None = None, weight: float = WEIGHT
    ) -> None:
        super().__init__(config, name="expert")
        self.net = net if net is not None else VALUE.load()
        self.weight = float(weight)

    def placement_bias(self, state: QState, player: int, placements: list[Placement]) -> list[float] | None:
        _check(state)
        if len(placements) < 2 or not self.weight:
            return None
        x = np.stack([features_after(state, player, p) for p in placements])
        logits = self.net.logits(x).reshape(-1)
        return [self.weight * float(v) for v in logits]


def _expert(weights: str | None = None, weight: float = WEIGHT, **kw: Any) -> QwirkleExpert:
    return QwirkleExpert(_config(2.0, kw), VALUE.load(weights) if weights else None, weight)


EXPERT: Callable[..., Bot] = _expert
"""The factory of ``expert`` (``expert:weights=FILE`` plays other weights, ``weight=W`` points per log-odds
unit; the rest as ``hard``)."""


# ---------------------------------------------------------------------------------------------- training
def play_greedy_game(game: Game[Any, Any], seed: int, rng: Rng) -> tuple[list[tuple[Array, int]], tuple[float, ...]]:
    """One game of the compiled greedy (see the module docstring): the features after every placement,
    with the placer, and the final scores."""
    state: QState = game.new_game(seed=seed)
    _check(state)
    reroller = QwirkleSearch(QwirkleConfig(rounds=1, top=1), name="greedy")
    values = values_of(kernel_of(game))
    trail: list[tuple[Array, int]] = []
    for _ in range(10_000):
        if game.is_terminal(state):
            return trail, tuple(float(p) for p in state.points)
        p = game.current_player(state)
        if p == CHANCE:
            state = game.apply(state, game.chance_outcome(state), p)
            continue
        if state.phase == PLACE:
            hand = state.hands[p]
            hm = hand_mask(hand)
            need = largest_line(hm) if not state.board.cells else 0
            options = values.placement_values(state.board, hm, need, state.hands, p, True, {})
            scored = sorted(
                ((v + (LINE_MAX if len(pl) == len(hand) and state.bag_size == 0 else 0), i, pl)
                 for i, (pl, v) in enumerate(options)),
                key=lambda e: (-e[0], e[1]),
            )  # fmt: skip
            pick = 1 if len(scored) > 1 and rng.below(1 << 20) < EXPLORE * (1 << 20) else 0
            placed = scored[pick][2]
            trail.append((features_after(state, p, placed), p))
            action: Any = Place(placed)
        elif state.phase == PASS:
            action = reroller.choose(game, state, p, rng)
        else:
            action = reroller.choose(game, state, p, rng)
        state = game.apply(state, action, p)
    raise RuntimeError("a greedy game did not end")


def self_play(
    net: ValueNet | None, games: int, seed: int, clock: str = "wall"
) -> tuple[Array, npt.NDArray[np.float32], dict[str, float]]:
    """``games`` greedy games: (features, labels, statistics) of every placement's position (see the
    module docstring). ``net`` and ``clock`` are not used: the games are the greedy's and nothing is timed."""
    del net, clock
    x, y, stats, scores = label_by_result(get_game(GAME_ID), play_greedy_game, games, seed)
    stats["mean_abs_margin"] = float(np.mean([abs(r[0] - r[1]) for r in scores])) if scores else 0.0
    return x, y, stats
