"""``polytable forma-setup``: draw (or check) a Forma set-up and print it as a ``setup`` option string.

Why: the physical game lets the starting player place the obstacles. This command shows the board a seed
would give, or checks a hand-made layout, and prints the exact string to pass as ``--option setup=...``
so a table can play the same layout again.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ..core import ConfigError
from ..games.forma import GAME, format_setup

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    @app.command("forma-setup")
    def forma_setup_cmd(
        seed: Annotated[int, typer.Option(help="Seed for the random layout.")] = 0,
        obstacles: Annotated[int, typer.Option(min=0, max=25, help="Grey obstacles (0-25).")] = 10,
        size: Annotated[int, typer.Option(help="Board size (19 or 20).")] = 19,
        check: Annotated[str, typer.Option(help="A layout to check instead, e.g. 'tower j10; obstacles c3'.")] = "",
        color: Annotated[bool, typer.Option(help="Colour the board.")] = False,
    ) -> None:
        """Show a Forma board layout and its set-up string."""
        options: dict[str, object] = {"obstacles": obstacles, "size": size, "placement": "random"}
        if check:
            options["setup"] = check
        try:
            state = GAME.new_game(options, seed=seed)
        except ConfigError as e:
            typer.echo(f"Not a valid Forma set-up: {e}", err=True)
            raise typer.Exit(2) from None
        board = GAME.render(state, None, color).split("\n\n")[0]
        typer.echo(board)
        typer.echo(f"\nsetup={format_setup(state)}")
