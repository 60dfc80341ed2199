"""The compiled kernels' entry points that the C-interface work touched, as CPU-time rates (one JSON line).

Forma's and Qwirkle Cubes' playouts (their state buffers), Foldris's protocol step and playout and
Quadefy's protocol step, playout and batches (their value classes made through the member table),
FORMFINITY's playout (the shared flood fill, then its state buffer) and the lines goal's greedy run (its state
buffer). To compare two trees, run it alternately with ``PYTHONPATH``
set to each tree's ``src`` and take the medians (docs/benchmarks/2026-12-05-kernel-interfaces.md). It prints
figures and asserts nothing.

    python benchmarks/kernel_entry_points.py forma foldris quadefy formfinity formfinity-greedy qwirkle-cubes
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable

from polytable.ai.formfinity import greedy_run
from polytable.core import CHANCE, Rng, get_game
from polytable.games.formfinity import setup_of


def forma(games: int) -> dict[str, float]:
    game = get_game("forma", "compiled")
    out = {}
    for label, options in (
        ("random layout, no touch-move", {"placement": "random", "touch_move": False}),
        ("default", {}),
    ):
        starts = [(game.new_game(options, seed=s, players=4), s) for s in range(games)]
        t0 = time.process_time()
        for s, seed in starts:
            game.playout(s, [Rng(seed, stream=1000 + p) for p in range(4)])
        out[f"forma playouts/s ({label})"] = games / (time.process_time() - t0)
    return out


def foldris(games: int) -> dict[str, float]:
    game = get_game("foldris", "compiled")
    rng, drops = Rng(5), 0
    t0 = time.process_time()
    for seed in range(games):
        s = game.new_game(seed=seed, players=4)
        while not game.is_terminal(s):
            if game.current_player(s) == CHANCE:
                s = game.apply_chance(s)
                continue
            p = game.acting_players(s)[0]
            s = game.apply(s, game.legal_actions(s, p).sample(rng), p)
            drops += 1
    t1 = time.process_time()
    starts = [(game.new_game(seed=s, players=4), [Rng(s, 1000 + p) for p in range(4)]) for s in range(games * 10)]
    t2, played = time.process_time(), 0
    for s, rngs in starts:
        played += game.playout(s, rngs)[1]
    return {
        "foldris protocol drops/s": drops / (t1 - t0),
        "foldris playout drops/s": played / (time.process_time() - t2),
    }


def quadefy(games: int) -> dict[str, float]:
    game = get_game("quadefy", "compiled")
    rng, steps = Rng(5), 0
    t0 = time.process_time()
    for seed in range(games):
        s = game.new_game(seed=seed)
        while not game.is_terminal(s):
            s = game.apply(s, game.legal_actions(s).sample(rng))
            steps += 1
    t1, start, played = time.process_time(), game.new_game(seed=0), 0
    for seed in range(games * 10):
        played += game.playout(start, [Rng(seed, stream=1000), Rng(seed, stream=1001)])[1]
    t2, batch = time.process_time(), 0
    for first in range(0, games * 50, 1000):
        batch += sum(n for _, n in game.random_games(None, 2, list(range(first, first + 1000))))  # type: ignore[attr-defined]
    t3 = time.process_time()
    return {
        "quadefy protocol steps/s": steps / (t1 - t0),
        "quadefy playout steps/s": played / (t2 - t1),
        "quadefy batch steps/s": batch / (t3 - t2),
    }


def formfinity(games: int) -> dict[str, float]:
    game = get_game("formfinity", "compiled")
    starts = [(game.new_game(seed=s, players=2), s) for s in range(games)]
    t0 = time.process_time()
    for s, seed in starts:
        game.playout(s, [Rng(seed, stream=1000), Rng(seed, stream=1001)])
    return {"formfinity playouts/s": games / (time.process_time() - t0)}


def formfinity_greedy(positions: int) -> dict[str, float]:
    """The lines goal's compiled greedy run (the AI's rollout) from 2-player positions a few actions in."""
    game = get_game("formfinity", "compiled")
    starts = []
    for seed in range(positions):
        s = game.new_game({"variant": "1"}, seed=seed, players=2)
        rng = Rng(seed, 7)
        for _ in range(6 + seed % 10):
            if game.is_terminal(s):
                break
            p = game.current_player(s)
            s = game.apply_chance(s) if p == CHANCE else game.apply(s, game.legal_actions(s, p).sample(rng), p)
        if not game.is_terminal(s):
            starts.append(s)
    t0, calls = time.process_time(), 0
    for rep in range(5):
        for i, s in enumerate(starts):
            greedy_run(setup_of(game, s), s, s.turn, Rng(i, rep), False, 200)
            calls += 1
    return {"formfinity greedy_run calls/s": calls / (time.process_time() - t0)}


def qwirkle_cubes(games: int) -> dict[str, float]:
    game = get_game("qwirkle-cubes", "compiled")
    starts = [(game.new_game(seed=s, players=2), s) for s in range(games)]
    t0 = time.process_time()
    for s, seed in starts:
        game.playout(s, [Rng(seed, stream=1000), Rng(seed, stream=1001)])
    return {"qwirkle-cubes playouts/s": games / (time.process_time() - t0)}


RUNS: dict[str, Callable[[], dict[str, float]]] = {
    "forma": lambda: forma(900),
    "foldris": lambda: foldris(150),
    "quadefy": lambda: quadefy(600),
    "formfinity": lambda: formfinity(300),
    "formfinity-greedy": lambda: formfinity_greedy(200),
    "qwirkle-cubes": lambda: qwirkle_cubes(500),
}

if __name__ == "__main__":
    figures: dict[str, float] = {}
    for name in sys.argv[1:] or list(RUNS):
        figures.update(RUNS[name]())
    print(json.dumps({k: round(v) for k, v in figures.items()}))
