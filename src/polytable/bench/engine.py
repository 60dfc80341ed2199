"""The compiled engine against its peers, measured in the same run (targets of the compiled-core issue).

* Forma random 4-player games per CPU second through the compiled playout, as a ratio to OpenSpiel
  connect_four random games per CPU second (target 0.125x: half of Pentobi's playout speed here).
* Forma random steps per CPU second through the Python protocol (``legal_actions(...).sample``, ``apply``),
  compiled and pure, as ratios to connect_four's Python loop.
* Foldris random 4-player drops per CPU second through the protocol (compiled and pure; target 1.0x
  connect_four's Python loop) and through the compiled playout (target 10x). The targets count drops
  only (the players' decisions; connect_four has no chance nodes, and a reveal is a cheap step that would
  flatter the figure by about 30%); a second figure of each counts the reveals too, as the peer's loop
  counts chance steps.
* Quadefy random steps per CPU second through the protocol (target 1.0x OpenSpiel pentago's Python
  loop) and through the compiled playout (target 10x): one playout a call (two generator objects made for
  each, as an MCTS rollout does) and batches of whole games (``random_games``, as ``simulate`` plays them).
* The Quadefy solver's nodes per CPU second from the empty cube (target 5 million).
* ``simulate --workers 2`` against ``--workers 1`` in games per wall second (target 1.8x), with the
  parent's serial share of the CPU and its Amdahl bound (the part of the figure that load does not move).
* Qwirkle Cubes random 2-player games per CPU second through ``Game.playout`` (what ``simulate --ai
  random`` runs), compiled and pure (target 1,000).
* FORMFINITY random games (and player actions) per CPU second through ``Game.playout`` over every sample
  configuration, per goal: the compiled playout (the whole turn flow in C) and the pure rules.
Figures are printed, never asserted.
"""

from __future__ import annotations

import gc
import time
from typing import Any

from ..core import Rng, get_game, native_module
from ._peers import openspiel_random

__all__ = ["run"]

CLASSIC = {"placement": "random", "touch_move": False}
"""Forma as measured before the players' set-up and touch-move became the defaults (a seeded layout, a
placement a move): the figures stay comparable with earlier runs and with Blokus-like peers."""


def _forma_playouts(games: int, options: dict[str, object] = CLASSIC, engine: str = "auto") -> dict[str, float]:
    GAME = get_game("forma", engine)

    t0 = time.process_time()
    moves = 0
    for seed in range(games):
        s = GAME.new_game(options, seed=seed, players=4)
        _, n = GAME.playout(s, [Rng(seed, stream=1000 + p) for p in range(4)])
        moves += n
    cpu = max(time.process_time() - t0, 1e-9)
    return {"games_per_s": games / cpu, "steps_per_s": moves / cpu}


