"""The ``polytable`` command line (typer + rich).

Commands hold no rules: they parse arguments, build matches through the engine and print what the
engine returns. Errors the user can fix (a bad option, an unknown game, a malformed file) print one
clear line and exit with status 2; nothing is half-written.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from .. import __version__
from ..ai import bot_names, make_bot
from ..core import ConfigError, JsonLimitError, PolytableError, all_games, discover, get_game, loads_bounded
from ..match import Match, simulate
from ._options import parse_ai_seats, parse_options
from ._play import play_terminal

__all__ = ["app", "main"]

app = typer.Typer(
    name="polytable",
    help="A digital table for grid-and-block tabletop games: play, simulate, replay, benchmark, print.\n\n"
    "A short flag means the same in every command: -p --players, -n --games, -w --workers, -o --output.",
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err = Console(stderr=True)

OptionList = Annotated[list[str] | None, typer.Option("--option", help="Game option KEY=VALUE (repeatable).")]


def player_span(low: int, high: int) -> str:
    """How many play, in words: ``1 player``, ``2 players``, ``2-4 players``."""
    if low == high:
        return f"{low} player{'s' if low != 1 else ''}"
    return f"{low}-{high} players"


def _fail(message: str) -> None:
    err.print(f"[red]error:[/] {message}", highlight=False)
    raise typer.Exit(2)


def _version(value: bool) -> None:
    if value:
        console.print(f"polytable {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """polytable: FORMFINITY, Foldris, Forma, Qwirkle Cubes and Quadefy at one table."""
    if ctx.invoked_subcommand is None:
        console.print(ctx.get_help())


@app.command("games")
def games_cmd(as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False) -> None:
    """List the games, their player counts and options."""
    data = []
    for game in all_games():
        if not game.spec.listed:
            continue
        d = game.spec.describe()
        d["ai"] = bot_names(game.spec.id, offered=True)
        data.append(d)
    if as_json:
        print(json.dumps(data, indent=2))
        return
    for d in data:
        players = d["players"]
        assert isinstance(players, dict)
        console.print(
            f"[bold]{d['id']}[/]  {d['name']} — {player_span(players['min'], players['max'])} "
            f"(default {players['default']}), rules {d['rules_version']}"
        )
        if d["summary"]:
            console.print(f"  {d['summary']}")
        options = d["options"]
        assert isinstance(options, list)
        for o in options:
            extra = f" ({'|'.join(o['choices'])})" if "choices" in o else ""
            default = "" if o["kind"] == "text" else f" = {o['default']}"
            console.print(f"  --option {o['name']}{default}{extra}  {o['help']}")
        console.print(f"  AI: {', '.join(d['ai'])}")  # type: ignore[arg-type]


def _choose_game_interactively() -> str:
    games = [g for g in all_games() if g.spec.listed]
    if not games:
        _fail("no games are installed")
    console.print("[bold]polytable[/] — choose a game:")
    for i, g in enumerate(games, 1):
        console.print(f"  {i}. {g.spec.name} ({player_span(g.spec.min_players, g.spec.max_players)})")
    while True:
        try:
            line = input("game number (q to quit)> ").strip()
        except EOFError:
            raise typer.Exit(0) from None
        if line.lower() in ("q", "quit"):
            raise typer.Exit(0)
        if line.isdigit() and 1 <= int(line) <= len(games):
            return games[int(line) - 1].spec.id
        matches = [g.spec.id for g in games if g.spec.id == line.lower()]
        if matches:
            return matches[0]
        console.print("Type a number from the list.")


@app.command("play")
def play_cmd(
    game_id: Annotated[str | None, typer.Argument(metavar="GAME", help="Game id (see `polytable games`).")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", min=1, help="Number of players.")] = None,
    option: OptionList = None,
    ai: Annotated[list[str] | None, typer.Option("--ai", help="AI seat SEAT=NAME, seats from 1 (repeatable).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed (default: random).")] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain text board.")] = False,
    save: Annotated[Path | None, typer.Option("--save", help="Write the game record (JSON) here.")] = None,
) -> None:
    """Play in the terminal: hot-seat people and AIs. Without GAME, a menu asks."""
    try:
        if game_id is None:
            game_id = _choose_game_interactively()
            g = get_game(game_id)
            if players is None and g.spec.min_players < g.spec.max_players:
                try:
                    text = input(
                        f"players ({g.spec.min_players}-{g.spec.max_players}, Enter for {g.spec.default_players})> "
                    )
                except EOFError:
                    raise typer.Exit(0) from None
                players = int(text) if text.strip().isdigit() else None
        game = get_game(game_id)
        n = players if players is not None else game.spec.default_players
        options = parse_options(game, option)
        seats = parse_ai_seats(ai, n)
        for name in seats.values():
            make_bot(name, game.spec.id)
        actual_seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        match = play_terminal(game, options, n, seats, actual_seed, console, color=not no_color)
    except PolytableError as exc:
        _fail(str(exc))
        return
    if save is not None:
        save.write_text(json.dumps(match.record(), indent=1))
        console.print(f"Record written to {save}")


@app.command("simulate")
def simulate_cmd(
    game_id: Annotated[str, typer.Argument(metavar="GAME")],
    players: Annotated[int | None, typer.Option("--players", "-p", min=1, help="Number of players.")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 100,
    ai: Annotated[
        list[str] | None, typer.Option("--ai", help="AI name (once for all seats, or once per seat).")
    ] = None,
    option: OptionList = None,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    save: Annotated[Path | None, typer.Option("--save", help="Write one record per game into this folder.")] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", min=1, help="Processes to play on (default: every core).")
    ] = None,
) -> None:
    """AI-vs-AI games with a summary (mean turns, scores and win rates by seat, games per second).

    The per-game results depend on the seed only, never on the number of workers."""
    try:
        game = get_game(game_id)
        n = players if players is not None else game.spec.default_players
        options = parse_options(game, option)
        names = ai or ["random"]
        for name in names:
            make_bot(name, game.spec.id)
        if save is not None:
            save.mkdir(parents=True, exist_ok=True)
        with Progress(console=err, transient=True, disable=as_json or not err.is_terminal) as progress:
            task = progress.add_task(f"{game.spec.name}", total=games)

            def on_game(i: int, one: dict[str, Any], record: dict[str, Any] | None) -> None:
                if save is not None and record is not None:
                    (save / f"{game.spec.id}-{one['seed']}.json").write_text(json.dumps(record))

            # Only what is printed or saved comes back per game: a table needs the workers' sums alone.
            result = simulate(
                game.spec.id,
                n,
                games,
                names,
                options,
                seed,
                on_game if save is not None else None,
                save is not None,
                workers,
                make_player=make_bot,
                per_game=as_json,
                on_progress=lambda k: progress.advance(task, k),
            )
    except (PolytableError, ValueError) as exc:
        _fail(str(exc))
        return
    if as_json:
        print(json.dumps(result))
        return
    s = result["summary"]
    table = Table(title=f"{game.spec.name}: {games} games, {n} players, seed {seed}")
    table.add_column("seat")
    table.add_column("AI")
    table.add_column("mean score", justify="right")
    table.add_column("win rate", justify="right")
    for p in range(n):
        table.add_row(
            str(p + 1), result["players"][p], f"{s['mean_score_by_seat'][p]:.2f}", f"{s['win_rate_by_seat'][p]:.3f}"
        )
    console.print(table)
    console.print(f"mean turns {s['mean_turns']:.1f}; {s['games_per_second']:.1f} games/s")


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A game record (JSON).")],
    as_json: Annotated[bool, typer.Option("--json")] = False,
    no_color: Annotated[bool, typer.Option("--no-color")] = False,
) -> None:
    """Validate a record by replaying it, then print the final position and the result."""
    try:
        try:
            record = loads_bounded(file.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"cannot read {file}: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{file} is not a JSON record: {exc}") from None
        except JsonLimitError as exc:
            raise ConfigError(f"{file} is not a JSON record: {exc}") from None
        match = Match.replay(record)
    except PolytableError as exc:
        _fail(str(exc))
        return
    game = match.game
    result = game.result(match.state)
    if as_json:
        print(json.dumps({"game": game.spec.id, "actions": match.version, "valid": True, "result": result}))
        return
    console.print(Text.from_ansi(game.render(match.state, None, color=not no_color)))
    console.print(f"Replayed {match.version} actions exactly. Result: {json.dumps(result)}")
    why = match.outcome()
    if why is not None:
        text = str(why["message"])
        console.print(f"Why: {text[:1].upper()}{text[1:]}.", highlight=False, markup=False)


@app.command("bench")
def bench_cmd(
    name: Annotated[
        str | None, typer.Argument(metavar="[GAME]", help="A game id or 'geometry' (default: all).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    quick: Annotated[bool, typer.Option("--quick", help="Shorter runs (smoke test).")] = False,
    ai: Annotated[bool, typer.Option("--ai", help="MCTS iterations per second per game instead.")] = False,
) -> None:
    """Benchmarks: measured figures, with peers measured in the same run where a peer exists."""
    from ..bench import ai_benchmark, benchmarks

    table = benchmarks()
    if ai:
        table = {"ai": ai_benchmark}
        name = None
    if name is not None:
        key = name.lower().replace("_", "-")
        if key not in table:
            _fail(f"no benchmark {name!r} (benchmarks: {', '.join(sorted(table))})")
        chosen = {key: table[key]}
    else:
        chosen = table
    results: dict[str, Any] = {}
    for key, run in chosen.items():
        if not as_json:
            err.print(f"running {key} ...")
        results[key] = run(quick)
        if not as_json:
            console.print(f"[bold]{key}[/]")
            for k, v in results[key].items():
                console.print(f"  {k}: {v}")
    if as_json:
        print(json.dumps(results, indent=1))


@app.command("print")
def print_cmd(
    name: Annotated[str, typer.Argument(metavar="NAME", help="What to print (a game id, or e.g. formfinity-cards).")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="The PDF file to write (default: NAME.pdf here).")
    ] = None,
    paper: Annotated[str, typer.Option("--paper", help="a4 or letter.")] = "a4",
    players: Annotated[int | None, typer.Option("--players", "-p", min=1, help="Sheets for this many players.")] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="Variant or template (game-specific).")] = None,
    count: Annotated[int | None, typer.Option("--count", min=1, help="How many (cards).")] = None,
    qr: Annotated[
        bool, typer.Option("--qr", help="formfinity-cards: QRious cards (QR code and number faces).")
    ] = False,
    base_url: Annotated[
        str | None, typer.Option("--base-url", help="With --qr: the web app's address the codes open.")
    ] = None,
    option: OptionList = None,
) -> None:
    """Print templates, sheets and cards as PDF."""
    from ..printables import printables

    table = printables()
    output = output if output is not None else Path(f"{name}.pdf")
    if paper not in ("a4", "letter"):
        _fail("--paper takes a4 or letter")
    if name not in table:
        _fail(f"nothing to print named {name!r} (printables: {', '.join(sorted(table)) or 'none yet'})")
    opts: dict[str, str] = {}
    for item in option or ():
        if "=" not in item:
            _fail(f"--option takes KEY=VALUE, not {item!r}")
        k, v = item.split("=", 1)
        opts[k] = v
    if players is not None:
        opts["players"] = str(players)
    if variant is not None:
        opts["variant"] = variant
    if count is not None:
        opts["count"] = str(count)
    if (qr or base_url) and name != "formfinity-cards":
        _fail("--qr and --base-url are for formfinity-cards")
    if base_url is not None and not qr:
        _fail("--base-url goes with --qr")
    if qr:
        opts["qr"] = "1"
        if base_url is not None:
            if not base_url.startswith(("http://", "https://")) or len(base_url) > 200:
                _fail(f"--base-url takes the web app's address, such as https://example.org, not {base_url!r}")
            opts["base_url"] = base_url
    try:
        table[name](str(output), paper, opts)
    except (PolytableError, ValueError, KeyError) as exc:
        _fail(str(exc).strip("'\""))
    except OSError as exc:
        _fail(f"cannot write {output}: {exc.strerror}")
    console.print(f"wrote {output}")


@app.command("arena")
def arena_cmd(
    game_id: Annotated[str, typer.Argument(metavar="GAME")],
    ai: Annotated[list[str], typer.Option("--ai", help="An AI to rank (at least two; NAME or NAME:key=value).")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games per pair of AIs.")] = 20,
    players: Annotated[int | None, typer.Option("--players", "-p", min=1, help="Number of players.")] = None,
    option: OptionList = None,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", min=1, help="Processes to play on (default: every core).")
    ] = None,
) -> None:
    """Seat-balanced round robin between AIs: win rates with 95% intervals and Elo (random = 0).

    Seeds depend on the game's place in the round robin only, never on the number of workers. Timed AIs
    (``hard`` and its clock) share the machine's cores: give ``--workers 1`` to measure them alone."""
    from ..ai import arena

    try:
        game = get_game(game_id)
        options = parse_options(game, option)
        for name in ai:
            make_bot(name, game.spec.id)
        pairs = len(ai) * (len(ai) - 1) // 2
        with Progress(console=err, transient=True, disable=as_json or not err.is_terminal) as progress:
            task = progress.add_task(f"{game.spec.name} arena", total=pairs * games)
            result = arena(game.spec.id, ai, games, players, options, seed, lambda: progress.advance(task), workers)
    except (PolytableError, ValueError) as exc:
        _fail(str(exc))
        return
    if as_json:
        print(json.dumps(result))
        return
    table = Table(title=f"{game.spec.name}: {games} games per pair, {result['players']} players, seed {seed}")
    for col in ("AI", "games", "win rate", "95% interval", "Elo"):
        table.add_column(col, justify="left" if col == "AI" else "right")
    for row in result["ladder"]:
        lo, hi = row["ci95"]
        table.add_row(
            row["ai"], f"{row['games']:g}", f"{row['win_rate']:.3f}", f"{lo:.3f}-{hi:.3f}", f"{row['elo']:.0f}"
        )
    console.print(table)
    for p in result["pairs"]:
        lo, hi = p["a_ci95"]
        console.print(f"  {p['a']} vs {p['b']}: {p['a_win_rate']:.3f} ({lo:.3f}-{hi:.3f})")


for _mod in discover("polytable.cli", "cmd_"):
    _mod.register(app)


def main() -> None:
    """Entry point of the ``polytable`` script."""
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
