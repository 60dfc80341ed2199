"""Train a masked-policy agent on Foldris solo with sb3-contrib's MaskablePPO and compare it with random.

Not part of the tests (training takes minutes). Set up and run:

    pip install -e '.[research]' sb3-contrib
    python examples/train_foldris_solo.py --steps 200000

It prints the mean lines per game of the trained agent and of the uniformly random legal player over the
same seeded deals; the reward is the game's return (lines / sheet height, once at the end).
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO

import polytable.interop.gymnasium  # noqa: F401  (registers polytable/FoldrisSolo-v0)


def mean_lines(env: gymnasium.Env, choose, seeds: range) -> float:  # type: ignore[type-arg]
    """Play one game per seed; ``choose(obs, mask)`` picks an action id."""
    total = 0.0
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            obs, _, done, _, _ = env.step(choose(obs, env.unwrapped.action_masks()))
        total += env.unwrapped.table.game.scores(env.unwrapped.table.state)[0]
    return total / len(seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000, help="training steps")
    parser.add_argument("--games", type=int, default=200, help="evaluation games (seeds 10000...)")
    args = parser.parse_args()

    env = gymnasium.make("polytable/FoldrisSolo-v0")
    model = MaskablePPO("MlpPolicy", env, seed=0, verbose=1)
    model.learn(total_timesteps=args.steps)

    seeds = range(10_000, 10_000 + args.games)
    rng = np.random.default_rng(0)
    trained = mean_lines(
        env, lambda obs, mask: int(model.predict(obs, action_masks=mask, deterministic=True)[0]), seeds
    )
    random = mean_lines(env, lambda obs, mask: int(rng.choice(np.flatnonzero(mask))), seeds)
    print(f"MaskablePPO: {trained:.2f} lines per game; random: {random:.2f} (over {args.games} deals)")


if __name__ == "__main__":
    main()
