"""The metrics of a report, their intervals, and the tests a report makes (formulas in docs/research.md).

Names follow Ludii's metrics where they mean the same: Balance, Completion, Drawishness, AdvantageP1,
BranchingFactor. Length is counted as the game's rulebook counts it (rounds and turns, declared by the
game), branching per kind of decision. Every figure has a 95% interval: Wilson's for a share, a seeded
bootstrap over games where no formula fits. Tests are made only between comparable quantities (same
units), each hypothesis once, and Holm's correction runs over all the tests of a report together.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..ai import elo_ratings, wilson  # the arena's interval and ratings: one of each for the whole project
from ._play import GameRecord

__all__ = ["bootstrap", "drama", "holm", "hypotheses", "ladder_summary", "skill_gap", "summarise", "wilson"]

BOOTSTRAP = 1000
"""Resamples of a bootstrap interval (seeded: a report is the same every time it is made)."""


def _p_normal(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def _two_proportions(x1: float, n1: int, x2: float, n2: int) -> float:
    p = (x1 + x2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return 1.0 if se == 0 else _p_normal((x1 / n1 - x2 / n2) / se)


def _one_proportion(x: float, n: int, p0: float) -> float:
    """Two-sided p of a share ``x / n`` against ``p0`` (normal approximation, the null's variance)."""
    return _p_normal((x / n - p0) / math.sqrt(p0 * (1 - p0) / n))


def _welch(a: Sequence[float], b: Sequence[float]) -> float:
    if len(a) < 2 or len(b) < 2:
        return 1.0
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    diff = statistics.fmean(a) - statistics.fmean(b)
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return _p_normal(diff / se)


def _indices(n: int, seed: int = 0) -> Any:
    """BOOTSTRAP resamples of ``range(n)`` (seeded: a report is the same every time it is made)."""
    return np.random.default_rng(seed).integers(0, n, size=(BOOTSTRAP, n))


def _interval(values: Any) -> list[float]:
    lo, hi = np.percentile(values, [2.5, 97.5])
    return [float(lo), float(hi)]


def bootstrap(num: Sequence[float], den: Sequence[float] | None = None) -> list[float] | None:
    """The 95% percentile bootstrap interval over games of ``sum(num) / sum(den)`` (a mean without
    ``den``): the games are resampled, each game keeping its own numerator and denominator."""
    if not num:
        return None
    a = np.asarray(num, dtype=float)
    b = np.ones_like(a) if den is None else np.asarray(den, dtype=float)
    idx = _indices(len(a))
    totals = b[idx].sum(axis=1)
    keep = totals > 0
    return _interval(a[idx].sum(axis=1)[keep] / totals[keep]) if keep.any() else None


def _mean(xs: Sequence[float]) -> dict[str, Any]:
    return {"value": statistics.fmean(xs) if xs else None, "ci95": bootstrap(xs)}


def _ratio(num: Sequence[float], den: Sequence[float]) -> dict[str, Any]:
    total = sum(den)
    return {"value": sum(num) / total if total else None, "ci95": bootstrap(num, den) if total else None}


def _balance_interval(records: Sequence[GameRecord], players: int) -> list[float]:
    wins = np.zeros((len(records), players))
    for i, r in enumerate(records):
        for w in r.winners:
            wins[i, w] += 1.0 / len(r.winners)
    shares = wins[_indices(len(records))].mean(axis=1)
    return _interval(1.0 - (shares.max(axis=1) - shares.min(axis=1)))


def _share(successes: float, n: int) -> dict[str, Any]:
    return {"value": successes / n if n else None, "ci95": list(wilson(successes, n)) if n else None}


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


def _balance(records: Sequence[GameRecord], players: int) -> float:
    shares = [w / len(records) for w in _win_shares(records, players)]
    return 1.0 - (max(shares) - min(shares))


def _leader(scores: Sequence[float]) -> int | None:
    """The one player ahead, or None on a tie at the top."""
    best = max(scores)
    top = [p for p, s in enumerate(scores) if s == best]
    return top[0] if len(top) == 1 else None


def drama(record: GameRecord) -> dict[str, Any] | None:
    """One game's story from its scores at the end of each round: the winning margin (the sole winner's
    lead over the next player; 0 on a shared win), lead changes (the sole leader became another player),
    comeback (the sole winner was not the sole leader at half time, round ``ceil(R / 2)``) and decided in
    the last round (the sole winner was not the sole leader before it). None without a running tally."""
    trace = record.trace
    if not trace or len(record.scores) < 2:
        return None
    final = record.scores
    ordered = sorted(final, reverse=True)
    sole = record.winners[0] if len(record.winners) == 1 else None
    changes, last = 0, None
    for scores in trace:
        lead = _leader(scores)
        if lead is not None:
            if last is not None and lead != last:
                changes += 1
            last = lead
    half = trace[max(0, math.ceil(len(trace) / 2) - 1)]
    before_last = trace[-2] if len(trace) > 1 else [0.0] * len(final)
    return {
        "margin": ordered[0] - ordered[1] if sole is not None else 0.0,
        "lead_changes": changes,
        "comeback": sole is not None and len(trace) > 1 and _leader(half) != sole,
        "last_round": sole is not None and _leader(before_last) != sole,
    }


def _branching_by_kind(records: Sequence[GameRecord]) -> dict[str, dict[str, Any]]:
    """Mean legal actions per decision kind, pooled over games, with a bootstrap over games."""
    kinds = sorted({k for r in records for k in r.kinds})
    out = {}
    for kind in kinds:
        sums = [float(sum(b for b, k in zip(r.branching, r.kinds, strict=True) if k == kind)) for r in records]
        counts = [float(r.kinds.count(kind)) for r in records]
        out[kind] = {**_ratio(sums, counts), "decisions": sum(counts) / len(records)}
    return out


def summarise(records: Sequence[GameRecord], players: int, score_unit: str | None = "points") -> dict[str, Any]:
    """Every metric and figure of one configuration, each with its 95% interval (JSON-compatible)."""
    n = len(records)
    wins = _win_shares(records, players)
    multi = players > 1
    single = sum(1 for r in records if len(r.winners) == 1)
    seats: list[dict[str, Any]] = []
    for p in range(players):
        scores = [r.scores[p] for r in records]
        share = {"seat": p + 1, "win_share": wins[p] / n, "ci95": list(wilson(wins[p], n))}
        seats.append({**share, **_seat_scores(scores)})
    firsts = [r for r in records if r.first >= 0]
    first_wins = sum(1.0 / len(r.winners) for r in firsts if r.first in r.winners)

    metrics: dict[str, dict[str, Any]] = {
        "Rounds": _mean([float(r.rounds) for r in records]),
        "Turns": _mean([float(r.game_turns) for r in records]),
        "Actions": _mean([float(r.actions) for r in records]),
        "BranchingFactor": _ratio([float(sum(r.branching)) for r in records], [float(r.actions) for r in records]),
    }
    if multi:
        metrics["AdvantageP1"] = _share(wins[0], n)
        if firsts:
            metrics["FirstPlayerWins"] = _share(first_wins, len(firsts))
        metrics["Balance"] = {"value": _balance(records, players), "ci95": _balance_interval(records, players)}
        metrics["Completion"] = _share(single, n)
        metrics["Drawishness"] = _share(n - single, n)
    stories = [d for d in (drama(r) for r in records) if d is not None] if score_unit else []
    if stories:
        metrics["WinningMargin"] = _mean([float(d["margin"]) for d in stories])
        metrics["LeadChanges"] = _mean([float(d["lead_changes"]) for d in stories])
        metrics["Comebacks"] = _share(sum(d["comeback"] for d in stories), len(stories))
        metrics["DecidedInLastRound"] = _share(sum(d["last_round"] for d in stories), len(stories))
    kinds = _branching_by_kind(records)
    return {
        "games": n,
        "players": players,
        "score_unit": score_unit,
        "metrics": metrics,
        "branching_by_kind": kinds,
        "seats": seats,
        "rounds": [r.rounds for r in records],
        "scores": [[r.scores[p] for r in records] for p in range(players)],
        "win_counts": wins,
    }


def _seat_scores(scores: Sequence[float]) -> dict[str, Any]:
    return {"scores": _describe(scores), "score_ci95": bootstrap(scores)}


def holm(tests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Holm's correction over ``tests`` (each with ``p``): adds ``p_holm`` and ``significant`` (< 0.05)."""
    order = sorted(range(len(tests)), key=lambda i: tests[i]["p"])
    running, m = 0.0, len(tests)
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * tests[i]["p"]))
        tests[i]["p_holm"] = running
        tests[i]["significant"] = running < 0.05
    return tests


