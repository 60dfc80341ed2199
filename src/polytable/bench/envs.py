"""``polytable bench envs``: environment steps per second through PettingZoo for every game.

A step is what a training loop does: ``last()`` (the observation planes and the action mask), a uniform
choice among the legal actions, ``step()``, with chance resolved inside the environment. Default
configurations and player counts; rates are per second of this process's CPU time.
"""

from __future__ import annotations

import time

__all__ = ["NAME", "run"]

NAME = "envs"


def _rate(game_id: str, seconds: float) -> dict[str, float]:
    import numpy as np

    from polytable.interop.pettingzoo import raw_env

    env = raw_env(game_id, seed=0)
    rng = np.random.default_rng(0)
    steps = games = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        env.reset(seed=games)
        for _agent in env.agent_iter():
            _, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(info["action_mask"].view(np.bool_)))))
            steps += 1
        games += 1
    used = max(time.process_time() - cpu, 1e-9)
    return {"steps_per_second": round(steps / used, 1), "games": games, "steps": steps}


def run(quick: bool = False) -> dict[str, object]:
    from polytable.core import game_ids
    from polytable.interop.pettingzoo import ENCODED_GAMES

    seconds = 1.0 if quick else 5.0
    return {g: _rate(g, seconds) for g in game_ids() if g in ENCODED_GAMES}
