"""``polytable bench foldris``: random drops per second, clone/apply cost, greedy and hard moves per second, and
OpenSpiel's ``connect_four`` driven from a Python loop in the same run (the closest drop game), with the
ratio of our random drops per second to its steps per second."""

from __future__ import annotations

import time
from typing import Any

from ._peers import openspiel_random

__all__ = ["run"]


def _random_games(game: Any, players: int, seconds: float) -> dict[str, float]:
    """Random games through the public protocol (``legal_actions(s, p).sample`` and ``apply`` for a drop,
    ``apply_chance`` for a reveal), in CPU time as the peer's (a loaded machine slows both alike)."""
    from polytable.core import CHANCE, Rng

    rng = Rng(12345)
    drops = steps = games = 0
    start = time.perf_counter()
    cpu = time.process_time()
    seed = 0
    while time.perf_counter() - start < seconds:
        state = game.new_game(seed=seed, players=players)
        seed += 1
        while not game.is_terminal(state):
            steps += 1
            if game.current_player(state) == CHANCE:
                state = game.apply_chance(state)
                continue
            p = game.acting_players(state)[0]
            state = game.apply(state, game.legal_actions(state, p).sample(rng), p)
            drops += 1
        games += 1
    elapsed = max(time.process_time() - cpu, 1e-9)
    return {"drops_per_s": drops / elapsed, "steps_per_s": steps / elapsed, "games_per_s": games / elapsed}


def _apply_cost(game: Any, repeats: int) -> dict[str, float]:
    from dataclasses import replace

    from polytable.core import Rng

    state = game.apply_chance(game.apply_chance(game.new_game(seed=3, players=4)))
    action = game.legal_actions(state, 0).sample(Rng(1))
    t = time.perf_counter()
    for _ in range(repeats):
        replace(state)
    clone = (time.perf_counter() - t) / repeats
    t = time.perf_counter()
    for _ in range(repeats):
        game.apply(state, action, 0)
    record = (time.perf_counter() - t) / repeats
    last = state
    for p in (0, 1, 2):
        last = game.apply(last, game.legal_actions(last, p).sample(Rng(p)), p)
    final = game.legal_actions(last, 3).sample(Rng(9))
    t = time.perf_counter()
    for _ in range(repeats):
        game.apply(last, final, 3)
    resolve = (time.perf_counter() - t) / repeats
    t = time.perf_counter()
    for _ in range(repeats):
        game.legal_actions(state, 0).count()
    count = (time.perf_counter() - t) / repeats
    return {
        "clone_us": clone * 1e6,
        "apply_record_choice_us": record * 1e6,
        "apply_resolve_round_4p_us": resolve * 1e6,
        "count_legal_us": count * 1e6,
    }


def _greedy(game: Any, seconds: float) -> dict[str, float]:
    from polytable.ai import GreedyBot
    from polytable.core import CHANCE, Rng

    bot = GreedyBot()
    rng = Rng(5)
    moves = 0
    lines = 0
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_game(seed=games, players=1)
        while not game.is_terminal(state):
            if game.current_player(state) == CHANCE:
                state = game.apply_chance(state)
            else:
                state = game.apply(state, bot.choose(game, state, 0, rng), 0)
                moves += 1
        lines += state.sheets[0].lines
        games += 1
    elapsed = time.perf_counter() - start
    return {"greedy_moves_per_s": moves / elapsed, "greedy_solo_games": games, "greedy_solo_mean_lines": lines / games}


def _expectimax(game: Any, seconds: float) -> dict[str, float]:
    """The ``hard`` bot (expectimax over the remaining deck) in solo: moves per second, CPU ms per move."""
    from polytable.ai import make_bot
    from polytable.core import CHANCE, Rng

    bot = make_bot("hard", "foldris")
    rng = Rng(5)
    moves = 0
    cpu = 0.0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds or moves == 0:
        state = game.new_game(seed=seed, players=1)
        seed += 1
        while not game.is_terminal(state):
            if game.current_player(state) == CHANCE:
                state = game.apply_chance(state)
            else:
                t = time.process_time()
                action = bot.choose(game, state, 0, rng)
                cpu += time.process_time() - t
                state = game.apply(state, action, 0)
                moves += 1
    elapsed = time.perf_counter() - start
    return {"hard_moves_per_s": moves / elapsed, "hard_cpu_ms_per_move": 1000 * cpu / moves}


def run(quick: bool = False) -> dict[str, object]:
    from polytable.core import get_game

    game = get_game("foldris")
    seconds = 0.5 if quick else 3.0
    out: dict[str, object] = {}
    solo = _random_games(game, 1, seconds)
    four = _random_games(game, 4, seconds)
    out["random_drops_per_s_solo"] = round(solo["drops_per_s"])
    out["random_drops_per_s_4p"] = round(four["drops_per_s"])
    out["random_games_per_s_4p"] = round(four["games_per_s"], 1)
    out.update({k: round(v, 2) for k, v in _apply_cost(game, 2000 if quick else 20000).items()})
    out.update({k: round(v, 2) if isinstance(v, float) else v for k, v in _greedy(game, seconds).items()})
    out.update({k: round(v, 2) for k, v in _expectimax(game, seconds).items()})
    c4 = openspiel_random("connect_four", seconds=seconds)
    out["openspiel connect_four (python loop)"] = c4
    if isinstance(c4.get("steps_per_s"), float):
        ratio = float(out["random_drops_per_s_4p"]) / float(c4["steps_per_s"])  # type: ignore[arg-type]
        out["ratio_foldris_drops_to_connect_four_steps"] = round(ratio, 3)
    return out
