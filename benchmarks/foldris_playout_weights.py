"""Foldris solo: the greedy policy of `expert`'s playouts, its lines on true orders, and how its weights were tuned.

`expert`'s playouts are the greedy player (a beam of width 1, which sees only the card it places, so it
is an order-blind player whatever order it is run on). Run on each deal's true order it *is* that player's
game, so its mean lines over many deals cost milliseconds: that is what the weights were tuned on
(coordinate search, each weight x0.7 / x1.4, then x0.85 / x1.18, a change kept when it gains more than
0.005 lines on the training deals). ``--check`` compares two weight sets on the same deals (paired);
``--tune`` runs the search from ``--start`` (JSON overrides of the one-ply ``WEIGHTS``).

    nice python benchmarks/foldris_playout_weights.py --check --seed 3000 --deals 2000
    nice python benchmarks/foldris_playout_weights.py --tune --seed 10000 --deals 2000 --rounds 4 --start '{...}'
"""

from __future__ import annotations

import argparse
import json
import math

from polytable.ai.foldris._eval import WEIGHTS
from polytable.ai.foldris._plan import Root, beam_lines, deal_order
from polytable.core import get_game
from polytable.games.foldris import deck_of, tables_of

PLAYOUT: dict[str, float] = {
    **WEIGHTS,
    "landing": -0.3857,
    "lines": 4.11264,
    "col_transitions": -5.1037,
    "holes": -21.678,
    "bonus": 11.016,
    "barrier_gap": -1.445,
    "trimmed": -13.44,
}
"""The weights this search found (issue 36, third pass): a better greedy player, but not shown to make a
better `expert` as its playouts, so `expert` does not use them (figures: docs/ai-foldris.md)."""


def deals(seed: int, count: int) -> tuple[list[Root], list[tuple[int, ...]], tuple[object, ...], tuple[int, ...]]:
    """The start sheets and true orders of deals ``seed`` .. ``seed + count - 1`` (after the start card)."""
    game = get_game("foldris")
    roots: list[Root] = []
    orders: list[tuple[int, ...]] = []
    state = None
    for s in range(seed, seed + count):
        state = game.apply_chance(game.new_game({}, seed=s, players=1))
        sh = state.sheets[0]
        roots.append((sh.ink, sh.barrier, sh.height, sh.bonus))
        orders.append(deal_order(state))
    assert state is not None
    return roots, orders, tables_of(state.config), tuple(lane for _, lane in deck_of(state.config).cards)


def lines(
    w: dict[str, float], data: tuple[list[Root], list[tuple[int, ...]], tuple[object, ...], tuple[int, ...]]
) -> list[int]:
    roots, orders, tables, lanes = data
    return [beam_lines([r], [o], 1, tables, lanes, w)[0][0] for r, o in zip(roots, orders, strict=True)]  # type: ignore[arg-type]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=3000)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--check", action="store_true", help="PLAYOUT (or --start) against WEIGHTS, paired")
    ap.add_argument("--tune", action="store_true")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--start", default="", help="JSON overrides of WEIGHTS to start from (default: PLAYOUT)")
    args = ap.parse_args()
    data = deals(args.seed, args.deals)
    w = {**WEIGHTS, **json.loads(args.start)} if args.start else dict(PLAYOUT)
    if args.tune:
        best = sum(lines(w, data)) / args.deals
        print(f"start {best:.4f}", flush=True)
        for rnd in range(args.rounds):
            for k in WEIGHTS:
                if k == "hole_rows" or not w[k]:
                    continue
                for f in (0.7, 1.4) if rnd < 1 else (0.85, 1.18):
                    t = {**w, k: w[k] * f}
                    s = sum(lines(t, data)) / args.deals
                    if s > best + 0.005:
                        best, w = s, t
                        print(f"round {rnd}: {k} = {w[k]:.4f} -> {best:.4f}", flush=True)
        print(json.dumps({k: v for k, v in w.items() if v != WEIGHTS[k]}))
    if args.check:
        a, b = lines(dict(WEIGHTS), data), lines(w, data)
        d = [y - x for x, y in zip(a, b, strict=True)]
        m = sum(d) / len(d)
        half = 1.96 * math.sqrt(sum((v - m) ** 2 for v in d) / (len(d) - 1) / len(d))
        up, down = sum(v > 0 for v in d), sum(v < 0 for v in d)
        seeds = f"{args.seed}-{args.seed + args.deals - 1}"
        print(f"deals {seeds}: WEIGHTS {sum(a) / len(a):.3f}, these {sum(b) / len(b):.3f}")
        print(f"paired {m:+.3f} ± {half:.3f} ({up} up / {down} down); 12s {a.count(12)} / {b.count(12)}")


if __name__ == "__main__":
    main()
