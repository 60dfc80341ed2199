"""``polytable foldris-solo``: the solo-mode measure of an AI: mean lines and the title distribution.

Why a command: the figure in docs/games/foldris.md (greedy over 1,000 seeded solo games) must be
reproducible by anyone with one line; ``simulate`` reports scores but not the rulebook's titles.
"""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import typer

__all__ = ["register", "solo_stats"]


def solo_stats(
    games: int, ai: str = "greedy", seed: int = 0, options: dict[str, object] | None = None
) -> dict[str, Any]:
    """Play ``games`` solo games (seeds ``seed``, ``seed + 1``, ...) and summarise lines and titles."""
    from ..ai import make_bot
    from ..core import CHANCE, Rng, get_game
    from ..games.foldris import SOLO_TITLES, solo_title

    game = get_game("foldris")
    bot = make_bot(ai, "foldris")
    lines: list[int] = []
    start = time.perf_counter()
    for s in range(seed, seed + games):
        rng = Rng(s, 1)
        state = game.new_game(options or {}, seed=s, players=1)
        while not game.is_terminal(state):
            if game.current_player(state) == CHANCE:
                state = game.apply_chance(state)
            else:
                state = game.apply(state, bot.choose(game, state, 0, rng), 0)
        lines.append(state.sheets[0].lines)
    elapsed = time.perf_counter() - start
    titles = {title: 0 for _, title in SOLO_TITLES}
    titles["(no title)"] = 0
    for n in lines:
        titles[solo_title(n) or "(no title)"] += 1
    return {
        "games": games,
        "ai": ai,
        "seeds": f"{seed}-{seed + games - 1}",
        "mean_lines": round(sum(lines) / games, 3),
        "lines": {str(n): lines.count(n) for n in sorted(set(lines))},
        "titles": titles,
        "games_per_s": round(games / elapsed, 1),
    }


def register(app: typer.Typer) -> None:
    @app.command("foldris-solo")
    def foldris_solo_cmd(
        games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many solo games.")] = 1000,
        ai: Annotated[str, typer.Option("--ai", help="AI name.")] = "greedy",
        seed: Annotated[int, typer.Option("--seed", help="First seed.")] = 0,
        height: Annotated[int, typer.Option("--height", min=4, max=40, help="Sheet height.")] = 12,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    ) -> None:
        """Foldris solo: an AI's mean lines and title distribution over seeded games."""
        stats = solo_stats(games, ai, seed, {"height": height})
        if as_json:
            typer.echo(json.dumps(stats))
            return
        typer.echo(f"Foldris solo, {stats['games']} games (seeds {stats['seeds']}), AI {ai}")
        typer.echo(f"mean lines: {stats['mean_lines']}")
        typer.echo("lines: " + ", ".join(f"{k}: {v}" for k, v in stats["lines"].items()))
        for title, count in stats["titles"].items():
            typer.echo(f"  {title:<24} {count:>5}  ({100 * count / games:.1f}%)")
        typer.echo(f"{stats['games_per_s']} games/s")
