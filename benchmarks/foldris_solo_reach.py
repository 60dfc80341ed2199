"""Foldris solo: where along a player's own games a perfect game (12 lines) stops being reachable.

Plays ``--player`` on deals ``--seed`` .. ``--seed + --deals - 1`` (the games of ``polytable foldris-solo
--seed S``) and, between rounds with ``--at`` cards left in the deck, asks the clairvoyant bound (a beam
of ``--width`` sheets over the deal's true order, which no player may know: measurement only) whether the
player's sheet there can still make every row. Per checkpoint it prints on how many deals the 12 is still
reachable, how many sheets have no trim so far, and the holes of the reachable ones; then each loss (a
checkpoint where the 12 was reachable and the next where it is not) with what changed: a trim, or the
holes before and after. The beam is a lower bound, so a 12 may come back at a later checkpoint.

Why: it tells which part of the game a better player must change (a search over the last cards cannot
help where the 12 is already gone). It prints figures and asserts nothing.

    nice python benchmarks/foldris_solo_reach.py --deals 20 --seed 0 --player expert
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from polytable.ai import make_bot
from polytable.ai.foldris._plan import clairvoyant_lines
from polytable.core import CHANCE, Rng, get_game
from polytable.games.foldris import WIDTH, FoldrisState, deck_of, heights

CHECKPOINTS = (22, 20, 18, 16, 14, 12, 10, 8, 6, 4)


def sheet_facts(state: FoldrisState) -> tuple[bool, int]:
    """(no trim so far, holes): every square drawn is inked or folded away unless a trim removed one."""
    s = state.sheets[0]
    ink = s.ink.bit_count()
    dropped = len(deck_of(state.config).cards) - 1 - len(state.deck)  # the start card is not dropped
    return ink + WIDTH * s.lines == 4 + 4 * dropped, sum(heights(s.ink)) - ink


def one_deal(spec: str, seed: int, width: int, at: tuple[int, ...]) -> dict[str, Any]:
    game = get_game("foldris")
    bot = make_bot(spec, "foldris")
    rng = Rng(seed, 1)
    state = game.new_game({}, seed=seed, players=1)
    started = False
    cp: dict[int, tuple[int, bool, int]] = {}
    while not game.is_terminal(state):
        if game.current_player(state) == CHANCE:
            if started and len(state.deck) in at:
                untrimmed, holes = sheet_facts(state)
                cp[len(state.deck)] = (clairvoyant_lines(state, width), untrimmed, holes)
            started = True
            state = game.apply_chance(state)
            continue
        state = game.apply(state, bot.choose(game, state, 0, rng), 0)
    return {"seed": seed, "lines": state.sheets[0].lines, "checkpoints": cp}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--player", default="expert")
    ap.add_argument("--width", type=int, default=2000, help="the clairvoyant beam's width")
    ap.add_argument("--at", type=int, nargs="+", default=list(CHECKPOINTS), help="cards left at the checkpoints")
    ap.add_argument("--json", action="store_true", help="print each deal's record as a JSON line too")
    args = ap.parse_args()
    at = tuple(sorted(args.at, reverse=True))
    deals = []
    for seed in range(args.seed, args.seed + args.deals):
        rec = one_deal(args.player, seed, args.width, at)
        deals.append(rec)
        if args.json:
            print(json.dumps(rec), flush=True)
    print(f"{args.player}, deals {args.seed}-{args.seed + args.deals - 1}, clairvoyant width {args.width}")
    print(f"lines: {dict(sorted(Counter(d['lines'] for d in deals).items(), reverse=True))}")
    for left in at:
        cps = [d["checkpoints"][left] for d in deals if left in d["checkpoints"]]
        reach = [c for c in cps if c[0] == 12]
        holes = dict(sorted(Counter(c[2] for c in reach).items()))
        print(
            f"{left:>2} cards left: 12 reachable on {len(reach)} of {len(cps)}, no trim on {sum(c[1] for c in cps)}, "
            f"holes of the reachable: {holes}"
        )
    losses: Counter[str] = Counter()
    for d in deals:
        prev = None
        for left in at:
            now = d["checkpoints"].get(left)
            if now is None:
                continue
            if prev is not None and prev[0] == 12 and now[0] < 12:
                losses["a trim" if prev[1] and not now[1] else f"holes {prev[2]} -> {now[2]}"] += 1
            prev = now
    print(f"losses of the 12 between checkpoints, by what changed: {dict(losses.most_common())}")


if __name__ == "__main__":
    main()
