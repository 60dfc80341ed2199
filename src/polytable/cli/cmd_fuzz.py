"""``polytable fuzz GAME --actions N``: the compiled engine against the pure rules, side by side."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    @app.command("fuzz")
    def fuzz_cmd(
        game_id: Annotated[str, typer.Argument(metavar="GAME")],
        actions: Annotated[int, typer.Option("--actions", min=1, help="Player actions to compare.")] = 100_000,
        seed: Annotated[int, typer.Option("--seed", help="The first game's seed (then +1 a game).")] = 0,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    ) -> None:
        """Play random games on the compiled and the pure engine at once and stop at the first difference:
        legal actions, draws, states, scores and playouts, plus the protocol's invariants (JSON round trip,
        views, illegal actions refused with the state unchanged)."""
        from .._native import COMPILED, Mismatch, fuzz
        from ..core import native_module

        if game_id not in COMPILED:
            typer.echo(f"error: {game_id} has no compiled kernel (compiled: {', '.join(sorted(COMPILED))})", err=True)
            raise typer.Exit(2)
        if native_module(COMPILED[game_id][1]) is None:
            typer.echo("error: the compiled engine is not available here (not built, or POLYTABLE_PURE=1)", err=True)
            raise typer.Exit(2)
        last = [0]

        def progress(rep: object) -> None:
            n = getattr(rep, "actions", 0)
            if not as_json and n - last[0] >= 100_000:
                last[0] = n
                print(f"  ... {n:,} actions agree", file=sys.stderr, flush=True)

        try:
            rep = fuzz(game_id, actions, seed, on_game=progress)
        except Mismatch as exc:
            typer.echo(f"MISMATCH: {exc}", err=True)
            raise typer.Exit(1) from None
        if as_json:
            typer.echo(json.dumps(rep.to_dict()))
            return
        d = rep.to_dict()
        typer.echo(
            f"{game_id}: {d['actions']:,} actions in {d['games']:,} games agree on both engines "
            f"({d['playouts']} playouts, {d['round_trips']} JSON round trips, {d['illegal_refused']} illegal "
            f"actions refused); {d['seconds']} s of CPU"
        )
