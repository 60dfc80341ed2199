"""Quadefy: `hard` (or `expert`) against `hard` whose exact search is told the position is the empty cube.

Why: until 2026-12-05 `hard` (and `expert`) called the compiled exact search with depth 0 whatever the
position, so a mid-game search ran the near-start modes (canonical keys, reply-count ordering and the
table) all the way down. This plays the arena between `hard` as it is (or `expert`, with ``--player``)
and `hard` with that old call, both on the CPU clock, seats alternating (the current player first in even
games), one game per seed, and prints the current player's win share with its Wilson 95% interval and the
wins by seat as JSON.

    nice python benchmarks/quadefy_hard_depth.py --seconds 0.1 -n 400 --seed 70000 --workers 2
    nice python benchmarks/quadefy_hard_depth.py --player expert --seconds 0.1 -n 200 --seed 72000 --workers 2
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from polytable.ai import make_bot
from polytable.ai._arena import wilson
from polytable.ai.quadefy import QuadefyConfig, QuadefyHardBot
from polytable.ai.quadefy._player import _native_flags
from polytable.core import Rng, get_game
from polytable.games.quadefy import QuadefyKernel, QuadefyState


class _DepthZeroHard(QuadefyHardBot):
    """`hard` with the exact-search call it had before: depth 0, siblings deduplicated at the root only."""

    def _solve(self, state: QuadefyState, player: int, kernel: QuadefyKernel) -> tuple[int, int | None]:
        if self._native is None:
            return super()._solve(state, player, kernel)
        me, opp = state.remaining[player], state.remaining[1 - player]
        with self._native.lock:
            _native_flags(self._native, state.flags)
            verdict: tuple[int, int | None] = self._native.solve(
                state.occupied, me, opp, state.flags, 0, max_seconds=self.seconds * self.solve_share,
                cpu_clock=self.cpu_clock, dedup_plies=1,
            )  # fmt: skip
            return verdict


def _game(job: tuple[int, float, bool, str]) -> tuple[bool, bool]:
    """(the current player moved first, it won) for one seed."""
    seed, seconds, new_first, player = job
    game = get_game("quadefy")
    config = QuadefyConfig(seconds=seconds, clock="cpu")
    new, old = make_bot(f"{player}:seconds={seconds},clock=cpu", "quadefy"), _DepthZeroHard(config)
    seats: list[Any] = [new, old] if new_first else [old, new]
    rngs = [Rng(seed, stream=1000 + p) for p in range(2)]
    state = game.new_game(seed=seed)
    while not game.is_terminal(state):
        p = game.current_player(state)
        state = game.apply(state, seats[p].choose(game, state, p, rngs[p]), p)
    return new_first, (0 if new_first else 1) in game.winners(state)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=0.1, help="CPU seconds a move, both players")
    ap.add_argument("-n", "--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=70000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--player", choices=["hard", "expert"], default="hard", help="the current player")
    args = ap.parse_args()
    jobs = [(args.seed + g, args.seconds, g % 2 == 0, args.player) for g in range(args.games)]
    by_seat = {"first": [0, 0], "second": [0, 0]}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for first, won in pool.map(_game, jobs, chunksize=1):
            seat = by_seat["first" if first else "second"]
            seat[0] += won
            seat[1] += 1
    wins = by_seat["first"][0] + by_seat["second"][0]
    lo, hi = wilson(wins, args.games)
    result = {"player": args.player, "seconds": args.seconds, "games": args.games, "seed": args.seed}
    result |= {"win_rate": wins / args.games, "ci95": [round(lo, 3), round(hi, 3)], "wins_by_seat": by_seat}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
