"""A report over N configurations: the grid of options, player counts and AI pairings, the skill ladder, and
the command file (``command.toml``) a finding is regenerated from.

``--grid KEY=V1,V2`` (repeatable; several make every combination) varies a game option, ``players`` or
``ai`` (an AI pairing: one name for every seat or ``NAME/NAME/...`` one per seat). Every configuration
plays the same seeds. The skill ladder (``random < greedy < hard`` or any list of AIs, weakest first) is
played in the first configuration: for each pair, one stronger player among weaker ones, the stronger
seat going round the table with the seed.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import ConfigError, get_game
from ._play import GameRecord, Job, run_tasks
from ._stats import hypotheses, ladder_summary, summarise

__all__ = ["Plan", "analyse", "grid_configs", "read_plan"]


@dataclass
class Plan:
    """Everything a report is made from: what a command line or a command file says."""

    game: str
    players: int | None = None
    ais: list[str] = field(default_factory=lambda: ["random"])
    options: dict[str, object] = field(default_factory=dict)
    grid: list[tuple[str, list[str]]] = field(default_factory=list)
    games: int = 200
    seed: int = 0
    ladder: list[str] = field(default_factory=lambda: ["random", "greedy"])
    ladder_games: int | None = None
    title: str | None = None
    compare: dict[str, object] | None = None
    """Configuration B (``--compare``): these options over A's; with ``compare_players`` and ``compare_ai``."""
    compare_players: int | None = None
    compare_ai: list[str] | None = None


def _option_value(game_id: str, key: str, text: str, base: Path | None) -> object:
    """A grid value as the spec reads it; ``@FILE`` reads a text option's file (relative to the command
    file's folder when there is one)."""
    opt = get_game(game_id).spec.option(key)
    if opt.kind == "text" and text.startswith("@"):
        path = Path(text[1:]) if base is None else base / text[1:]
        try:
            return path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"option {key!r}: cannot read {str(path)!r}: {exc.strerror}") from None
    return text


def grid_configs(plan: Plan, base: Path | None = None) -> list[tuple[str, Job]]:
    """(label, job) for every combination of the grid, in the order given (the first is the reference)."""
    axes = [[(key, v.strip()) for v in values if v.strip()] for key, values in plan.grid]
    for (key, _), axis in zip(plan.grid, axes, strict=True):
        if not axis:
            raise ConfigError(f"--grid {key}= needs at least one value")
    out = []
    for combo in itertools.product(*axes) if axes else [()]:
        players, ais, options = plan.players, list(plan.ais), dict(plan.options)
        for key, value in combo:
            if key == "players":
                try:
                    players = int(value)
                except ValueError:
                    raise ConfigError(f"--grid players= takes whole numbers, not {value!r}") from None
            elif key == "ai":
                ais = value.split("/")
            else:
                options[key] = _option_value(plan.game, key, value, base)
        job = Job.make(plan.game, players, ais, options)
        label = ", ".join(f"{k}={v}" for k, v in combo) or get_game(plan.game).spec.name
        out.append((label, job))
    if plan.compare is not None or plan.compare_players is not None or plan.compare_ai:
        if len(out) > 1:
            raise ConfigError("--compare makes a report of two configurations: use --grid for more")
        a = out[0][1]
        players = plan.compare_players if plan.compare_players is not None else a.players
        ais = plan.compare_ai or (plan.ais if players == a.players or len(plan.ais) <= 1 else ["random"])
        b = Job.make(plan.game, players, ais, {**plan.options, **(plan.compare or {})})
        out = [("A", a), ("B", b)]
    return out


def _ladder_tasks(job: Job, ladder: Sequence[str], games: int, seed: int) -> list[tuple[int, int, Job, int]]:
    """(pair index, strong seat, job, seed) of every ladder game; pairs (weaker, stronger) over the ladder."""
    pairs = list(itertools.combinations(range(len(ladder)), 2))
    tasks = []
    for k, (weak, strong) in enumerate(pairs):
        for i in range(games):
            seat = i % job.players
            ais = [ladder[weak]] * job.players
            ais[seat] = ladder[strong]
            tasks.append((k, seat, Job.make(job.game, job.players, ais, dict(job.options)), seed + i))
    return tasks


