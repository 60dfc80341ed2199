"""The luck-against-skill figure of docs/research.md: the skill gap of every ladder pair in every game, drawn
from the reports' JSON (each made by its command file in docs/reports/).

    python scripts/luck_skill_figure.py docs/reports/luck-skill.png docs/reports/luck-skill-*/report.json ...
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

COLOURS = ("#1f6fb4", "#d9731a", "#2a9d4b")


def main(png: str, reports: list[str]) -> None:
    ladders = []
    for path in reports:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if data.get("ladder"):
            ladders.append((data["game_name"], data["ladder"]))
    pairs = [f"{p['strong']} vs {p['weak']}" for p in ladders[0][1]["pairs"]]
    fig, ax = plt.subplots(figsize=(8.0, 4.6), dpi=100)
    width = 0.8 / len(pairs)
    for j, name in enumerate(pairs):
        xs, ys, lo, hi = [], [], [], []
        for i, (_, ladder) in enumerate(ladders):
            row = next((p for p in ladder["pairs"] if f"{p['strong']} vs {p['weak']}" == name), None)
            if row is None:
                continue
            xs.append(i + (j - (len(pairs) - 1) / 2) * width)
            ys.append(row["skill_gap"])
            lo.append(row["skill_gap"] - row["skill_gap_ci95"][0])
            hi.append(row["skill_gap_ci95"][1] - row["skill_gap"])
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, color=COLOURS[j % len(COLOURS)], label=name)
    labels = [f"{game}\nElo spread {ladder['elo_spread']:.0f}" for game, ladder in ladders]
    ax.set_xticks(range(len(ladders)), labels, fontsize="small")
    ax.axhline(0, color="grey", linewidth=1)
    ax.set_ylim(-0.25, 1.05)
    ax.set_ylabel("skill gap (95% interval)\n0: luck only, 1: stronger always wins")
    ax.set_title("Luck against skill in the five games")
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=len(pairs))
    fig.tight_layout()
    fig.savefig(png)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
