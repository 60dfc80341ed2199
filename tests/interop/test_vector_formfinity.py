"""FORMFINITY's compiled batch (``_cformfinity_vec``) against the pure rules: over seeded random games of every
goal, a batch gives the same observations, masks, seats to act, rewards, returns, terminations and states as
the pure-Python rules with the reference (view-based) encoders (``POLYTABLE_PURE=1``); the PettingZoo
environment on a batch of one does too; and a batch plays game ``i`` the same whatever the number of games."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from polytable.core import native_module
from polytable.interop.vector import VectorEnv

BATCH = native_module("polytable.games.formfinity._cformfinity_vec") is not None
pytestmark = pytest.mark.skipif(not BATCH, reason="the compiled FORMFINITY batch is not built")

SMALL_LINES = "\n".join(" ".join("#" if (x, y) in ((2, 2), (7, 6)) else "." for x in range(9)) for y in range(9))
SMALL_AREAS = "A A A B B B\nA A # B B B\nC C C D D D\nC C C D # D\n"
DECK = (
    '{"cards": ["#x1:-:f", "##x2:TB:r", {"shape": "##/#.", "count": 1, "arrows": "LR", "rotate": true, "copies": 2}]}'
)


def _pair(monkeypatch: pytest.MonkeyPatch, n: int, **kw: object) -> tuple[VectorEnv, VectorEnv]:
    fast = VectorEnv("formfinity", n, **kw)  # type: ignore[arg-type]
    monkeypatch.setenv("POLYTABLE_PURE", "1")
    pure = VectorEnv("formfinity", n, **kw)  # type: ignore[arg-type]
    monkeypatch.delenv("POLYTABLE_PURE")
    assert fast._batch is not None and pure._batch is None
    return fast, pure


def _lists_every_legal_id_once(env: VectorEnv) -> None:
    """The batch's list of legal ids is its mask: draws (j + 0.5) / count pick each legal id once."""
    assert env._batch is not None
    counts = np.count_nonzero(env.masks, axis=1)
    picked: list[list[int]] = [[] for _ in counts]
    for j in range(int(counts.max())):
        for i, got in enumerate(env._batch.sample((np.minimum(j, counts - 1) + 0.5) / counts)):
            if j < counts[i]:
                picked[i].append(int(got))
    for i, row in enumerate(env.masks):
        assert sorted(picked[i]) == np.flatnonzero(row).tolist(), i


@pytest.mark.parametrize(
    ("players", "options", "seed", "steps"),
    [
        (2, {}, 1, 160),
        (3, {"variant": "1", "difficulty": "hard", "template": SMALL_LINES}, 2, 160),
        (4, {"variant": "1", "template": SMALL_LINES}, 3, 120),
        (2, {"variant": "2"}, 4, 120),
        (3, {"variant": "2", "template": SMALL_AREAS, "deck": DECK}, 5, 120),
        (4, {"variant": "2", "template": SMALL_AREAS}, 6, 120),
        (2, {"variant": "3"}, 7, 140),
        (2, {"variant": "4"}, 8, 140),
    ],
)
def test_formfinity_batch_matches_pure_rules(
    monkeypatch: pytest.MonkeyPatch, players: int, options: dict[str, object], seed: int, steps: int
) -> None:
    """Both stepped with the batch's random legal actions: every buffer agrees at every step, the states
    every 20 steps, and whole games end and restart."""
    fast, pure = _pair(monkeypatch, 3, players=players, options=options, seed=seed)
    assert fast._batch is not None
    rng = np.random.default_rng(seed)
    fast.reset()
    pure.reset()
    ended = 0
    for step in range(steps):
        assert np.array_equal(fast.observations, pure.observations), step
        assert np.array_equal(fast.masks, pure.masks), step
        assert np.array_equal(fast.to_act, pure.to_act), step
        if step % 20 == 0:
            for i in range(fast.num_envs):
                assert fast._batch.state(i) == pure.tables[i].state, (step, i)
            _lists_every_legal_id_once(fast)
        acts = fast.sample_actions(rng)  # from the batch's own lists of legal ids: each must be legal
        assert pure.masks[np.arange(len(acts)), acts].all(), step
        _, rf, tf, _, inf = fast.step(acts)
        _, rp, tp, _, inp = pure.step(acts)
        assert np.array_equal(tf, tp) and np.array_equal(rf, rp), step
        assert np.array_equal(inf["returns"], inp["returns"]), step
        assert np.array_equal(fast.episodes, pure.episodes), step
        ended += int(tp.sum())
    assert ended >= 1  # whole games were played, ended and reset
    assert fast._batch.words is not None  # stepped by the batch's play (restarts and next seeds in C)


