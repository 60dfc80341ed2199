"""The compiled vector batches' speed by batch size: random legal steps per CPU second of
:class:`polytable.interop.vector.VectorEnv` for Quadefy and Forma (4 players) at N = 1, 16, 64 and 256 games a
call, against OpenSpiel's ``connect_four`` stepped through pyspiel from Python in the same run (one JSON line
per figure). It prints figures and asserts nothing.

    python benchmarks/vector_sizes.py [seconds per figure, default 2]
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np

from polytable.bench._peers import openspiel_random
from polytable.interop.vector import VectorEnv

SIZES = (1, 16, 64, 256)


def rate(game_id: str, num_envs: int, seconds: float) -> float:
    """Steps per CPU second: ``step(sample_actions(rng))`` for ``seconds`` of wall time."""
    env = VectorEnv(game_id, num_envs, seed=0)
    env.reset()
    rng = np.random.default_rng(0)
    steps = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        env.step(env.sample_actions(rng))
        steps += num_envs
    return steps / max(time.process_time() - cpu, 1e-9)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    peer = openspiel_random("connect_four", seconds=seconds)
    c4 = float(peer["steps_per_s"]) if "steps_per_s" in peer else None  # type: ignore[arg-type]
    print(json.dumps({"peer": "OpenSpiel connect_four (pyspiel)", "steps_per_s": c4 or peer.get("status")}))
    for game_id in ("quadefy", "forma"):
        for n in SIZES:
            got = rate(game_id, n, seconds)
            ratio = round(got / c4, 2) if c4 else None
            print(json.dumps({"game": game_id, "games_a_call": n, "steps_per_s": round(got), "vs_peer": ratio}))


if __name__ == "__main__":
    main()
