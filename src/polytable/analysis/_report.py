"""Writing a report: ``report.json`` (every figure's data), the plots, and a self-contained
``report.html`` (the SVG plots inline, no external files or scripts, readable on a phone)."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from ._plots import draw_all

__all__ = ["write_report"]

_CSS = """
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;line-height:1.4;color:#222}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:1.6rem}
table{border-collapse:collapse;width:100%;font-size:.9rem;margin:.5rem 0}
th,td{border-bottom:1px solid #ddd;padding:.3rem .4rem;text-align:right}th:first-child,td:first-child{text-align:left}
.scroll{overflow-x:auto}.fig svg{width:100%;height:auto}.sig{font-weight:bold;color:#a40}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:1rem}
code{font-size:.85rem;word-break:break-all}small{color:#555}
"""

_METRIC_HELP = {
    "Balance": "1 - (highest - lowest seat win share)",
    "Completion": "share of games with exactly one winner",
    "Drawishness": "share of games without a single winner (shared wins, no winner)",
    "AdvantageP1": "seat 1's win share (shared wins split)",
    "DurationTurns": "mean player actions per game",
    "BranchingFactor": "mean legal actions over all decisions",
}


class _Raw(str):
    """Table cell text that is already HTML."""


def _fmt(x: Any) -> str:
    if isinstance(x, _Raw):
        return str(x)
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.3f}" if abs(x) < 1000 else f"{x:.0f}"
    return html.escape(str(x))


def _table(head: list[str], rows: list[list[Any]], classes: list[str] | None = None) -> str:
    out = ["<div class=scroll><table><tr>", *(f"<th>{html.escape(h)}</th>" for h in head), "</tr>"]
    for i, row in enumerate(rows):
        cls = f" class={classes[i]}" if classes and classes[i] else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{_fmt(c)}</td>" for c in row) + "</tr>")
    out.append("</table></div>")
    return "".join(out)


def _describe_config(cfg: dict[str, Any]) -> str:
    opts = ", ".join(f"{k}={v if len(str(v)) < 40 else '(file)'}" for k, v in cfg["options"].items()) or "defaults"
    return f"{cfg['players']} players; AIs {', '.join(cfg['ais'])}; options: {opts}; seeds {cfg['seed']}..."


def write_report(out: Path, title: str, configs: list[dict[str, Any]], comparison: dict[str, Any] | None) -> Path:
    """``configs``: one or two ``{"label", "config", "summary", "per_game"}``; returns report.html's path."""
    out.mkdir(parents=True, exist_ok=True)
    series = [(c["label"], c["summary"]) for c in configs]
    files = draw_all(series, out)
    data = {"title": title, "configurations": configs, "comparison": comparison, "plots": files}
    (out / "report.json").write_text(json.dumps(data, indent=1), encoding="utf-8")

    parts = [
        "<!doctype html><html lang=en><meta charset=utf-8>",
        "<meta name=viewport content='width=device-width,initial-scale=1'>",
        f"<title>{html.escape(title)}</title><style>{_CSS}</style><body>",
        f"<h1>{html.escape(title)}</h1>",
    ]
    for c in configs:
        parts.append(f"<p><b>{html.escape(c['label'])}</b>: {html.escape(_describe_config(c['config']))}")
        parts.append(f" ({c['summary']['games']} games)</p>")
    labels = [c["label"] for c in configs]
    parts.append("<h2>Metrics</h2>")
    rows = []
    for name, help_text in _METRIC_HELP.items():
        cell = _Raw(f"{html.escape(name)}<br><small>{html.escape(help_text)}</small>")
        row: list[Any] = [cell] + [c["summary"]["metrics"][name] for c in configs]
        if comparison:
            row.append(comparison["metrics"][name]["difference"])
        rows.append(row)
    head = ["metric", *labels] + (["B - A"] if comparison else [])
    parts.append(_table(head, rows))
    for c in configs:
        s = c["summary"]
        parts.append(f"<h2>Seats: {html.escape(c['label'])}</h2>")
        seat_rows = [
            [f"seat {x['seat']}", x["win_share"], f"{x['ci95'][0]:.3f}-{x['ci95'][1]:.3f}"]
            + [x["scores"][k] for k in ("mean", "sd", "median", "min", "max")]
            for x in s["seats"]
        ]
        parts.append(
            _table(["seat", "win share", "95% interval", "mean score", "sd", "median", "min", "max"], seat_rows)
        )
    if comparison:
        parts.append("<h2>Differences (B - A) and significance</h2>")
        parts.append("<p>p: two-sided; Holm-corrected over all rows; bold rows are significant at 5%.</p>")
        t = comparison["tests"]
        parts.append(
            _table(
                ["quantity", "A", "B", "B - A", "p", "p (Holm)", "test"],
                [[x["what"], x["a"], x["b"], x["difference"], x["p"], x["p_holm"], x["test"]] for x in t],
                ["sig" if x["significant"] else "" for x in t],
            )
        )
    parts.append("<h2>Figures</h2><div class=grid>")
    for f in files.values():
        svg = (out / f["svg"]).read_text(encoding="utf-8")
        svg = svg[svg.index("<svg") :]
        parts.append(f"<div class=fig>{svg}<p><a href='{f['png']}'>PNG</a> · <a href='{f['svg']}'>SVG</a></p></div>")
    parts.append("</div><p>Data: <a href='report.json'>report.json</a>. Formulas: docs/research.md.</p></body></html>")
    path = out / "report.html"
    path.write_text("".join(parts), encoding="utf-8")
    return path
