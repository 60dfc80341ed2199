"""Foldris's compiled batch (``_cfoldris_vec``) against the pure rules: over seeded random games of every kind
(player counts, the solo mode, short sheets, a custom deck), the vector API on the batch gives the same
observations, masks, seats to act, rewards, returns, terminations and states as the pure-Python rules with
the reference encoders (``POLYTABLE_PURE=1``), with the SSSE3 and the plain observation writers; the next
episodes it starts in C are the env's; PettingZoo on a batch of one plays as the pure rules."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from polytable.core import native_module
from polytable.interop.vector import VectorEnv, episode_seed

EXT = native_module("polytable.games.foldris._cfoldris_vec")
pytestmark = pytest.mark.skipif(EXT is None, reason="the compiled Foldris batch is not built")


def _pair(monkeypatch: pytest.MonkeyPatch, n: int, **kw: object) -> tuple[VectorEnv, VectorEnv]:
    fast = VectorEnv("foldris", n, **kw)  # type: ignore[arg-type]
    monkeypatch.setenv("POLYTABLE_PURE", "1")
    pure = VectorEnv("foldris", n, **kw)  # type: ignore[arg-type]
    monkeypatch.delenv("POLYTABLE_PURE")
    return fast, pure


@pytest.fixture(params=[True, False], ids=["simd", "plain"])
def writer(request: pytest.FixtureRequest) -> Iterator[bool]:
    """Each test with the SSSE3 observation writer (where the CPU has it) and with the plain one."""
    assert EXT is not None
    was = EXT.simd()
    if request.param and not EXT.simd(True):
        EXT.simd(was)
        pytest.skip("no SSSE3 on this CPU")
    EXT.simd(request.param)
    yield request.param
    EXT.simd(was)


def _compare(fast: VectorEnv, pure: VectorEnv, rng: np.random.Generator, steps: int) -> int:
    """Step both with the batch's random legal actions; every buffer agrees at every step, the states every 25
    steps; the number of games that ended."""
    assert fast._batch is not None and pure._batch is None
    fast.reset()
    pure.reset()
    ended = 0
    for step in range(steps):
        assert np.array_equal(fast.observations, pure.observations), step
        assert np.array_equal(fast.masks, pure.masks), step
        assert np.array_equal(fast.to_act, pure.to_act), step
        if step % 25 == 0:
            for i in range(fast.num_envs):
                assert fast._batch.state(i) == pure.tables[i].state, (step, i)
        acts = fast.sample_actions(rng)  # from the batch's own lists of legal drops: each must be legal
        assert pure.masks[np.arange(len(acts)), acts].all(), step
        _, rf, tf, _, inf = fast.step(acts)
        _, rp, tp, _, inp = pure.step(acts)
        assert np.array_equal(tf, tp) and np.array_equal(rf, rp), step
        assert np.array_equal(inf["returns"], inp["returns"]), step
        assert np.array_equal(fast.episodes, pure.episodes), step
        ended += int(tp.sum())
    return ended


@pytest.mark.parametrize(
    ("players", "options", "seed", "steps"),
    [
        (3, {}, 1, 300),
        (1, {}, 2, 300),
        (2, {"height": 6}, 3, 250),
        (4, {"height": 5}, 4, 250),
        (7, {}, 5, 250),
        (1, {"height": 4}, 6, 200),
        (5, {"height": 40}, 7, 120),
    ],
)
def test_batch_matches_pure_rules(
    monkeypatch: pytest.MonkeyPatch, writer: bool, players: int, options: dict[str, object], seed: int, steps: int
) -> None:
    fast, pure = _pair(monkeypatch, 4, players=players, options=options, seed=seed)
    ended = _compare(fast, pure, np.random.default_rng(seed), steps)
    assert ended >= (1 if options.get("height") == 40 else 3)  # whole games were played, ended and restarted


def test_batch_matches_pure_rules_with_a_custom_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    from polytable.games.foldris import GAME

    decks = list(dict.fromkeys(c["deck"] for c, _ in GAME.sample_configs() if "deck" in c))  # custom, then short
    assert len(decks) == 2
    for deck, players, seed in ((decks[1], 3, 8), (decks[0], 2, 9)):
        fast, pure = _pair(monkeypatch, 3, players=players, options={"deck": deck}, seed=seed)
        assert _compare(fast, pure, np.random.default_rng(seed), 200) >= 3


def test_a_new_seed_and_a_different_number_of_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """reset(seed=...) changes the seeds of the episodes the batch starts; game i plays the same whatever N."""
    fast, pure = _pair(monkeypatch, 3, players=2, options={"height": 5}, seed=10)
    _compare(fast, pure, np.random.default_rng(1), 60)
    fast.reset(seed=2**40 + 3)  # a seed of two entropy words
    pure.reset(seed=2**40 + 3)
    for step in range(120):
        acts = fast.sample_actions(np.random.default_rng(step))
        fast.step(acts)
        pure.step(acts)
        assert np.array_equal(fast.observations, pure.observations), step
    wide = VectorEnv("foldris", 5, players=2, options={"height": 5}, seed=10)
    narrow = VectorEnv("foldris", 2, players=2, options={"height": 5}, seed=10)
    wide.reset()
    narrow.reset()
    for step in range(150):  # the first two games get the same actions in both: they play the same
        acts = wide.sample_actions(np.random.default_rng(step))
        wide.step(acts)
        narrow.step(acts[:2])
        assert np.array_equal(wide.observations[:2], narrow.observations), step
        assert np.array_equal(wide.episodes[:2], narrow.episodes), step


def test_episode_seeds_in_c_are_numpys() -> None:
    """The seeds the batch derives in C for its next episodes are ``episode_seed``'s (NumPy's SeedSequence)."""
    assert EXT is not None
    env = VectorEnv("foldris", 1, players=2)
    assert env._batch is not None
    conf = env._batch.conf  # type: ignore[attr-defined]
    rng = np.random.default_rng(0)
    seeds = [0, 1, 7, 2**31, 2**32 - 1, 2**32, 2**63 + 5, 2**64 - 1, 2**100 + 9, *rng.integers(0, 2**62, 20).tolist()]
    for seed in seeds:
        words = [seed >> (32 * k) & 0xFFFFFFFF for k in range(max(1, -(-seed.bit_length() // 32)))]
        EXT.seed(conf, words)
        for env_index, episode in ((0, 0), (3, 1), (63, 1000), (2**32 + 1, 5), (7, 2**33)):
            assert EXT.episode_seed(conf, env_index, episode) == episode_seed(seed, env_index, episode), seed


def test_an_illegal_action_changes_nothing() -> None:
    env = VectorEnv("foldris", 3, players=3, seed=4)
    env.reset()
    before = env.observations.copy(), env.masks.copy(), [env._batch.state(i) for i in range(3)]  # type: ignore[union-attr]
    acts = env.sample_actions(np.random.default_rng(0))
    acts[2] = int(np.flatnonzero(env.masks[2] == 0)[0])
    with pytest.raises(ValueError, match=r"game 2: action \d+ is not legal now"):
        env.step(acts)
    acts[1] = 10**6
    with pytest.raises(ValueError, match="game 1: action 1000000 is outside"):
        env.step(acts)
    assert np.array_equal(before[0], env.observations) and np.array_equal(before[1], env.masks)
    assert before[2] == [env._batch.state(i) for i in range(3)]  # type: ignore[union-attr]


def test_renders_its_games(monkeypatch: pytest.MonkeyPatch) -> None:
    fast, pure = _pair(monkeypatch, 2, players=2, seed=5)
    fast.reset()
    pure.reset()
    for step in range(40):
        acts = fast.sample_actions(np.random.default_rng(step))
        fast.step(acts)
        pure.step(acts)
    assert fast.render() == pure.render()


@pytest.mark.parametrize(("players", "options", "seed"), [(3, {}, 1), (1, {}, 2), (4, {"height": 5}, 3)])
def test_pettingzoo_on_a_batch_matches_pure_rules(
    monkeypatch: pytest.MonkeyPatch, players: int, options: dict[str, object], seed: int
) -> None:
    """The PettingZoo environment on a batch of one (``BatchTable``) against the pure rules: the same
    observations (the agent to act and another), masks, rewards, terminations and states over seeded games."""
    from polytable.interop._batch import BatchTable
    from polytable.interop.pettingzoo import raw_env

    fast = raw_env("foldris", players=players, options=options, seed=seed)
    monkeypatch.setenv("POLYTABLE_PURE", "1")
    pure = raw_env("foldris", players=players, options=options, seed=seed)
    monkeypatch.delenv("POLYTABLE_PURE")
    assert isinstance(fast.table, BatchTable) and not isinstance(pure.table, BatchTable)
    rng = np.random.default_rng(seed)
    for game in range(4):
        fast.reset(seed=seed + game)
        pure.reset(seed=seed + game)
        for steps, agent in enumerate(pure.agent_iter()):
            assert fast.agent_selection == agent
            of, rf, tf, uf, inf = fast.last()
            op, rp, tp, up, inp = pure.last()
            assert np.array_equal(of, op) and rf == rp and tf == tp and uf == up, steps
            assert np.array_equal(inf["action_mask"], inp["action_mask"]), steps
            other = pure.possible_agents[(pure.possible_agents.index(agent) + 1) % players]
            if steps % 5 == 0:
                assert np.array_equal(fast.observe(other), pure.observe(other)), steps
            if steps % 20 == 0:
                assert fast.table.state == pure.table.state, steps
            action = None if tp or up else int(rng.choice(np.flatnonzero(inp["action_mask"])))
            fast.step(action)
            pure.step(action)
        assert fast.table.state == pure.table.state
        assert fast.rewards == pure.rewards and fast.terminations == pure.terminations
