"""``polytable analyse``: a balance report (metrics, plots, HTML and JSON) from many seeded AI games.

Why a command of its own: designers ask "is my variant balanced, and how much does skill matter?" and want
the answer as figures they can read on a phone and data they can keep, over every configuration they
consider at once. The work is in :mod:`polytable.analysis`; this module only reads the command line (or
the command file a finding in docs/ is regenerated from).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress

from ..core import ConfigError, PolytableError, get_game
from ._options import parse_options

__all__ = ["register"]

err = Console(stderr=True)


def register(app: typer.Typer) -> None:
    @app.command("analyse")
    def analyse_cmd(
        game_id: Annotated[str | None, typer.Argument(metavar="GAME", help="The game (or --from FILE).")] = None,
        out: Annotated[
            Path | None, typer.Option("--out", help="Folder for report.html, report.json and the plots.")
        ] = None,
        source: Annotated[
            Path | None,
            typer.Option("--from", help="A command file (TOML) with the whole report; flags given here override."),
        ] = None,
        players: Annotated[int | None, typer.Option("--players", "-p", min=1, help="Number of players.")] = None,
        option: Annotated[list[str] | None, typer.Option("--option", help="Game option KEY=VALUE.")] = None,
        ai: Annotated[list[str] | None, typer.Option("--ai", help="AI (once for all seats, or per seat).")] = None,
        grid: Annotated[
            list[str] | None,
            typer.Option(
                "--grid",
                help="KEY=V1,V2,... over an option, players or ai (NAME, or NAME/NAME per seat); several combine.",
            ),
        ] = None,
        games: Annotated[int | None, typer.Option("--games", "-n", min=1, help="Games per configuration.")] = None,
        seed: Annotated[int | None, typer.Option("--seed", help="Game i uses seed SEED + i.")] = None,
        ladder: Annotated[
            str | None,
            typer.Option("--ladder", help="Skill ladder, weakest first (random,greedy,hard), or 'none'."),
        ] = None,
        ladder_games: Annotated[
            int | None, typer.Option("--ladder-games", min=0, help="Games per ladder pair (default: --games).")
        ] = None,
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
        """Balance report over one or more configurations: seats, length in rounds, branching by decision,
        luck against skill, decisiveness; every figure with its interval."""
        from ..analysis import Plan, analyse, read_plan, write_report

        try:
            plan = read_plan(source) if source is not None else None
            if plan is None:
                if game_id is None:
                    raise ConfigError("name the game (polytable analyse GAME) or give --from FILE")
                plan = Plan(game=get_game(game_id).spec.id)
            elif game_id is not None and get_game(game_id).spec.id != get_game(plan.game).spec.id:
                raise ConfigError(f"{source} is a report of {plan.game}, not {game_id}")
            game = get_game(plan.game)
            if out is None:
                if source is None:
                    raise ConfigError("say where the report goes: --out FOLDER")
                out = source.parent
            plan.game = game.spec.id
            plan.players = players if players is not None else plan.players
            plan.options.update(parse_options(game, option))
            plan.ais = list(ai) if ai else plan.ais
            for item in grid or ():
                key, eq, values = item.partition("=")
                if not eq:
                    raise ConfigError(f"--grid takes KEY=V1,V2,..., not {item!r}")
                plan.grid.append((key.strip(), values.split(",")))
            plan.games = games if games is not None else plan.games
            plan.seed = seed if seed is not None else plan.seed
            if ladder is not None:
                plan.ladder = [] if ladder.strip() == "none" else [x.strip() for x in ladder.split(",") if x.strip()]
            plan.ladder_games = ladder_games if ladder_games is not None else plan.ladder_games
            if compare:
                plan.compare = parse_options(game, compare)
            plan.compare_players = compare_players if compare_players is not None else plan.compare_players
            plan.compare_ai = list(compare_ai) if compare_ai else plan.compare_ai
            with Progress(console=err, transient=True, disable=not err.is_terminal) as progress:
                task = progress.add_task(f"{game.spec.name}", total=None)
                data = analyse(
                    plan,
                    workers,
                    cluster,
                    source.parent if source is not None else None,
                    lambda done, total: progress.update(task, completed=done, total=total),
                )
        except (PolytableError, ValueError, OSError) as exc:
            err.print(f"[red]error:[/] {exc}", highlight=False)
            raise typer.Exit(2) from None
        if source is not None:
            data["command_file"] = source.read_text(encoding="utf-8")
        try:
            path = write_report(out, data)
        except OSError as exc:
            raise ConfigError(f"cannot write the report in {out}: {exc.strerror}") from None
        for c in data["configurations"]:
            m = c["summary"]["metrics"]
            shown = ", ".join(f"{k} {v['value']:.3f}" for k, v in m.items() if v.get("value") is not None)
            print(f"{c['label']}: {shown}")
        if data["ladder"]:
            lad = data["ladder"]
            gaps = ", ".join(f"{p['strong']}>{p['weak']} {p['skill_gap']:.2f}" for p in lad["pairs"])
            print(f"skill gap: {gaps}; Elo spread {lad['elo_spread']:.0f}")
        for t in data["tests"]:
            if t["significant"]:
                shown = f"{t['value']:.3f} against {t['reference']:.3f} (p={t['p_holm']:.3g}, Holm)"
                print(f"significant: {t['what']}: {shown}")
        print(f"report: {path}")
