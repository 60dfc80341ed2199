"""The peer measured in the same run: an OpenSpiel game driven by uniformly random play from Python.

Benchmarks report our speed as a ratio to a peer timed on the same machine at the same moment, so a
loaded machine moves both figures alike. Times are CPU seconds of this process (the wall time is given
too). Chance nodes draw by their listed probabilities from our own generator, so a run is repeatable.
"""

from __future__ import annotations

import time

from ..core import Rng

__all__ = ["openspiel_random"]


def openspiel_random(name: str, *, seconds: float | None = None, games: int | None = None) -> dict[str, object]:
    """Play random games of OpenSpiel's ``name`` for ``seconds`` of wall time or ``games`` games.

    Returns games, steps, ``games_per_s`` and ``steps_per_s`` (CPU), ``games_per_s_wall``, ``steps_per_game``;
    or ``{"status": "pyspiel not installed"}`` when OpenSpiel is missing."""
    try:
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return {"status": "pyspiel not installed"}
    if (seconds is None) == (games is None):
        raise ValueError("give seconds or games")
    game = pyspiel.load_game(name)
    rng = Rng(1)
    steps = played = 0
    t0, w0 = time.process_time(), time.perf_counter()
    while (played < games) if games is not None else (time.perf_counter() - w0 < (seconds or 0.0)):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r = rng.random()
                pick = outcomes[-1][0]
                for action, p in outcomes:
                    r -= p
                    if r < 0:
                        pick = action
                        break
                state.apply_action(pick)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))])
            steps += 1
        played += 1
    cpu = max(time.process_time() - t0, 1e-9)
    wall = max(time.perf_counter() - w0, 1e-9)
    return {
        "games": played,
        "steps": steps,
        "games_per_s": round(played / cpu, 1),
        "steps_per_s": round(steps / cpu, 1),
        "games_per_s_wall": round(played / wall, 1),
        "steps_per_game": round(steps / max(played, 1), 1),
    }