def test_formfinity_batch_plays_a_game_the_same_whatever_n(monkeypatch: pytest.MonkeyPatch) -> None:
    """Game 1 of a batch of 2 and of a batch of 5 (the same seed): the same observations and masks at every
    step when game 1 gets the same actions (chance is drawn from each game's own state)."""
    small = VectorEnv("formfinity", 2, seed=11)
    large = VectorEnv("formfinity", 5, seed=11)
    assert small._batch is not None and large._batch is not None
    small.reset()
    large.reset()
    rng = np.random.default_rng(3)
    for step in range(150):
        assert np.array_equal(small.observations[1], large.observations[1]), step
        assert np.array_equal(small.masks[1], large.masks[1]), step
        a_small, a_large = small.sample_actions(rng), large.sample_actions(rng)
        a_large[1] = a_small[1]
        small.step(a_small)
        large.step(a_large)
        assert small.episodes[1] == large.episodes[1], step


def test_formfinity_batch_refuses_an_illegal_id(monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch itself refuses an id its game cannot take (the environment checks the mask before)."""
    env = VectorEnv("formfinity", 1, seed=2)
    env.reset()
    assert env._batch is not None
    illegal = int(np.flatnonzero(env.masks[0] == 0)[-1])
    with pytest.raises(ValueError, match="not legal"):
        env._batch.step(
            np.array([illegal]), env.observations, env.masks, env.to_act, env.rewards, env.returns, env.terminations
        )


@pytest.mark.parametrize(
    ("players", "options", "seed"), [(2, {}, 1), (3, {"variant": "2", "template": SMALL_AREAS}, 2)]
)
def test_pettingzoo_on_a_formfinity_batch_matches_pure_rules(
    monkeypatch: pytest.MonkeyPatch, players: int, options: dict[str, object], seed: int
) -> None:
    """The PettingZoo environment on a compiled batch of one (``BatchTable``) against the pure rules: the same
    observations (the agent to act and another), masks, rewards, terminations and states."""
    from polytable.interop._batch import BatchTable
    from polytable.interop.pettingzoo import raw_env

    fast = raw_env("formfinity", players=players, options=options, seed=seed)
    monkeypatch.setenv("POLYTABLE_PURE", "1")
    pure = raw_env("formfinity", players=players, options=options, seed=seed)
    monkeypatch.delenv("POLYTABLE_PURE")
    assert isinstance(fast.table, BatchTable) and not isinstance(pure.table, BatchTable)
    rng = np.random.default_rng(seed)
    for game in range(2):
        fast.reset(seed=seed + game)
        pure.reset(seed=seed + game)
        for steps, agent in enumerate(pure.agent_iter()):
            assert fast.agent_selection == agent
            of, rf, tf, uf, inf = fast.last()
            op, rp, tp, up, inp = pure.last()
            assert np.array_equal(of, op) and rf == rp and tf == tp and uf == up, steps
            assert np.array_equal(inf["action_mask"], inp["action_mask"]), steps
            other = pure.possible_agents[(pure.possible_agents.index(agent) + 1) % players]
            if steps % 7 == 0:
                assert np.array_equal(fast.observe(other), pure.observe(other)), steps
            if steps % 25 == 0:
                assert fast.table.state == pure.table.state, steps
            action = None if tp or up else int(rng.choice(np.flatnonzero(inp["action_mask"])))
            fast.step(action)
            pure.step(action)
        assert fast.table.state == pure.table.state
        assert fast.rewards == pure.rewards and fast.terminations == pure.terminations
