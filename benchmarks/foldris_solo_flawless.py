"""Foldris solo: how many deals allow a perfect game without ever a hole, with and without knowing the order.

Two figures on the deals ``--seed`` .. ``--seed + --deals - 1`` (the games of ``polytable foldris-solo --seed
S``), both on the flawless sheets' model of ``ai/foldris/_clean.py`` (a sheet with no hole and no trim is its
column heights; a clean drop rests on the surface, or completes every row over a gap):

* **clairvoyant, flawless**: whether the deal's true order (read from the game's generator, which no player
  may do: measurement only) can be drawn cleanly to the last card, so that all 12 rows are made without a
  hole at any time: a depth-first search over the clean drops (exact, memoised; ``--nodes`` caps it per deal,
  and a deal past the cap is counted as unknown). The clairvoyant bound of ``foldris_solo_planner.py``
  (a beam over all drops) also finds the perfect games that pass through a hole a later fold reopens.
* **order-blind, ``--depth`` cards**: from the start sheet, the chance that the next ``--depth`` cards (in
  an unknown order, from the deck's public make-up) can all be drawn cleanly, the player choosing each drop
  before the next card shows (:class:`CleanSurvival`). It depends only on the start card: its mean
  over the deals, and per distinct start. A perfect game without a hole needs every card clean, so this
  bounds an order-blind player's share of such games from above (and the clairvoyant share does too).

Why: issue 36 asks whether 11.3 lines (about a third of the deals perfect) is within reach of a player who
knows only what the rulebook lets it know. It prints figures and asserts nothing.

    nice python benchmarks/foldris_solo_flawless.py --deals 200 --seed 0 --depth 3
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from polytable.ai.foldris._clean import CleanSurvival, clean_drops, clean_shape
from polytable.ai.foldris._plan import deal_order
from polytable.core import get_game
from polytable.games.foldris import WIDTH, FoldrisState, deck_of, heights, tables_of


class _OutOfNodes(Exception):
    pass


Position = tuple[tuple[int, ...], int, int, int]
"""A flawless sheet between rounds: (heights, rows, barrier lane or 0, bonus)."""


def clairvoyant_flawless(state: FoldrisState, nodes: int, path: list[Position] | None = None) -> bool | None:
    """Whether the true order from ``state`` (between rounds, no hole yet) can be drawn cleanly to a
    perfect game; None past ``nodes`` positions. ``path`` gets the sheets of the first such game found,
    one after each card."""
    s = state.sheets[0]
    order = deal_order(state)
    cards = deck_of(state.config).cards
    tables = tables_of(state.config)
    memo: dict[tuple[int, tuple[int, ...], int, int, int], bool] = {}
    count = [0]

    def dfs(k: int, hts: tuple[int, ...], height: int, lane: int, bonus: int) -> bool:
        if k == len(order):
            return height == 0
        b = min(bonus, len(order) - k)  # a clean drop costs at most a mirror (1)
        key = (k, hts, height, lane, b)
        hit = memo.get(key)
        if hit is not None:
            return hit
        count[0] += 1
        if count[0] > nodes:
            raise _OutOfNodes
        i = order[k]
        nxt = cards[i][1]
        ok = False
        for new, n, cost, _, _ in clean_drops(hts, height, lane, b, clean_shape(tables[i])):
            h = height - n
            bar = nxt if max(new[nxt - 1], new[nxt]) < h else 0
            if dfs(k + 1, new, h, bar, b + n - cost):
                if path is not None:
                    path.append((new, h, bar, b + n - cost))
                ok = True
                break
        memo[key] = ok
        return ok

    bar = s.barrier
    lane = ((bar & -bar).bit_length() - 1) % WIDTH + 1 if bar else 0
    try:
        ok = dfs(0, tuple(heights(s.ink)), s.height, lane, s.bonus)
    except _OutOfNodes:
        return None
    if path is not None:
        path.reverse()
    return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--nodes", type=int, default=1_500_000, help="positions searched per deal at most")
    ap.add_argument("--depth", type=int, default=3, help="cards deep for the order-blind chance (0: skip)")
    ap.add_argument(
        "--tail",
        default="",
        help="cards left K,...: on each deal with a flawless perfect game, the order-blind chance of finishing it"
        " from the clairvoyant's sheet with K cards left",
    )
    args = ap.parse_args()
    game = get_game("foldris")
    by_deal: list[bool | None] = []
    starts: dict[tuple[int, ...], float] = {}
    per_deal: list[float] = []
    tails = [int(k) for k in args.tail.split(",") if k]
    chances: dict[int, list[float]] = {k: [] for k in tails}
    survival: CleanSurvival | None = None
    t0 = time.process_time()
    for seed in range(args.seed, args.seed + args.deals):
        state = game.apply_chance(game.new_game({}, seed=seed, players=1))  # the start card
        if survival is None:
            survival = CleanSurvival(tables_of(state.config), deck_of(state.config).cards)
        path: list[Position] = []
        by_deal.append(clairvoyant_flawless(state, args.nodes, path))
        if by_deal[-1]:
            order = deal_order(state)
            for k in tails:
                hts, h, lane, bonus = path[len(order) - k - 1]
                chances[k].append(survival.survive(hts, h, lane, bonus, tuple(sorted(order[-k:])), k))
        rest = tuple(sorted(state.deck))
        if args.depth and rest not in starts:
            s = state.sheets[0]
            starts[rest] = survival.survive(tuple(heights(s.ink)), s.height, 0, s.bonus, rest, args.depth)
        if args.depth:
            per_deal.append(starts[rest])
    known = [x for x in by_deal if x is not None]
    out: dict[str, Any] = {
        "seeds": f"{args.seed}-{args.seed + args.deals - 1}",
        "clairvoyant_flawless": sum(known),
        "known": len(known),
        "unknown": len(by_deal) - len(known),
        "share": round(sum(known) / len(known), 3) if known else None,
        "by_deal": [None if x is None else int(x) for x in by_deal],
        "cpu_s": round(time.process_time() - t0, 1),
    }
    if tails:
        out["tail"] = {
            str(k): {
                "deals": len(v),
                "mean": round(sum(v) / len(v), 4) if v else None,
                "by_deal": [round(p, 4) for p in v],
            }
            for k, v in chances.items()
        }
    if starts:
        by_start = list(starts.values())
        out["order_blind"] = {
            "depth": args.depth,
            "starts": len(by_start),
            "mean_over_deals": round(sum(per_deal) / len(per_deal), 4),
            "mean_over_starts": round(sum(by_start) / len(by_start), 4),
            "by_start": [round(p, 4) for p in by_start],
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
