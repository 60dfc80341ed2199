"""The report's figures with matplotlib (Agg backend: no display needed), each saved as PNG and SVG.

One set of figures for every configuration of a report: each figure groups the configurations side by
side (one colour each), every bar and point with its 95% interval.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

__all__ = ["FIGURES", "draw_all"]

COLOURS = ("#1f6fb4", "#d9731a", "#2a9d4b", "#b8323a", "#7b52ab", "#8c564b", "#c2459b", "#6b6b6b")
FIGURES = ("win_rate", "rounds", "branching", "scores", "drama", "skill")


def _colour(j: int) -> str:
    return COLOURS[j % len(COLOURS)]


def _bars(ax: Any, groups: list[str], series: list[tuple[str, list[dict[str, Any] | None]]]) -> None:
    """Grouped bars with interval whiskers: ``series`` = (legend label, one estimate per group)."""
    k = len(series)
    width = 0.8 / max(k, 1)
    for j, (label, values) in enumerate(series):
        xs, ys, lo, hi = [], [], [], []
        for i, v in enumerate(values):
            if v is None or v.get("value") is None:
                continue
            xs.append(i + (j - (k - 1) / 2) * width)
            ys.append(v["value"])
            ci = v.get("ci95") or [v["value"], v["value"]]
            lo.append(max(0.0, v["value"] - ci[0]))
            hi.append(max(0.0, ci[1] - v["value"]))
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, color=_colour(j), label=label)
    ax.set_xticks(range(len(groups)), groups, fontsize="small")


def _win_rate(ax: Any, configs: list[dict[str, Any]], ladder: dict[str, Any] | None) -> bool:
    multi = [c for c in configs if c["summary"]["players"] > 1]
    if not multi:
        return False
    x = 0.0
    ticks, names = [], []
    for j, c in enumerate(multi):
        s = c["summary"]
        n = s["players"]
        for p, seat in enumerate(s["seats"]):
            y, (lo, hi) = seat["win_share"], seat["ci95"]
            ax.bar(x + p, y, 0.8, yerr=[[y - lo], [hi - y]], capsize=3, color=_colour(j))
            ticks.append(x + p)
            names.append(str(p + 1))
        ax.hlines(1 / n, x - 0.45, x + n - 0.55, colors="grey", linestyles="--", linewidth=1)
        ax.bar([], [], color=_colour(j), label=c["label"])
        x += n + 1
    ax.set_xticks(ticks, names, fontsize="small")
    ax.set_xlabel("seat (dashed: the fair share 1/n)")
    ax.set_ylabel("win share (95% interval)")
    ax.set_title("Win share by seat")
    ax.legend(fontsize="x-small")
    return True


def _rounds(ax: Any, configs: list[dict[str, Any]], ladder: dict[str, Any] | None) -> bool:
    data = [c["summary"]["rounds"] for c in configs]
    parts = ax.boxplot(data, patch_artist=True)
    for j, box in enumerate(parts["boxes"]):
        box.set_facecolor(_colour(j))
        box.set_alpha(0.6)
    for j, c in enumerate(configs):
        m = c["summary"]["metrics"]["Rounds"]
        lo, hi = m["ci95"] or [m["value"], m["value"]]
        ax.errorbar([j + 1], [m["value"]], yerr=[[m["value"] - lo], [hi - m["value"]]], fmt="D", color="black")
    ax.set_xticks(range(1, len(configs) + 1), [c["label"] for c in configs], fontsize="small")
    ax.set_ylabel("rounds per game (diamond: mean, 95% interval)")
    ax.set_title("Game length in rounds")
    return True


def _branching(ax: Any, configs: list[dict[str, Any]], ladder: dict[str, Any] | None) -> bool:
    kinds = sorted({k for c in configs for k in c["summary"]["branching_by_kind"]})
    series = [(c["label"], [c["summary"]["branching_by_kind"].get(k) for k in kinds]) for c in configs]
    _bars(ax, kinds, series)
    top = max((v["value"] for _, vs in series for v in vs if v and v["value"]), default=1)
    if top > 50:
        ax.set_yscale("log")
    ax.set_ylabel("legal actions (mean, 95% interval)")
    ax.set_title("Branching factor by kind of decision")
    ax.legend(fontsize="x-small")
    return True


def _scores(ax: Any, configs: list[dict[str, Any]], ladder: dict[str, Any] | None) -> bool:
    x = 1.0
    ticks, names = [], []
    for j, c in enumerate(configs):
        data = c["summary"]["scores"]
        pos = [x + p for p in range(len(data))]
        parts = ax.boxplot(data, positions=pos, widths=0.7, patch_artist=True, manage_ticks=False)
        for box in parts["boxes"]:
            box.set_facecolor(_colour(j))
            box.set_alpha(0.6)
        ticks += pos
        names += [str(p + 1) for p in range(len(data))]
        unit = c["summary"]["score_unit"] or "score"
        ax.bar([], [], color=_colour(j), alpha=0.6, label=f"{c['label']} ({unit})")
        x += len(data) + 1
    ax.set_xticks(ticks, names, fontsize="small")
    ax.set_xlabel("seat")
    ax.set_ylabel("final score")
    ax.set_title("Final scores by seat")
    ax.legend(fontsize="x-small")
    return True


_DRAMA = (
    ("FirstPlayerWins", "first player wins"),
    ("Comebacks", "comeback"),
    ("DecidedInLastRound", "decided in last round"),
    ("Drawishness", "shared win"),
)


def _drama(ax: Any, configs: list[dict[str, Any]], ladder: dict[str, Any] | None) -> bool:
    series = [(c["label"], [c["summary"]["metrics"].get(k) for k, _ in _DRAMA]) for c in configs]
    if not any(v for _, vs in series for v in vs):
        return False
    _bars(ax, [name for _, name in _DRAMA], series)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games (95% interval)")
    ax.set_title("Decisiveness and drama")
    ax.legend(fontsize="x-small")
    return True


def _skill(ax: Any, configs: list[dict[str, Any]], ladder: dict[str, Any] | None) -> bool:
    if not ladder:
        return False
    pairs = ladder["pairs"]
    groups = [f"{p['strong']} vs {p['weak']}" for p in pairs]
    values: list[dict[str, Any] | None] = [{"value": p["skill_gap"], "ci95": p["skill_gap_ci95"]} for p in pairs]
    _bars(ax, groups, [("skill gap", values)])
    ax.axhline(0, color="grey", linewidth=1)
    ax.set_ylim(-0.2, 1.05)
    ax.set_ylabel("skill gap: 0 luck only, 1 stronger always wins")
    ax.set_title(f"Luck against skill (Elo spread {ladder['elo_spread']:.0f})")
    return True


_DRAW = {
    "win_rate": _win_rate,
    "rounds": _rounds,
    "branching": _branching,
    "scores": _scores,
    "drama": _drama,
    "skill": _skill,
}


def draw_all(configs: list[dict[str, Any]], ladder: dict[str, Any] | None, out: Path) -> dict[str, dict[str, str]]:
    """Draw every figure that has data into ``out``; returns {figure: {"png": name, "svg": name}}."""
    files: dict[str, dict[str, str]] = {}
    wide = len(configs) > 3
    for name in FIGURES:
        fig: Figure = plt.figure(figsize=(9.6 if wide else 6.4, 4.2), dpi=100)
        ax = fig.add_subplot()
        if not _DRAW[name](ax, configs, ladder):
            plt.close(fig)
            continue
        fig.tight_layout()
        files[name] = {}
        for ext in ("png", "svg"):
            fig.savefig(out / f"{name}.{ext}", format=ext, metadata={"Date": None} if ext == "svg" else None)
            files[name][ext] = f"{name}.{ext}"
        plt.close(fig)
    return files
