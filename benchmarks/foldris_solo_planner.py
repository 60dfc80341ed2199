"""Foldris solo: ``hard``, the planner (``expert``) and the clairvoyant bound on the same seeded deals.

Issue 36's measure: mean lines with a 95% interval, the distribution (how many deals reach 12) and CPU
seconds a move, for each player, on deals ``--seed`` .. ``--seed + --deals - 1`` (the games of
``polytable foldris-solo --seed S``: the same generator, so the same card orders). The clairvoyant bound
knows each deal's order (read from the game's generator, which no player may do) and searches it with a
beam of ``--width`` sheets: a lower bound on the best possible, exact on the deals where it reaches 12. The
paired differences (same deal) get their own interval. CPU time is this process's (``time.process_time``):
what a move costs on an idle core, whatever else the machine runs. It prints figures and asserts nothing.

    nice python benchmarks/foldris_solo_planner.py --deals 200 --players hard expert clairvoyant
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

from polytable.ai import make_bot
from polytable.ai.foldris._plan import BOUND_FLAW, clairvoyant_lines
from polytable.core import CHANCE, Rng, get_game


def interval(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def play(spec: str, seeds: range) -> tuple[list[int], list[float]]:
    """Each deal's lines and every move's CPU seconds for the player ``spec`` (``polytable foldris-solo``'s loop)."""
    game = get_game("foldris")
    bot = make_bot(spec, "foldris")
    lines, moves = [], []
    for s in seeds:
        rng = Rng(s, 1)
        state = game.new_game({}, seed=s, players=1)
        while not game.is_terminal(state):
            if game.current_player(state) == CHANCE:
                state = game.apply_chance(state)
                continue
            t0 = time.process_time()
            action = bot.choose(game, state, 0, rng)
            moves.append(time.process_time() - t0)
            state = game.apply(state, action, 0)
        lines.append(state.sheets[0].lines)
    return lines, moves


def clairvoyant(width: int, seeds: range, flaw: float) -> tuple[list[int], list[float]]:
    """Each deal's clairvoyant lines, and its CPU seconds spread over the deal's drops."""
    game = get_game("foldris")
    lines, moves = [], []
    for s in seeds:
        state = game.apply_chance(game.new_game({}, seed=s, players=1))  # the start card
        t0 = time.process_time()
        lines.append(clairvoyant_lines(state, width, flaw=flaw))
        moves += [(time.process_time() - t0) / len(state.deck)] * len(state.deck)
    return lines, moves


def summary(name: str, lines: list[int], moves: list[float]) -> dict[str, Any]:
    mean, half = interval([float(x) for x in lines])
    ms = sorted(1000 * m for m in moves)
    return {
        "player": name,
        "deals": len(lines),
        "mean_lines": round(mean, 3),
        "ci95": round(half, 3),
        "lines": {str(k): lines.count(k) for k in sorted(set(lines), reverse=True)},
        "twelve": lines.count(12),
        "by_deal": lines,
        "cpu_ms_per_move": {
            "mean": round(sum(ms) / len(ms), 2),
            "p99": round(ms[min(len(ms) - 1, int(0.99 * len(ms)))], 2),
            "max": round(ms[-1], 2),
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--players",
        nargs="+",
        default=["hard", "expert", "clairvoyant"],
        help="AI specs (NAME:key=value,...), or clairvoyant",
    )
    ap.add_argument("--width", type=int, default=5000, help="the clairvoyant beam's width")
    ap.add_argument("--flaw", type=float, default=BOUND_FLAW, help="the clairvoyant beam's cost of a first flaw")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    seeds = range(args.seed, args.seed + args.deals)
    results: dict[str, list[int]] = {}
    rows = []
    for spec in args.players:
        lines, moves = clairvoyant(args.width, seeds, args.flaw) if spec == "clairvoyant" else play(spec, seeds)
        results[spec] = lines
        row = summary(spec, lines, moves)
        rows.append(row)
        if not args.json:
            cpu = row["cpu_ms_per_move"]
            dist = ", ".join(f"{k}: {v}" for k, v in row["lines"].items())
            print(
                f"{spec:<28} mean {row['mean_lines']:.3f} ± {row['ci95']:.3f}  12s {row['twelve']:>4}/{len(lines)}"
                f"  [{dist}]  CPU ms/move {cpu['mean']} (p99 {cpu['p99']}, max {cpu['max']})",
                flush=True,
            )
    names = list(results)
    pairs = []
    for a in names:
        for b in names:
            if a < b:
                d, half = interval([float(x - y) for x, y in zip(results[b], results[a], strict=True)])
                pairs.append({"minus": a, "of": b, "mean": round(d, 3), "ci95": round(half, 3)})
                if not args.json:
                    print(f"paired: {b} - {a} = {d:+.3f} ± {half:.3f} lines")
    if args.json:
        print(
            json.dumps(
                {"seeds": f"{seeds.start}-{seeds.stop - 1}", "width": args.width, "players": rows, "paired": pairs}
            )
        )


if __name__ == "__main__":
    main()
