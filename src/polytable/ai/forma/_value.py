"""Forma's learned player (2 players): ``expert``, ``hard`` with evaluation weights tuned by self-play
(shipped in ``weights.json``); and the value network it can also use (the features it reads, the game's
part of the training pipeline, :mod:`polytable.ai._learn`).

**The tuned weights** (:func:`load_tuned`, the file :data:`TUNED_FILE` beside this module). ``hard`` scores
its candidates and plays its playouts with the greedy's one-ply evaluation (``_eval.place_value``: points
now, minus ``gift`` per cell left with three closed sides, plus ``pocket`` per two-sided cell next to
one's own, ``bridge`` x the joined group's span squared, ``block``, ``space``, ``size``). ``expert`` plays
the same search with the six weights the self-play tuning of the playouts' greedy chose (gift 3, pocket
0.5, bridge 25 instead of 6, 1.5, 45): with them the playouts' greedy beats the engine's 0.675 over 200
games, and ``expert`` beats ``hard`` at the same CPU a move (docs/ai-training.md, section Forma). The file
records the game, the rules version and the evaluation's terms (:data:`TUNED_TERMS`); any other is
refused with a :class:`~polytable.ai._learn.WeightsError`.

**The value network** (``expert:weights=FILE``: measured weaker than the bare lead, so none is shipped):

Why here: ``hard`` ends each of its short playouts (:class:`._player._Playouts`: five plies of a cheap
greedy) with the bare score lead, blind to what the board still holds: cells nearly enclosed, groups close
to a bridge, room left for the big pieces. The network values the playout's last position instead: the
chance that the player to move there wins, from (``forma-board-v1``, 26 numbers, for the player ``p`` to
move and the opponent ``o``):

* the score lead and both scores; the bridges each has scored; the share of the board still empty;
* the cells left in each stock by piece size (1 to 5, as shares of the starting set), for both;
* the empty cells with three closed sides (the mover's to take), those with two, and the two-sided ones
  next to each colour's cells (the evaluator's enclosure potential);
* each colour's longest group span (rows or columns, over the board's size: bridge progress);
* each colour's room: the anchors left for its pentominoes and tetrominoes still in stock (log scale);
* the moves played, and whether ``p`` moved first.

With a network, ``expert``'s playouts are valued by it: the finalist chosen is the one whose playouts reach
positions it rates best (the mean chance; ``logit=1``: the mean log-odds, which does not flatten where the
chance nears 0 or 1); without one (the default) by the score lead, as ``hard``'s.

Training data (:func:`self_play`): games of the playouts' own greedy (:func:`._player._fast_move`) for
both sides, on the game object's kernel (compiled when built), the first plies at random for variety;
every position is labelled with the result of the player to move (1 win, 0 loss, 1/2 a draw).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import fields
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core import ConfigError, Game, Rng, get_game
from ...games import forma as P
from ...games.forma import Fill, FormaState, flood, kernel_of
from .._bots import Bot
from .._learn._game import LearnedValue, label_by_result
from .._learn._net import ValueNet, WeightsError
from ._eval import Weights, _sides, extent
from ._player import HARD, FormaConfig, FormaGreedy, FormaLookahead, _fast_move

__all__ = [
    "FEATURES",
    "N_FEATURES",
    "TUNED_FILE",
    "TUNED_TERMS",
    "VALUE",
    "FormaExpert",
    "features",
    "load_tuned",
    "play_game",
    "self_play",
]

TUNED_FILE = "weights.json"
"""The tuned evaluation weights shipped beside this module (their presence makes tables offer ``expert``)."""
TUNED_TERMS = "forma-place-v1"
"""The name of the one-ply evaluation's terms the weights weigh (``_eval.Weights``: change it when they change)."""

FEATURES = "forma-board-v1"
"""The name of this feature set (a weights file records it; change it when the features change)."""
N_FEATURES = 26
_SIZES = (1, 2, 3, 4, 5)
_START = [2 * sum(P.START_COUNTS[q] for q in range(P.NUM_PIECES) if P.PIECE_SIZES[q] == n) * n for n in _SIZES]
"""Each colour's starting cells by piece size with 2 players (two sets each)."""
_BIG = tuple(q for q in range(P.NUM_PIECES) if P.PIECE_SIZES[q] >= 4)
ARENA_PLAYERS = 2
"""The player count the training loop's gate plays (the value knows 2 players only)."""
RANDOM_PLIES = 4
"""Self-play's first placements at random (beyond the set-up's), so games differ from the start."""

