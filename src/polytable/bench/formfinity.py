"""``polytable bench formfinity``: random games per second for each variant (checked public API:
``legal_actions().sample`` + ``apply``), mean turns and steps per game, legal-action generation time on
each shipped template (counting and listing the placements of a card, averaged over positions taken
from random games), and greedy-bot decisions per second."""

from __future__ import annotations

import time
from typing import Any

__all__ = ["run"]

_VARIANTS: list[tuple[str, dict[str, object], int]] = [
    ("v1-lines-easy", {"variant": "1"}, 2),
    ("v1-lines-hard-4p", {"variant": "1", "difficulty": "hard"}, 4),
    ("v2-areas", {"variant": "2"}, 2),
    ("v3-black-squares", {"variant": "3"}, 2),
    ("v4-numbers", {"variant": "4"}, 2),
    ("blank-lines", {"variant": "custom", "variant_file": 'template = "blank"\n[goal]\ntype = "lines"\n'}, 2),
]


def _play(
    game: Any, options: dict[str, object], players: int, seed: int, positions: list[Any] | None
) -> tuple[int, int]:
    from polytable.core import CHANCE, Rng

    rng = Rng(seed, 1)
    state = game.new_game(options, seed=seed, players=players)
    turns = steps = 0
    while not game.is_terminal(state):
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.chance_outcome(state))
            turns += 1
        else:
            if positions is not None and state.phase == 2:
                positions.append(state)
            state = game.apply(state, game.legal_actions(state).sample(rng))
        steps += 1
    return turns, steps


def run(quick: bool = False) -> dict[str, object]:
    from polytable.ai import make_bot
    from polytable.core import Rng, get_game
    from polytable.games.formfinity import clear_caches, placements, setup_for

    game = get_game("formfinity")
    budget = 0.5 if quick else 3.0
    out: dict[str, object] = {}
    for name, options, players in _VARIANTS:
        games = turns = steps = 0
        positions: list[Any] = []
        start = time.perf_counter()
        while time.perf_counter() - start < budget or games < 2:
            t, s = _play(game, options, players, games, positions if games < 10 else None)
            games += 1
            turns += t
            steps += s
        elapsed = time.perf_counter() - start
        out[f"{name}: random games/s"] = round(games / elapsed, 1)
        out[f"{name}: turns/game"] = round(turns / games, 1)
        out[f"{name}: steps/s"] = round(steps / elapsed)
        # Legal-action generation on this variant's template, memo bypassed (fresh computation).
        sample = positions[:: max(1, len(positions) // 200)] or positions
        reps = 0
        start = time.perf_counter()
        total = 0
        while True:
            for st in sample:
                clear_caches()
                setup = setup_for(st.config)
                total += sum(a.bit_count() for _, a in placements(setup, st, st.turn))
                reps += 1
            if time.perf_counter() - start > budget / 3:
                break
        gen = (time.perf_counter() - start) / max(reps, 1)
        out[f"{name}: legal-action generation (µs)"] = round(gen * 1e6, 1)
        out[f"{name}: legal placements per position (mean)"] = round(total / max(reps, 1), 1)
    # Greedy decisions per second (variant 1, the widest evaluation).
    bot = make_bot("greedy", "formfinity")
    rng = Rng(3)
    state = game.new_game({"variant": "1"}, seed=3)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget and not game.is_terminal(state):
        if game.current_player(state) == -1:
            state = game.apply_chance(state)
            continue
        state = game.apply(state, bot.choose(game, state, game.current_player(state), rng))
        decisions += 1
    out["greedy decisions/s (variant 1)"] = round(decisions / (time.perf_counter() - start), 1)
    return out
