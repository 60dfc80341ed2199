"""AI-vs-AI simulation: many seeded games, a summary, and optionally one record per game.

The players are passed in (objects, or a maker of them by name): matches sit below the AIs, so whoever
builds the players (the CLI, the web app, the arena) imports ``polytable.ai`` and this module never does.
Games run over ``workers`` processes (default in the CLI: every core); game ``i`` uses seed ``seed + i``
whatever the worker, and results are gathered in seed order, so the per-game results are the same for any
number of workers. When every seat is the ``random`` AI and no records are wanted, a game is one call of
the game's :meth:`~polytable.core.Game.playout` (compiled where the game has a kernel): the same draws as
a match of random bots, without the match's log; a game that offers ``random_games(options, players,
seeds)`` (Quadefy) plays a whole batch of such games in one call, with the same per-game results.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol, TypeVar

from ..core import Game, Rng, get_game
from ._match import Match

__all__ = ["Player", "PlayerMaker", "default_workers", "parallel_map", "play_game", "simulate"]

T = TypeVar("T")
R = TypeVar("R")


class Player(Protocol):
    """Anything that chooses an action for a seat (``polytable.ai``'s bots are players)."""

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any: ...


PlayerMaker = Callable[[str, str], Player]
"""``(name, game_id) -> a fresh player``: how :func:`simulate` gets new players for every game (a
module-level function, so it reaches worker processes by reference)."""


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def parallel_map(fn: Callable[[T], R], items: Sequence[T], workers: int | None) -> Iterator[R]:
    """``map(fn, items)`` in order, over up to ``workers`` processes (None: every core; 1: in this
    process). ``fn`` must be a module-level function and the items picklable."""
    n = default_workers() if workers is None else workers
    if n < 1:
        raise ValueError("--workers must be at least 1")
    n = min(n, len(items))
    if n <= 1:
        yield from map(fn, items)
        return
    with ProcessPoolExecutor(max_workers=n) as pool:
        yield from pool.map(fn, items, chunksize=max(1, len(items) // (n * 8)))


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


_Job = tuple[str, tuple[str, ...], dict[str, Any], int, bool, PlayerMaker]
_Batch = tuple[str, int, dict[str, Any], list[int]]
_BATCH = 500
"""Games per call of a game's ``random_games`` (and per task of a worker)."""


def _result(game: Game[Any, Any], state: Any, seed: int, turns: int) -> dict[str, Any]:
    return {"seed": seed, "scores": list(game.scores(state)), "winners": list(game.winners(state)), "turns": turns}


def _random_batch(job: _Batch) -> list[tuple[dict[str, Any], Any]]:
    """The per-game results of a batch of seeded games of random players (``random_games``)."""
    game_id, players, options, seeds = job
    game = get_game(game_id)
    finals = game.random_games(options, players, seeds)  # type: ignore[attr-defined]
    return [(_result(game, state, seed, turns), None) for seed, (state, turns) in zip(seeds, finals, strict=True)]


def _one_game(job: _Job) -> tuple[dict[str, Any], Any]:
    """(per-game result, record or None) of one seeded game: the unit of work of a worker."""
    game_id, seats, options, seed, record, make_player = job
    game = get_game(game_id)
    if not record and all(s == "random" for s in seats):
        state = game.new_game(options, seed, len(seats))
        state, turns = game.playout(state, [Rng(seed, stream=1000 + p) for p in range(len(seats))])
        rec = None
    else:
        match = play_game(game, [make_player(name, game_id) for name in seats], options, seed)
        state, turns = match.state, sum(1 for e in match.log if e.player >= 0)
        rec = match.record() if record else None
    return _result(game, state, seed, turns), rec


def simulate(
    game_id: str,
    players: int,
    games: int,
    bots: Sequence[str],
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    on_game: Callable[[int, dict[str, Any], dict[str, Any] | None], None] | None = None,
    records: bool = False,
    workers: int | None = 1,
    *,
    make_player: PlayerMaker,
) -> dict[str, Any]:
    """Play ``games`` seeded games (game i uses seed ``seed + i``); returns the documented summary.

    ``bots`` has one name (every seat) or one per seat; ``make_player`` builds a fresh player from a name
    for every game (``polytable.ai.make_bot``), so no game's player state leaks into the next.
    ``on_game(i, result, record)`` follows each game in seed order (``record`` is the game record when
    ``records`` is set, else None). ``workers``: processes (None: every core).
    """
    game = get_game(game_id)
    seats = list(bots) * players if len(bots) == 1 else list(bots)
    if len(seats) != players:
        raise ValueError(f"give one AI for every seat or one per seat ({players} seats, {len(bots)} AIs)")
    config = game.spec.config(options, players)
    jobs: list[_Job] = [
        (game.spec.id, tuple(seats), dict(config), seed + i, records, make_player) for i in range(games)
    ]
    per_game: list[dict[str, Any]] = []
    wins = [0.0] * players
    totals = [0.0] * players
    turns = 0
    start = time.perf_counter()
    results: Iterable[tuple[dict[str, Any], Any]]
    if hasattr(game, "random_games") and not records and all(s == "random" for s in seats):
        seeds = [seed + i for i in range(games)]
        batches: list[_Batch] = [
            (game.spec.id, players, dict(config), seeds[i : i + _BATCH]) for i in range(0, games, _BATCH)
        ]
        results = (r for batch in parallel_map(_random_batch, batches, workers) for r in batch)
    else:
        results = parallel_map(_one_game, jobs, workers)
    for i, (result, rec) in enumerate(results):
        turns += result["turns"]
        for p in range(players):
            totals[p] += result["scores"][p]
        for w in result["winners"]:
            wins[w] += 1.0 / len(result["winners"])
        per_game.append(result)
        if on_game is not None:
            on_game(i, result, rec)
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
