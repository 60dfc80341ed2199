"""AI-vs-AI simulation: many seeded games, a summary, and optionally one record per game.

The players are passed in (objects, or a maker of them by name): matches sit below the AIs, so whoever
builds the players (the CLI, the web app, the arena) imports ``polytable.ai`` and this module never does.
Games run over ``workers`` processes (default in the CLI: every core); game ``i`` uses seed ``seed + i``
whatever the worker, and results are gathered in seed order, so the per-game results are the same for any
number of workers. A worker's task is a batch of games of random players (a few batches per worker) or
one game of other AIs; it sends back exact sums (so the summary does not depend on the grouping) and the
games themselves only when someone asks for them (per-game results, ``on_game``, records): the parent's
serial work per game, which bounds the speed-up, is then nothing. When every seat is the ``random`` AI
and no records are wanted, a game is one call of the game's :meth:`~polytable.core.Game.playout`
(compiled where the game has a kernel): the same draws as a match of random bots, without the match's
log; a game that offers ``random_games(options, players, seeds)`` (Quadefy) plays a whole batch of such
games in one call, with the same per-game results.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
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


def parallel_map(
    fn: Callable[[T], R], items: Sequence[T], workers: int | None, chunksize: int | None = None
) -> Iterator[R]:
    """``map(fn, items)`` in order, over up to ``workers`` processes (None: every core; 1: in this
    process). ``fn`` must be a module-level function and the items picklable; ``chunksize``: items per
    message to a worker (default: about 8 messages per worker)."""
    n = default_workers() if workers is None else workers
    if n < 1:
        raise ValueError("--workers must be at least 1")
    n = min(n, len(items))
    if n <= 1:
        yield from map(fn, items)
        return
    with ProcessPoolExecutor(max_workers=n) as pool:
        yield from pool.map(fn, items, chunksize=chunksize or max(1, len(items) // (n * 8)))


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


_Task = tuple[str, tuple[str, ...], dict[str, Any], list[int], bool, bool, PlayerMaker]
"""(game id, seats, options, seeds, records, per_game, make_player): a worker's unit of work."""
_Game = tuple[tuple[float, ...], tuple[int, ...], int, "dict[str, Any] | None"]
"""One game as a worker sends it back: scores, winners, turns and the record (or None)."""
_BATCH = 500
"""The most games of random players in one task (and per call of a game's ``random_games``)."""


class _Tally:
    """Exact sums over games (turns, scores by seat, wins by seat and number of winners): adding the
    tallies of batches gives the same summary in any grouping, so it does not depend on the workers."""

    __slots__ = ("games", "scores", "turns", "wins")

    def __init__(self, players: int) -> None:
        self.games = self.turns = 0
        self.scores: list[int | Fraction] = [0] * players
        self.wins = [[0] * (players + 1) for _ in range(players)]  # wins[seat][k]: won, shared by k winners

    def add(self, scores: Sequence[float], winners: Sequence[int], turns: int) -> None:
        self.games += 1
        self.turns += turns
        for p, s in enumerate(scores):
            self.scores[p] += s if type(s) is int else int(s) if float(s).is_integer() else Fraction(s)
        k = len(winners)
        for w in winners:
            self.wins[w][k] += 1

    def merge(self, other: _Tally) -> None:
        self.games += other.games
        self.turns += other.turns
        for p, s in enumerate(other.scores):
            self.scores[p] += s
        for mine, theirs in zip(self.wins, other.wins, strict=True):
            for k, c in enumerate(theirs):
                mine[k] += c

    def summary(self, games: int) -> dict[str, Any]:
        n = max(games, 1)
        return {
            "mean_turns": self.turns / n,
            "mean_score_by_seat": [float(Fraction(t) / n) for t in self.scores],
            "win_rate_by_seat": [
                float(sum((Fraction(c, k) for k, c in enumerate(w) if c), Fraction(0)) / n) for w in self.wins
            ],
        }


def _play_batch(task: _Task) -> tuple[_Tally, list[_Game] | None]:
    """Play a batch of seeded games in a worker: their tally, and each game compactly when ``per_game``
    (the parent builds the per-game dicts, so nothing per game crosses the pipe when nobody asks)."""
    game_id, seats, options, seeds, records, per_game, make_player = task
    game = get_game(game_id)
    players = len(seats)
    tally = _Tally(players)
    out: list[_Game] | None = [] if per_game else None
    finals: Iterable[tuple[Any, int, dict[str, Any] | None]]
    if not records and all(s == "random" for s in seats):
        if hasattr(game, "random_games"):
            finals = ((state, turns, None) for state, turns in game.random_games(options, players, seeds))
        else:
            finals = (_playout_final(game, options, seed, players) for seed in seeds)
    else:
        finals = (_match_final(game, seats, options, seed, records, make_player) for seed in seeds)
    for state, turns, rec in finals:
        scores, winners = tuple(game.scores(state)), tuple(game.winners(state))
        tally.add(scores, winners, turns)
        if out is not None:
            out.append((scores, winners, turns, rec))
    return tally, out


