"""Forma benchmark: move generation at fixed positions, random complete games, greedy versus random.

Figures are per one core (a single Python thread). Wall-clock and process CPU time are both reported,
and the best batch by CPU time (as ``timeit`` takes the best run): on a shared, loaded machine the wall
figure mostly measures the other processes. Target (issue 5): at least 500 random complete
4-player games per second, about what a plain Python bitboard Blokus prototype reached (its figure:
docs/benchmarks/design-figures.md).
"""

from __future__ import annotations

import time
from typing import Any

from polytable.core import Rng

__all__ = ["run"]

HOUSE = {"placement": "random", "touch_move": False}
"""The layout from the seed and one placement a turn (rules version 1's defaults, now options): the
figures measure move generation and playouts, comparable across versions and with Blokus playouts."""


def _positions(game: Any) -> dict[str, Any]:
    """Fixed positions: the empty board (10 obstacles), 25 obstacles, and seeded random mid/late games."""
    rng = Rng(2024)
    out = {"empty": game.new_game(HOUSE, seed=1), "25 obstacles": game.new_game({**HOUSE, "obstacles": 25}, seed=1)}
    s = game.new_game(HOUSE, seed=7)
    for i in range(45):
        s = game.apply(s, game.legal_actions(s).sample(rng))
        if i == 19:
            out["after 20 moves"] = s
    out["after 45 moves"] = s
    return out


def _timed(fn: Any, n: int) -> tuple[float, float]:
    w0, c0 = time.perf_counter(), time.process_time()
    for _ in range(n):
        fn()
    return time.perf_counter() - w0, time.process_time() - c0


def run(quick: bool = False) -> dict[str, object]:
    from polytable.games import forma as P
    from polytable.games.forma import GAME as game

    out: dict[str, object] = {}
    tb = P.tables(19)
    reps = 20 if quick else 200
    for name, s in _positions(game).items():
        legal = game.legal_actions(s)
        free = tb.board & ~s.filled

        def count(legal: Any = legal, free: int = free) -> None:
            tb.forget()  # measure a fresh generation each time
            legal.count()

        def full(legal: Any = legal) -> None:
            tb.forget()
            list(legal)

        n_moves = legal.count()
        w, c = _timed(count, reps * 10)
        out[f"{name}: legal moves"] = n_moves
        out[f"{name}: legal-move counts/s (all anchors, word-parallel)"] = round(reps * 10 / c)
        w, c = _timed(full, max(2, reps // 10))
        out[f"{name}: full legal-move lists/s (every action object built)"] = round(max(2, reps // 10) / c, 1)
        out[f"{name}: legal actions listed/s"] = round(n_moves * max(2, reps // 10) / c)
    for players in (4, 3, 2):
        batches = 2 if quick else (16 if players == 4 else 6)
        size = 20 if quick else 25
        rng = Rng(players)
        moves = 0
        best = 0.0
        wall = cpu = 0.0
        for b in range(batches):
            w0, c0 = time.perf_counter(), time.process_time()
            for seed in range(b * size, (b + 1) * size):
                s = game.new_game(HOUSE, seed=seed, players=players)
                while s.turn >= 0:
                    _, s = game.sample_and_apply(s, s.turn, rng)
                    moves += 1
            w, c = time.perf_counter() - w0, time.process_time() - c0
            wall += w
            cpu += c
            best = max(best, size / c)
        n = batches * size
        out[f"random {players}-player games/s (wall, {n} games)"] = round(n / wall, 1)
        out[f"random {players}-player games/s (cpu, {n} games)"] = round(n / cpu, 1)
        out[f"random {players}-player games/s (cpu, best batch of {size})"] = round(best, 1)
        out[f"random {players}-player moves/game"] = round(moves / n, 1)
        out[f"random {players}-player moves/s (cpu)"] = round(moves / cpu)
    out.update(_greedy_vs_random(game, 2 if quick else 12))
    return out


def _greedy_vs_random(game: Any, n: int) -> dict[str, object]:
    """Greedy in one seat (rotating) against three random players."""
    from polytable.ai import make_bot

    greedy, rnd = make_bot("greedy", "forma"), make_bot("random", "forma")
    wins = 0
    margin = 0.0
    w0 = time.perf_counter()
    for i in range(n):
        seat = i % 4
        rng = Rng(1000 + i)
        s = game.new_game(HOUSE, seed=500 + i, players=4)
        while s.turn >= 0:
            p = s.turn
            s = game.apply(s, (greedy if p == seat else rnd).choose(game, s, p, rng))
        wins += seat in game.winners(s)
        margin += s.scores[seat] - sum(s.scores[q] for q in range(4) if q != seat) / 3
    return {
        "greedy vs 3 random: games": n,
        "greedy vs 3 random: greedy win rate": round(wins / n, 3),
        "greedy vs 3 random: mean score lead over the random average": round(margin / n, 1),
        "greedy vs 3 random: seconds per game": round((time.perf_counter() - w0) / n, 2),
    }
