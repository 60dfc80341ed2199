"""The metrics of a report and the tests that compare two reports (formulas in docs/research.md).

Names follow Ludii's metrics where they mean the same: Balance, Completion, Drawishness, AdvantageP1,
DurationTurns, BranchingFactor. Intervals are Wilson score intervals (95%); comparisons use a two-proportion
z-test for win shares and Welch's test (normal approximation) for means, with Holm's correction over all
the tests of one comparison.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from ..ai import wilson  # the arena's interval: one Wilson interval for the whole project
from ._play import GameRecord

__all__ = ["compare", "summarise", "wilson"]

Z95 = 1.959963984540054


def _p_normal(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def _two_proportions(x1: float, n1: int, x2: float, n2: int) -> float:
    p = (x1 + x2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return 1.0 if se == 0 else _p_normal((x1 / n1 - x2 / n2) / se)


def _welch(a: Sequence[float], b: Sequence[float]) -> float:
    if len(a) < 2 or len(b) < 2:
        return 1.0
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    diff = statistics.fmean(a) - statistics.fmean(b)
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return _p_normal(diff / se)


def _describe(xs: Sequence[float]) -> dict[str, float]:
    qs = statistics.quantiles(xs, n=20, method="inclusive") if len(xs) > 1 else [xs[0]] * 19
    return {
        "mean": statistics.fmean(xs),
        "sd": statistics.stdev(xs) if len(xs) > 1 else 0.0,
        "min": min(xs),
        "p5": qs[0],
        "median": statistics.median(xs),
        "p95": qs[-1],
        "max": max(xs),
    }


def _win_shares(records: Sequence[GameRecord], players: int) -> list[float]:
    wins = [0.0] * players
    for r in records:
        for w in r.winners:
            wins[w] += 1.0 / len(r.winners)
    return wins


def _branching_curve(records: Sequence[GameRecord], buckets: int = 40) -> dict[str, list[float]]:
    """Mean (and 10th/90th percentile) legal actions by decision number, in at most ``buckets`` groups."""
    longest = max((len(r.branching) for r in records), default=0)
    width = max(1, math.ceil(longest / buckets))
    groups: list[list[int]] = [[] for _ in range(math.ceil(longest / width))]
    for r in records:
        for i, b in enumerate(r.branching):
            groups[i // width].append(b)
    out: dict[str, list[float]] = {"decision": [], "mean": [], "p10": [], "p90": [], "games": []}
    for k, g in enumerate(groups):
        if not g:
            continue
        qs = statistics.quantiles(g, n=10, method="inclusive") if len(g) > 1 else [g[0]] * 9
        out["decision"].append(k * width + (width + 1) / 2)
        out["mean"].append(statistics.fmean(g))
        out["p10"].append(qs[0])
        out["p90"].append(qs[-1])
        out["games"].append(len(g))
    return out


def summarise(records: Sequence[GameRecord], players: int) -> dict[str, Any]:
    """Every metric and figure of one configuration (JSON-compatible)."""
    n = len(records)
    wins = _win_shares(records, players)
    single = sum(1 for r in records if len(r.winners) == 1)
    turns = [float(r.turns) for r in records]
    all_branching = [b for r in records for b in r.branching]
    per_game_branching = [statistics.fmean(r.branching) if r.branching else 0.0 for r in records]
    seats: list[dict[str, Any]] = []
    shares: list[float] = []
    for p in range(players):
        lo, hi = wilson(wins[p], n)
        scores = [r.scores[p] for r in records]
        shares.append(wins[p] / n)
        seats.append({"seat": p + 1, "win_share": wins[p] / n, "ci95": [lo, hi], "scores": _describe(scores)})
    multi = players > 1
    metrics: dict[str, float | None] = {
        "Balance": 1.0 - (max(shares) - min(shares)) if multi else None,
        "Completion": single / n if multi else None,
        "Drawishness": 1.0 - single / n if multi else None,
        "AdvantageP1": shares[0] if multi else None,
        "DurationTurns": statistics.fmean(turns),
        "BranchingFactor": statistics.fmean(all_branching) if all_branching else 0.0,
    }
    lo1, hi1 = wilson(wins[0], n)
    return {
        "games": n,
        "players": players,
        "metrics": metrics,
        "advantage_p1_ci95": [lo1, hi1] if multi else None,
        "seats": seats,
        "duration_turns": _describe(turns),
        "branching_per_game": _describe(per_game_branching),
        "branching_curve": _branching_curve(records),
        "turns": [r.turns for r in records],
        "scores": [[r.scores[p] for r in records] for p in range(players)],
        "win_counts": wins,
    }


def compare(
    a: dict[str, Any], b: dict[str, Any], records_a: Sequence[GameRecord], records_b: Sequence[GameRecord]
) -> dict[str, Any]:
    """Differences B - A with p-values (Holm-corrected) for win shares, length, branching and scores."""
    tests: list[dict[str, Any]] = []
    na, nb = a["games"], b["games"]
    if a["players"] == b["players"] and a["players"] > 1:
        for p in range(a["players"]):
            xa, xb = a["win_counts"][p], b["win_counts"][p]
            tests.append(
                {
                    "what": f"win share of seat {p + 1}",
                    "a": xa / na,
                    "b": xb / nb,
                    "p": _two_proportions(xa, na, xb, nb),
                    "test": "two-proportion z",
                }
            )
    ta, tb = [float(r.turns) for r in records_a], [float(r.turns) for r in records_b]
    tests.append({"what": "DurationTurns", "a": statistics.fmean(ta), "b": statistics.fmean(tb), "p": _welch(ta, tb)})
    ba = [statistics.fmean(r.branching) if r.branching else 0.0 for r in records_a]
    bb = [statistics.fmean(r.branching) if r.branching else 0.0 for r in records_b]
    tests.append({"what": "BranchingFactor (per-game mean)", "a": statistics.fmean(ba), "b": statistics.fmean(bb)})
    tests[-1]["p"] = _welch(ba, bb)
    for p in range(min(a["players"], b["players"])):
        sa, sb = [r.scores[p] for r in records_a], [r.scores[p] for r in records_b]
        tests.append({"what": f"mean score of seat {p + 1}", "a": statistics.fmean(sa), "b": statistics.fmean(sb)})
        tests[-1]["p"] = _welch(sa, sb)
    for t in tests:
        t.setdefault("test", "Welch (normal approximation)")
        t["difference"] = t["b"] - t["a"]
    # Holm: sort p ascending; adjusted p_k = max over j<=k of min(1, (m - j) p_j).
    order = sorted(range(len(tests)), key=lambda i: tests[i]["p"])
    running, m = 0.0, len(tests)
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * tests[i]["p"]))
        tests[i]["p_holm"] = running
        tests[i]["significant"] = running < 0.05
    metrics: dict[str, dict[str, float | None]] = {}
    for k, va in a["metrics"].items():
        vb = b["metrics"].get(k)
        metrics[k] = {"a": va, "b": vb, "difference": vb - va if va is not None and vb is not None else None}
    return {"tests": tests, "metrics": metrics}
