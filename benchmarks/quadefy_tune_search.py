"""Quadefy: how `expert`'s search parameters were tuned, by self-play against `hard` at 0.1 s of CPU a move.

`expert` is `hard`'s search with the knobs of `polytable.ai.quadefy._tuned.SearchParams` (the exact search's
start and share of the time, the MCTS's exploration and widening, exact leaves, playouts per leaf). A
match: games ``seed`` .. ``seed + games - 1`` between `expert` under the parameters tried and `hard`, seats
alternating as in the arena (`expert` first in even games), both on ``seconds`` of CPU a move
(``clock=cpu``, so the machine's load does not bias it). The result is `expert`'s win share with its
standard error and Wilson 95% interval, split by seat (Quadefy's second player wins most games between
equals), and the number of distinct games (move sequences).

``--tune`` replays the search that chose the shipped parameters (issue 36): each round plays every
candidate of the round (changes to the round's starting point) on the round's seeds; the best candidate
whose win share is more than one standard error above 1/2 becomes the next round's starting point (when
none is, the start stays). The
players think for a time, so a replay plays other games than the run did (the figures of the run are in
docs/ai-training.md, section Quadefy). ``--check`` plays one parameter set (JSON changes to the shipped
ones, or to `hard`'s knobs with ``--from-hard``).

    nice python benchmarks/quadefy_tune_search.py --tune
    nice python benchmarks/quadefy_tune_search.py --check '{}' --seed 30000 --games 100
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import time
from typing import Any

from polytable.ai._arena import wilson
from polytable.ai.quadefy import QuadefyConfig, QuadefyHardBot
from polytable.ai.quadefy._tuned import QuadefyExpert, SearchParams, load_tuned
from polytable.core import get_game
from polytable.match import play_game

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
    """`expert` under ``params`` against `hard` (see the module docstring)."""
    game = get_game("quadefy")
    config = QuadefyConfig(seconds=seconds, clock="cpu")
    wins, by_seat, distinct = 0, [0, 0], set()
    start = time.process_time()
    for g in range(games):
        first = g % 2 == 0
        expert, hard = QuadefyExpert(config, params), QuadefyHardBot(config)
        st = play_game(game, [expert, hard] if first else [hard, expert], {}, seed + g).state
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
    ap.add_argument("--tune", action="store_true", help="replay the search that chose the shipped parameters")
    ap.add_argument("--check", metavar="JSON", help="changes to the shipped parameters to play against hard")
    ap.add_argument("--from-hard", action="store_true", help="--check's changes apply to hard's knobs")
    ap.add_argument("--seed", type=int, default=30000)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=0.1, help="CPU seconds a move for both players")
    args = ap.parse_args()
    if args.tune:
        tune(args.seconds)
    elif args.check is not None:
        base = SearchParams() if args.from_hard else load_tuned()
        params = dataclasses.replace(base, **json.loads(args.check))
        print(json.dumps(match(params, args.seed, args.games, args.seconds)))
    else:
        ap.error("give --tune or --check")


if __name__ == "__main__":
    main()
