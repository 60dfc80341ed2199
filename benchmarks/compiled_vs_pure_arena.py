"""``hard`` on the compiled core against ``hard`` on the pure-Python engine, at a fixed time a move.

The compiled-core issue's target: the AIs use the compiled engine, so the same AI with the same time a
move plays stronger on it (>= 60% for Forma, Qwirkle Cubes and FORMFINITY). One process, one thread: the
pure seat computes its moves with the game object made on the pure engine (``get_game(id, engine="pure")``:
its search, its playouts and its rules calls all run the Python rules), the compiled seat with the compiled
one; both sit in each seat equally often
(the seats alternate game by game) and every game is seeded. The win rate of the compiled seat counts a
shared win as half, with a 95% Wilson interval. Each seat thinks ``--seconds`` a move on ``--clock``:
``cpu`` (the default here) counts the deciding thread's own CPU time, so both seats get the same thinking
however loaded the machine is; ``wall`` is the bots' everyday clock. It prints figures and asserts nothing.

    python benchmarks/compiled_vs_pure_arena.py qwirkle-cubes --games 40 --seconds 0.5
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from polytable._native import COMPILED, engines
from polytable.ai import make_bot, wilson
from polytable.core import Game, Rng, native_module
from polytable.match import play_game


class Seat:
    """A bot that decides with its own game object (on the compiled or the pure engine), and tallies its
    decisions, their CPU time and its work counter (``last_playouts``, ``last_searched``, ...)."""

    def __init__(self, bot: Any, game: Game[Any, Any], tally: dict[str, float]) -> None:
        self.bot = bot
        self.game = game
        self.tally = tally

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        t0 = time.thread_time()
        action = self.bot.choose(self.game, state, player, rng)
        t = self.tally
        t["decisions"] += 1
        t["cpu"] += time.thread_time() - t0
        t["work"] += sum(v for k, v in vars(self.bot).items() if k.startswith("last_") and isinstance(v, int))
        return action


def run(game_id: str, games: int, seconds: float, seed: int, players: int, clock: str = "cpu") -> dict[str, object]:
    if native_module(COMPILED[game_id][1]) is None:
        raise SystemExit(f"{game_id}: the compiled engine is not built here (or POLYTABLE_PURE=1)")
    game, pure_game = engines(game_id)
    name = f"hard:seconds={seconds},clock={clock}"
    share = 0.0
    tallies = {side: {"decisions": 0.0, "cpu": 0.0, "work": 0.0} for side in ("compiled", "pure")}
    t0 = time.perf_counter()
    for i in range(games):
        compiled_seat = i % players
        seats = [
            Seat(make_bot(name, game_id), game, tallies["compiled"])
            if p == compiled_seat
            else Seat(make_bot(name, game_id), pure_game, tallies["pure"])
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
        "clock": clock,
        "compiled win rate": round(share / games, 3),
        "95% Wilson interval": [round(lo, 3), round(hi, 3)],
        "wall seconds": round(time.perf_counter() - t0, 1),
        **{
            f"{side} seat": {
                "decisions": int(t["decisions"]),
                "CPU ms a decision": round(1000 * t["cpu"] / max(1.0, t["decisions"]), 1),
                "work a decision": round(t["work"] / max(1.0, t["decisions"]), 1),
            }
            for side, t in tallies.items()
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=sorted(COMPILED))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="the budget's clock (default: cpu)")
    a = ap.parse_args()
    out = run(a.game, a.games, a.seconds, a.seed, a.players, a.clock)
    for k, v in out.items():
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()
