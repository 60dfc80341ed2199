"""``hard`` on the compiled core against ``hard`` on the pure-Python engine, at a fixed time a move.

The compiled-core issue's target: the AIs use the compiled engine, so the same AI with the same time a
move plays stronger on it (>= 60% for Forma, Qwirkle Cubes and FORMFINITY). One process, one thread: the
pure seat computes its moves inside the game's ``pure_engine()`` block (its search, its playouts and its
rules calls all run the Python rules), the compiled seat outside it; both sit in each seat equally often
(the seats alternate game by game) and every game is seeded. The win rate of the compiled seat counts a
shared win as half, with a 95% Wilson interval. Time budgets are the bots' own (wall clock), so run it
on an otherwise idle machine; it prints figures and asserts nothing.

    python benchmarks/compiled_vs_pure_arena.py qwirkle-cubes --games 40 --seconds 0.5
"""

from __future__ import annotations

import argparse
import importlib
import time
from contextlib import AbstractContextManager
from typing import Any

from polytable._native import COMPILED
from polytable.ai import make_bot, wilson
from polytable.core import Game, Rng, get_game, native_module
from polytable.match import play_game


class PureSeat:
    """A bot whose every decision runs on the pure-Python engine."""

    def __init__(self, bot: Any, pure: type[AbstractContextManager[None]]) -> None:
        self.bot = bot
        self.pure = pure

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        with self.pure():
            return self.bot.choose(game, state, player, rng)


def run(game_id: str, games: int, seconds: float, seed: int, players: int) -> dict[str, object]:
    package, ext = COMPILED[game_id]
    if native_module(ext) is None:
        raise SystemExit(f"{game_id}: the compiled engine is not built here (or POLYTABLE_PURE=1)")
    pure = importlib.import_module(package).pure_engine
    game = get_game(game_id)
    name = f"hard:seconds={seconds}"
    share = 0.0
    t0 = time.perf_counter()
    for i in range(games):
        compiled_seat = i % players
        seats = [
            make_bot(name, game_id) if p == compiled_seat else PureSeat(make_bot(name, game_id), pure)
            for p in range(players)
        ]
        won = game.winners(play_game(game, seats, None, seed + i).state)
        if compiled_seat in won:
            share += 1.0 / len(won)
        lo, hi = wilson(share, i + 1)
        print(f"  game {i + 1}: compiled seat {compiled_seat + 1}, winners {sorted(w + 1 for w in won)}; "
              f"compiled {share:g}/{i + 1} [{lo:.2f}, {hi:.2f}]", flush=True)  # fmt: skip
    lo, hi = wilson(share, games)
    return {
        "game": game_id,
        "games": games,
        "seconds a move": seconds,
        "compiled win rate": round(share / games, 3),
        "95% Wilson interval": [round(lo, 3), round(hi, 3)],
        "wall seconds": round(time.perf_counter() - t0, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=sorted(COMPILED))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, default=2)
    a = ap.parse_args()
    out = run(a.game, a.games, a.seconds, a.seed, a.players)
    for k, v in out.items():
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()
