"""Forma: tuning ``expert``'s evaluation weights by self-play of ``hard``'s playout greedy
(``polytable train forma --method tune``; docs/ai-training.md, section Forma).

Why a search and not a network: ``hard`` scores its candidates and plays its playouts with the one-ply
evaluation's six weights (``_eval.Weights``); the playouts are a cheap greedy (``_player._fast_move``,
0.1 s of CPU a whole game), so weight sets can be compared by many whole games, and the weights that win
them make ``hard``'s search stronger (``expert``).

**A match** (:func:`match`): games ``seed`` .. ``seed + games - 1``, 2 players, seats alternating (A first in
even games), both sides the playout greedy under their weights; the result is A's win share (Wilson 95%)
and A's mean final score lead with its standard error. Deterministic given the seeds.

**The search** (:func:`tune`): a coordinate search from the engine's weights. Each round of the plan
(:data:`PLAN`: the one that chose the shipped weights) tries the listed values of each weight against the
round's starting point, one match a value (a *step*); a weight's best value by mean lead is kept when its
lead is more than one standard error above zero, and the kept changes are combined for the next round.

Everything lives in one folder: ``state.json`` (the settings and every finished step, written after each),
``curve.json`` and ``curve.png`` (every step's win share and lead; the PNG needs matplotlib) and, at the
end, ``weights.json`` in the format :func:`._value.load_tuned` reads. A run started again on the same folder
takes the finished steps from ``state.json`` and continues after the last; the same settings give the same
games, so an interrupted run ends with the weights an uninterrupted one would.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...core import ConfigError, Game, Rng, get_game
from ...games.forma import FormaState
from ...match import play_game
from .._arena import paired_match
from ._eval import ENGINE_WEIGHTS, Weights
from ._player import FormaGreedy, _fast_move

__all__ = ["PLAN", "Plan", "PlayoutGreedy", "match", "tune"]

Plan = list[tuple[int, dict[str, list[float]]]]
"""Rounds of a search: each round's first deal seed and the values tried for each weight (in order)."""

PLAN: Plan = [
    (
        7000,
        {
            "gift": [3, 4.5, 9],
            "pocket": [0.5, 3],
            "bridge": [25, 70],
            "block": [5, 30],
            "space": [16, 3],
            "size": [0, 2],
        },
    ),
    (7200, {"pocket": [0], "gift": [2], "bridge": [15]}),
]
"""The search that chose the shipped weights: round 1 kept gift 3, pocket 0.5, bridge 25; round 2 nothing."""

GAMES = 200
"""Games a step (the shipped search's)."""


class PlayoutGreedy:
    """``hard``'s playout greedy as a player, under weights ``w`` (picks under touch-move: the greedy's)."""

    name = "playout-greedy"

    def __init__(self, w: Weights) -> None:
        self.w = w
        self.greedy = FormaGreedy()

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        s: FormaState = state
        if s.placing or (s.picked < 0 and s.config["touch_move"]):
            return self.greedy.choose(game, s, player, rng)
        return _fast_move(game, s, player, rng, self.w)


def match(a: Weights, b: Weights, seed: int, games: int) -> dict[str, Any]:
    """A's results against B over ``games`` deals from ``seed`` (see the module docstring)."""
    game = get_game("forma")

    def play(g: int, a_first: bool) -> FormaState:
        pa, pb = PlayoutGreedy(a), PlayoutGreedy(b)
        st: FormaState = play_game(game, [pa, pb] if a_first else [pb, pa], {}, seed + g).state
        return st

    def lead(st: FormaState, me: int) -> float:
        return float(st.scores[me] - st.scores[1 - me])

    return {"seed": seed, **paired_match("forma", games, play, lead)}


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(tmp, path)


def _check_plan(plan: Plan, games: int) -> None:
    names = {f.name for f in dataclasses.fields(Weights)}
    if games < 1:
        raise ConfigError("games a step must be at least 1")
    for _, tries in plan:
        unknown = set(tries) - names
        if unknown:
            raise ConfigError(f"no weight named {', '.join(sorted(unknown))} (weights: {', '.join(sorted(names))})")