def _fairness(label: str, s: dict[str, Any]) -> list[dict[str, Any]]:
    """Seat shares against the fair share 1/n: one hypothesis with 2 players (seat 2's share is 1 minus
    seat 1's), one per seat with more."""
    n, games = s["players"], s["games"]
    if n < 2:
        return []
    seats = range(1) if n == 2 else range(n)
    return [
        {
            "what": f"{label}: seat {p + 1} win share = 1/{n}",
            "value": s["win_counts"][p] / games,
            "reference": 1 / n,
            "p": _one_proportion(s["win_counts"][p], games, 1 / n),
            "test": "one-proportion z",
        }
        for p in seats
    ]


def hypotheses(
    configs: Sequence[tuple[str, dict[str, Any], Sequence[GameRecord]]],
) -> list[dict[str, Any]]:
    """The report's tests: seat fairness in every configuration, and every other configuration against the
    first on the quantities that share their units (rounds; branching of a decision kind both have; seat
    win shares at the same player count; seat scores with the same score unit and player count)."""
    tests: list[dict[str, Any]] = []
    for label, s, _ in configs:
        tests += _fairness(label, s)
    if len(configs) > 1:
        base_label, a, ra = configs[0]
        for label, b, rb in configs[1:]:
            tests += _pair(f"{label} vs {base_label}", a, b, ra, rb)
    return holm(tests)


