"""``polytable puzzle quadefy [PATTERN | --pattern-file FILE]``: Quadefy's bonus puzzle.

The command only reads the pattern (a name, inline text or a file), calls the pure solver in
:mod:`polytable.games.quadefy._puzzle` and prints the answer layer by layer with the search statistics.
The ``puzzle`` group is shared: if another game has already created it, the subcommand joins it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from ..core import ConfigError
from ..games.quadefy._puzzle import PATTERN_NOTES, PATTERNS, parse_pattern, pattern_text, solve_pattern
from ..games.quadefy._state import ACTIONS, format_placement
from ..games.quadefy._tables import BLOCKS, PLACEMENTS

__all__ = ["puzzle_report", "register"]


def _puzzle_group(app: typer.Typer) -> typer.Typer:
    for info in app.registered_groups:
        if info.name == "puzzle" and info.typer_instance is not None:
            return info.typer_instance
    group = typer.Typer(help="Solve a game's puzzle.", no_args_is_help=True)
    app.add_typer(group, name="puzzle")
    return group


def _grid(dark: int, tilings: tuple[list[int] | None, list[int] | None]) -> list[str]:
    """The four layers side by side; a cell reads ``dT`` (a dark T), ``lSL`` (a light left screw), or
    ``d?`` / ``l?`` for a colour whose region has no tiling."""
    label: list[str] = []
    for i in range(64):
        colour = 0 if dark >> i & 1 else 1
        label.append("dl"[colour] + "?")
    for colour, pids in enumerate(tilings):
        for pid in pids or []:
            p = PLACEMENTS[pid]
            for i in range(64):
                if p.mask >> i & 1:
                    label[i] = "dl"[colour] + BLOCKS[p.block]
    lines = ["   ".join(f"layer {z + 1}{' (floor)' if z == 0 else ''}".ljust(18) for z in range(4)).rstrip()]
    lines.append("   ".join("  a   b   c   d   " for _ in range(4)).rstrip())
    for y in range(3, -1, -1):
        parts = []
        for z in range(4):
            parts.append(f"{y + 1} " + "".join(label[x + 4 * y + 16 * z].ljust(4) for x in range(4)))
        lines.append("   ".join(parts).rstrip())
    return lines


def puzzle_report(dark: int, name: str = "") -> tuple[bool, str]:
    """Solve ``dark`` and describe the answer; (solved, text)."""
    start = time.perf_counter()
    result = solve_pattern(dark)
    elapsed = time.perf_counter() - start
    out = [f"Quadefy bonus puzzle{f' {name!r}' if name else ''}: X = dark, . = light"]
    out.append(pattern_text(dark))
    out.append("")
    if result.solved:
        out.append("Solution (each cell: d/l for dark/light, then the block):")
    else:
        out.append("No solution exists. The search below was complete:")
    out += _grid(dark, result.tilings)
    out.append("")
    for colour, (tiling, st) in enumerate(zip(result.tilings, result.stats, strict=True)):
        cname = ("dark", "light")[colour]
        verdict = (
            "tiled: " + ", ".join(format_placement(ACTIONS[p]) for p in tiling)
            if tiling is not None
            else "proven impossible (every branch of the exact-cover search failed)"
        )
        out.append(f"{cname}: {verdict}")
        out.append(f"  search: {st.nodes} nodes, {st.tried} placements tried, {st.pruned} cut by region size")
    out.append(f"time: {elapsed * 1000:.1f} ms")
    return result.solved, "\n".join(out)


def register(app: typer.Typer) -> None:
    group = _puzzle_group(app)

    @group.command("quadefy")
    def puzzle_quadefy(
        pattern: Annotated[
            str | None,
            typer.Argument(help="A named pattern, or 64 cells of X (dark) and . (light); see docs/games/quadefy.md."),
        ] = None,
        pattern_file: Annotated[
            Path | None, typer.Option("--pattern-file", help="Read the pattern from a file.")
        ] = None,
        solve_all: Annotated[bool, typer.Option("--all", help="Solve every named pattern.")] = False,
    ) -> None:
        """Build the 4x4x4 cube showing a dark/light pattern with each colour's 8 blocks, or prove it
        cannot be done."""
        try:
            if solve_all:
                for pname, dark in PATTERNS.items():
                    _, text = puzzle_report(dark, pname)
                    typer.echo(text + "\n")
                return
            if pattern is not None and pattern_file is not None:
                raise ConfigError("give a pattern or --pattern-file, not both")
            if pattern_file is not None:
                try:
                    text = pattern_file.read_text(encoding="utf-8")
                except OSError as exc:
                    raise ConfigError(f"cannot read {pattern_file}: {exc.strerror or exc}") from None
                dark, name = parse_pattern(text), pattern_file.name
            elif pattern is not None:
                dark = parse_pattern(pattern)
                name = pattern.strip().lower() if pattern.strip().lower() in PATTERNS else ""
            else:
                typer.echo("Named patterns (polytable puzzle quadefy NAME):")
                for pname, note in PATTERN_NOTES.items():
                    typer.echo(f"  {pname:<10} {note}")
                typer.echo("Or give 64 cells of X and . (layer 1 first, row 4 first), or --pattern-file FILE.")
                return
        except ConfigError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        _, text = puzzle_report(dark, name)
        typer.echo(text)
