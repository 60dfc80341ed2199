"""Terminal play: people (hot-seat) and AIs at one table, through :class:`~polytable.match.Match`.

The loop holds no rules: it renders the engine's view for the player to act, reads a line in the game's
notation and lets the engine accept or refuse it (with the engine's message). Input comes from
``input()`` so that the game can be driven by a script or a test through standard input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console
from rich.text import Text

from ..ai import make_bot
from ..core import CHANCE, SIMULTANEOUS, Game, IllegalActionError, Rng, player_name
from ..match import Match
from .cmd_rules import rules_text

__all__ = ["move_rows", "play_terminal"]

HELP = (
    "Type a move in the notation shown by 'moves'. Commands: moves [N] (list legal moves), hint (what the "
    "greedy AI would play), undo, board, rules (how to play), help, quit."
)


def _show(console: Console, text: str) -> None:
    console.print(Text.from_ansi(text))


def play_terminal(
    game: Game[Any, Any],
    options: Mapping[str, object],
    players: int,
    ai_seats: Mapping[int, str],
    seed: int,
    console: Console,
    color: bool = True,
    read: Callable[[str], str] = input,
) -> Match:
    match = Match(game, options, players, seed)
    bots = {p: make_bot(name, game.spec.id) for p, name in ai_seats.items()}
    for bot in bots.values():  # fail early on a bad name
        assert bot is not None
    rngs = {p: Rng(seed, stream=1000 + p) for p in range(players)}
    humans = [p for p in range(players) if p not in bots]
    console.print(f"[bold]{game.spec.name}[/] — {players} player(s), seed {seed}")
    for p in range(players):
        who = f"AI ({ai_seats[p]})" if p in bots else "person"
        console.print(f"  {player_name(p)}: {who}")
    console.print(HELP)
    last_human: int | None = None
    while not match.is_over():
        before = match.version
        match.resolve_chance()
        for entry in match.log[before:]:
            console.print(f"[dim]chance:[/] {entry.action}")
        if match.is_over():
            break
        cp = match.current_player()
        acting = match.acting_players() if cp == SIMULTANEOUS else (cp,)
        ai_acting = [p for p in acting if p in bots]
        if ai_acting:
            p = ai_acting[0]
            action = bots[p].choose(game, match.state, p, rngs[p])
            text = game.format_action(action, match.state)
            match.play(action, p)
            shown = "(chosen in secret)" if cp == SIMULTANEOUS else text
            console.print(f"{player_name(p)} (AI) plays {shown}")
            continue
        p = acting[0]
        if cp == SIMULTANEOUS and len(humans) > 1 and last_human is not None and last_human != p:
            console.clear()
            read(f"Pass to {player_name(p)} and press Enter ")
        last_human = p
        _show(console, game.render(match.state, p, color=color))
        while True:
            try:
                line = read(f"{player_name(p)}> ").strip()
            except EOFError:
                console.print("Input ended: the game stops here.")
                return match
            if not line:
                continue
            word = line.split()[0].lower()
            if word in ("quit", "exit", "q"):
                console.print("Game abandoned.")
                return match
            if word in ("help", "?"):
                console.print(HELP)
                continue
            if word == "rules":
                try:
                    text = rules_text(game.spec.id, width=console.width)
                    console.print(text, highlight=False, markup=False, soft_wrap=True)
                except ValueError as exc:
                    console.print(str(exc), markup=False)
                continue
            if word == "board":
                _show(console, game.render(match.state, p, color=color))
                continue
            if word == "moves":
                _list_moves(console, game, match.state, p, line)
                continue
            if word == "hint":
                bot = make_bot("greedy", game.spec.id)
                hint = bot.choose(game, match.state, p, Rng(seed, stream=7))
                console.print(f"greedy would play: {game.format_action(hint, match.state)}")
                continue
            if word == "undo":
                if _undo(console, match, p, humans, set(bots)):
                    break
                continue
            try:
                match.play(line, p)
            except IllegalActionError as exc:
                console.print(f"[red]{exc}[/]")
                continue
            break
    _show(console, game.render(match.state, None, color=color))
    result = game.result(match.state)
    scores = ", ".join(f"{player_name(i)} {s:g}" for i, s in enumerate(game.scores(match.state)))
    winners = " and ".join(player_name(w) for w in game.winners(match.state)) or "nobody"
    console.print(f"[bold]Game over.[/] Scores: {scores}. Winner: {winners}.")
    why = str(game.outcome(match.state)["message"])
    console.print(f"Why: {why[:1].upper()}{why[1:]}.", highlight=False, markup=False)
    assert result["terminal"]
    return match


def _undo(console: Console, match: Match, p: int, humans: list[int], ai: set[int]) -> bool:
    """``undo`` at ``p``'s prompt: ``p``'s own last decision (with the AIs' replies to it), or else, at a
    hot-seat table, the last move of the person before ``p`` while ``p`` has not acted (as the web app's
    pass screen offers it). Says what was taken back, or why nothing was; True when something was."""
    try:
        n = match.undo_span(p, ai)
        who = p
    except IllegalActionError as exc:
        last = next((e.player for e in reversed(match.log) if e.player not in ai), None)
        if last is None or last == p or last not in humans or not match.can_undo(last, ai):
            console.print(f"[red]{exc}[/]")
            return False
        n, who = match.undo_span(last, ai), last
    match.undo(who, ai)
    replies = f" and {n - 1} AI repl{'y' if n == 2 else 'ies'}" if n > 1 else ""
    console.print(f"Took back {player_name(who)}'s last move{replies}.")
    return True


def _list_moves(console: Console, game: Game[Any, Any], state: Any, player: int, line: str) -> None:
    parts = line.split()
    limit = 40
    if len(parts) > 1 and parts[1].isdigit():
        limit = int(parts[1])
    legal = game.legal_actions(state, player if player != CHANCE else None)
    total = legal.count()
    shown = []
    for i, a in enumerate(legal):
        if i >= limit:
            break
        shown.append(game.format_action(a, state))
    console.print(f"{total} legal move(s){' (first ' + str(limit) + ')' if total > limit else ''}:")
    for row in move_rows(shown, console.width):
        console.print(row, highlight=False, markup=False, soft_wrap=True)


def move_rows(moves: list[str], width: int) -> list[str]:
    """Moves laid out in lines of at most ``width`` columns, a move never split (a move's notation may hold
    spaces, ``I r1 @ c1.1``, so the terminal's own wrapping at spaces would cut one in two)."""
    rows: list[str] = []
    line = ""
    for move in moves:
        if line and len(line) + 3 + len(move) > width:
            rows.append(line)
            line = ""
        line = f"{line}   {move}" if line else f"  {move}"
    return [*rows, line] if line else rows