def _playout_final(
    game: Game[Any, Any], options: Mapping[str, object], seed: int, players: int
) -> tuple[Any, int, None]:
    """(final state, turns, no record) of one seeded game of random players, by the game's playout."""
    state, turns = game.playout(
        game.new_game(options, seed, players), [Rng(seed, stream=1000 + p) for p in range(players)]
    )
    return state, turns, None


def _match_final(
    game: Game[Any, Any],
    seats: Sequence[str],
    options: Mapping[str, object],
    seed: int,
    records: bool,
    make_player: PlayerMaker,
) -> tuple[Any, int, dict[str, Any] | None]:
    """(final state, turns, record or None) of one seeded match of these AIs."""
    match = play_game(game, [make_player(name, game.spec.id) for name in seats], options, seed)
    return match.state, sum(1 for e in match.log if e.player >= 0), match.record() if records else None


def _one_game(job: tuple[str, tuple[str, ...], dict[str, Any], int, bool, PlayerMaker]) -> tuple[dict[str, Any], Any]:
    """(per-game result, record or None) of one seeded game, as :func:`simulate` reports it."""
    game_id, seats, options, seed, record, make_player = job
    _, games = _play_batch((game_id, seats, options, [seed], record, True, make_player))
    assert games is not None
    scores, winners, turns, rec = games[0]
    return _result(seed, scores, winners, turns), rec


def _result(seed: int, scores: Sequence[float], winners: Sequence[int], turns: int) -> dict[str, Any]:
    return {"seed": seed, "scores": list(scores), "winners": list(winners), "turns": turns}


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
    per_game: bool = True,
    on_progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` seeded games (game i uses seed ``seed + i``); returns the documented summary.

    ``bots`` has one name (every seat) or one per seat; ``make_player`` builds a fresh player from a name
    for every game (``polytable.ai.make_bot``), so no game's player state leaks into the next.
    ``on_game(i, result, record)`` follows each game in seed order (``record`` is the game record when
    ``records`` is set, else None); ``on_progress(k)`` follows every batch of ``k`` games. ``per_game``:
    include the list of per-game results (without it and ``on_game``, workers send back only sums).
    ``workers``: processes (None: every core). The summary is summed exactly, so it is the same for any
    number of workers.
    """
    game = get_game(game_id)
    seats = list(bots) * players if len(bots) == 1 else list(bots)
    if len(seats) != players:
        raise ValueError(f"give one AI for every seat or one per seat ({players} seats, {len(bots)} AIs)")
    config = game.spec.config(options, players)
    n = default_workers() if workers is None else workers
    if n < 1:
        raise ValueError("--workers must be at least 1")
    detail = per_game or on_game is not None or records
    # Random players: batches of games (a few per worker and core, for balance); other AIs: one game a task.
    size = max(1, min(_BATCH, -(-games // (8 * n)))) if all(s == "random" for s in seats) and not records else 1
    tasks: list[_Task] = [
        (
            game.spec.id,
            tuple(seats),
            dict(config),
            list(range(seed + i, seed + min(i + size, games))),
            records,
            detail,
            make_player,
        )
        for i in range(0, games, size)
    ]
    tally = _Tally(players)
    results: list[dict[str, Any]] = []
    start = time.perf_counter()
    i = 0
    for part, played in parallel_map(_play_batch, tasks, n, chunksize=1):
        tally.merge(part)
        for scores, winners, turns, rec in played or ():
            result = _result(seed + i, scores, winners, turns)
            if per_game:
                results.append(result)
            if on_game is not None:
                on_game(i, result, rec)
            i += 1
        if on_progress is not None:
            on_progress(part.games)
    elapsed = time.perf_counter() - start
    out = {
        "game": game.spec.id,
        "config": config.to_dict(),
        "players": seats,
        "games": games,
        "seed": seed,
        "summary": {**tally.summary(games), "games_per_second": games / elapsed if elapsed > 0 else float("inf")},
    }
    if per_game:
        out["per_game"] = results
    return out
