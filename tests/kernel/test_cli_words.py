"""What the command line says and takes: one meaning per short flag across commands, printed commands that
run as printed, words never cut at 80 columns, player counts in words and a clear error (status 2, one
line, the allowed values) for every out-of-range option."""

from __future__ import annotations

import io
import pathlib
import re
import shlex
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

from polytable.cli import app
from polytable.cli._play import move_rows, play_terminal
from polytable.core import get_game

runner = CliRunner()


def _commands(cmd: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, cmd
    for name, sub in sorted(getattr(cmd, "commands", {}).items()):
        yield from _commands(sub, (*path, name))


def _short_flags() -> dict[str, dict[str, list[str]]]:
    """Short flag -> its long name -> the commands that give it that meaning."""
    out: dict[str, dict[str, list[str]]] = {}
    for path, cmd in _commands(typer.main.get_command(app)):
        for param in getattr(cmd, "params", []):
            if param.param_type_name != "option":
                continue
            longs = [o for o in param.opts if o.startswith("--")]
            for short in (o for o in param.opts if not o.startswith("--")):
                out.setdefault(short, {}).setdefault(longs[0], []).append(" ".join(path))
    return out


def test_each_short_flag_means_one_thing_in_every_command_as_the_help_says() -> None:
    flags = _short_flags()
    mixed = {short: meanings for short, meanings in flags.items() if len(meanings) > 1}
    assert not mixed, f"short flags with several meanings: {mixed}"
    assert flags["-o"] == {"--output": ["print"]}  # deal's --option has no short flag any more
    # The root help names every short flag with its meaning.
    said = " ".join(runner.invoke(app, ["--help"]).output.replace("│", " ").split())
    for short, meanings in flags.items():
        assert f"{short} {next(iter(meanings))}" in said, short
    # The other meaning stays usable through its long flag.
    r = runner.invoke(app, ["deal", "formfinity", "--count", "1", "--seed", "1", "--option", "variant=2"])
    assert r.exit_code == 0 and "Variant 2" in r.output, r.output
    r = runner.invoke(app, ["deal", "formfinity", "--count", "1", "-o", "variant=2"])
    assert r.exit_code == 2


def _printed_command(output: str) -> list[str]:
    line = next(x for x in output.splitlines() if "polytable print" in x)
    args = shlex.split(line[line.index("polytable print") :])
    assert args[0] == "polytable"
    return args[1:]


@pytest.mark.parametrize("options", [[], ["--option", "variant=3"], ["--option", "variant_file=FILE"]])
def test_the_template_command_a_deal_prints_runs_as_printed(
    options: list[str], tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "short.toml").write_text(
        'name = "Short lines"\ntemplate = "blank"\nplayers = [2, 3]\n[goal]\ntype = "lines"\nlength = 5\n',
        encoding="utf-8",
    )
    options = [o.replace("FILE", "short.toml") for o in options]
    r = runner.invoke(app, ["deal", "formfinity", "--count", "1", "--seed", "5", *options])
    assert r.exit_code == 0, r.output
    args = _printed_command(r.output)
    assert "-o" in args or "--output" in args
    printed = runner.invoke(app, args)
    assert printed.exit_code == 0, (args, printed.output)
    written = [p for p in tmp_path.glob("*.pdf")]
    assert len(written) == 1 and written[0].read_bytes().startswith(b"%PDF"), written


def test_print_without_output_writes_name_pdf_here(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["print", "formfinity", "--variant", "4"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "formfinity.pdf").read_bytes().startswith(b"%PDF")


def test_games_says_how_many_play_in_words() -> None:
    r = runner.invoke(app, ["games"])
    assert r.exit_code == 0
    flat = " ".join(r.output.split())
    assert "Quadefy — 2 players" in flat and "Forma — 2-4 players" in flat
    assert not re.search(r"\b(\d+)-\1 players", flat), flat


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["print", "formfinity", "--variant", "9"], "there is no variant '9': choose 1, 2, 3, 4, blank"),
        (["print", "formfinity", "--variant", "3", "--players", "4"], "is played by 2 players, not 4"),
        (["print", "formfinity", "--players", "9"], "FORMFINITY is played by 2 to 4 players, not 9"),
        (["print", "foldris", "--players", "99"], "'players' must be from 1 to 7, not 99"),
        (["print", "formfinity-cards", "--count", "5000"], "count must be from 1 to 1000, not 5000"),
        (["print", "quadefy-puzzles", "--variant", "9"], "patterns: all, halves"),
        (["print", "forma", "--option", "size=7"], "'size' must be at least 19, not 7"),
        (["print", "formfinity", "--paper", "a9"], "--paper takes a4 or letter"),
        (["play", "quadefy", "-p", "3"], "Quadefy is played by 2 players, not 3"),
        (["play", "forma", "--option", "obstacles=99"], "'obstacles' must be at most 25, not 99"),
        (["play", "formfinity", "--option", "variant=9"], "'variant' must be one of 1, 2, 3, 4, custom, not '9'"),
        (["play", "forma", "--ai", "9=greedy"], "there is no seat 9 in a 4-player game"),
        (["deal", "formfinity", "--option", "variant=7", "--count", "1"], "must be one of 1, 2, 3, 4, custom"),
        (["deal", "formfinity", "-p", "9", "--count", "1"], "FORMFINITY is played by 2 to 4 players, not 9"),
        (["rules", "forma", "--lang", "de"], "no rules in 'de'; choose one of en, nl"),
        (["bench", "chess"], "no benchmark 'chess' (benchmarks:"),
    ],
)
def test_an_out_of_range_option_is_one_clear_line(
    args: list[str], said: str, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, args)
    assert r.exit_code == 2, (args, r.output)
    flat = " ".join(r.output.split())
    assert said in flat and flat.startswith("error:"), flat
    assert "Traceback" not in r.output and "template line" not in flat
    assert not list(tmp_path.iterdir())  # nothing half-written


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_rules_wrap_at_the_terminal_width_between_words(lang: str) -> None:
    r = runner.invoke(app, ["rules", "formfinity", "--lang", lang], env={"COLUMNS": "80"})
    assert r.exit_code == 0
    assert max(len(line) for line in _lines(r.output)) <= 80
    # Each line ends at a word's end: joined again, the words are those of the page (another test checks
    # that every sentence of the page is printed).
    wide = runner.invoke(app, ["rules", "formfinity", "--lang", lang], env={"COLUMNS": "200"})
    assert r.output.split() == wide.output.split()
    assert max(len(line) for line in _lines(wide.output)) > 80  # at 200 columns it wraps wider (up to 100)


