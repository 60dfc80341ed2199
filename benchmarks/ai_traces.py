"""Fixed-seed traces of the shipped AI levels: one hash of the actions played per game.

``python benchmarks/ai_traces.py [FILTER ...]`` (a filter keeps the lines whose game or AI contains it)

Why: a refactoring of the players should not change a single move. Run it before and after and diff the
hashes. Time budgets are lifted (``seconds`` very large) or replaced by fixed sample counts (``rounds``),
so the moves depend on the seeds only; games the search makes slow stop after a number of plies. Forma's
``hard`` runs without touch-move, where its playouts were unchanged by the fix of issue 17. The CPU time
per game is printed for orientation only.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time

from polytable.ai import make_bot
from polytable.core import Rng, get_game
from polytable.match import Match

BIG = "1000000"
SPECS: list[tuple[str, int, str, dict[str, object], int, list[int]]] = [
    # (game, players, AI, options, plies at most, seeds)
    ("foldris", 1, f"hard:seconds={BIG}", {}, 400, [0, 1, 2, 3]),
    ("foldris", 1, f"medium:seconds={BIG}", {}, 400, [0, 1]),
    ("foldris", 1, f"expectimax:seconds={BIG}", {}, 400, [5]),
    ("foldris", 2, f"hard:seconds={BIG},mp_seconds={BIG}", {}, 400, [0, 1]),
    ("foldris", 2, f"medium:seconds={BIG},mp_seconds={BIG}", {}, 400, [0]),
    ("foldris", 1, "easy", {}, 400, [0]),
    ("foldris", 1, "greedy", {}, 400, [0]),
    ("forma", 2, f"hard:seconds={BIG}", {"touch_move": False}, 30, [0]),
    ("forma", 2, f"medium:seconds={BIG}", {}, 40, [0]),
    ("forma", 2, "greedy", {}, 400, [0, 1]),
    ("forma", 2, "easy", {}, 400, [0]),
    ("formfinity", 2, f"hard:seconds={BIG},samples=24", {}, 40, [0]),
    ("formfinity", 2, f"medium:seconds={BIG}", {}, 60, [0, 1]),
    ("formfinity", 2, f"medium:seconds={BIG}", {"variant": 3}, 60, [0]),
    ("formfinity", 2, "greedy", {}, 400, [0]),
    ("qwirkle-cubes", 2, "hard:rounds=6", {}, 60, [0]),
    ("qwirkle-cubes", 2, "medium:rounds=3", {}, 60, [1]),
    ("qwirkle-cubes", 2, "greedy", {}, 400, [0]),
    ("qwirkle-cubes", 2, "greedy-keep", {}, 400, [0]),
    ("qwirkle-cubes", 2, "greedy-points", {}, 400, [0]),
    ("qwirkle-cubes", 2, "easy", {}, 400, [0]),
    ("quadefy", 2, "greedy", {}, 400, [0, 1, 2]),
    ("quadefy", 2, "solver", {}, 400, [0]),
    ("quadefy", 2, "easy", {}, 400, [0]),
    ("quadefy", 2, "mcts:iterations=60", {}, 400, [0]),
    ("forma", 2, "mcts:iterations=20", {}, 6, [0]),
]


def trace(game_id: str, players: int, ai: str, options: dict[str, object], cap: int, seed: int) -> tuple[int, str]:
    """(plies played, hash of the game's action log) of one seeded game with ``ai`` in every seat."""
    game = get_game(game_id)
    match = Match(game, options, players, seed)
    bots = {p: make_bot(ai, game_id) for p in range(players)}
    rngs = {p: Rng(seed, stream=1000 + p) for p in range(players)}
    plies = 0
    while not match.is_over() and plies < cap and match.step_ai(bots, rngs):
        plies += 1
    log = json.dumps(match.record()["actions"])
    return plies, hashlib.sha256(log.encode()).hexdigest()[:16]


def main(filters: list[str]) -> None:
    for game_id, players, ai, options, cap, seeds in SPECS:
        if filters and not any(f in f"{game_id} {ai}" for f in filters):
            continue
        for seed in seeds:
            start = time.process_time()
            plies, digest = trace(game_id, players, ai, options, cap, seed)
            cpu = time.process_time() - start
            opts = json.dumps(options)
            print(f"{game_id:14} n={players} {ai:45} {opts:22} seed={seed} plies={plies} {digest}  ({cpu:.1f}s)")


if __name__ == "__main__":
    main(sys.argv[1:])
