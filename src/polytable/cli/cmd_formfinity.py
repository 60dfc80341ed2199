"""``polytable deal formfinity [--seed S] [--count N]``: FORMFINITY's companion mode.

The original app's job: people play on printed templates (``polytable print formfinity``) and the app
only reveals the cards, one at a time, big and clear. Press Enter for the next card, ``q`` to quit.
``--count N`` deals N cards and stops without waiting (for scripts and tests); with no terminal on
standard input the command also deals without waiting until input ends or ``--count`` is reached.

The cards are exactly those a digital game with the same options and seed would deal (the same pure
generator), so a seed written on the sheet replays the deal. The ``deal`` group is shared: if another
game has already created it, this subcommand joins it.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from ..core import PolytableError, get_game, player_name
from ..games.formfinity import Card, card_art, deal, parse_card, parse_card_code, setup_for
from ._options import parse_options

__all__ = ["deal_text", "given_card", "print_command", "register"]


def _deal_group(app: typer.Typer) -> typer.Typer:
    for info in app.registered_groups:
        if info.name == "deal" and info.typer_instance is not None:
            return info.typer_instance
    group = typer.Typer(help="Companion mode: reveal cards for people playing on paper.", no_args_is_help=True)
    app.add_typer(group, name="deal")
    return group


def deal_text(card: Card, number: int, players: int, arrows: bool, rotation: bool | None, unicode: bool) -> str:
    """One revealed card as the screen shows it: who draws, the big card, and a sentence."""
    player = player_name((number - 1) % players)
    rnd = (number - 1) // players + 1
    lines = [f"Card {number}  -  round {rnd}, {player}", ""]
    drawn = card if arrows else dataclasses.replace(card, edges=0)  # no arrows where the variant ignores them
    lines += ["   " + row for row in card_art(drawn, unicode=unicode, big=True)]
    lines += ["", card.describe(arrows, rotation), f"notation: {card.notation()}"]
    return "\n".join(lines)


def print_command(items: Sequence[str] | None, players: int) -> str | None:
    """The ``polytable print`` command of the template a deal with these ``--option`` items is played on:
    the variant file or template file given (as a path), else the numbered variant; it runs as printed.
    None when the variant or template was given as text rather than a file (no command could name it)."""
    given = {k.strip(): v for k, v in (item.split("=", 1) for item in items or () if "=" in item)}
    variant = given.get("variant", "1").strip() or "1"
    for key in ("variant_file", "template"):
        if key not in given:
            continue
        path = given[key].removeprefix("@")
        if not os.path.isfile(path):
            return None
        variant = path
        break
    stem = Path(variant).stem if variant not in ("1", "2", "3", "4") else f"variant-{variant}"
    out = f"formfinity-{stem}.pdf"
    return shlex.join(["polytable", "print", "formfinity", "--variant", variant, "--players", str(players), "-o", out])


def given_card(text: str) -> Card:
    """A card from a printed deck: its number, the code or address its QR code holds, or its notation."""
    raw = text.strip()
    if raw.isdigit():
        return Card.from_id(int(raw[:200]))
    if ":" in raw and "/c/" not in raw:
        return parse_card(raw)
    return parse_card_code(raw)


def register(app: typer.Typer) -> None:
    group = _deal_group(app)

    @group.command("formfinity")
    def deal_formfinity(
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of the deal (default: a new one).")] = None,
        count: Annotated[
            int | None, typer.Option("--count", min=1, help="Deal this many cards and stop (no waiting).")
        ] = None,
        players: Annotated[
            int, typer.Option("--players", "-p", min=1, help="Players taking turns (for the labels).")
        ] = 2,
        option: Annotated[
            list[str] | None, typer.Option("--option", help="Game options KEY=VALUE (weights, deck=FILE).")
        ] = None,
        ascii_only: Annotated[bool, typer.Option("--ascii", help="Plain ASCII cards (no block characters).")] = False,
        printed: Annotated[
            bool, typer.Option("--printed", help="Follow a printed QR deck: type each drawn card's number.")
        ] = False,
    ) -> None:
        """Reveal FORMFINITY cards one at a time for a game on paper (Enter: next card, q: quit)."""
        game = get_game("formfinity")
        try:
            options = parse_options(game, option)
            state = game.new_game(options, seed=0, players=players)
        except PolytableError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        setup = setup_for(state.config)
        if seed is None:
            seed = secrets.randbelow(10**6)
        interactive = count is None and sys.stdin.isatty()
        unicode = not ascii_only
        typer.echo(f"FORMFINITY deal, seed {seed} ({setup.rules.name}). Write the seed down to replay this deal.")
        command = print_command(option, players)
        if command is not None:
            typer.echo(f"Template: {command}")
        if interactive:
            typer.echo("Press Enter for the next card, q then Enter to quit; with a printed QR deck, type each")
            typer.echo("drawn card's number (or its code) instead.")
        cards = deal(setup, seed)
        limit = count
        number = 0
        physical = printed  # once a printed card is typed, the deal follows the printed deck

        def show(card: Card) -> None:
            if interactive and sys.stdout.isatty():
                typer.echo("\x1b[2J\x1b[H", nl=False)
            typer.echo("")
            typer.echo(
                deal_text(card, number, players, setup.rules.arrows, setup.rules.rotation_allowed(card.rotate), unicode)
            )

        answer = ""
        while limit is None or number < limit:
            if answer:
                try:
                    card = given_card(answer)
                except ValueError as exc:
                    typer.echo(f"error: {exc}", err=True)
                    card = None
                if card is not None:
                    physical = True
                    number += 1
                    show(card)
            elif physical:
                typer.echo("This deal follows a printed deck: type the number of the card drawn.")
                if count is not None:
                    break
            else:
                number += 1
                show(next(cards))
            if count is not None:
                answer = ""
                continue
            try:
                answer = input(
                    "\n[Enter] next card, a printed card's number, [q] quit: " if interactive else ""
                ).strip()
            except EOFError:
                break
            if answer.lower() in ("q", "quit", "exit"):
                break