Array = npt.NDArray[np.float32]


def _span(tb: P.Tables, own: int) -> int:
    """The most rows or columns one group of ``own`` covers."""
    best = 0
    rest = own
    while rest:
        comp = flood(tb, rest & -rest, own)
        rest &= ~comp
        r0, r1, c0, c1 = extent(tb, comp)
        best = max(best, r1 - r0 + 1, c1 - c0 + 1)
    return best


def features(game: Game[Any, Any], s: FormaState, p: int) -> Array:
    """The feature vector of ``s`` for player ``p`` against the other (see the module docstring)."""
    o = 1 - p
    tb = kernel_of(game).tables(s.size)
    n = s.size
    st = tb.stride
    out = np.zeros(N_FEATURES, np.float32)
    out[0] = (s.scores[p] - s.scores[o]) / 100.0
    out[1] = s.scores[p] / 500.0
    out[2] = s.scores[o] / 500.0
    out[3] = s.bridges[p] / 3.0
    out[4] = s.bridges[o] / 3.0
    empty = tb.board & ~s.filled
    out[5] = empty.bit_count() / (n * n)
    for j, who in enumerate((p, o)):
        stock = s.stock[who]
        cells = [0] * len(_SIZES)
        for q in range(P.NUM_PIECES):
            cells[P.PIECE_SIZES[q] - 1] += stock[q] * P.PIECE_SIZES[q]
        for k in range(len(_SIZES)):
            out[6 + 5 * j + k] = cells[k] / _START[k]
    le, ri, up, dn = _sides(tb, s.filled)
    three = empty & ((le & ri & (up | dn)) | (up & dn & (le | ri)))
    two = empty & ~three & ((le & (ri | up | dn)) | (ri & (up | dn)) | (up & dn))
    out[16] = three.bit_count() / 10.0
    out[17] = two.bit_count() / 30.0
    table = tb.table(empty)
    for j, who in enumerate((p, o)):
        own = s.pieces[who] | s.markers[who]
        near = ((own << 1) | (own >> 1) | (own << st) | (own >> st)) & two
        out[18 + j] = near.bit_count() / 20.0
        out[20 + j] = _span(tb, own) / n
        room = 0
        for q in _BIG:
            if s.stock[who][q]:
                for g in P.PIECE_ORIENTS[q]:
                    room += table[g].bit_count()
        out[22 + j] = math.log1p(room) / 8.0
    out[24] = s.moves / 70.0
    out[25] = 1.0 if p == 0 else 0.0
    return out


def _check(game: Game[Any, Any], s: FormaState) -> None:
    if len(s.scores) != 2:
        raise ConfigError("the expert player knows Forma with 2 players only")


VALUE = LearnedValue("forma", "polytable.ai.forma", FEATURES, N_FEATURES, (32, 16))
"""This feature set's weights (shipped, loaded, fresh: :class:`~polytable.ai._learn._game.LearnedValue`)."""


def load_tuned(path: str | Path | None = None) -> Weights:
    """The tuned evaluation weights in ``path`` (default: the shipped :data:`TUNED_FILE`), refused with a
    :class:`WeightsError` unless the file was made for Forma under the current rules version with the
    evaluation's terms :data:`TUNED_TERMS`."""
    where = Path(path) if path else Path(str(resources.files("polytable.ai.forma") / TUNED_FILE))
    try:
        data = json.loads(where.read_text())
        game, rules, terms, values = data["game"], str(data["rules_version"]), data["terms"], data["weights"]
    except FileNotFoundError:
        if path:
            raise WeightsError(f"no weights file at {where}") from None
        raise WeightsError("no Forma weights are shipped: give expert:tuned=FILE") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise WeightsError(f"{where} is not a Forma weights file ({exc})") from None
    current = str(get_game("forma").spec.rules_version)
    if game != "forma":
        raise WeightsError(f"{where} holds weights for {game!r}, not 'forma'")
    if rules != current:
        raise WeightsError(
            f"{where} was tuned under forma rules version {rules}, but the rules are now version {current}: "
            "weights tuned under other rules do not apply (tune again)"
        )
    names = {f.name for f in fields(Weights)}
    if terms != TUNED_TERMS or not isinstance(values, dict) or set(values) != names:
        raise WeightsError(f"{where} weighs the terms {terms!r}, this player reads {TUNED_TERMS!r} ({sorted(names)})")
    return Weights(**{k: float(v) for k, v in values.items()})


