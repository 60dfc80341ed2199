"""Forma: play two sets of evaluation weights against each other, as the tuning of ``expert``'s weights does.

The tuning itself (the coordinate search that chose the shipped weights) is ``polytable train forma
--method tune --out FOLDER`` (:mod:`polytable.ai.forma._tune`, docs/ai-training.md, section Forma); this
script plays one of its matches on other deals, to check a result on fresh seeds: games ``--seed`` ..
``--seed + games - 1``, 2 players, seats alternating, both sides ``hard``'s playout greedy; it prints A's
win share (Wilson 95%) and mean final lead. A and B are JSON overrides of the engine's weights.

    nice python benchmarks/forma_tune_weights.py --check '{"gift": 3, "pocket": 0.5, "bridge": 25}' '{}' --seed 9000
"""

from __future__ import annotations

import argparse
import dataclasses
import json

from polytable.ai.forma._eval import ENGINE_WEIGHTS
from polytable.ai.forma._tune import GAMES, match


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", nargs=2, metavar=("A", "B"), required=True, help="two weight sets as JSON overrides")
    ap.add_argument("--seed", type=int, default=9000)
    ap.add_argument("--games", type=int, default=GAMES)
    ap.add_argument("--out", help="write the result here as JSON")
    args = ap.parse_args()
    a, b = (dataclasses.replace(ENGINE_WEIGHTS, **json.loads(x)) for x in args.check)
    out = match(a, b, args.seed, args.games)
    print(json.dumps(out))
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