def test_moves_are_listed_whole_within_the_width() -> None:
    moves = ["I r1 @ c1.1", "I r2 @ a1.1", "#./##/.#/.#@a1", "O r0 @ b2.1"] * 9
    rows = move_rows(moves, 80)
    assert all(len(row) <= 80 for row in rows) and len(rows) > 1
    assert [m for row in rows for m in row.strip().split("   ")] == moves


def test_moves_and_rules_in_a_game_fit_80_columns() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    lines = iter(["moves 60", "rules", "quit"])
    play_terminal(get_game("quadefy"), {}, 2, {}, 3, console, color=False, read=lambda _prompt: next(lines))
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    listed = [line for line in text.splitlines() if " @ " in line]
    assert len(listed) > 3
    for line in listed:  # every move on a line is whole: a block, a rotation, "@" and a cell
        assert re.fullmatch(r"( +\S+ r\d+ @ [a-d]\d\.\d)+", line), line


def test_the_readme_heading_counts_the_commands_it_lists() -> None:
    readme = (pathlib.Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    m = re.search(r"^## (\w+) commands\n+```sh\n(.*?)```", readme, flags=re.M | re.S)
    assert m, "README has a '## N commands' section with a sh block"
    listed = [line for line in m.group(2).splitlines() if line.startswith("make ")]
    words = {"two": 2, "three": 3, "four": 4}
    assert words[m.group(1).lower()] == len(listed), (m.group(1), listed)
