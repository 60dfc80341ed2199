"""Forma: how `expert`'s evaluation weights were tuned, by self-play of `hard`'s playout greedy.

`hard` scores its candidates and plays its playouts with the one-ply evaluation's six weights
(`_eval.Weights`); its playouts are a cheap greedy (`_player._fast_move`), 0.1 s of CPU a whole game, so
200 games of two weight sets cost about 17 s of CPU. A match: games ``seed`` .. ``seed + games - 1``, seats
alternating as in the arena (A first in even games), 2 players; the result is A's win share (Wilson 95%)
and A's mean final score lead with its standard error.

``--tune`` replays the search that chose the shipped weights (issue 36): each round tries the listed values
of each weight against the round's starting point; a weight's best value by mean lead is kept when its lead
is more than one standard error above zero, and the kept changes are combined for the next round. Round 1
(seed 7000) kept gift 3, pocket 0.5, bridge 25; round 2 (seed 7200) kept nothing. ``--check`` plays two
weight sets against each other (JSON overrides of the engine's weights).

    nice python benchmarks/forma_tune_weights.py --tune
    nice python benchmarks/forma_tune_weights.py --check '{"gift": 3, "pocket": 0.5, "bridge": 25}' '{}' --seed 9000
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import time
from typing import Any

from polytable.ai._arena import wilson
from polytable.ai.forma._eval import ENGINE_WEIGHTS, Weights
from polytable.ai.forma._player import FormaGreedy, _fast_move
from polytable.core import Game, Rng, get_game
from polytable.games.forma import FormaState
from polytable.match import play_game

ROUNDS: list[tuple[int, dict[str, list[float]]]] = [
    (
        7000,
        {
            "gift": [3, 4.5, 9],
            "pocket": [0.5, 3],
            "bridge": [25, 70],
            "block": [5, 30],
            "space": [16, 3],
            "size": [0, 2],
        },
    ),
    (7200, {"pocket": [0], "gift": [2], "bridge": [15]}),
]
"""The search as it was run: each round's seed and the values tried for each weight."""


class PlayoutGreedy:
    """`hard`'s playout greedy as a player, under weights ``w`` (picks under touch-move: the greedy's)."""

    name = "playout-greedy"

    def __init__(self, w: Weights) -> None:
        self.w = w
        self.greedy = FormaGreedy()

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        s: FormaState = state
        if s.placing or (s.picked < 0 and s.config["touch_move"]):
            return self.greedy.choose(game, s, player, rng)
        return _fast_move(game, s, player, rng, self.w)


def match(a: Weights, b: Weights, seed: int, games: int) -> dict[str, Any]:
    """A's results against B (see the module docstring)."""
    game = get_game("forma")
    wins, leads = 0.0, []
    start = time.process_time()
    for g in range(games):
        first = g % 2 == 0
        seats = [PlayoutGreedy(a), PlayoutGreedy(b)] if first else [PlayoutGreedy(b), PlayoutGreedy(a)]
        st = play_game(game, seats, {}, seed + g).state
        me = 0 if first else 1
        won = set(game.winners(st))
        wins += (me in won) / len(won) if won else 0.5
        leads.append(st.scores[me] - st.scores[1 - me])
    mean = sum(leads) / games
    sd = math.sqrt(sum((x - mean) ** 2 for x in leads) / max(1, games - 1))
    lo, hi = wilson(wins, games)
    return {
        "seed": seed,
        "games": games,
        "win_rate": wins / games,
        "ci95": [lo, hi],
        "lead": mean,
        "lead_se": sd / math.sqrt(games),
        "cpu_s": time.process_time() - start,
    }


def tune(games: int) -> list[dict[str, Any]]:
    """Replay :data:`ROUNDS` from the engine's weights: every match, and the weights after each round."""
    point = ENGINE_WEIGHTS
    curve: list[dict[str, Any]] = []
    for seed, tries in ROUNDS:
        kept: dict[str, float] = {}
        for name, values in tries.items():
            best: tuple[float, float, float] | None = None
            for v in values:
                r = match(dataclasses.replace(point, **{name: float(v)}), point, seed, games)
                curve.append({"round_seed": seed, "weight": name, "value": v, **r})
                print(json.dumps(curve[-1]), flush=True)
                if best is None or r["lead"] > best[1]:
                    best = (float(v), r["lead"], r["lead_se"])
            if best is not None and best[1] > best[2]:
                kept[name] = best[0]
        point = dataclasses.replace(point, **kept)
        curve.append({"round_seed": seed, "kept": kept, "weights": dataclasses.asdict(point)})
        print(json.dumps(curve[-1]), flush=True)
    return curve


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tune", action="store_true", help="replay the search (ROUNDS)")
    ap.add_argument("--check", nargs=2, metavar=("A", "B"), help="two weight sets as JSON overrides")
    ap.add_argument("--seed", type=int, default=9000)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--out", help="write the matches (the learning curve) here as JSON")
    args = ap.parse_args()
    if args.check:
        a, b = (dataclasses.replace(ENGINE_WEIGHTS, **json.loads(x)) for x in args.check)
        out: Any = match(a, b, args.seed, args.games)
        print(json.dumps(out))
    elif args.tune:
        out = tune(args.games)
    else:
        ap.error("give --tune or --check")
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