def _pair(
    name: str, a: dict[str, Any], b: dict[str, Any], ra: Sequence[GameRecord], rb: Sequence[GameRecord]
) -> list[dict[str, Any]]:
    out = []

    def welch(what: str, xa: list[float], xb: list[float]) -> None:
        if xa and xb:
            out.append(
                {
                    "what": f"{name}: {what}",
                    "value": statistics.fmean(xb),
                    "reference": statistics.fmean(xa),
                    "p": _welch(xa, xb),
                    "test": "Welch (normal approximation)",
                }
            )

    welch("rounds", [float(r.rounds) for r in ra], [float(r.rounds) for r in rb])
    for kind in sorted(set(a["branching_by_kind"]) & set(b["branching_by_kind"])):
        welch(f"legal actions per {kind}", _kind_means(ra, kind), _kind_means(rb, kind))
    same_n = a["players"] == b["players"]
    if same_n and a["players"] > 1:
        seats = range(1) if a["players"] == 2 else range(a["players"])
        for p in seats:
            xa, xb = a["win_counts"][p], b["win_counts"][p]
            out.append(
                {
                    "what": f"{name}: seat {p + 1} win share",
                    "value": xb / b["games"],
                    "reference": xa / a["games"],
                    "p": _two_proportions(xa, a["games"], xb, b["games"]),
                    "test": "two-proportion z",
                }
            )
    if same_n and a["score_unit"] and a["score_unit"] == b["score_unit"]:
        for p in range(a["players"]):
            welch(f"seat {p + 1} mean score ({a['score_unit']})", [r.scores[p] for r in ra], [r.scores[p] for r in rb])
    return out


def _kind_means(records: Sequence[GameRecord], kind: str) -> list[float]:
    out = []
    for r in records:
        xs = [b for b, k in zip(r.branching, r.kinds, strict=True) if k == kind]
        if xs:
            out.append(statistics.fmean(xs))
    return out


def skill_gap(strong_share: float, players: int) -> float:
    """How far the stronger player's win share goes from the fair share (0) to always winning (1):
    ``(w - 1/n) / (1 - 1/n)`` for one stronger player among ``n - 1`` weaker ones. A coin flip gives 0."""
    fair = 1 / players
    return (strong_share - fair) / (1 - fair)


def _pairwise(share: float, players: int) -> float:
    """The head-to-head win chance equal to winning ``share`` of the games against ``n - 1`` equal players
    (Luce's choice model: with strengths s and w, ``share = s / (s + (n - 1) w)``)."""
    share = min(max(share, 1e-9), 1 - 1e-9)
    odds = share * (players - 1) / (1 - share)
    return odds / (1 + odds)


def _ratings(ladder: Sequence[str], pairs: Sequence[dict[str, Any]], players: int) -> dict[str, float]:
    wins: dict[tuple[str, str], float] = {}
    for pair in pairs:
        games = len(pair["strong_won"])
        q = _pairwise(statistics.fmean(pair["strong_won"]), players)
        wins[(pair["strong"], pair["weak"])] = games * q
        wins[(pair["weak"], pair["strong"])] = games * (1 - q)
    return elo_ratings(list(ladder), wins, ladder[0])


def ladder_summary(ladder: Sequence[str], pairs: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """The skill ladder: for each pair (``strong``, ``weak``, ``strong_won``: the strong seat's share of
    each game), the stronger player's win share and skill gap with intervals; Elo ratings from all pairs
    (the weakest at 0) and their spread, with a bootstrap interval (games resampled within each pair)."""
    rows = []
    for pair in pairs:
        won, games = sum(pair["strong_won"]), len(pair["strong_won"])
        lo, hi = wilson(won, games)
        rows.append(
            {
                "strong": pair["strong"],
                "weak": pair["weak"],
                "games": games,
                "win_share": won / games,
                "ci95": [lo, hi],
                "skill_gap": skill_gap(won / games, players),
                "skill_gap_ci95": [skill_gap(lo, players), skill_gap(hi, players)],
            }
        )
    ratings = _ratings(ladder, pairs, players)
    rng = random.Random(0)
    spreads = []
    for _ in range(200):
        resampled = [
            {**p, "strong_won": [p["strong_won"][rng.randrange(len(p["strong_won"]))] for _ in p["strong_won"]]}
            for p in pairs
        ]
        r = _ratings(ladder, resampled, players)
        spreads.append(max(r.values()) - min(r.values()))
    spreads.sort()
    ends = [r for r in rows if r["strong"] == ladder[-1] and r["weak"] == ladder[0]]
    return {
        "ladder": list(ladder),
        "pairs": rows,
        "elo": ratings,
        "elo_spread": max(ratings.values()) - min(ratings.values()),
        "elo_spread_ci95": [spreads[4], spreads[-5]],
        "skill_gap": ends[0]["skill_gap"] if ends else None,
        "skill_gap_ci95": ends[0]["skill_gap_ci95"] if ends else None,
    }
