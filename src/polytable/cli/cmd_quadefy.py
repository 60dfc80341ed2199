"""Quadefy's extra commands: ``polytable puzzle quadefy`` (the bonus puzzle) and ``polytable solve quadefy``.

``puzzle`` only reads the pattern (a name, inline text or a file), calls the pure solver in
:mod:`polytable.games.quadefy._puzzle` and prints the answer layer by layer with the search statistics.
``solve`` runs the exact search of :mod:`polytable.ai.quadefy._fullsolve` (or, with ``--native``, the
same search compiled: :mod:`polytable.ai._native`) from the empty cube with a time limit and an optional
checkpoint file (a later run with the same file resumes; both solvers share its format), printing each
first move's verdict as it is proven. The ``puzzle`` and ``solve`` groups are shared: if another game has
already created one, the subcommand joins it.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from ..ai.quadefy import RootMove, SolveReport, checkpoint_line, parse_checkpoint, solve_game
from ..core import ConfigError, get_game
from ..games.quadefy import (
    ACTIONS,
    BLOCKS,
    PATTERN_NOTES,
    PATTERNS,
    PLACEMENTS,
    REACH,
    STABLE,
    format_placement,
    kernel_of,
    parse_pattern,
    pattern_text,
    solve_pattern,
)

__all__ = ["puzzle_report", "register", "solve_report_json", "solve_report_text"]


def _group(app: typer.Typer, name: str, help_text: str) -> typer.Typer:
    for info in app.registered_groups:
        if info.name == name and info.typer_instance is not None:
            return info.typer_instance
    group = typer.Typer(help=help_text, no_args_is_help=True)
    app.add_typer(group, name=name)
    return group


def _puzzle_group(app: typer.Typer) -> typer.Typer:
    return _group(app, "puzzle", "Solve a game's puzzle.")


def _root_line(rm: RootMove) -> str:
    move = format_placement(ACTIONS[rm.pid])
    verdict = {"win": "Player 1 WINS with it", "loss": "refuted (Player 2 wins)", "open": "open"}[rm.status]
    extra = f", {rm.refuted}/{rm.reply_classes} replies refuted so far" if rm.status == "open" else ""
    return f"{move:<16} x{rm.size:<2} {rm.replies:>4} replies: {verdict}{extra} ({rm.nodes} nodes, {rm.seconds:.1f} s)"


def solve_report_json(rep: SolveReport, flags: int) -> dict[str, object]:
    """The report as plain data (``--json``)."""
    return {
        "game": "quadefy",
        "options": {"reachability": bool(flags & REACH), "stability": bool(flags & STABLE)},
        "solved": rep.solved,
        "winner": None if rep.first_player_wins is None else (1 if rep.first_player_wins else 2),
        "winning_first_move": None if rep.winning_move is None else format_placement(ACTIONS[rep.winning_move]),
        "nodes": rep.nodes,
        "tt_hits": rep.tt_hits,
        "tt_size": rep.tt_size,
        "seconds": round(rep.seconds, 3),
        "cpu_seconds": round(rep.cpu_seconds, 3),
        "stopped_at": [{"ply": a, "proven": b, "children": c} for a, b, c in rep.path],
        "checkpoint_entries_loaded": rep.loaded,
        "root_classes": len(rep.root),
        "root_first_moves": sum(r.size for r in rep.root),
        "root": [
            {
                "move": format_placement(ACTIONS[r.pid]),
                "class_size": r.size,
                "replies": r.replies,
                "status": r.status,
                "replies_refuted": r.refuted,
                "reply_classes": r.reply_classes,
                "nodes": r.nodes,
                "seconds": round(r.seconds, 3),
            }
            for r in rep.root
            if r.status != "open" or r.nodes
        ],
        "per_ply": {str(k): {"solved": v[0], "nodes": v[1]} for k, v in rep.per_ply.items()},
    }


def solve_report_text(rep: SolveReport) -> str:
    """The human-readable verdict and statistics."""
    out = []
    if rep.solved and rep.first_player_wins:
        assert rep.winning_move is not None
        out.append(f"Quadefy is a first-player win: Player 1 wins with {format_placement(ACTIONS[rep.winning_move])}.")
    elif rep.solved:
        out.append("Quadefy is a second-player win: every first move is refuted.")
    else:
        out.append("Not solved within the time limit. Partial result:")
    proven = [r for r in rep.root if r.status != "open"]
    started = [r for r in rep.root if r.status == "open" and r.nodes]
    out.append(
        f"first moves: {sum(r.size for r in rep.root)} in {len(rep.root)} classes up to symmetry; "
        f"{len(proven)} classes proven, {len(rep.root) - len(proven)} open"
    )
    for r in proven + started:
        out.append("  " + _root_line(r))
    rate = rep.nodes / rep.cpu_seconds if rep.cpu_seconds > 0 else 0.0
    out.append(
        f"search: {rep.nodes} nodes, {rep.tt_hits} TT hits, {rep.tt_size} TT entries, "
        f"{rep.seconds:.1f} s, {rep.cpu_seconds:.1f} s CPU ({rate:.0f} nodes/s), "
        f"{rep.loaded} checkpoint entries loaded"
    )
    if rep.path:
        out.append(
            "stopped at (ply: children proven / children, fewest replies first): "
            + ", ".join(f"{a}: {b}/{c}" for a, b, c in rep.path)
        )
    if rep.per_ply:
        out.append("per ply (positions solved by search, mean subtree nodes):")
        for ply, (count, nodes) in rep.per_ply.items():
            out.append(f"  ply {ply:>2}: {count:>9} positions, {nodes / count:>12.1f} nodes each")
    return "\n".join(out)


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
    _register_puzzle(app)
    _register_solve(app)


def _register_solve(app: typer.Typer) -> None:
    group = _group(app, "solve", "Solve a game exactly.")

    @group.command("quadefy")
    def solve_quadefy(
        max_seconds: Annotated[
            float | None, typer.Option("--max-seconds", help="Stop after this many seconds (default: no limit).")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
        checkpoint: Annotated[
            Path | None,
            typer.Option("--checkpoint", help="Append proven shallow positions here; a later run resumes from it."),
        ] = None,
        reachability: Annotated[
            bool, typer.Option("--reachability/--no-reachability", help="The reachability rule (default on).")
        ] = True,
        stability: Annotated[bool, typer.Option("--stability", help="The stability option (default off).")] = False,
        quiet: Annotated[bool, typer.Option("--quiet", help="No progress lines on stderr.")] = False,
        native: Annotated[
            bool, typer.Option("--native", help="Use the compiled solver (built with the package).")
        ] = False,
        table_log2: Annotated[
            int, typer.Option("--table-log2", min=16, max=32, help="--native: 2^N table entries of 16 bytes.")
        ] = 26,
    ) -> None:
        """Prove who wins Quadefy with perfect play from the empty cube (exact negamax with symmetry)."""
        flags = (REACH if reachability else 0) | (STABLE if stability else 0)
        last = [0.0]

        def report(rm: RootMove) -> None:
            if not quiet:
                print("  " + _root_line(rm), file=sys.stderr, flush=True)

        def step(rm: RootMove) -> None:
            now = time.monotonic()
            if not quiet and now - last[0] >= 30:
                last[0] = now
                print(
                    f"  ... {format_placement(ACTIONS[rm.pid])}: {rm.refuted}/{rm.reply_classes} replies refuted",
                    file=sys.stderr,
                    flush=True,
                )

        known = None
        on_record = None
        if checkpoint is not None:
            if checkpoint.exists():
                try:
                    known = parse_checkpoint(checkpoint.read_text(encoding="ascii"))
                except (OSError, UnicodeDecodeError, ValueError) as exc:
                    typer.echo(f"error: cannot read the checkpoint {checkpoint}: {exc}", err=True)
                    raise typer.Exit(2) from None
            path = checkpoint

            def on_record(key: int, value: bool) -> None:
                with path.open("a", encoding="ascii") as fh:
                    fh.write(checkpoint_line(key, value))

        if native:
            from ..ai.quadefy import native_unavailable, solve_game_native

            why = native_unavailable()
            if why is not None:
                typer.echo(f"error: the native solver is not available: {why}", err=True)
                raise typer.Exit(2)
            rep = solve_game_native(flags, max_seconds, known, report, step, on_record, table_log2)
        else:
            kernel = kernel_of(get_game("quadefy"))
            rep = solve_game(flags, max_seconds, known, report, step, on_record, kernel)
        if as_json:
            typer.echo(json.dumps(solve_report_json(rep, flags), indent=2))
        else:
            typer.echo(solve_report_text(rep))


def _register_puzzle(app: typer.Typer) -> None:
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
