"""AI-vs-AI simulation: many seeded games, a summary, and optionally one record per game."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core import Game, Rng, get_game
from ._match import Match

__all__ = ["play_game", "simulate"]


def play_game(
    game: Game[Any, Any],
    bots: Sequence[str],
    options: Mapping[str, object] | None,
    seed: int,
) -> Match:
    """Play one whole game with the named bots in seat order (one name per player)."""
    from ..ai import make_bot  # here, not at the top: polytable.ai's arena imports this module

    match = Match(game, options, len(bots), seed)
    players = {p: make_bot(name, game.spec.id) for p, name in enumerate(bots)}
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
) -> dict[str, Any]:
    """Play ``games`` seeded games (game i uses seed ``seed + i``); returns the documented summary.

    ``bots`` has one name (every seat) or one per seat.
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
        match = play_game(game, seats, dict(config), seed + i)
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
