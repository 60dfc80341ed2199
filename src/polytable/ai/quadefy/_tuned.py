"""Quadefy's ``expert``: ``hard``'s search with its knobs tuned by self-play against ``hard``.

Why these knobs: at 0.1 s a move ``hard`` decides its first six or seven plies with a handful of MCTS
iterations (about 5 to 10 at 0.1 s of CPU): its mobility prior, built with a whole game step per legal
placement, costs about 80 ms at the root alone, and the exact search, half the time, never finishes
before ply 6 (measured: docs/ai-training.md, section Quadefy). From ply 7 on the exact search decides
almost every move. So the game is won or lost in the opening, where ``hard`` barely searches.

``expert`` keeps ``hard``'s parts and changes where the time goes:

* **The same prior, cheaper.** Each placement's mobility difference (own placements minus the
  opponent's after it, a placement that leaves the opponent without a move worth 1000: the values of
  ``hard``'s prior) is counted straight on bit sets by the game's kernel, about 20 times faster than
  through game steps; every legal placement is ordered (``hard`` samples 400 of them when there are
  more). The MCTS then runs about ten times as many iterations in the opening.
* **No exact search before ply** ``solve_from``: it cannot finish there, so the MCTS gets the whole
  time; from that ply on the exact search gets ``solve_share`` of it (a proven win is played).
* **Exact leaves.** A leaf of the MCTS at least ``leaf_solve_ply`` blocks deep is valued by the compiled
  exact search within ``leaf_solve_nodes`` positions (its table is kept between calls, so the exact
  search of the next moves starts warm); when it does not finish, by ``playouts`` random games to the
  end, as ``hard``'s leaves.
* ``exploration``, ``widen_c`` and ``widen_alpha``: the MCTS's UCB constant and progressive widening.

The values (:class:`SearchParams`) are tuned by self-play against ``hard`` (``benchmarks/quadefy_tune_search.py``)
and shipped in :data:`TUNED_FILE` beside this module. The file records the game, the rules version and
the parameters' names (:data:`TUNED_TERMS`); any other is refused with a
:class:`~polytable.ai._learn.WeightsError`.
"""

from __future__ import annotations

import dataclasses
import json
import math
from importlib import resources
from pathlib import Path
from typing import Any

from ...core import ConfigError, Game, Rng, get_game
from ...games.quadefy import ACTIONS, PLACEMENTS, QuadefyState, kernel_of
from .._learn import WeightsError
from .._mcts import MCTSBot, MCTSConfig, _Node
from ._player import QuadefyConfig, QuadefyHardBot, _native_flags

__all__ = ["TUNED_FILE", "TUNED_TERMS", "QuadefyExpert", "SearchParams", "load_tuned"]

TUNED_FILE = "tuned.json"
"""The tuned search parameters shipped beside this module (their presence makes tables offer ``expert``)."""
TUNED_TERMS = "quadefy-search-v1"
"""The name of the parameter set :class:`SearchParams` reads (change it when the parameters change)."""


@dataclasses.dataclass(frozen=True)
class SearchParams:
    """``expert``'s knobs (see the module docstring); the defaults are ``hard``'s where ``hard`` has the knob."""

    solve_from: int = 0
    solve_share: float = 0.5
    exploration: float = 0.7
    widen_c: float = 2.0
    widen_alpha: float = 0.5
    leaf_solve_ply: int = 16
    leaf_solve_nodes: int = 0
    playouts: int = 1

    def __post_init__(self) -> None:
        if not 0.0 < self.solve_share < 1.0:
            raise ConfigError("solve_share must be strictly between 0 and 1")
        if self.solve_from < 0 or self.leaf_solve_ply < 0 or self.leaf_solve_nodes < 0 or self.playouts < 1:
            raise ConfigError("solve_from, leaf_solve_ply and leaf_solve_nodes must be >= 0 and playouts >= 1")
        if self.exploration < 0 or self.widen_c <= 0 or not 0.0 <= self.widen_alpha <= 1.0:
            raise ConfigError("exploration must be >= 0, widen_c > 0 and widen_alpha within [0, 1]")


_NAMES = tuple(f.name for f in dataclasses.fields(SearchParams))
_INTS = {f.name for f in dataclasses.fields(SearchParams) if f.type == "int"}


