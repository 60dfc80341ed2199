"""``polytable bench envs``: the research environments' speed, as ratios to peers measured in the same run.

Every rate is steps per second of this process's CPU time, default configurations, uniformly random legal
actions, chance resolved inside the environment:

* ``pettingzoo``: a training loop through PettingZoo's AEC API for every game (``last()`` with the planes
  and the mask, a uniform choice among the legal ids, ``step()``), against PettingZoo's own
  ``connect_four_v3`` in the same loop (target: at least 1.0x);
* ``vector``: :class:`polytable.interop.vector.VectorEnv` with 64 games stepped per call (a step is one
  game's move, its observation and mask written; random legal actions from ``VectorEnv.sample_actions``),
  against OpenSpiel's ``connect_four`` stepped through pyspiel from Python (targets: 5x for Foldris and
  Quadefy, 1x for the others); and the same with the actions drawn by reading every mask row
  (:func:`polytable.interop.vector.sample_legal`), as a policy over the masks would;
* ``openspiel``: the OpenSpiel adapter stepped through pyspiel (target: 1,000 steps/s for FORMFINITY and
  Qwirkle Cubes);
* ``forma protocol loop``: random 4-player Forma games per CPU second with the default rules, through
  ``legal_actions().sample`` then ``apply`` (checked) and through ``sample_and_apply`` (target: 600).
"""

from __future__ import annotations

import time
import warnings
from typing import Any

__all__ = ["NAME", "run"]

NAME = "envs"
GAMES = ("foldris", "quadefy", "formfinity", "forma", "qwirkle-cubes")
VECTOR_GAMES = 64


def _aec_rate(env: Any, seconds: float) -> float:
    """Random legal steps per CPU second of a PettingZoo AEC env (masks in ``info`` or the observation)."""
    import numpy as np

    rng = np.random.default_rng(0)
    steps = games = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        env.reset(seed=games)
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask.view(np.bool_)))))
            steps += 1
        games += 1
    return steps / max(time.process_time() - cpu, 1e-9)


def _vector_rate(game_id: str, seconds: float, from_masks: bool = False) -> float:
    import numpy as np

    from polytable.interop.vector import VectorEnv, sample_legal

    env = VectorEnv(game_id, VECTOR_GAMES, seed=0)
    env.reset()
    rng = np.random.default_rng(0)
    steps = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        env.step(sample_legal(env.masks, rng) if from_masks else env.sample_actions(rng))
        steps += VECTOR_GAMES
    return steps / max(time.process_time() - cpu, 1e-9)


def _forma_loop(games: int, checked: bool) -> float:
    from polytable.core import Rng, get_game

    game = get_game("forma")
    rng = Rng(4)
    cpu = time.process_time()
    for seed in range(games):
        s = game.new_game({}, seed=seed, players=4)
        while s.turn >= 0:
            if checked:
                s = game.apply(s, game.legal_actions(s, s.turn).sample(rng), s.turn)
            else:
                _, s = game.sample_and_apply(s, s.turn, rng)
    return games / max(time.process_time() - cpu, 1e-9)


def run(quick: bool = False) -> dict[str, object]:
    from polytable.interop.pettingzoo import raw_env

    from ._peers import openspiel_random

    seconds = 1.0 if quick else 3.0
    out: dict[str, object] = {}
    try:
        with warnings.catch_warnings():  # PettingZoo deprecates importing its envs by module; still works
            warnings.simplefilter("ignore", DeprecationWarning)
            from pettingzoo.classic import connect_four_v3
    except ImportError:  # PettingZoo's classic games need pygame (pip install 'polytable[bench]')
        c4_pz = None
        out["peer: PettingZoo connect_four_v3 steps/s"] = "needs pygame (pip install 'polytable[bench]')"
    else:
        c4_pz = _aec_rate(connect_four_v3.raw_env(), seconds)
        out["peer: PettingZoo connect_four_v3 steps/s"] = round(c4_pz)
    c4 = openspiel_random("connect_four", seconds=seconds)
    c4_os = float(c4["steps_per_s"]) if "steps_per_s" in c4 else None  # type: ignore[arg-type]
    out["peer: OpenSpiel connect_four (pyspiel) steps/s"] = round(c4_os) if c4_os else c4.get("status")
    for g in GAMES:
        rate = _aec_rate(raw_env(g, seed=0), seconds)
        out[f"pettingzoo {g} steps/s"] = round(rate)
        if c4_pz:
            out[f"pettingzoo {g} / connect_four_v3"] = round(rate / c4_pz, 2)
    for g in GAMES:
        rate = _vector_rate(g, seconds)
        out[f"vector {g} steps/s ({VECTOR_GAMES} games a call)"] = round(rate)
        if c4_os:
            out[f"vector {g} / OpenSpiel connect_four"] = round(rate / c4_os, 3)
    for g in GAMES:
        rate = _vector_rate(g, seconds, from_masks=True)
        out[f"vector {g} steps/s, actions from the masks (sample_legal)"] = round(rate)
        if c4_os:
            out[f"vector {g} from the masks / OpenSpiel connect_four"] = round(rate / c4_os, 3)
    if c4_os:
        import polytable.interop.openspiel as adapter

        for g in GAMES:
            got = openspiel_random(adapter.short_name(g), seconds=seconds)
            out[f"openspiel adapter {g} steps/s"] = got["steps_per_s"]
    n = 20 if quick else 100
    out["forma protocol loop, 4-player games/s (legal_actions().sample, apply)"] = round(_forma_loop(n, True), 1)
    out["forma protocol loop, 4-player games/s (sample_and_apply)"] = round(_forma_loop(n, False), 1)
    return out
