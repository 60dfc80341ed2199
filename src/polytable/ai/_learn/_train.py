"""The self-play training loop: generate games, fit a value network, keep it only if it wins.

One iteration ``k`` (its generator seeded from ``(seed, k)``):

1. **Self-play**: ``games`` games played by the current best network (the game's hand-made greedy while
   there is none), every position labelled (see the game's ``self_play``); they join a window of the
   last ``window`` iterations' positions.
2. **Fit**: a candidate, started from the best network's weights (fresh ones at first), trained for
   ``epochs`` passes over the window (Adam, mini-batches, the order seeded).
3. **Gate**: ``gate_games`` arena games (seats alternating, :func:`polytable.ai.arena`) between the
   candidate's player and the current best's (the game's ``hard`` while no network has won) at
   ``seconds`` a move; the candidate becomes the best only when it scores more than half.

``clock`` is what every timed part reads: the gate players' ``seconds`` and the exact labels' budget (see
the game's ``self_play``). On ``wall`` (the default, and what runs before the option had) both change
with the machine's load; on ``cpu`` (the deciding thread's CPU time) they do not, so a run on a busy
machine gives the labels and gate games an idle one would.

Everything lives in one folder: ``state.json`` (the settings, the iteration reached, the learning curve),
``window.npz`` (the positions), ``validation.npz`` (held-out positions every candidate's loss is measured
on), ``best.npz`` and each ``candidate-K.npz``; ``curve.json`` and ``curve.png`` are written after every
iteration. A run started again on the same folder continues after the last finished iteration; the same
seed gives the same games and the same networks (the gate's players think for a time, so the gate's
games may differ with the machine's load: its decisions are recorded in the curve).
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...core import ConfigError, get_game
from .._arena import arena
from .._clock import budget_clock
from ._net import Adam, ValueNet

__all__ = ["LEARNERS", "TrainConfig", "train"]

LEARNERS: dict[str, str] = {
    "forma": "polytable.ai.forma._value",
    "formfinity": "polytable.ai.formfinity._value",
    "quadefy": "polytable.ai.quadefy._value",
    "qwirkle-cubes": "polytable.ai.qwirkle_cubes._value",
}
"""Game id -> the module with the game's learning parts (``VALUE``, its :class:`._game.LearnedValue`;
``self_play``; optional ``ARENA_PLAYERS``: the gate's player count, else the game's default)."""


@dataclass(frozen=True)
class TrainConfig:
    """The settings of a run (kept in ``state.json``; a continued run must give the same)."""

    seed: int = 0
    iterations: int = 10
    games: int = 200
    window: int = 4
    epochs: int = 20
    batch: int = 256
    lr: float = 2e-3
    gate_games: int = 40
    seconds: float = 0.1
    validation_games: int = 100
    clock: str = "wall"

    def __post_init__(self) -> None:
        if min(self.iterations, self.games, self.window, self.epochs, self.batch, self.gate_games) < 1:
            raise ConfigError("iterations, games, window, epochs, batch and gate games must be at least 1")
        if self.seconds <= 0 or self.lr <= 0:
            raise ConfigError("seconds and the learning rate must be positive")
        budget_clock(self.clock)


def _learner(game_id: str) -> Any:
    module = LEARNERS.get(game_id)
    if module is None:
        raise ConfigError(f"no training pipeline for {game_id} (games: {', '.join(sorted(LEARNERS))})")
    return importlib.import_module(module)


def _seed(seed: int, *parts: int) -> int:
    return int(np.random.SeedSequence([seed, *parts]).generate_state(1, np.uint32)[0])


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(tmp, path)


def fit(net: ValueNet, x: np.ndarray, y: np.ndarray, cfg: TrainConfig, seed: int) -> float:
    """Train ``net`` in place on (x, y); the mean loss of the last epoch."""
    rng = np.random.default_rng(seed)
    opt = Adam(net, cfg.lr)
    last = float("nan")
    for _ in range(cfg.epochs):
        order = rng.permutation(len(y))
        total = 0.0
        for start in range(0, len(y), cfg.batch):
            idx = order[start : start + cfg.batch]
            loss, gw, gb = net.gradients(x[idx], y[idx])
            opt.step(net, gw, gb, weight_decay=1e-4)
            total += loss * len(idx)
        last = total / len(y)
    return last


def train(
    game_id: str,
    folder: Path,
    cfg: TrainConfig,
    log: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Run (or continue) a training run in ``folder``; returns the state (settings, curve)."""
    learner = _learner(game_id)
    game = get_game(game_id)
    folder.mkdir(parents=True, exist_ok=True)
    state_path = folder / "state.json"
    settings = asdict(cfg)
    if state_path.exists():
        state: dict[str, Any] = json.loads(state_path.read_text())
        # A run written before ``clock`` existed read the wall clock.
        kept = {k: v for k, v in {"clock": "wall", **state["settings"]}.items() if k != "iterations"}
        if state["game"] != game_id or kept != {k: v for k, v in settings.items() if k != "iterations"}:
            raise ConfigError(
                f"{folder} holds a run with other settings ({state['game']}, {state['settings']}): "
                "continue it with the same ones or use another folder"
            )
        state["settings"] = settings
        log(f"continuing after iteration {state['iteration']}")
    else:
        state = {"game": game_id, "rules_version": game.spec.rules_version, "settings": settings,
                 "iteration": 0, "best": None, "curve": []}  # fmt: skip
    val_path = folder / "validation.npz"
    if not val_path.exists():
        vx, vy, _ = learner.self_play(None, cfg.validation_games, _seed(cfg.seed, 1 << 30), clock=cfg.clock)
        np.savez(val_path, x=vx, y=vy)
    with np.load(val_path) as data:
        vx, vy = data["x"], data["y"]
    window_path = folder / "window.npz"
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    if window_path.exists():
        with np.load(window_path) as data:
            xs = [data[f"x{i}"] for i in range(int(data["n"]))]
            ys = [data[f"y{i}"] for i in range(int(data["n"]))]
    while state["iteration"] < cfg.iterations:
        k = state["iteration"] + 1
        started = time.process_time()
        wall = time.perf_counter()
        best_net = learner.VALUE.load(folder / "best.npz") if state["best"] else None
        x, y, stats = learner.self_play(best_net, cfg.games, _seed(cfg.seed, k, 0), clock=cfg.clock)
        xs, ys = [*xs, x][-cfg.window :], [*ys, y][-cfg.window :]
        play_cpu = time.process_time() - started
        cand = best_net.copy() if best_net is not None else learner.VALUE.new_net(_seed(cfg.seed, k, 1))
        train_loss = fit(cand, np.concatenate(xs), np.concatenate(ys), cfg, _seed(cfg.seed, k, 2))
        val_loss = cand.loss(vx, vy)
        cand_path = folder / f"candidate-{k}.npz"
        cand.save(cand_path)
        fit_cpu = time.process_time() - started - play_cpu
        budget = f"seconds={cfg.seconds}" + (f",clock={cfg.clock}" if cfg.clock != "wall" else "")
        best_name = f"expert:weights={folder / 'best.npz'},{budget}" if state["best"] else f"hard:{budget}"
        cand_name = f"expert:weights={cand_path},{budget}"
        opponent = state["best"] or "hard"
        result = arena(game_id, [cand_name, best_name], cfg.gate_games, getattr(learner, "ARENA_PLAYERS", None),
                       seed=_seed(cfg.seed, k, 3), workers=1)  # fmt: skip
        pair = result["pairs"][0]
        accepted = pair["a_win_rate"] > 0.5
        if accepted:
            shutil.copyfile(cand_path, folder / "best.npz")
            state["best"] = f"candidate-{k}"
        entry = {
            "iteration": k, **stats, "window_positions": int(sum(len(v) for v in ys)),
            "train_loss": train_loss, "validation_loss": val_loss,
            "gate_opponent": opponent,
            "gate_win_rate": pair["a_win_rate"], "gate_ci95": pair["a_ci95"], "accepted": accepted,
            "best": state["best"], "self_play_cpu_s": round(play_cpu, 1), "fit_cpu_s": round(fit_cpu, 1),
            "wall_s": round(time.perf_counter() - wall, 1),
        }  # fmt: skip
        state["curve"].append(entry)
        state["iteration"] = k
        arrays: dict[str, Any] = {f"x{i}": v for i, v in enumerate(xs)} | {f"y{i}": v for i, v in enumerate(ys)}
        np.savez(folder / "window.tmp.npz", n=np.array(len(xs)), **arrays)
        os.replace(folder / "window.tmp.npz", window_path)
        _write_json(state_path, state)
        _write_json(folder / "curve.json", state["curve"])
        plot_curve(state["curve"], folder / "curve.png", game.spec.name)
        log(
            f"iteration {k}: {stats['positions']} positions, validation loss {val_loss:.4f}, "
            f"gate {pair['a_win_rate']:.3f} ({'kept' if accepted else 'dropped'})"
        )
    return state


