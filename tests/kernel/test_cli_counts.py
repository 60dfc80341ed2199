"""Every count a command takes (games, cards, players, workers, ...) refuses zero and negative numbers with a
clear message and status 2, instead of doing nothing or something odd silently."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer
from typer.testing import CliRunner

from polytable.cli import app

runner = CliRunner()
COUNTS = {"count", "games", "players", "workers", "n", "iterations", "cards", "jobs"}
"""Option names that count things: at least one of each is asked for."""


def _commands(cmd: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, cmd
    for name, sub in sorted(getattr(cmd, "commands", {}).items()):
        yield from _commands(sub, (*path, name))


def _count_options() -> list[tuple[tuple[str, ...], Any]]:
    out = []
    for path, cmd in _commands(typer.main.get_command(app)):
        for param in cmd.params:
            if param.param_type_name == "option" and param.name in COUNTS and param.bare_type() in (int, "int"):
                out.append((path, param))
    return out


def test_every_count_option_has_a_lower_bound_of_one() -> None:
    found = _count_options()
    assert len(found) >= 6, found  # play, simulate, arena, print, deal ... all have one
    loose = [f"{' '.join(path)} {param.opts[0]}" for path, param in found if param.min is None or param.min < 1]
    assert not loose, "these count options accept 0 or negative numbers: " + ", ".join(loose)


def test_a_negative_count_is_refused_with_a_clear_message() -> None:
    for args in (
        ["deal", "formfinity", "--count", "-3"],
        ["simulate", "forma", "--games", "0"],
        ["print", "formfinity-cards", "-o", "x.pdf", "--count", "0"],
        ["play", "forma", "-p", "-1"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        said = " ".join(result.output.replace("│", " ").split())
        assert "greater than or equal to 1" in said, (args, said)
