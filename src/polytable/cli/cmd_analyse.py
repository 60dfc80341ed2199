"""``polytable analyse``: a balance report (metrics, plots, HTML and JSON) from many seeded AI games.

Why a command of its own: designers ask "is my variant balanced?" and want the answer as figures they can
read on a phone and data they can keep, and a second configuration beside the first with what changed
significantly. The work is in :mod:`polytable.analysis`; this module only reads the command line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress

from ..core import ConfigError, PolytableError, get_game
from ._options import parse_options

__all__ = ["register"]

err = Console(stderr=True)


def _run(job: Any, label: str, games: int, seed: int, workers: int, cluster: str | None) -> dict[str, Any]:
    from ..analysis import run_games, summarise

    with Progress(console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task(f"{label}: {job.game}", total=games)
        records = run_games(job, games, seed, workers, cluster, lambda k: progress.advance(task, k))
    return {
        "label": label,
        "config": {"game": job.game, "players": job.players, "ais": list(job.ais), "options": dict(job.options)},
        "summary": summarise(records, job.players),
        "records": records,
    }


def register(app: typer.Typer) -> None:
    @app.command("analyse")
    def analyse_cmd(
        game_id: Annotated[str, typer.Argument(metavar="GAME")],
        out: Annotated[Path, typer.Option("--out", help="Folder for report.html, report.json and the plots.")],
        players: Annotated[int | None, typer.Option("--players", "-p", min=1, help="Number of players.")] = None,
        option: Annotated[list[str] | None, typer.Option("--option", help="Game option KEY=VALUE.")] = None,
        ai: Annotated[list[str] | None, typer.Option("--ai", help="AI (once for all seats, or per seat).")] = None,
        games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games per configuration.")] = 200,
        seed: Annotated[int, typer.Option("--seed", help="Game i uses seed SEED + i.")] = 0,
        workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local worker processes.")] = 1,
        cluster: Annotated[
            str | None, typer.Option("--cluster", help="Dask scheduler address (tcp://HOST:PORT).")
        ] = None,
        compare: Annotated[
            list[str] | None,
            typer.Option(
                "--compare",
                help="Configuration B: KEY=VALUE over A's options (KEY=@FILE reads a deck, template or variant).",
            ),
        ] = None,
        compare_players: Annotated[
            int | None, typer.Option("--compare-players", min=1, help="B's player count.")
        ] = None,
        compare_ai: Annotated[list[str] | None, typer.Option("--compare-ai", help="B's AIs.")] = None,
    ) -> None:
        """Balance report: win rate by seat, game length, branching factor, scores; --compare for two."""
        from ..analysis import Job, write_report
        from ..analysis import compare as compare_summaries

        try:
            game = get_game(game_id)
            options = parse_options(game, option)
            job_a = Job.make(game.spec.id, players, ai or ["random"], options)
            job_b = None
            if compare or compare_players is not None or compare_ai:
                options_b = {**options, **parse_options(game, compare)}
                n_b = compare_players if compare_players is not None else job_a.players
                same_ais = ai if n_b == job_a.players or len(ai or []) <= 1 else None
                job_b = Job.make(game.spec.id, n_b, compare_ai or same_ais or ["random"], options_b)
            configs = [_run(job_a, "A" if job_b else game.spec.name, games, seed, workers, cluster)]
            if job_b is not None:
                configs.append(_run(job_b, "B", games, seed, workers, cluster))
        except (PolytableError, ValueError, OSError) as exc:
            err.print(f"[red]error:[/] {exc}", highlight=False)
            raise typer.Exit(2) from None
        comparison = None
        if len(configs) == 2:
            a, b = configs
            comparison = compare_summaries(a["summary"], b["summary"], a["records"], b["records"])
        for c in configs:
            c["config"]["seed"] = seed
            c["per_game"] = [r.to_dict() for r in c.pop("records")]
        title = f"{game.spec.name} balance report" + (" (A against B)" if comparison else "")
        try:
            path = write_report(out, title, configs, comparison)
        except OSError as exc:
            raise ConfigError(f"cannot write the report in {out}: {exc.strerror}") from None
        for c in configs:
            m = c["summary"]["metrics"]
            shown = ", ".join(f"{k} {v:.3f}" for k, v in m.items() if v is not None)
            print(f"{c['label']}: {shown}")
        if comparison:
            for t in comparison["tests"]:
                if t["significant"]:
                    print(f"significant: {t['what']} {t['a']:.3f} -> {t['b']:.3f} (p={t['p_holm']:.3g}, Holm)")
        print(f"report: {path}")
