"""The report's figures with matplotlib (Agg backend: no display needed), each saved as PNG and SVG.

Every function takes one or two summaries (``summarise`` output) labelled for the legend, so a single
report and a comparison draw the same figures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

__all__ = ["FIGURES", "draw_all"]

COLOURS = ("#1f6fb4", "#d9731a")
FIGURES = ("win_rate", "game_length", "branching", "scores")


def _win_rate(ax: Any, series: list[tuple[str, dict[str, Any]]]) -> None:
    k = len(series)
    width = 0.8 / k
    for j, (label, s) in enumerate(series):
        seats = s["seats"]
        xs = [i + (j - (k - 1) / 2) * width for i in range(len(seats))]
        ys = [x["win_share"] for x in seats]
        lo = [y - x["ci95"][0] for x, y in zip(seats, ys, strict=True)]
        hi = [x["ci95"][1] - y for x, y in zip(seats, ys, strict=True)]
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=4, color=COLOURS[j], label=label)
    n = series[0][1]["players"]
    ax.axhline(1 / n, color="grey", linestyle="--", linewidth=1, label=f"fair share 1/{n}")
    ax.set_xticks(range(n), [f"seat {i + 1}" for i in range(n)])
    ax.set_ylabel("win share (95% interval)")
    ax.set_title("Win rate by seat")
    ax.legend(fontsize="small")


def _game_length(ax: Any, series: list[tuple[str, dict[str, Any]]]) -> None:
    everything = [t for _, s in series for t in s["turns"]]
    lo, hi = min(everything), max(everything)
    bins = list(range(lo, hi + 2, max(1, (hi - lo + 1) // 30 or 1)))
    for j, (label, s) in enumerate(series):
        ax.hist(s["turns"], bins=bins, alpha=0.6, color=COLOURS[j], label=label)
    ax.set_xlabel("player actions per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    ax.legend(fontsize="small")


def _branching(ax: Any, series: list[tuple[str, dict[str, Any]]]) -> None:
    for j, (label, s) in enumerate(series):
        c = s["branching_curve"]
        ax.plot(c["decision"], c["mean"], color=COLOURS[j], label=f"{label} mean")
        ax.fill_between(c["decision"], c["p10"], c["p90"], color=COLOURS[j], alpha=0.2)
    if any(max(s["branching_curve"]["mean"] or [1]) > 50 for _, s in series):
        ax.set_yscale("log")
    ax.set_xlabel("decision number in the game")
    ax.set_ylabel("legal actions (band: 10th-90th percentile)")
    ax.set_title("Branching factor over the game")
    ax.legend(fontsize="small")


def _scores(ax: Any, series: list[tuple[str, dict[str, Any]]]) -> None:
    k = len(series)
    for j, (label, s) in enumerate(series):
        data = s["scores"]
        pos = [i + 1 + (j - (k - 1) / 2) * 0.8 / k for i in range(len(data))]
        parts = ax.boxplot(data, positions=pos, widths=0.7 / k, patch_artist=True, manage_ticks=False)
        for box in parts["boxes"]:
            box.set_facecolor(COLOURS[j])
            box.set_alpha(0.6)
        ax.plot([], [], color=COLOURS[j], linewidth=6, alpha=0.6, label=label)
    n = max(len(s["scores"]) for _, s in series)
    ax.set_xticks(range(1, n + 1), [f"seat {i + 1}" for i in range(n)])
    ax.set_ylabel("final score")
    ax.set_title("Score distribution by seat")
    ax.legend(fontsize="small")


_DRAW = {"win_rate": _win_rate, "game_length": _game_length, "branching": _branching, "scores": _scores}


def draw_all(series: list[tuple[str, dict[str, Any]]], out: Path) -> dict[str, dict[str, str]]:
    """Draw every figure into ``out``; returns {figure: {"png": name, "svg": name}}."""
    files: dict[str, dict[str, str]] = {}
    for name in FIGURES:
        if name == "win_rate" and (series[0][1]["players"] < 2 or len({s["players"] for _, s in series}) > 1):
            continue
        fig: Figure = plt.figure(figsize=(6.4, 4.0), dpi=100)
        ax = fig.add_subplot()
        _DRAW[name](ax, series)
        fig.tight_layout()
        files[name] = {}
        for ext in ("png", "svg"):
            fig.savefig(out / f"{name}.{ext}", format=ext, metadata={"Date": None} if ext == "svg" else None)
            files[name][ext] = f"{name}.{ext}"
        plt.close(fig)
    return files
