"""Quadefy: a variant of `hard` with tuned search knobs, measured against `hard` at 0.1 s of CPU a move.

Not shipped: tuned by self-play it looked stronger (0.63 of 100 games in its tuning round), but on fresh
seeds it scored 0.510 over 400 arena games against `hard` (0.461-0.559), short of issue 36's 55%
(docs/benchmarks/2026-12-05-quadefy-expert-tuning.md). Kept to replay that measurement.

The variant (:class:`TunedHard`) is `hard`'s search with these changes (:class:`SearchParams`):

* the same mobility prior (own placements minus the opponent's after a placement, 1000 when the opponent
  is left without one), counted on bit sets by the game's kernel, about 20 times faster than `hard`'s
  prior through game steps, over every legal placement (`hard` samples 400 when there are more): about
  ten times as many MCTS iterations in the opening (`hard` gets 5-10 at 0.1 s of CPU);
* no exact search before ply ``solve_from`` (it never finishes there at this budget), then
  ``solve_share`` of the time for it;
* MCTS leaves at least ``leaf_solve_ply`` blocks deep valued by the compiled exact search within
  ``leaf_solve_nodes`` positions (random playouts when it does not finish, ``playouts`` of them);
* the MCTS's ``exploration`` and progressive widening (``widen_c``, ``widen_alpha``).

A match: games ``seed`` .. ``seed + games - 1`` between the variant and `hard`, seats alternating as in the
arena (the variant first in even games; the same seeds and seats as ``polytable arena`` with the variant
as the first AI), both on ``seconds`` of CPU a move (``clock=cpu``, so the machine's load does not bias
it). The result is the variant's win share with its standard error and Wilson 95% interval, split by
seat (Quadefy's second player wins most games between equals), and the number of distinct games.

``--tune`` replays the search as it was run: each round plays every candidate of the round (changes to
the round's starting point) on the round's seeds; the best candidate whose win share is more than one
standard error above 1/2 becomes the next round's starting point (when none is, the start stays). The
players think for a time, so a replay plays other games than the run did. ``--check`` plays one
parameter set (JSON changes to :data:`MEASURED`, the set measured on fresh seeds, or to `hard`'s knobs
with ``--from-hard``).

    nice python benchmarks/quadefy_tune_search.py --tune
    nice python benchmarks/quadefy_tune_search.py --check '{}' --seed 40000 --games 100
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import time
from typing import Any

from polytable.ai._arena import wilson
from polytable.ai._mcts import MCTSBot, MCTSConfig, _Node
from polytable.ai.quadefy import QuadefyConfig, QuadefyHardBot
from polytable.ai.quadefy._evaluator import mobility_after
from polytable.ai.quadefy._player import _native_flags
from polytable.core import ConfigError, Game, Rng, get_game
from polytable.games.quadefy import ACTIONS, QuadefyState, kernel_of
from polytable.match import play_game


@dataclasses.dataclass(frozen=True)
class SearchParams:
    """The variant's knobs (see the module docstring); the defaults are ``hard``'s where ``hard`` has the knob."""

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


MEASURED = SearchParams(solve_from=5, solve_share=0.7, leaf_solve_ply=7, leaf_solve_nodes=1000)
"""The set the search kept (round 2) and the one measured in the arena on fresh seeds."""


class _TunedMCTS(MCTSBot):
    """The generic MCTS with the bit-set prior and the exact leaves (see the module docstring)."""

    def __init__(self, config: MCTSConfig, params: SearchParams, native: Any) -> None:
        super().__init__(config, "tuned")
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
                scored.append((mobility_after(kernel, occ, me, opp, flags, pid), pid))
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


class TunedHard(QuadefyHardBot):
    """``hard`` with the knobs of :class:`SearchParams` (see the module docstring)."""

    name = "tuned"

    def __init__(self, config: QuadefyConfig | None = None, params: SearchParams = MEASURED) -> None:
        self.params = params
        super().__init__(dataclasses.replace(config or QuadefyConfig(), solve_share=params.solve_share))
        shared = dataclasses.replace(
            self._mcts_config(), exploration=params.exploration, widen_c=params.widen_c, widen_alpha=params.widen_alpha
        )
        self._shared = shared
        self._whole = dataclasses.replace(shared, seconds=self.seconds)
        self._tuned = _TunedMCTS(shared, params, self._native)
        self._mcts = self._tuned

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        self._tuned.native = self._native
        if len(state.moves) >= self.params.solve_from:
            self._mcts.config = self._shared
            return super().choose(game, state, player, rng)
        self.last = (-1, None)
        self._mcts.config = self._whole
        self._mcts.clock = self.clock
        return self._mcts.choose(game, state, player, rng)


ROUNDS: list[tuple[int, int, list[dict[str, Any]]]] = [
    (
        10000,
        100,
        [
            {},
            {"solve_from": 6},
            {"solve_from": 5, "solve_share": 0.9},
            {"solve_from": 5, "solve_share": 0.9, "leaf_solve_ply": 7, "leaf_solve_nodes": 1000},
            {"solve_from": 7, "leaf_solve_ply": 7, "leaf_solve_nodes": 1000},
            {"solve_from": 5, "solve_share": 0.9, "leaf_solve_ply": 6, "leaf_solve_nodes": 3000},
            {"solve_from": 5, "solve_share": 0.9, "leaf_solve_ply": 7, "leaf_solve_nodes": 300},
        ],
    ),
    (
        10000,
        100,
        [
            {"playouts": 8},
            {"exploration": 0.4},
            {"widen_c": 4.0},
            {"solve_from": 6},
            {"solve_from": 6, "leaf_solve_nodes": 3000},
            {"solve_share": 0.7},
        ],
    ),
    (10100, 100, [{}, {"leaf_solve_nodes": 3000}, {"solve_share": 0.5}]),
]
"""The search as it was run: each round's seed, games, and the candidates (changes to the round's start;
the first round starts from `hard`'s knobs with the bit-set prior, ``SearchParams()``; ``{}`` plays the
start itself)."""


def match(params: SearchParams, seed: int, games: int, seconds: float = 0.1) -> dict[str, Any]:
    """The variant under ``params`` against `hard` (see the module docstring)."""
    game = get_game("quadefy")
    config = QuadefyConfig(seconds=seconds, clock="cpu")
    wins, by_seat, distinct = 0, [0, 0], set()
    start = time.process_time()
    for g in range(games):
        first = g % 2 == 0
        tuned, hard = TunedHard(config, params), QuadefyHardBot(config)
        st = play_game(game, [tuned, hard] if first else [hard, tuned], {}, seed + g).state
        me = 0 if first else 1
        won = st.loser != me
        wins += won
        by_seat[me] += won
        distinct.add(st.moves)
    rate = wins / games
    se = math.sqrt(rate * (1 - rate) / games)
    return {
        "params": dataclasses.asdict(params),
        "seed": seed,
        "games": games,
        "wins": wins,
        "win_rate": round(rate, 3),
        "se": round(se, 3),
        "ci95": [round(x, 3) for x in wilson(wins, games)],
        "wins_as_first": by_seat[0],
        "wins_as_second": by_seat[1],
        "distinct_games": len(distinct),
        "cpu_s": round(time.process_time() - start, 1),
    }


def tune(seconds: float) -> SearchParams:
    """Replay :data:`ROUNDS` (see the module docstring); print each match as a JSON line."""
    base = SearchParams()
    for seed, games, candidates in ROUNDS:
        best: tuple[float, SearchParams] | None = None
        for change in candidates:
            params = dataclasses.replace(base, **change)
            result = match(params, seed, games, seconds)
            print(json.dumps({"change": change, **result}), flush=True)
            if result["win_rate"] - result["se"] > 0.5 and (best is None or result["win_rate"] > best[0]):
                best = (result["win_rate"], params)
        if best is not None:
            base = best[1]
        print(json.dumps({"round_seed": seed, "kept": dataclasses.asdict(base)}), flush=True)
    return base


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tune", action="store_true", help="replay the search as it was run")
    ap.add_argument("--check", metavar="JSON", help="changes to the measured parameters to play against hard")
    ap.add_argument("--from-hard", action="store_true", help="--check's changes apply to hard's knobs")
    ap.add_argument("--seed", type=int, default=40000)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=0.1, help="CPU seconds a move for both players")
    args = ap.parse_args()
    if args.tune:
        tune(args.seconds)
    elif args.check is not None:
        base = SearchParams() if args.from_hard else MEASURED
        params = dataclasses.replace(base, **json.loads(args.check))
        print(json.dumps(match(params, args.seed, args.games, args.seconds)))
    else:
        ap.error("give --tune or --check")


if __name__ == "__main__":
    main()