class FormaExpert(FormaLookahead):
    """``hard`` with the tuned evaluation weights; with a network, its playouts valued by it (see the module
    docstring)."""

    def __init__(
        self,
        config: FormaConfig | None = None,
        net: ValueNet | None = None,
        logit: bool = False,
        tuned: Weights | None = None,
    ) -> None:
        super().__init__(config, name="expert", weights=tuned if tuned is not None else load_tuned())
        self.net = net
        self.logit = logit

    def playout_value(self, game: Game[Any, Any], t: FormaState, me: int) -> float:
        if self.net is None:
            return super().playout_value(game, t, me)
        if game.is_terminal(t):
            returns = game.returns(t)
            winners = [i for i, r in enumerate(returns) if r == max(returns)]
            return (me in winners) / len(winners)
        _check(game, t)
        q = game.current_player(t)
        if q < 0:
            return super().playout_value(game, t, me)
        pr = float(self.net.predict(features(game, t, q)[None, :])[0])
        pr = pr if q == me else 1.0 - pr
        if self.logit:  # the log-odds: linear in a lead where the chance saturates near 0 or 1
            pr = min(max(pr, 1e-6), 1.0 - 1e-6)
            return math.log(pr / (1.0 - pr))
        return pr


def _expert(weights: str | None = None, logit: bool = False, tuned: str | None = None, **kw: Any) -> FormaExpert:
    net = VALUE.load(weights) if weights else None
    return FormaExpert(FormaConfig(**{**HARD, **kw}), net, bool(logit), load_tuned(tuned))


EXPERT: Callable[..., Bot] = _expert
"""The factory of ``expert`` (``expert:tuned=FILE`` plays other tuned weights, ``expert:weights=FILE`` values
the playouts with a network; the rest as ``hard``)."""


# ---------------------------------------------------------------------------------------------- training
def play_game(game: Game[Any, Any], seed: int, rng: Rng) -> tuple[list[tuple[Array, int]], tuple[float, ...]]:
    """One game of the playouts' greedy for both sides (deal ``seed``; the first :data:`RANDOM_PLIES`
    placements at random): the features of every placement's position, with the player to move, and the
    game's returns."""
    st: FormaState = game.new_game(seed=seed, players=2)
    greedy = FormaGreedy()
    trail: list[tuple[Array, int]] = []
    placed = 0
    while not game.is_terminal(st):
        q = game.current_player(st)
        if q < 0:
            st = game.apply(st, game.chance_outcome(st), q)
            continue
        if st.placing:
            st = game.apply(st, Fill(), q)
            continue
        if st.picked < 0 and st.config["touch_move"]:
            st = game.apply(st, greedy.choose(game, st, q, rng), q)
            continue
        _check(game, st)
        trail.append((features(game, st, q), q))
        if placed < RANDOM_PLIES:
            a = game.legal_actions(st, q).sample(rng)
        else:
            a = _fast_move(game, st, q, rng)
        st = game.apply(st, a, q)
        placed += 1
    return trail, tuple(game.returns(st))


def self_play(
    net: ValueNet | None, games: int, seed: int, clock: str = "wall"
) -> tuple[Array, npt.NDArray[np.float32], dict[str, float]]:
    """``games`` greedy games (see :func:`play_game`): (features, labels, statistics). ``net`` and ``clock``
    are not used: the games are the playouts' greedy (the positions ``expert`` values) and nothing here is
    timed."""
    del net, clock
    x, y, stats, _ = label_by_result(get_game("forma"), play_game, games, seed)
    return x, y, stats