def _typed(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` as the numbers :class:`SearchParams` holds (a ValueError when one is not a number)."""
    return {k: int(v) if k in _INTS else float(v) for k, v in values.items()}


def load_tuned(path: str | Path | None = None) -> SearchParams:
    """The tuned parameters in ``path`` (default: the shipped :data:`TUNED_FILE`), refused with a
    :class:`WeightsError` unless the file was made for Quadefy under the current rules version with the
    parameter set :data:`TUNED_TERMS`."""
    where = Path(path) if path else Path(str(resources.files("polytable.ai.quadefy") / TUNED_FILE))
    try:
        data = json.loads(where.read_text())
        game, rules, terms, values = data["game"], str(data["rules_version"]), data["terms"], data["params"]
    except FileNotFoundError:
        if path:
            raise WeightsError(f"no parameters file at {where}") from None
        raise WeightsError("no Quadefy search parameters are shipped: give expert:tuned=FILE") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise WeightsError(f"{where} is not a Quadefy parameters file ({exc})") from None
    current = str(get_game("quadefy").spec.rules_version)
    if game != "quadefy":
        raise WeightsError(f"{where} holds parameters for {game!r}, not 'quadefy'")
    if rules != current:
        raise WeightsError(
            f"{where} was tuned under quadefy rules version {rules}, but the rules are now version {current}: "
            "parameters tuned under other rules do not apply (tune again)"
        )
    if terms != TUNED_TERMS or not isinstance(values, dict) or set(values) != set(_NAMES):
        raise WeightsError(
            f"{where} sets the parameters {terms!r}, this player reads {TUNED_TERMS!r} ({sorted(_NAMES)})"
        )
    try:
        return SearchParams(**_typed(values))
    except (TypeError, ValueError) as exc:
        raise WeightsError(f"{where} holds a parameter that is not a number ({exc})") from None


class _TunedMCTS(MCTSBot):
    """The generic MCTS with the bit-set prior and the exact leaves of the module docstring."""

    def __init__(self, config: MCTSConfig, params: SearchParams, native: Any) -> None:
        super().__init__(config, "expert")
        self.params = params
        self.native = native

    def _open_actions(self, game: Game[Any, Any], state: Any, node: _Node, p: int, rng: Rng) -> list[Any]:
        # Quadefy has no chance and no hidden information: a node's legal placements never change, so
        # they are ordered once, by the prior, and the widening opens them in that order.
        if node.order is None:
            s: QuadefyState = state
            kernel = kernel_of(game)
            occ, flags = s.occupied, s.flags
            me, opp = s.remaining[p], s.remaining[1 - p]
            scored = []
            for pid in kernel.legal(occ, me, flags):
                placed = PLACEMENTS[pid]
                child = occ | placed.mask
                theirs = kernel.count(child, opp, flags)
                mine = kernel.count(child, me & ~(1 << placed.block), flags) if theirs else 0
                scored.append((1000 if theirs == 0 else mine - theirs, pid))
            scored.sort(key=lambda vp: -vp[0])  # stable: generation order within a value
            node.order = [ACTIONS[pid] for _, pid in scored]
        cfg = self.config
        limit = max(1, math.ceil(cfg.widen_c * (node.visits + 1) ** cfg.widen_alpha))
        return node.order[:limit]

    def _rollout(self, game: Game[Any, Any], state: Any, rng: Rng) -> list[float]:
        s: QuadefyState = state
        if s.loser >= 0:
            return [0.0 if s.loser == 0 else 1.0, 0.0 if s.loser == 1 else 1.0]
        params = self.params
        if self.native is not None and params.leaf_solve_nodes > 0 and len(s.moves) >= params.leaf_solve_ply:
            me, opp = s.remaining[s.to_move], s.remaining[1 - s.to_move]
            with self.native.lock:
                _native_flags(self.native, s.flags)
                verdict, _ = self.native.solve(
                    s.occupied, me, opp, s.flags, 0, max_nodes=params.leaf_solve_nodes, dedup_plies=1
                )
            if verdict >= 0:
                v = float(verdict)
                return [v, 1.0 - v] if s.to_move == 0 else [1.0 - v, v]
        first_wins = 0
        for _ in range(params.playouts):
            end, _n = game.playout(s, [rng], self.config.rollout_depth)
            first_wins += end.loser == 1
        w = first_wins / params.playouts
        return [w, 1.0 - w]


class QuadefyExpert(QuadefyHardBot):
    """``hard`` with the tuned search (see the module docstring)."""

    name = "expert"

    def __init__(self, config: QuadefyConfig | None = None, params: SearchParams | None = None) -> None:
        self.params = params = params or load_tuned()
        super().__init__(dataclasses.replace(config or QuadefyConfig(), solve_share=params.solve_share))
        shared = dataclasses.replace(
            self._mcts_config(), exploration=params.exploration, widen_c=params.widen_c, widen_alpha=params.widen_alpha
        )
        self._shared = shared
        self._whole = dataclasses.replace(shared, seconds=self.seconds)
        self._tuned = _TunedMCTS(shared, params, self._native)
        self._mcts = self._tuned

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        self._tuned.native = self._native  # the leaves' exact search is the bot's (a test may replace it)
        if len(state.moves) >= self.params.solve_from:
            self._mcts.config = self._shared
            return super().choose(game, state, player, rng)
        self.last = (-1, None)
        self._mcts.config = self._whole
        self._mcts.clock = self.clock
        return self._mcts.choose(game, state, player, rng)


def make_expert(tuned: str | None = None, **kw: Any) -> QuadefyExpert:
    """``expert`` with the shipped parameters (``tuned=FILE``: other ones); a parameter given by name
    (``expert:solve_from=0``) replaces the file's, the rest are ``hard``'s (``seconds``, ``clock``, ...)."""
    params = load_tuned(tuned)
    mine = {k: kw.pop(k) for k in list(kw) if k in _NAMES}
    if mine:
        try:
            params = dataclasses.replace(params, **_typed(mine))
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"expert: a search parameter that is not a number ({exc})") from None
    return QuadefyExpert(QuadefyConfig(**kw), params)