def plot_curve(curve: list[dict[str, Any]], path: Path, title: str) -> bool:
    """The learning curve as a PNG (validation loss and gate win rate by iteration); False without
    matplotlib (the JSON is always written)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    its = [e["iteration"] for e in curve]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.4))
    ax1.plot(its, [e["train_loss"] for e in curve], "o-", label="training")
    ax1.plot(its, [e["validation_loss"] for e in curve], "s-", label="validation")
    for ax in (ax1, ax2):
        ax.set_xticks(its)
    ax1.set_xlabel("iteration")
    ax1.set_ylabel("cross-entropy")
    ax1.legend()
    rates = [e["gate_win_rate"] for e in curve]
    lo = [e["gate_win_rate"] - e["gate_ci95"][0] for e in curve]
    hi = [e["gate_ci95"][1] - e["gate_win_rate"] for e in curve]
    colours = ["tab:green" if e["accepted"] else "tab:red" for e in curve]
    ax2.errorbar(its, rates, yerr=[lo, hi], fmt="none", ecolor="grey")
    ax2.scatter(its, rates, c=colours, zorder=3)
    ax2.axhline(0.5, color="black", linewidth=0.8)
    ax2.set_ylim(0, 1)
    ax2.set_xlabel("iteration")
    ax2.set_ylabel("candidate's win rate (gate)")
    fig.suptitle(f"{title}: self-play value network")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True