def analyse(
    plan: Plan,
    workers: int = 1,
    cluster: Any = None,
    base: Path | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    configs: list[tuple[str, Job]] | None = None,
) -> dict[str, Any]:
    """Play every configuration and the ladder; the report's data (see :func:`write_report`).
    ``configs`` (label, job) replaces the plan's grid; ``on_progress(done, total)`` follows the games."""
    game = get_game(plan.game)
    configs = configs or grid_configs(plan, base)
    first = configs[0][1]
    ladder_games = plan.ladder_games if plan.ladder_games is not None else plan.games
    ladder = plan.ladder if first.players > 1 and ladder_games > 0 and len(plan.ladder) > 1 else []
    for name in ladder:
        Job.make(plan.game, first.players, [name], dict(first.options))
    ladder_tasks = _ladder_tasks(first, ladder, ladder_games, plan.seed) if ladder else []
    tasks = [(job, s) for _, job in configs for s in range(plan.seed, plan.seed + plan.games)]
    tasks += [(job, s) for _, _, job, s in ladder_tasks]
    total, done = len(tasks), 0

    def tick(k: int) -> None:
        nonlocal done
        done += k
        if on_progress is not None:
            on_progress(done, total)

    records = run_tasks(tasks, workers, cluster, tick)
    out_configs, triples = [], []
    for i, (label, job) in enumerate(configs):
        recs = records[i * plan.games : (i + 1) * plan.games]
        unit = game.score_unit(game.spec.config(dict(job.options), job.players))
        summary = summarise(recs, job.players, unit)
        triples.append((label, summary, recs))
        out_configs.append(
            {
                "label": label,
                "config": {
                    "game": job.game,
                    "players": job.players,
                    "ais": list(job.ais),
                    "options": dict(job.options),
                    "seed": plan.seed,
                },
                "summary": summary,
                "per_game": [r.to_dict() for r in recs],
            }
        )
    ladder_data = None
    if ladder:
        ladder_records = records[len(configs) * plan.games :]
        ladder_data = ladder_summary(ladder, _ladder_pairs(ladder, ladder_tasks, ladder_records), first.players)
        ladder_data["configuration"] = configs[0][0]
    from .. import __version__

    return {
        "title": plan.title or f"{game.spec.name} balance report",
        "game": game.spec.id,
        "game_name": game.spec.name,
        "rules_version": game.spec.rules_version,
        "polytable_version": __version__,
        "games": plan.games,
        "configurations": out_configs,
        "tests": hypotheses(triples),
        "ladder": ladder_data,
    }


def _ladder_pairs(
    ladder: Sequence[str], tasks: Sequence[tuple[int, int, Job, int]], records: Sequence[GameRecord]
) -> list[dict[str, Any]]:
    pairs = list(itertools.combinations(range(len(ladder)), 2))
    out: list[dict[str, Any]] = [{"weak": ladder[w], "strong": ladder[s], "strong_won": []} for w, s in pairs]
    for (k, seat, _, _), rec in zip(tasks, records, strict=True):
        out[k]["strong_won"].append(1.0 / len(rec.winners) if seat in rec.winners else 0.0)
    return out


_KEYS = {"game", "players", "ai", "options", "grid", "games", "seed", "ladder", "ladder_games", "title"}


def read_plan(path: Path) -> Plan:
    """A command file (TOML): ``game``, ``players``, ``ai`` (a list), ``[options]``, ``[grid]`` (KEY = list
    of values), ``games``, ``seed``, ``ladder`` (AIs, weakest first), ``ladder_games``, ``title``."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read {str(path)!r}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path.name} is not valid TOML: {exc}") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ConfigError(f"{path.name}: unknown key {unknown[0]!r} (keys: {', '.join(sorted(_KEYS))})")
    if "game" not in data:
        raise ConfigError(f'{path.name} must name the game (game = "...")')
    grid: Mapping[str, Any] = data.get("grid", {})
    options = {
        k: _option_value(data["game"], k, str(v), path.parent) if isinstance(v, str) else v
        for k, v in data.get("options", {}).items()
    }
    plan = Plan(
        game=str(data["game"]),
        players=data.get("players"),
        ais=[str(a) for a in data.get("ai", ["random"])],
        options=options,
        grid=[(k, [str(v) for v in vs]) for k, vs in grid.items()],
        games=int(data.get("games", 200)),
        seed=int(data.get("seed", 0)),
        ladder=[str(a) for a in data.get("ladder", ["random", "greedy"])],
        ladder_games=data.get("ladder_games"),
        title=data.get("title"),
    )
    return plan
