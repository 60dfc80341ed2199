"""A short training run through the batched environment: REINFORCE with a linear softmax policy, in NumPy.

The agent plays Quadefy's first seat against the ``random`` AI in N games stepped together by
:class:`polytable.interop.vector.VectorEnv`; the policy is a linear layer over the observation planes with
the illegal actions masked out, trained on each game's return (+1 a win, -1 a loss) minus a running
baseline. Writes the learning curve (win rate per block of games) as a PNG and its numbers as JSON:

    nice python examples/train_vector_pg.py --seconds 180 --out docs/training/quadefy-pg

Nothing here is tuned beyond a first try: it shows that the vector API trains, not a strong Quadefy agent.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from polytable.interop.vector import VectorEnv


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="quadefy")
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--seconds", type=float, default=180.0, help="CPU seconds of training")
    ap.add_argument("--lr", type=float, default=2.0)
    ap.add_argument("--block", type=int, default=500, help="games per point of the curve")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="docs/training/quadefy-pg")
    args = ap.parse_args()

    env = VectorEnv(args.game, args.envs, seed=args.seed, opponent="random", seat=0)
    obs, info = env.reset()
    n, actions = args.envs, env.single_action_space.n
    dim = int(np.prod(env.single_observation_space.shape)) + 1  # the planes and a constant
    rng = np.random.default_rng(args.seed)
    weights = np.zeros((actions, dim), np.float32)
    trails: list[list[tuple[np.ndarray, int, np.ndarray]]] = [[] for _ in range(n)]
    baseline = 0.0
    results: list[float] = []
    curve: list[dict[str, float]] = []
    steps = 0
    cpu = time.process_time()
    while time.process_time() - cpu < args.seconds:
        x = np.concatenate([obs.reshape(n, -1).astype(np.float32), np.ones((n, 1), np.float32)], axis=1)
        logits = x @ weights.T
        legal = info["action_mask"].view(np.bool_)
        logits[~legal] = -np.inf
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        picks = (probs.cumsum(axis=1) < rng.random((n, 1))).sum(axis=1).clip(0, actions - 1)
        picks = np.where(legal[np.arange(n), picks], picks, legal.argmax(axis=1))
        for i in range(n):
            trails[i].append((x[i], int(picks[i]), probs[i]))
        obs, rewards, terminations, _, info = env.step(picks)
        steps += n
        grads_x, grads_g = [], []
        for i in np.flatnonzero(terminations):
            ret = float(rewards[i])
            results.append(ret)
            advantage = ret - baseline
            baseline += 0.01 * (ret - baseline)
            for xi, ai, pi in trails[i]:
                g = -pi * advantage
                g[ai] += advantage
                grads_x.append(xi)
                grads_g.append(g)
            trails[i] = []
        if grads_x:
            weights += args.lr / len(grads_x) * np.stack(grads_g).T @ np.stack(grads_x)
        while len(results) >= (len(curve) + 1) * args.block:
            block = results[len(curve) * args.block : (len(curve) + 1) * args.block]
            curve.append(
                {
                    "games": float((len(curve) + 1) * args.block),
                    "steps": float(steps),
                    "cpu_seconds": round(time.process_time() - cpu, 1),
                    "win_rate": float(np.mean([r > 0 for r in block])),
                }
            )
            print(curve[-1], flush=True)

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"game": args.game, "envs": n, "lr": args.lr, "seed": args.seed, "opponent": "random", "seat": 0}
    out.with_suffix(".json").write_text(json.dumps({"run": meta, "curve": curve}, indent=1) + "\n", encoding="utf-8")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([c["games"] for c in curve], [c["win_rate"] for c in curve], marker=".")
    ax.axhline(0.5, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel(f"training games ({n} stepped together)")
    ax.set_ylabel(f"win rate per {args.block} games")
    ax.set_title(f"{args.game}: linear REINFORCE vs the random AI, first seat")
    ax.set_ylim(0, 1)
    fig.tight_layout()
    fig.savefig(out.with_suffix(".png"), dpi=110)
    print(f"wrote {out.with_suffix('.png')} and {out.with_suffix('.json')}")


if __name__ == "__main__":
    main()
