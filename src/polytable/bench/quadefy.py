"""``polytable bench quadefy``: random games per second, legal-move generations per second at fixed
positions, greedy and solver costs, the puzzle solver's time per pattern, and OpenSpiel's ``pentago``
(a two-player placement game of similar length) driven from a Python loop in the same run, with the
per-step ratio.

Rates are per second of this process's CPU time (``time.process_time``), so a busy shared machine does
not distort them or the ratio; each loop still runs for a fixed wall-clock time.

A "step" is one move applied after drawing it uniformly from the legal moves: for Quadefy that means
generating every legal placement (support, reachability flood fill) once per step; for pentago one
``legal_actions()`` call, a random choice and ``apply_action``.
"""

from __future__ import annotations

import time
from typing import Any

from ._peers import openspiel_random

__all__ = ["run"]


def _raw_steps(game: Any, seconds: float) -> float:
    """Steps per second through the unchecked hooks (``_sample`` then ``_apply``), as search would use."""
    from polytable.core import Rng
    from polytable.games.quadefy import clear_cache

    clear_cache()
    rng = Rng(99)
    steps = seed = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < seconds:
        state = game.new_game({}, seed)
        seed += 1
        while state.loser < 0:
            p = state.to_move
            state = game._apply(state, game._sample(state, p, rng), p)
            steps += 1
    return round(steps / (time.process_time() - cpu), 1)


def _random_games(game: Any, options: dict[str, object], seconds: float) -> dict[str, float]:
    from polytable.core import Rng
    from polytable.games.quadefy import clear_cache

    clear_cache()
    rng = Rng(2024)
    steps = games = 0
    seed = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < seconds:
        state = game.new_game(options, seed)  # public, checked API: legal_actions().sample + apply
        seed += 1
        while not game.is_terminal(state):
            state = game.apply(state, game.legal_actions(state).sample(rng))
            steps += 1
        games += 1
        if seed % 200 == 0:
            clear_cache()  # fresh positions only: never replay memoised generations
    elapsed = time.process_time() - cpu
    return {"games_per_s": round(games / elapsed, 1), "steps_per_s": round(steps / elapsed, 1)}


def _positions(game: Any) -> dict[str, Any]:
    from polytable.core import Rng

    out = {"empty": game.new_game()}
    opening = game.new_game()
    for text in ("O r0 @ b2.1", "O r0 @ b2.2", "I r1 @ a1.1"):
        opening = game.apply_text(opening, text)
    out["opening (3 blocks)"] = opening
    for plies in (6, 9):
        rng = Rng(plies)
        state = game.new_game()
        for _ in range(plies):
            state = game.apply(state, game.legal_actions(state).sample(rng))
        out[f"random {plies} plies"] = state
    return out


def _generations(game: Any, seconds: float) -> dict[str, object]:
    from polytable.games.quadefy import clear_cache, legal_sets

    out: dict[str, object] = {}
    for name, state in _positions(game).items():
        rem = state.remaining[state.to_move]
        count = legal_sets(state.occupied, rem, state.flags)[1]
        n = 0
        start = time.perf_counter()
        cpu = time.process_time()
        while time.perf_counter() - start < seconds:
            for _ in range(20):
                clear_cache()
                legal_sets(state.occupied, rem, state.flags)
            n += 20
        out[name] = {"legal": count, "generations_per_s": round(n / (time.process_time() - cpu), 1)}
    return out


def _puzzles() -> dict[str, object]:
    from polytable.games.quadefy import PATTERNS, solve_pattern

    out: dict[str, object] = {}
    for name, dark in PATTERNS.items():
        cpu = time.process_time()
        result = solve_pattern(dark)
        ms = (time.process_time() - cpu) * 1000
        nodes = result.stats[0].nodes + result.stats[1].nodes
        out[name] = {"solved": result.solved, "ms": round(ms, 2), "nodes": nodes}
    return out


def _greedy(game: Any, seconds: float) -> float:
    from polytable.ai import make_bot
    from polytable.core import Rng

    bot = make_bot("greedy", "quadefy")
    rng = Rng(5)
    moves = 0
    seed = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < seconds:
        state = game.new_game(seed=seed)
        seed += 1
        while not game.is_terminal(state) and time.perf_counter() - start < seconds:
            state = game.apply(state, bot.choose(game, state, state.to_move, rng))
            moves += 1
    return round(moves / (time.process_time() - cpu), 1)


def _solver(game: Any) -> dict[str, object]:
    """Exact solve of the positions after 8 and 7 plies of a fixed random game."""
    from polytable.ai.quadefy import solve_position
    from polytable.core import Rng

    out: dict[str, object] = {}
    for plies in (9, 8, 7):
        rng = Rng(1)
        state = game.new_game()
        for _ in range(plies):
            state = game.apply(state, game.legal_actions(state).sample(rng))
        cpu = time.process_time()
        r = solve_position(state.occupied, state.remaining[state.to_move], state.remaining[1 - state.to_move], 1)
        out[f"after {plies} plies"] = {
            "solved": r.solved,
            "to_move_wins": r.win,
            "nodes": r.nodes,
            "s": round(time.process_time() - cpu, 3),
        }
    return out


def run(quick: bool = False) -> dict[str, object]:
    from polytable.core import get_game

    game = get_game("quadefy")
    seconds = 0.5 if quick else 3.0
    out: dict[str, object] = {}
    ours = _random_games(game, {}, seconds)
    out["random games (reachability on)"] = ours
    out["random games (reachability off)"] = _random_games(game, {"reachability": False}, seconds)
    out["random games (stability on)"] = _random_games(game, {"stability": True}, seconds)
    out["raw steps per s (unchecked _sample + _apply)"] = _raw_steps(game, seconds)
    out["legal-move generation at fixed positions"] = _generations(game, seconds / 3)
    out["greedy moves per s"] = _greedy(game, seconds)
    if not quick:
        out["endgame solver"] = _solver(game)
    out["puzzle"] = _puzzles()
    pentago = openspiel_random("pentago", seconds=seconds)
    out["openspiel pentago (python loop)"] = pentago
    steps = pentago.get("steps_per_s")
    if isinstance(steps, float) and steps > 0:
        out["per-step ratio quadefy/pentago"] = round(ours["steps_per_s"] / steps, 4)
    return out
