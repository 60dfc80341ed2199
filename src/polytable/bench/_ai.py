"""``polytable bench --ai``: MCTS iterations per second per game at fixed positions.

Positions: the start of each game's default configuration after ``plies`` seeded random actions (chance
resolved from the state's own generator), so the figure is reproducible across runs and machines.
"""

from __future__ import annotations

import time
from typing import Any

from ..ai import MCTSBot, MCTSConfig
from ..core import CHANCE, Rng, all_games


def position(game: Any, plies: int, seed: int = 1) -> Any:
    rng = Rng(seed, stream=5)
    state = game.new_game(seed=seed)
    for _ in range(plies):
        if game.is_terminal(state):
            break
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.chance_outcome(state), CHANCE)
            continue
        p = game.acting_players(state)[0]
        state = game.apply(state, game.legal_actions(state, p).sample(rng), p)
    while game.current_player(state) == CHANCE:
        state = game.apply(state, game.chance_outcome(state), CHANCE)
    return state


def run(quick: bool = False) -> dict[str, object]:
    seconds = 0.3 if quick else 2.0
    out: dict[str, object] = {}
    for game in all_games():
        if not game.spec.listed:
            continue
        for plies in (0, 6):
            state = position(game, plies)
            if game.is_terminal(state):
                continue
            player = game.acting_players(state)[0]
            for prior in (False, True):
                bot = MCTSBot(MCTSConfig(iterations=None, seconds=seconds, use_prior=prior))
                start = time.perf_counter()
                bot.choose(game, state, player, Rng(1))
                elapsed = time.perf_counter() - start
                key = f"{game.spec.id} after {plies} plies{' (prior)' if prior else ''}: MCTS iterations/s"
                out[key] = round(bot.last_iterations / elapsed, 1)
    return out
