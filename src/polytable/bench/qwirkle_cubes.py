"""``polytable bench qwirkle-cubes``: random complete games per second, placement generation at a
mid-game position, OpenSpiel's ``yacht`` Python loop in the same run (the ratio), and what the greedy
bot's reroll and look-around are worth in games won.

Times are CPU seconds of this process (``time.process_time``) so that other work on a shared machine
does not distort the ratio; wall-clock figures are reported next to them.
"""

from __future__ import annotations

import time
from typing import Any

from ..core import CHANCE, Rng, get_game
from ._peers import openspiel_random

NAME = "qwirkle-cubes"

__all__ = ["NAME", "run"]


def _random_games(n: int, players: int = 2) -> dict[str, float]:
    """Uniformly random legal actions (``legal_actions(s).sample``), chance from the state's generator."""
    game = get_game(NAME)
    steps = 0
    t0, w0 = time.process_time(), time.perf_counter()
    for seed in range(n):
        s = game.new_game(players=players, seed=seed)
        rng = Rng(seed, stream=7)
        while not game.is_terminal(s):
            if game.current_player(s) == CHANCE:
                s = game.apply(s, game.chance_outcome(s), CHANCE)
            else:
                s = game.apply(s, game.legal_actions(s).sample(rng))
            steps += 1
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    return {"games": n, "games_per_s": n / cpu, "games_per_s_wall": n / wall, "steps_per_game": steps / n}


def _mid_game_position() -> Any:
    """The placement position with the most placements among the first 30 of a fixed random game."""
    game = get_game(NAME)
    s = game.new_game(players=2, seed=2024)
    rng = Rng(2024, stream=7)
    best, best_n, seen = s, -1, 0
    while not game.is_terminal(s) and seen < 30:
        if s.phase == 4:  # PLACE
            n = game.legal_actions(s).count()
            seen += 1
            if n > best_n:
                best, best_n = s, n
        s = game.apply(
            s, game.chance_outcome(s) if game.current_player(s) == CHANCE else game.legal_actions(s).sample(rng)
        )
    return best


def _placement_generation(repeat: int) -> dict[str, object]:
    from ..games.qwirkle_cubes import Board, face_text, hand_mask

    s = _mid_game_position()
    hand = hand_mask(s.hand)
    out: dict[str, object] = {"table_cubes": len(s.placed), "hand": " ".join(face_text(t) for t in s.hand)}
    timings = {"count_us": 0.0, "list_us": 0.0, "sample_us": 0.0}
    n = 0
    for _ in range(repeat):
        board = Board(s.placed)  # cold: no memo tables
        t = time.process_time()
        n = board.count(hand)
        timings["count_us"] += time.process_time() - t
        t = time.process_time()
        board.sample(hand, 0, n // 2)  # after the count, as a random playout does it
        timings["sample_us"] += time.process_time() - t
        board = Board(s.placed)
        t = time.process_time()
        placements = list(board.placements(hand))
        timings["list_us"] += time.process_time() - t
        assert len(placements) == n
    out["placements"] = n
    for k, v in timings.items():
        out[k] = 1e6 * v / repeat
    return out


def _bots(n: int) -> dict[str, object]:
    """Head-to-head, seats alternating: what rerolling and the look-around add to the greedy bot."""
    from ..ai import make_bot

    game = get_game(NAME)
    out: dict[str, object] = {}
    for a, b in (("greedy", "greedy-keep"), ("greedy", "greedy-points"), ("greedy", "random")):
        wins = [0, 0, 0]
        points = [0, 0]
        for i in range(n):
            names = (a, b) if i % 2 == 0 else (b, a)
            bots = [make_bot(x, NAME) for x in names]
            s = game.new_game(players=2, seed=10_000 + i)
            rng = Rng(i, stream=3)
            while not game.is_terminal(s):
                cp = game.current_player(s)
                s = game.apply(s, game.chance_outcome(s) if cp == CHANCE else bots[cp].choose(game, s, cp, rng), cp)
            won = game.winners(s)
            for seat, name in enumerate(names):
                points[(a, b).index(name)] += s.points[seat]
            if len(won) > 1:
                wins[2] += 1
            else:
                wins[(a, b).index(names[won[0]])] += 1
        out[f"{a} vs {b}"] = {
            "games": n,
            f"{a} wins": wins[0],
            f"{b} wins": wins[1],
            "ties": wins[2],
            f"{a} mean points": points[0] / n,
            f"{b} mean points": points[1] / n,
        }
    return out


def run(quick: bool = False) -> dict[str, object]:
    ours = _random_games(5 if quick else 100)
    out: dict[str, object] = {"random 2-player games": ours}
    out["random 4-player games"] = _random_games(3 if quick else 30, players=4)
    out["placement generation (mid-game)"] = _placement_generation(3 if quick else 30)
    yacht = openspiel_random("yacht", games=3 if quick else 30)
    out["openspiel yacht python loop"] = yacht
    if "games_per_s" in yacht:
        out["ratio (our 2p games/s / yacht games/s)"] = ours["games_per_s"] / float(str(yacht["games_per_s"]))
    out["greedy bot"] = _bots(2 if quick else 40)
    return out


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(run("--quick" in sys.argv), indent=1))
