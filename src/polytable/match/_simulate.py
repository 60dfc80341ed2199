"""AI-vs-AI simulation: many seeded games, a summary, and optionally one record per game.

The players are passed in (objects, or a maker of them by name): matches sit below the AIs, so whoever
builds the players (the CLI, the web app, the arena) imports ``polytable.ai`` and this module never does.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from ..core import Game, Rng, get_game
from ._match import Match

__all__ = ["Player", "PlayerMaker", "play_game", "simulate"]


class Player(Protocol):
    """Anything that chooses an action for a seat (``polytable.ai``'s bots are players)."""

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any: ...


PlayerMaker = Callable[[str, str], Player]
"""``(name, game_id) -> a fresh player``: how :func:`simulate` gets new players for every game."""


def play_game(
    game: Game[Any, Any],
    seats: Sequence[Player],
    options: Mapping[str, object] | None,
    seed: int,
) -> Match:
    """Play one whole game with these players in seat order (one per player; seat p's generator is
    stream ``1000 + p`` of ``seed``, so the game replays exactly)."""
    match = Match(game, options, len(seats), seed)
    players = dict(enumerate(seats))
    rngs = {p: Rng(seed, stream=1000 + p) for p in players}
    while not match.is_over():
        if not match.step_ai(players, rngs) and not match.is_over():
            raise RuntimeError("a match with AI seats only stopped making progress")
    return match


def simulate(
    game_id: str,
    players: int,
    games: int,
    bots: Sequence[str],
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    on_game: Callable[[int, Match], None] | None = None,
    *,
    make_player: PlayerMaker,
) -> dict[str, Any]:
    """Play ``games`` seeded games (game i uses seed ``seed + i``); returns the documented summary.

    ``bots`` has one name (every seat) or one per seat; ``make_player`` builds a fresh player from a name
    for every game (``polytable.ai.make_bot``), so no game's player state leaks into the next.
    """
    game = get_game(game_id)
    seats = list(bots) * players if len(bots) == 1 else list(bots)
    if len(seats) != players:
        raise ValueError(f"give one AI for every seat or one per seat ({players} seats, {len(bots)} AIs)")
    config = game.spec.config(options, players)
    per_game: list[dict[str, Any]] = []
    wins = [0.0] * players
    totals = [0.0] * players
    turns = 0
    start = time.perf_counter()
    for i in range(games):
        match = play_game(game, [make_player(name, game.spec.id) for name in seats], dict(config), seed + i)
        scores = list(game.scores(match.state))
        winners = list(game.winners(match.state))
        n_turns = sum(1 for e in match.log if e.player >= 0)
        turns += n_turns
        for p in range(players):
            totals[p] += scores[p]
        for w in winners:
            wins[w] += 1.0 / len(winners)
        per_game.append({"seed": seed + i, "scores": scores, "winners": winners, "turns": n_turns})
        if on_game is not None:
            on_game(i, match)
    elapsed = time.perf_counter() - start
    n = max(games, 1)
    return {
        "game": game.spec.id,
        "config": config.to_dict(),
        "players": seats,
        "games": games,
        "seed": seed,
        "summary": {
            "mean_turns": turns / n,
            "mean_score_by_seat": [t / n for t in totals],
            "win_rate_by_seat": [w / n for w in wins],
            "games_per_second": games / elapsed if elapsed > 0 else float("inf"),
        },
        "per_game": per_game,
    }
