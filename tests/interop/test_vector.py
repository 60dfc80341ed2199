"""The batched environment: the vector-env contract (spaces, buffers, same-step autoreset, seeds whatever
N), opponents inside the call, agreement with the single Gymnasium environment, and refusals."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from polytable.interop._table import Table
from polytable.interop.gymnasium import PolytableEnv
from polytable.interop.vector import VectorEnv, episode_seed, sample_legal


def _run(env: VectorEnv, steps: int, seed: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Play random legal actions, each game from its own generator; the trajectory of every game."""
    obs, _ = env.reset(seed=seed)
    rngs = [np.random.default_rng(i) for i in range(env.num_envs)]
    out = [(obs.copy(), np.zeros(env.num_envs), np.zeros(env.num_envs, bool), env.masks.copy())]
    for _ in range(steps):
        acts = [int(rng.choice(np.flatnonzero(row))) for rng, row in zip(rngs, env.masks, strict=True)]
        obs, rew, term, trunc, info = env.step(acts)
        assert not trunc.any() and info["action_mask"] is env.masks
        out.append((obs.copy(), rew.copy(), term.copy(), env.masks.copy()))
    return out


@pytest.mark.parametrize(("game_id", "players"), [("quadefy", 2), ("foldris", 3), ("qwirkle-cubes", 2)])
def test_vector_env_check(game_id: str, players: int) -> None:
    env = VectorEnv(game_id, 3, players=players, seed=1)
    obs, info = env.reset()
    assert env.observation_space.shape == (3, *env.single_observation_space.shape)
    assert obs.dtype == np.uint8 and env.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (3, env.single_action_space.n)
    assert (info["action_mask"].sum(axis=1) > 0).all()
    ended = 0
    for row in _run(env, 120, 1)[1:]:
        _, rew, term, masks = row
        assert (masks.sum(axis=1) > 0).all()  # every game has a move: finished ones were reset
        assert not rew[~term].any()
        ended += int(term.sum())
    assert ended > 0 if game_id == "quadefy" else True


def test_seeded_games_play_the_same_whatever_n() -> None:
    two = _run(VectorEnv("foldris", 2), 40, 7)
    five = _run(VectorEnv("foldris", 5), 40, 7)
    for a, b in zip(two, five, strict=True):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y[:2])
    other = _run(VectorEnv("foldris", 2), 40, 8)
    assert not np.array_equal(two[5][0], other[5][0])


def test_autoreset_starts_the_next_seeded_game_in_the_same_step() -> None:
    env = VectorEnv("quadefy", 2, seed=3)
    env.reset()
    rng = np.random.default_rng(0)
    while True:
        movers = env.to_act.copy()
        _, rew, term, _, info = env.step(sample_legal(env.masks, rng))
        if term.any():
            break
    i = int(np.flatnonzero(term)[0])
    assert rew[i] == info["returns"][i][movers[i]]  # self-play: the return of the seat that moved
    assert sorted(info["returns"][i]) == [-1.0, 1.0]
    assert env.episodes[i] == 1
    fresh = Table("quadefy", None, None)
    fresh.reset(episode_seed(3, i, 1))
    assert np.array_equal(env.observations[i], fresh.observation(fresh.to_act() or 0))


def test_opponents_move_inside_the_call_as_in_the_gymnasium_env() -> None:
    env = VectorEnv("foldris", 3, players=2, seed=2, opponent="greedy", seat=1)
    env.reset()
    single = PolytableEnv("foldris", players=2, opponent="greedy", seat=1)
    i = 2
    obs, _ = single.reset(seed=episode_seed(2, i, 0))
    rng = np.random.default_rng(5)
    assert np.array_equal(env.observations[i], obs)
    for _ in range(60):
        assert (env.to_act == 1).all()
        acts = sample_legal(env.masks, rng)
        obs, reward, terminated, _, _ = single.step(int(acts[i]))
        _, rew, term, _, _ = env.step(acts)
        assert (term[i], rew[i]) == (terminated, reward)
        if terminated:
            break
        assert np.array_equal(env.observations[i], obs)
    assert terminated


def test_bad_actions_are_refused_and_change_nothing() -> None:
    env = VectorEnv("quadefy", 2, seed=0)
    env.reset()
    before = [t.state for t in env.tables]
    legal = int(np.flatnonzero(env.masks[0])[0])
    illegal = int(np.flatnonzero(env.masks[1] == 0)[0])
    with pytest.raises(ValueError, match=r"game 1: action .* not legal"):
        env.step([legal, illegal])
    with pytest.raises(ValueError, match="outside"):
        env.step([legal, 10**6])
    with pytest.raises(ValueError, match="2 actions"):
        env.step([legal])
    assert [t.state for t in env.tables] == before
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv("quadefy", 0)