def tune(
    folder: Path,
    games: int = GAMES,
    seed: int = 0,
    plan: Plan | None = None,
    log: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Run (or continue) the search of ``plan`` (default :data:`PLAN`) in ``folder``, ``games`` a step,
    every round's seed shifted by ``seed``; returns the state (settings, steps, final weights)."""
    from ._value import TUNED_FILE, TUNED_TERMS

    plan = PLAN if plan is None else plan
    _check_plan(plan, games)
    game = get_game("forma")
    folder.mkdir(parents=True, exist_ok=True)
    state_path = folder / "state.json"
    rounds: Plan = [(s, {k: [float(v) for v in vs] for k, vs in t.items()}) for s, t in plan]
    settings = {"method": "tune", "games": games, "seed": seed, "plan": [list(r) for r in rounds]}
    if state_path.exists():
        state: dict[str, Any] = json.loads(state_path.read_text())
        if state.get("game") != "forma" or state.get("settings") != settings:
            raise ConfigError(
                f"{folder} holds a run with other settings ({state.get('game')}, {state.get('settings')}): "
                "continue it with the same ones or use another folder"
            )
        log(f"continuing after step {len(state['curve'])}")
    else:
        state = {"game": "forma", "rules_version": str(game.spec.rules_version), "settings": settings,
                 "curve": [], "rounds": [], "weights": None}  # fmt: skip
    done: list[dict[str, Any]] = state["curve"]
    point = ENGINE_WEIGHTS
    step = 0
    for r, (round_seed, tries) in enumerate(rounds, 1):
        kept: dict[str, float] = {}
        for name, values in tries.items():
            best: tuple[float, float, float] | None = None
            for v in values:
                if step < len(done):
                    entry = done[step]
                else:
                    res = match(dataclasses.replace(point, **{name: v}), point, round_seed + seed, games)
                    entry = {"step": step + 1, "round": r, "weight": name, "value": v, **res}
                    done.append(entry)
                    _write_json(state_path, state)
                    _write_json(folder / "curve.json", done)
                    plot_curve(done, folder / "curve.png")
                    log(
                        f"step {step + 1}: round {r}, {name} {v:g}: win share {res['win_rate']:.3f}, "
                        f"lead {res['lead']:+.1f} ± {res['lead_se']:.1f} ({res['cpu_s']:.0f} s CPU)"
                    )
                step += 1
                if best is None or entry["lead"] > best[1]:
                    best = (v, entry["lead"], entry["lead_se"])
            if best is not None and best[1] > best[2]:
                kept[name] = best[0]
        point = dataclasses.replace(point, **kept)
        if len(state["rounds"]) < r:
            state["rounds"].append({"round": r, "kept": kept, "weights": dataclasses.asdict(point)})
            _write_json(state_path, state)
            log(f"round {r} kept {kept or 'nothing'}")
    state["weights"] = dataclasses.asdict(point)
    _write_json(state_path, state)
    _write_json(folder / "curve.json", done)
    plot_curve(done, folder / "curve.png")
    _write_json(
        folder / TUNED_FILE,
        {
            "game": "forma",
            "rules_version": state["rules_version"],
            "terms": TUNED_TERMS,
            "weights": state["weights"],
            "tuned": f"polytable train forma --method tune --games {games} --seed {seed}: self-play of the "
            "playouts' greedy (docs/ai-training.md, section Forma)",
        },
    )
    return state


def plot_curve(curve: list[dict[str, Any]], path: Path) -> bool:
    """Every step's win share (95% interval) and mean lead (± one standard error) against the round's start,
    as a PNG; False without matplotlib (the JSON is always written)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    steps = [e["step"] for e in curve]
    labels = [f"r{e['round']} {e['weight']} {e['value']:g}" for e in curve]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
    rates = [e["win_rate"] for e in curve]
    ax1.errorbar(steps, rates, yerr=[[e["win_rate"] - e["ci95"][0] for e in curve],
                 [e["ci95"][1] - e["win_rate"] for e in curve]], fmt="o", capsize=2)  # fmt: skip
    ax1.axhline(0.5, color="black", linewidth=0.8)
    ax1.set_ylim(0, 1)
    ax1.set_ylabel("win share against the round's start")
    ax2.errorbar(steps, [e["lead"] for e in curve], yerr=[e["lead_se"] for e in curve], fmt="s", capsize=2)
    ax2.axhline(0.0, color="black", linewidth=0.8)
    ax2.set_ylabel("mean final lead (points)")
    for ax in (ax1, ax2):
        ax.set_xticks(steps, labels, rotation=70, fontsize=7)
    fig.suptitle("Forma: evaluation weights tuned by self-play of the playout greedy")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True
