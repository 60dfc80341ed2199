"""Writing a report: ``report.json`` (every figure's data), the plots, and a self-contained
``report.html`` (the SVG plots inline, no external files or scripts, readable on a phone)."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from ._plots import draw_all

__all__ = ["METRIC_HELP", "render_html", "write_report"]

_CSS = """
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:64rem;padding:1rem;line-height:1.4;color:#222}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:1.6rem}
table{border-collapse:collapse;width:100%;font-size:.85rem;margin:.5rem 0}
th,td{border-bottom:1px solid #ddd;padding:.3rem .4rem;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left}
.scroll{overflow-x:auto}.fig svg{width:100%;height:auto}.sig{font-weight:bold;color:#a40}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(22rem,1fr));gap:1rem}
code{font-size:.85rem;word-break:break-all}small{color:#555}
pre{white-space:pre-wrap;font-size:.8rem;background:#f4f4f4;padding:.5rem}
"""

METRIC_HELP = {
    "Rounds": "rounds per game, as the rulebook counts them (every player one turn)",
    "Turns": "turns per game (all players together)",
    "Actions": "player decisions per game (a pick, an element, a reroll... each one)",
    "BranchingFactor": "mean legal actions over all decisions (per kind below)",
    "AdvantageP1": "seat 1's win share (shared wins split)",
    "FirstPlayerWins": "the win share of whoever took the first turn",
    "Balance": "1 - (highest - lowest seat win share)",
    "Completion": "share of games with exactly one winner",
    "Drawishness": "share of games without a single winner",
    "WinningMargin": "the sole winner's lead over the next player at the end (0 on a shared win)",
    "LeadChanges": "times per game the sole leader at a round's end changed",
    "Comebacks": "share of games whose winner was not leading at half time",
    "DecidedInLastRound": "share of games whose winner was not leading before the last round",
}


def _fmt(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        if abs(x) >= 1000:
            return f"{x:,.0f}"
        return f"{x:.3f}" if abs(x) < 10 else f"{x:.1f}"
    return html.escape(str(x))


def _p(x: float) -> str:
    """A p-value: three decimals, then powers of ten, and no pretence below 1e-10 (a normal tail there
    says only that the difference is far beyond chance)."""
    return f"{x:.3f}" if x >= 0.001 else f"{x:.1e}" if x >= 1e-10 else "&lt;1e-10"


def _estimate(e: dict[str, Any] | None) -> str:
    """A value with its interval, as HTML."""
    if not e or e.get("value") is None:
        return "-"
    ci = e.get("ci95")
    tail = f"<br><small>{_fmt(ci[0])}-{_fmt(ci[1])}</small>" if ci else ""
    return _fmt(e["value"]) + tail


def _table(head: list[str], rows: list[list[str]], classes: list[str] | None = None) -> str:
    out = ["<div class=scroll><table><tr>", *(f"<th>{html.escape(h)}</th>" for h in head), "</tr>"]
    for i, row in enumerate(rows):
        cls = f" class={classes[i]}" if classes and classes[i] else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>")
    out.append("</table></div>")
    return "".join(out)


def _describe_config(cfg: dict[str, Any]) -> str:
    opts = ", ".join(f"{k}={v if len(str(v)) < 40 else '(file)'}" for k, v in cfg["options"].items()) or "defaults"
    return f"{cfg['players']} players; AIs {', '.join(cfg['ais'])}; options: {opts}"


def render_html(data: dict[str, Any], figures: dict[str, str]) -> str:
    """The report page from its data and its figures (name -> SVG text)."""
    configs = data["configurations"]
    title = data["title"]
    parts = [
        "<!doctype html><html lang=en><meta charset=utf-8>",
        "<meta name=viewport content='width=device-width,initial-scale=1'>",
        f"<title>{html.escape(title)}</title><style>{_CSS}</style><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{html.escape(data['game_name'])} rules version <b>{html.escape(str(data['rules_version']))}</b>, "
        f"polytable {html.escape(str(data['polytable_version']))}; {data['games']} games per configuration, "
        f"seeds {configs[0]['config']['seed']} on. Every figure: 95% interval (Wilson for shares, "
        "bootstrap over games otherwise).</p><ul>",
    ]
    for c in configs:
        parts.append(f"<li><b>{html.escape(c['label'])}</b>: {html.escape(_describe_config(c['config']))}</li>")
    parts.append("</ul><h2>Metrics</h2>")
    names = [k for k in METRIC_HELP if any(k in c["summary"]["metrics"] for c in configs)]
    rows = []
    for name in names:
        cell = f"{html.escape(name)}<br><small>{html.escape(METRIC_HELP[name])}</small>"
        rows.append([cell] + [_estimate(c["summary"]["metrics"].get(name)) for c in configs])
    units = ["score unit"] + [html.escape(c["summary"]["score_unit"] or "no running tally") for c in configs]
    parts.append(_table(["metric", *(c["label"] for c in configs)], [*rows, units]))
    kinds = sorted({k for c in configs for k in c["summary"]["branching_by_kind"]})
    parts.append("<h2>Branching by kind of decision</h2><p>Legal actions per decision; decisions per game.</p>")
    krows = []
    for kind in kinds:
        row = [html.escape(kind)]
        for c in configs:
            e = c["summary"]["branching_by_kind"].get(kind)
            row.append(_estimate(e) + (f"<br><small>{e['decisions']:.1f} a game</small>" if e else ""))
        krows.append(row)
    parts.append(_table(["decision", *(c["label"] for c in configs)], krows))
    parts.append("<h2>Seats</h2><p>Win share (95% interval); mean score (95% interval) and range.</p>")
    seat_rows = []
    for p in range(max(c["summary"]["players"] for c in configs)):
        row = [f"seat {p + 1}"]
        for c in configs:
            seats = c["summary"]["seats"]
            if p >= len(seats):
                row.append("")
                continue
            x = seats[p]
            score = _estimate({"value": x["scores"]["mean"], "ci95": x["score_ci95"]})
            rng = f"{_fmt(x['scores']['min'])}-{_fmt(x['scores']['max'])}"
            row.append(f"{_estimate({'value': x['win_share'], 'ci95': x['ci95']})}<br>{score}<br><small>{rng}</small>")
        seat_rows.append(row)
    parts.append(_table(["seat", *(c["label"] for c in configs)], seat_rows))
    ladder = data.get("ladder")
    if ladder:
        parts.append("<h2>Luck against skill</h2>")
        parts.append(
            f"<p>Played in <b>{html.escape(ladder['configuration'])}</b>: one stronger player among weaker ones, "
            "the stronger seat going round the table. Skill gap: 0 when skill does not matter (a coin flip), "
            "1 when the stronger player always wins. "
            f"Elo spread {ladder['elo_spread']:.0f} ({ladder['elo_spread_ci95'][0]:.0f}-"
            f"{ladder['elo_spread_ci95'][1]:.0f}); ratings "
            + ", ".join(f"{html.escape(k)} {v:.0f}" for k, v in ladder["elo"].items())
            + ".</p>"
        )
        lrows = [
            [
                f"{html.escape(p['strong'])} vs {html.escape(p['weak'])}",
                str(p["games"]),
                _estimate({"value": p["win_share"], "ci95": p["ci95"]}),
                _estimate({"value": p["skill_gap"], "ci95": p["skill_gap_ci95"]}),
            ]
            for p in ladder["pairs"]
        ]
        parts.append(_table(["stronger vs weaker", "games", "stronger's win share", "skill gap"], lrows))
    tests = data["tests"]
    if tests:
        parts.append("<h2>Tests</h2>")
        parts.append(
            "<p>Seat fairness in every configuration (with 2 players one hypothesis: seat 2's share is 1 minus "
            "seat 1's), and each configuration against the first on quantities in the same units. p: two-sided; "
            "Holm-corrected over all rows together; bold rows are significant at 5%.</p>"
        )
        parts.append(
            _table(
                ["hypothesis", "value", "reference", "p", "p (Holm)", "test"],
                [
                    [
                        html.escape(t["what"]),
                        _fmt(t["value"]),
                        _fmt(t["reference"]),
                        _p(t["p"]),
                        _p(t["p_holm"]),
                        html.escape(t["test"]),
                    ]
                    for t in tests
                ],
                ["sig" if t["significant"] else "" for t in tests],
            )
        )
    parts.append("<h2>Figures</h2><div class=grid>")
    for name, svg in figures.items():
        svg = svg[svg.index("<svg") :]
        parts.append(f"<div class=fig>{svg}<p><a href='{name}.png'>PNG</a> · <a href='{name}.svg'>SVG</a></p></div>")
    parts.append("</div><p>Data: <a href='report.json'>report.json</a>. Formulas: docs/research.md.</p>")
    if data.get("command_file"):
        parts.append("<h2>Made by</h2><p>This command file, with <code>polytable analyse --from FILE</code>:</p>")
        parts.append(f"<pre>{html.escape(data['command_file'], quote=False)}</pre>")
    parts.append("</body></html>")
    return "".join(parts)


def write_report(out: Path, data: dict[str, Any]) -> Path:
    """Write ``report.json``, the figures and ``report.html`` into ``out``; returns report.html's path."""
    out.mkdir(parents=True, exist_ok=True)
    files = draw_all(data["configurations"], data.get("ladder"), out)
    text = json.dumps({**data, "plots": files}, separators=(",", ":"))  # compact: one record per game
    (out / "report.json").write_text(text, encoding="utf-8")
    figures = {name: (out / f["svg"]).read_text(encoding="utf-8") for name, f in files.items()}
    path = out / "report.html"
    path.write_text(render_html(data, figures), encoding="utf-8")
    return path
