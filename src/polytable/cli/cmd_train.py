"""``polytable train GAME``: the self-play training of :mod:`polytable.ai._learn` (``--method net``: a value
network) or Forma's tuning of its evaluation weights (``--method tune``, :mod:`polytable.ai.forma._tune`)
from the command line.

Why a command: a run takes hours and must survive an interruption, so it is started (and started again,
to continue) on a folder that holds its whole state; the learning curve lands there as JSON and PNG.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..core import ConfigError, PolytableError

__all__ = ["register"]

err = Console(stderr=True)


def register(app: typer.Typer) -> None:
    @app.command("train")
    def train_cmd(
        ctx: typer.Context,
        game_id: Annotated[str, typer.Argument(metavar="GAME", help="The game (one with a learner).")],
        out: Annotated[Path, typer.Option("--out", help="The run's folder (created; given again to continue).")],
        method: Annotated[
            str,
            typer.Option(
                "--method",
                help="net: a value network by self-play; tune: Forma's evaluation weights by a coordinate "
                "search of self-play (takes --games and --seed only).",
            ),
        ] = "net",
        seed: Annotated[int, typer.Option("--seed", help="The run's seed (tune: shifts the plan's deals).")] = 0,
        iterations: Annotated[int, typer.Option("--iterations", min=1, help="Iterations to reach in all.")] = 10,
        games: Annotated[
            int, typer.Option("--games", min=1, help="Self-play games an iteration (tune: a step).")
        ] = 200,
        window: Annotated[int, typer.Option("--window", min=1, help="Iterations of positions trained on.")] = 4,
        epochs: Annotated[int, typer.Option("--epochs", min=1, help="Passes over the positions a fit.")] = 20,
        gate_games: Annotated[int, typer.Option("--gate-games", min=1, help="Arena games a candidate plays.")] = 40,
        seconds: Annotated[float, typer.Option("--seconds", help="Thinking time a move in the gate.")] = 0.1,
        clock: Annotated[
            str, typer.Option("--clock", help="What the gate's time and the labels' budget are read on: wall or cpu.")
        ] = "wall",
    ) -> None:
        """Train by self-play (docs/ai-training.md). Method net: fit a value network, keep it only when it
        beats the best so far. Method tune (forma): the coordinate search over the evaluation's weights that
        chose expert's shipped ones; writes weights.json for expert:tuned=FILE.

        Resumable: run the same command again to continue after the last finished iteration or step."""
        if method not in ("net", "tune"):
            err.print(f"[red]unknown method {method!r} (methods: net, tune)[/red]")
            raise typer.Exit(2)
        if method == "tune":
            if game_id != "forma":
                err.print(f"[red]no tuning method for {game_id} (games: forma)[/red]")
                raise typer.Exit(2)
            given = [
                "--" + name.replace("_", "-")
                for name in ("iterations", "window", "epochs", "gate_games", "seconds", "clock")
                if getattr(ctx.get_parameter_source(name), "name", None) == "COMMANDLINE"
            ]
            if given:
                err.print(f"[red]{', '.join(given)}: for --method net only (tune takes --games and --seed)[/red]")
                raise typer.Exit(2)
            from ..ai.forma._tune import tune

            try:
                tuned = tune(out, games=games, seed=seed, log=err.print)
            except (PolytableError, ConfigError) as exc:
                err.print(f"[red]{exc}[/red]")
                raise typer.Exit(2) from None
            err.print(f"done: {len(tuned['curve'])} steps, weights {tuned['weights']} in {out / 'weights.json'}")
            return
        try:
            from ..ai._learn import TrainConfig, train
        except ImportError:
            err.print("[red]polytable train needs NumPy: pip install 'polytable[learn]'[/red]")
            raise typer.Exit(2) from None
        try:
            cfg = TrainConfig(
                seed=seed, iterations=iterations, games=games, window=window, epochs=epochs,
                gate_games=gate_games, seconds=seconds, clock=clock,
            )  # fmt: skip
            state = train(game_id, out, cfg, log=err.print)
        except (PolytableError, ConfigError) as exc:
            err.print(f"[red]{exc}[/red]")
            raise typer.Exit(2) from None
        best = state["best"] or "none (no candidate beat hard)"
        err.print(f"done: {state['iteration']} iterations, best network: {best}; curve in {out / 'curve.json'}")
