"""The Gymnasium environments: Gymnasium's own checker on each, the mask, illegal actions and replay."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from polytable.interop.gymnasium import ENV_IDS, PolytableEnv  # noqa: E402


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_check_env(env_id: str) -> None:
    kwargs = {"players": 2} if env_id.endswith(("Forma-v0", "Foldris-v0")) else {}
    env = gymnasium.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=False)


def test_registered_ids() -> None:
    assert "polytable/FoldrisSolo-v0" in ENV_IDS
    assert {"polytable/Forma-v0", "polytable/Formfinity-v0", "polytable/QwirkleCubes-v0"} <= set(ENV_IDS)
    env = gymnasium.make("polytable/FoldrisSolo-v0")
    assert env.unwrapped.table.players == 1


def _episode(env: PolytableEnv, seed: int) -> tuple[list[int], float]:
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(0)
    actions, total, done = [], 0.0, False
    while not done:
        mask = env.action_masks()
        assert mask.any() and np.array_equal(mask, info["action_mask"].astype(bool))
        a = int(rng.choice(np.flatnonzero(mask)))
        actions.append(a)
        _, reward, done, _, info = env.step(a)
        assert "illegal_action" not in info
        total += reward
    return actions, total


def test_episode_replays_from_its_seed_and_ends_with_the_return() -> None:
    env = PolytableEnv("quadefy", opponent="random")
    first = _episode(env, 5)
    assert _episode(env, 5) == first
    assert first[1] in (-1.0, 1.0)
    solo = PolytableEnv("foldris", players=1)
    _, total = _episode(solo, 3)
    assert total == pytest.approx(solo.table.returns()[0]) and 0.0 <= total <= 1.0


def test_illegal_action_ends_the_episode_with_the_worst_return() -> None:
    env = PolytableEnv("quadefy", opponent="random")
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "not legal" in info["illegal_action"]
    # the episode is over: Gymnasium expects a reset, not another step
    with pytest.raises(gymnasium.error.ResetNeeded, match="reset"):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_step_after_the_end_or_before_reset_raises() -> None:
    env = PolytableEnv("quadefy", opponent="random")
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
    _episode(env, 2)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


def test_human_render_prints_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    env = PolytableEnv("quadefy", opponent="random", render_mode="human")
    obs, _ = env.reset(seed=0)
    assert obs.dtype == np.uint8 and env.observation_space.contains(obs)
    assert env.render() is None
    assert capsys.readouterr().out.strip() == env.table.render().strip()


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        PolytableEnv("quadefy", seat=2)
    with pytest.raises(Exception, match="no AI named"):
        PolytableEnv("quadefy", opponent="nobody")
