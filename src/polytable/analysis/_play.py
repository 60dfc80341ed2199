"""Playing the games of a report: one seeded game per seed, on one process, local processes or Dask.

Game ``i`` of a run with base seed ``s`` uses seed ``s + i`` (as ``polytable simulate`` does) and each AI
seat draws from a generator derived from that seed, so a game depends on nothing but (job, seed): any
split of the seeds over workers gives the same records, in seed order. (AIs with a time budget, such as
``mcts:seconds=...``, are the exception: how far they search depends on the machine.)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from ..ai import make_bot
from ..core import ConfigError, get_game
from ..match import play_game

__all__ = ["GameRecord", "Job", "play_one", "run_games"]


@dataclass(frozen=True)
class Job:
    """What to play: a game, its options, the player count and one AI name per seat."""

    game: str
    players: int
    ais: tuple[str, ...]
    options: tuple[tuple[str, object], ...] = ()

    @staticmethod
    def make(game: str, players: int | None, ais: Sequence[str], options: dict[str, object] | None) -> Job:
        """A checked job: the options are validated and the AIs exist (a clear error otherwise)."""
        from ..ai import make_bot

        g = get_game(game)
        n = players if players is not None else g.spec.default_players
        config = g.spec.config(options, n)
        names = list(ais) or ["random"]
        seats = names * n if len(names) == 1 else names
        if len(seats) != n:
            raise ConfigError(f"give one AI for every seat or one per seat ({n} seats, {len(names)} AIs)")
        for name in set(seats):
            make_bot(name, g.spec.id)
        defaults = {o.name: o.default for o in g.spec.options}
        chosen = tuple((k, v) for k, v in config.items() if defaults.get(k) != v)
        return Job(g.spec.id, n, tuple(seats), chosen)


@dataclass
class GameRecord:
    """One finished game: its seed, result, length and the number of legal actions at each decision."""

    seed: int
    scores: list[float]
    winners: list[int]
    turns: int
    branching: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def play_one(job: Job, seed: int) -> GameRecord:
    """Play one game and replay its log to count the legal actions at every player decision."""
    game = get_game(job.game)
    match = play_game(game, [make_bot(name, game.spec.id) for name in job.ais], dict(job.options), seed)
    state = game.new_game(dict(job.options), seed=seed, players=job.players)
    branching = []
    for entry in match.log:
        if entry.player >= 0:
            branching.append(game.legal_actions(state, entry.player).count())
        state = game.apply(state, game.parse_action(entry.action, state), entry.player)
    final = match.state
    return GameRecord(
        seed=seed,
        scores=[float(x) for x in game.scores(final)],
        winners=[int(w) for w in game.winners(final)],
        turns=len(branching),
        branching=branching,
    )


def _play_chunk(job: Job, seeds: Sequence[int]) -> list[GameRecord]:
    return [play_one(job, s) for s in seeds]


def _chunks(seeds: Sequence[int], size: int) -> list[list[int]]:
    return [list(seeds[i : i + size]) for i in range(0, len(seeds), size)]


def run_games(
    job: Job,
    games: int,
    seed: int = 0,
    workers: int = 1,
    cluster: Any = None,
    on_done: Callable[[int], None] | None = None,
) -> list[GameRecord]:
    """Play ``games`` games with seeds ``seed .. seed + games - 1``; the records come back in seed order.

    ``workers`` > 1 uses that many local processes; ``cluster`` (a scheduler address such as
    ``tcp://host:8786`` or a ``distributed.Client``) runs the games on a Dask cluster instead.
    ``on_done(k)`` is called as games finish (k of them at a time).
    """
    if games < 1:
        raise ConfigError("--games must be at least 1")
    if workers < 1:
        raise ConfigError("--workers must be at least 1")
    seeds = list(range(seed, seed + games))
    if cluster is not None:
        return _run_dask(job, seeds, cluster, on_done)
    if workers == 1:
        out = []
        for s in seeds:
            out.append(play_one(job, s))
            if on_done is not None:
                on_done(1)
        return out
    size = max(1, min(8, games // (workers * 4)))
    parts = _chunks(seeds, size)
    results: list[list[GameRecord]] = []
    with ProcessPoolExecutor(max_workers=min(workers, os.cpu_count() or workers)) as pool:
        for part in pool.map(_play_chunk, [job] * len(parts), parts):
            results.append(part)
            if on_done is not None:
                on_done(len(part))
    return [r for part in results for r in part]


def _run_dask(job: Job, seeds: list[int], cluster: Any, on_done: Callable[[int], None] | None) -> list[GameRecord]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ConfigError("--cluster needs Dask: pip install 'polytable[cluster]'") from None
    own = isinstance(cluster, str)
    client = Client(cluster) if own else cluster  # type: ignore[no-untyped-call]
    try:
        parts = _chunks(seeds, 4)
        futures = client.map(_play_chunk, [job] * len(parts), parts, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[list[GameRecord]] = [[] for _ in parts]
        for fut in as_completed(futures):  # type: ignore[no-untyped-call]
            results[index[fut.key]] = fut.result()
            if on_done is not None:
                on_done(len(results[index[fut.key]]))
        return [r for part in results for r in part]
    finally:
        if own:
            client.close()
