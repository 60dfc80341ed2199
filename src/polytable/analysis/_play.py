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

__all__ = ["GameRecord", "Job", "play_one", "run_games", "run_tasks"]


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
    """One finished game: its seed, result and length, and at each player decision the number of legal
    actions, the decision's kind and the round it belongs to; ``trace`` holds the scores at the end of each
    round (the last entry is the final score; empty when the scores are no running tally)."""

    seed: int
    scores: list[float]
    winners: list[int]
    actions: int
    branching: list[int] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    rounds_at: list[int] = field(default_factory=list)
    rounds: int = 0
    game_turns: int = 0
    first: int = -1
    """The player of the first turn; -2 when every player's first turn began at once (simultaneous)."""
    trace: list[list[float]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def play_one(job: Job, seed: int) -> GameRecord:
    """Play one game, then replay its log to measure every decision (legal actions, kind, round) and the
    scores at the end of every round, in the game's own units (:meth:`Game.turns_begun`)."""
    game = get_game(job.game)
    match = play_game(game, [make_bot(name, game.spec.id) for name in job.ais], dict(job.options), seed)
    state = game.new_game(dict(job.options), seed=seed, players=job.players)
    tally = game.score_unit(state.config) is not None
    rec = GameRecord(seed, [], [], 0)
    rec.first = -1
    for entry in match.log:
        p = entry.player
        turns = game.turns_begun(state)
        if rec.first == -1 and max(turns) >= 1:  # the first turn: one player's, or everyone's at once
            rec.first = turns.index(1) if sum(turns) == 1 else -2
        if p >= 0:
            rec.branching.append(game.legal_actions(state, p).count())
            rec.kinds.append(game.decision_kind(state, p))
            rec.rounds_at.append(turns[p])
        state = game.apply(state, game.parse_action(entry.action, state), p)
        if tally and max(turns) >= 1 and max(game.turns_begun(state)) > max(turns):
            rec.trace.append([float(x) for x in game.scores(state)])
    final = match.state
    turns = game.turns_begun(final)
    rec.scores = [float(x) for x in game.scores(final)]
    rec.winners = [int(w) for w in game.winners(final)]
    rec.actions = len(rec.branching)
    rec.rounds, rec.game_turns = max(turns), sum(turns)
    if tally:
        rec.trace.append(list(rec.scores))
    return rec


def _play_chunk(tasks: Sequence[tuple[Job, int]]) -> list[GameRecord]:
    return [play_one(job, s) for job, s in tasks]


def _chunks(items: Sequence[Any], size: int) -> list[list[Any]]:
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


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
    return run_tasks([(job, s) for s in range(seed, seed + games)], workers, cluster, on_done)


def run_tasks(
    tasks: Sequence[tuple[Job, int]],
    workers: int = 1,
    cluster: Any = None,
    on_done: Callable[[int], None] | None = None,
) -> list[GameRecord]:
    """Play every (job, seed) of ``tasks``; the records come back in the order of ``tasks``."""
    if workers < 1:
        raise ConfigError("--workers must be at least 1")
    if cluster is not None:
        return _run_dask(list(tasks), cluster, on_done)
    if workers == 1:
        out = []
        for job, s in tasks:
            out.append(play_one(job, s))
            if on_done is not None:
                on_done(1)
        return out
    size = max(1, min(8, len(tasks) // (workers * 4)))
    parts = _chunks(tasks, size)
    results: list[list[GameRecord]] = []
    with ProcessPoolExecutor(max_workers=min(workers, os.cpu_count() or workers)) as pool:
        for part in pool.map(_play_chunk, parts):
            results.append(part)
            if on_done is not None:
                on_done(len(part))
    return [r for part in results for r in part]


def _run_dask(tasks: list[tuple[Job, int]], cluster: Any, on_done: Callable[[int], None] | None) -> list[GameRecord]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ConfigError("--cluster needs Dask: pip install 'polytable[cluster]'") from None
    own = isinstance(cluster, str)
    client = Client(cluster) if own else cluster  # type: ignore[no-untyped-call]
    try:
        parts = _chunks(tasks, 4)
        futures = client.map(_play_chunk, parts, pure=False)
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