def _forma_default(games: int) -> dict[str, object]:
    """Forma's default rules (the players' set-up, touch-move): random 4-player games per CPU second through
    the playout, compiled and pure (before rules version 2's defaults were compiled they ran pure)."""
    compiled = _forma_playouts(games, {})
    pure = _forma_playouts(max(games // 10, 1), {}, "pure")
    return {
        "forma default rules: random 4p games per CPU second (playout, compiled)": round(compiled["games_per_s"], 1),
        "forma default rules: random 4p games per CPU second (playout, pure)": round(pure["games_per_s"], 1),
    }


def _forma_protocol(games: int, pure: bool) -> float:
    GAME = get_game("forma", "pure" if pure else "auto")

    def loop() -> tuple[int, float]:
        rng = Rng(5)
        steps = 0
        t0 = time.process_time()
        for seed in range(games):
            s = GAME.new_game(CLASSIC, seed=seed, players=4)
            while s.turn >= 0:
                s = GAME.apply(s, GAME.legal_actions(s).sample(rng))
                steps += 1
        return steps, max(time.process_time() - t0, 1e-9)

    steps, cpu = loop()
    return steps / cpu


def _foldris_steps(games: int) -> dict[str, float]:
    """Foldris random 4-player drops (and drops with reveals) per CPU second: the protocol loop (compiled and
    pure) and the playout."""
    from ..core import CHANCE

    GAME = get_game("foldris")

    def loop(GAME: Any, n: int) -> tuple[float, float]:
        rng = Rng(5)
        drops = reveals = 0
        t0 = time.process_time()
        for seed in range(n):
            s = GAME.new_game(seed=seed, players=4)
            while not GAME.is_terminal(s):
                if GAME.current_player(s) == CHANCE:
                    s = GAME.apply_chance(s)
                    reveals += 1
                    continue
                p = GAME.acting_players(s)[0]
                s = GAME.apply(s, GAME.legal_actions(s, p).sample(rng), p)
                drops += 1
        cpu = max(time.process_time() - t0, 1e-9)
        return drops / cpu, (drops + reveals) / cpu

    compiled, compiled_steps = loop(GAME, games)
    pure, _ = loop(get_game("foldris", "pure"), max(games // 3, 1))
    # the new games and the generators are made before the clock starts: the playout alone is timed
    starts = [
        (GAME.new_game(seed=seed, players=4), [Rng(seed, 1000 + p) for p in range(4)]) for seed in range(games * 10)
    ]
    gc.collect()
    gc.freeze()  # the collector would otherwise walk the thousands of prepared starts again and again
    t0 = time.process_time()
    drops = reveals = 0
    for start, rngs in starts:
        end, n = GAME.playout(start, rngs)
        drops += n
        reveals += len(start.deck) - len(end.deck)
    cpu = max(time.process_time() - t0, 1e-9)
    gc.unfreeze()
    return {
        "compiled": compiled,
        "compiled_steps": compiled_steps,
        "pure": pure,
        "playout": drops / cpu,
        "playout_steps": (drops + reveals) / cpu,
    }


def _quadefy_steps(games: int) -> dict[str, float]:
    """Quadefy random steps per CPU second: through the protocol (compiled and pure) and the playout."""
    from ..games.quadefy import Quadefy

    GAME = get_game("quadefy")

    def loop(GAME: Any) -> float:
        rng = Rng(5)
        steps = 0
        t0 = time.process_time()
        for seed in range(games):
            s = GAME.new_game(seed=seed)
            while not GAME.is_terminal(s):
                s = GAME.apply(s, GAME.legal_actions(s).sample(rng))
                steps += 1
        return steps / max(time.process_time() - t0, 1e-9)

    compiled = loop(GAME)
    pure = loop(get_game("quadefy", "pure"))
    start = GAME.new_game(seed=0)  # the set-up is not part of a playout (an MCTS rollout starts mid-game)
    t0 = time.process_time()
    steps = 0
    for seed in range(games * 10):
        _, n = GAME.playout(start, [Rng(seed, stream=1000), Rng(seed, stream=1001)])
        steps += n
    playout = steps / max(time.process_time() - t0, 1e-9)
    # simulate's random games: batches of whole seeded games, one call each (no generator objects)
    assert isinstance(GAME, Quadefy)
    t0 = time.process_time()
    steps = 0
    for first in range(0, games * 50, 1000):
        steps += sum(n for _, n in GAME.random_games(None, 2, list(range(first, first + 1000))))
    batch = steps / max(time.process_time() - t0, 1e-9)
    return {"compiled": compiled, "pure": pure, "playout": playout, "batch": batch}


def _quadefy_solver(nodes: int) -> dict[str, object]:
    from ..ai.quadefy import load_native as load
    from ..ai.quadefy import native_unavailable

    why = native_unavailable()
    if why is not None:
        return {"quadefy solver": why}
    from ..games.quadefy import ALL_BLOCKS

    native = load()
    with native.lock:
        native.set_table_size(22)
        native.clear()
        native.reset_stats()
        t0 = time.process_time()
        native.solve(0, ALL_BLOCKS, ALL_BLOCKS, 1, max_nodes=nodes)
        cpu = max(time.process_time() - t0, 1e-9)
        done = native.stats()["nodes"]
    return {"quadefy solver: nodes": done, "quadefy solver: nodes per CPU second": round(done / cpu)}


def _qwirkle_playouts(games: int) -> dict[str, object]:
    """Qwirkle Cubes random 2-player games per CPU second, from the set-up (chance included) to the end."""

    def loop(GAME: Any, n: int) -> float:
        t0 = time.process_time()
        for seed in range(n):
            s = GAME.new_game(seed=seed, players=2)
            GAME.playout(s, [Rng(seed, stream=1000), Rng(seed, stream=1001)])
        return n / max(time.process_time() - t0, 1e-9)

    compiled = loop(get_game("qwirkle-cubes"), games)
    pure = loop(get_game("qwirkle-cubes", "pure"), max(games // 40, 3))
    return {
        "qwirkle-cubes random 2p games per CPU second, playout (target 1000)": round(compiled, 1),
        "qwirkle-cubes random 2p games per CPU second, playout (pure)": round(pure, 1),
    }


def _formfinity_playouts(games: int) -> dict[str, object]:
    """FORMFINITY random games (and player actions) per CPU second through ``Game.playout`` (what
    ``simulate --ai random`` and the MCTS rollouts run), ``games`` games of every sample configuration:
    the compiled playout against the pure rules, per goal and in all."""
    from ..games.formfinity import clear_caches, setup_for

    GAME = get_game("formfinity")

    def loop(GAME: Any, options: dict[str, object], players: int, n: int) -> tuple[float, int]:
        clear_caches()
        states = [GAME.new_game(options, seed, players) for seed in range(n)]
        rngs = [[Rng(seed, stream=1000 + p) for p in range(players)] for seed in range(n)]
        t0 = time.process_time()
        steps = sum(GAME.playout(s, r)[1] for s, r in zip(states, rngs, strict=True))
        return time.process_time() - t0, steps

    out: dict[str, object] = {}
    totals = {"compiled": [0.0, 0, 0], "pure": [0.0, 0, 0]}
    by_goal: dict[str, dict[str, list[float]]] = {}
    for options, players in GAME.sample_configs():
        goal = setup_for(GAME.spec.config(options, players)).rules.goal
        for engine in ("compiled", "pure"):
            n = games if engine == "compiled" else max(2, games // 10)
            cpu, steps = loop(get_game("formfinity", "pure" if engine == "pure" else "auto"), options, players, n)
            for acc in (totals[engine], by_goal.setdefault(goal, {}).setdefault(engine, [0.0, 0, 0])):
                acc[0] += cpu
                acc[1] += n
                acc[2] += steps
    for goal, eng in [*by_goal.items(), ("all", totals)]:
        c, p = eng["compiled"], eng["pure"]
        gc_, gp = c[1] / max(c[0], 1e-9), p[1] / max(p[0], 1e-9)
        out[f"formfinity random games per CPU second ({goal}): compiled / pure / ratio"] = (
            f"{gc_:,.0f} / {gp:,.1f} / {gc_ / max(gp, 1e-9):.0f}x"
        )
        if goal == "all":
            out["formfinity random player actions per CPU second, playout: compiled / pure"] = (
                f"{c[2] / max(c[0], 1e-9):,.0f} / {p[2] / max(p[0], 1e-9):,.0f}"
            )
    return out


def _workers(games: int) -> dict[str, object]:
    """``simulate`` (as the CLI's table runs it: no per-game results) over 1 and 2 processes, in games per
    wall second; enough games that the start-up (about 0.3 s: the game registry, the pool) is small. Wall
    time depends on the machine's other load, so the run also reports the CPU it took: the parent's share
    of all the CPU of the 2-process run is its serial part, which bounds the speed-up (Amdahl's law)
    whatever the load, and the CPU of the 2-process run against the 1-process run is the parallel cost."""
    import os
    import resource

    from ..ai import make_bot
    from ..match import simulate

    def children() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    out: dict[str, object] = {}
    rates, cpu = {}, {}
    simulate("forma", 4, 2, ["random"], CLASSIC, make_player=make_bot)  # the registry's imports, once
    for w in (1, 2):
        c0, k0, t0 = time.process_time(), children(), time.perf_counter()
        simulate("forma", 4, games, ["random"], CLASSIC, seed=0, workers=w, make_player=make_bot, per_game=False)
        wall = time.perf_counter() - t0
        parent, kids = time.process_time() - c0, children() - k0
        rates[w], cpu[w] = games / wall, parent + kids
        out[f"simulate forma -p 4 --workers {w}: games per wall second ({games} games)"] = round(rates[w], 1)
        if w == 2:
            share = parent / max(parent + kids, 1e-9)
            out["simulate --workers 2: the parent's share of the CPU (serial part)"] = round(share, 4)
            out["simulate --workers 2: Amdahl bound of the speed-up"] = round(1 / (share + (1 - share) / 2), 2)
    out["simulate --workers 2: CPU against --workers 1"] = round(cpu[2] / max(cpu[1], 1e-9), 3)
    out["simulate --workers 2 / --workers 1, games per wall second (target 1.8)"] = round(rates[2] / rates[1], 2)
    out["simulate: load average over the last minute"] = round(os.getloadavg()[0], 2)
    return out


def run(quick: bool = False) -> dict[str, object]:
    out: dict[str, object] = {}
    compiled = native_module("polytable.games.forma._cforma") is not None
    out["forma kernel"] = "compiled" if compiled else "pure Python (not built, or POLYTABLE_PURE=1)"
    c4 = openspiel_random("connect_four", seconds=1.0 if quick else 4.0)
    play = _forma_playouts(200 if quick else 2000)
    out["forma random 4p games per CPU second (playout)"] = round(play["games_per_s"], 1)
    out.update(_forma_default(50 if quick else 500))
    steps_c = _forma_protocol(5 if quick else 40, pure=False)
    steps_p = _forma_protocol(3 if quick else 20, pure=True)
    out["forma random steps per CPU second, protocol loop (compiled)"] = round(steps_c)
    out["forma random steps per CPU second, protocol loop (pure)"] = round(steps_p)
    if "games_per_s" in c4:
        g, st = float(c4["games_per_s"]), float(c4["steps_per_s"])  # type: ignore[arg-type]
        out["openspiel connect_four random games per CPU second"] = g
        out["openspiel connect_four random steps per CPU second"] = st
        out["ratio: forma playout games / connect_four games (target 0.125)"] = round(play["games_per_s"] / g, 3)
        out["ratio: forma protocol steps (compiled) / connect_four steps"] = round(steps_c / st, 3)
        out["ratio: forma protocol steps (pure) / connect_four steps"] = round(steps_p / st, 3)
        out["ratio: forma playout steps / connect_four steps"] = round(play["steps_per_s"] / st, 2)
    else:
        out["openspiel"] = c4.get("status", "unavailable")
    f = _foldris_steps(20 if quick else 300)
    out["foldris random 4p drops per CPU second, protocol loop (compiled)"] = round(f["compiled"])
    out["foldris random 4p steps (drops and reveals) per CPU second, protocol loop (compiled)"] = round(
        f["compiled_steps"]
    )
    out["foldris random 4p drops per CPU second, protocol loop (pure)"] = round(f["pure"])
    out["foldris random 4p drops per CPU second, playout"] = round(f["playout"])
    out["foldris random 4p steps (drops and reveals) per CPU second, playout"] = round(f["playout_steps"])
    if "steps_per_s" in c4:
        st = float(c4["steps_per_s"])  # type: ignore[arg-type]
        out["ratio: foldris protocol drops (compiled) / connect_four steps (target 1.0, drops only)"] = round(
            f["compiled"] / st, 3
        )
        out["ratio: foldris protocol steps with reveals (compiled) / connect_four steps"] = round(
            f["compiled_steps"] / st, 3
        )
        out["ratio: foldris protocol drops (pure) / connect_four steps"] = round(f["pure"] / st, 3)
        out["ratio: foldris playout drops / connect_four steps (target 10, drops only)"] = round(f["playout"] / st, 2)
        out["ratio: foldris playout steps with reveals / connect_four steps"] = round(f["playout_steps"] / st, 2)
    pentago = openspiel_random("pentago", seconds=1.0 if quick else 4.0)
    q = _quadefy_steps(20 if quick else 200)
    out["quadefy random steps per CPU second, protocol loop (compiled)"] = round(q["compiled"])
    out["quadefy random steps per CPU second, protocol loop (pure)"] = round(q["pure"])
    out["quadefy random steps per CPU second, playout"] = round(q["playout"])
    out["quadefy random steps per CPU second, batched games (simulate --ai random)"] = round(q["batch"])
    if "steps_per_s" in pentago:
        st = float(pentago["steps_per_s"])  # type: ignore[arg-type]
        out["openspiel pentago random steps per CPU second"] = st
        out["ratio: quadefy protocol steps (compiled) / pentago steps (target 1.0)"] = round(q["compiled"] / st, 3)
        out["ratio: quadefy protocol steps (pure) / pentago steps"] = round(q["pure"] / st, 3)
        out["ratio: quadefy playout steps / pentago steps (target 10)"] = round(q["playout"] / st, 2)
        out["ratio: quadefy batched game steps / pentago steps (target 10)"] = round(q["batch"] / st, 2)
    out.update(_quadefy_solver(200_000 if quick else 3_000_000))
    out.update(_qwirkle_playouts(100 if quick else 2000))
    out.update(_formfinity_playouts(20 if quick else 300))
    out.update(_workers(2000 if quick else 60_000))
    return out
