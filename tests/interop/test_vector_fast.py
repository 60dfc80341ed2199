"""The compiled batches behind the vector API against the pure rules: over seeded random games, a batch gives
the same observations, masks, seats to act, rewards, returns, terminations and states as the pure-Python
rules with the reference (view-based) encoders (``POLYTABLE_PURE=1``)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from polytable.core import native_module
from polytable.interop.vector import VectorEnv

FAST = native_module("polytable.games.forma._cforma_vec") is not None
QUADEFY = native_module("polytable.games.quadefy._cquadefy_vec") is not None
QWIRKLE = native_module("polytable.games.qwirkle_cubes._cqwirkle_vec") is not None


def _pair(monkeypatch: pytest.MonkeyPatch, game_id: str, n: int, **kw: object) -> tuple[VectorEnv, VectorEnv]:
    fast = VectorEnv(game_id, n, **kw)  # type: ignore[arg-type]
    monkeypatch.setenv("POLYTABLE_PURE", "1")
    pure = VectorEnv(game_id, n, **kw)  # type: ignore[arg-type]
    monkeypatch.delenv("POLYTABLE_PURE")
    return fast, pure


def _lists_every_legal_id_once(env: VectorEnv) -> None:
    """Draws (j + 0.5) / count for j < count pick each of a game's legal ids once: the batch's list of
    legal ids is its mask, so its random action is uniform over the legal ones."""
    assert env._batch is not None
    counts = np.count_nonzero(env.masks, axis=1)
    picked: list[list[int]] = [[] for _ in counts]
    for j in range(int(counts.max())):
        for i, got in enumerate(env._batch.sample((np.minimum(j, counts - 1) + 0.5) / counts)):
            if j < counts[i]:
                picked[i].append(int(got))
    for i, row in enumerate(env.masks):
        assert sorted(picked[i]) == np.flatnonzero(row).tolist(), i


@pytest.mark.skipif(not FAST, reason="the compiled Forma batch is not built")
@pytest.mark.parametrize(
    ("players", "options", "seed", "steps"),
    [(4, {}, 1, 700), (2, {}, 2, 500), (3, {"touch_move": False}, 3, 400), (2, {"size": 20, "obstacles": 25}, 4, 400)],
)
def test_forma_batch_matches_pure_rules(
    monkeypatch: pytest.MonkeyPatch, players: int, options: dict[str, object], seed: int, steps: int
) -> None:
    fast, pure = _pair(monkeypatch, "forma", 5, players=players, options=options, seed=seed)
    assert fast._batch is not None and pure._batch is None
    _compare(fast, pure, np.random.default_rng(seed), steps)


def _compare(fast: VectorEnv, pure: VectorEnv, rng: np.random.Generator, steps: int) -> None:
    """Step both with the batch's random legal actions; every buffer agrees at every step, the states every
    50 steps, and whole games end and restart."""
    assert fast._batch is not None
    fast.reset()
    pure.reset()
    ended = 0
    for step in range(steps):
        assert np.array_equal(fast.observations, pure.observations), step
        assert np.array_equal(fast.masks, pure.masks), step
        assert np.array_equal(fast.to_act, pure.to_act), step
        if step % 50 == 0:
            for i in range(fast.num_envs):
                assert fast._batch.state(i) == pure.tables[i].state, (step, i)
            _lists_every_legal_id_once(fast)
        acts = fast.sample_actions(rng)  # from the batch's own lists of legal ids: each must be legal
        assert pure.masks[np.arange(len(acts)), acts].all(), step
        _, rf, tf, _, inf = fast.step(acts)
        _, rp, tp, _, inp = pure.step(acts)
        assert np.array_equal(tf, tp) and np.array_equal(rf, rp), step
        assert np.array_equal(inf["returns"], inp["returns"]), step
        ended += int(tp.sum())
    assert ended >= 3  # whole games were played, ended and reset


@pytest.fixture(params=[0, 1, 2], ids=["plain", "avx2", "avx512"])
def quadefy_simd(request: pytest.FixtureRequest) -> Iterator[int]:
    """Each copy of the compiled Quadefy step the CPU runs (``_cquadefy_vec.simd``), the best one restored."""
    ext = native_module("polytable.games.quadefy._cquadefy_vec")
    assert ext is not None
    best = ext.simd(9)
    if ext.simd(request.param) != request.param:
        ext.simd(best)
        pytest.skip("this CPU does not run that copy")
    yield request.param
    ext.simd(best)


@pytest.mark.skipif(not QUADEFY, reason="the compiled Quadefy batch is not built")
@pytest.mark.parametrize(("options", "seed"), [({}, 1), ({"stability": True}, 2), ({"reachability": False}, 3)])
def test_quadefy_batch_matches_pure_rules(
    monkeypatch: pytest.MonkeyPatch, options: dict[str, object], seed: int, quadefy_simd: int
) -> None:
    fast, pure = _pair(monkeypatch, "quadefy", 6, options=options, seed=seed)
    assert fast._batch is not None and pure._batch is None
    _compare(fast, pure, np.random.default_rng(seed), 400)


@pytest.mark.skipif(not QWIRKLE, reason="the compiled Qwirkle Cubes batch is not built")
@pytest.mark.parametrize(("players", "seed", "steps"), [(2, 1, 300), (3, 2, 300), (4, 3, 300), (2, (1 << 40) + 4, 200)])
def test_qwirkle_batch_matches_pure_rules(monkeypatch: pytest.MonkeyPatch, players: int, seed: int, steps: int) -> None:
    """Draws and rolls settled in C, actions by index, and the next game started in C from its seed (the seed
    after it derived in C): the same as the pure rules, which start it in Python."""
    fast, pure = _pair(monkeypatch, "qwirkle-cubes", 4, players=players, seed=seed)
    assert fast._batch is not None and pure._batch is None
    assert fast._batch.seeds is not None  # the batch restarts ended games itself
    _compare(fast, pure, np.random.default_rng(seed), steps)
    assert fast._batch.words is not None  # stepped by the batch's play (restarts and next seeds in C)
    assert np.array_equal(fast.episodes, pure.episodes)
    for i in range(fast.num_envs):  # the mask lists every legal action, none left out
        assert fast._batch.left_out(i) == 0
        assert fast.masks[i].sum() == len(list(pure.tables[i].legal(int(pure.to_act[i]))))


@pytest.mark.skipif(not QWIRKLE, reason="the compiled Qwirkle Cubes batch is not built")
def test_qwirkle_batch_plays_a_game_the_same_whatever_the_number_of_games() -> None:
    """Game i of a batch of 2 and of a batch of 5, given the same actions, see the same observations and
    masks over several episodes (each game's seeds are its own, its chance its own generator's)."""
    small, large = VectorEnv("qwirkle-cubes", 2, seed=9), VectorEnv("qwirkle-cubes", 5, seed=9)
    small.reset()
    large.reset()
    ended = 0
    for step in range(600):
        assert np.array_equal(small.observations, large.observations[:2]), step
        assert np.array_equal(small.masks, large.masks[:2]), step
        counts = np.count_nonzero(large.masks, axis=1)
        acts = (np.arange(5) * 7 + step * 13) % counts  # any legal action, the same for games 0 and 1
        _, _, term, _, _ = small.step(acts[:2])
        large.step(acts)
        ended += int(term.sum())
    assert ended >= 4
    assert small.render() == large.render()[:2]


@pytest.mark.skipif(not FAST, reason="the compiled Forma batch is not built")
def test_forma_batch_renders_its_games(monkeypatch: pytest.MonkeyPatch) -> None:
    fast, pure = _pair(monkeypatch, "forma", 2, players=2, seed=5)
    fast.reset()
    pure.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):
        acts = [int(rng.choice(np.flatnonzero(row))) for row in pure.masks]
        fast.step(acts)
        pure.step(acts)
    assert fast.render() == pure.render()


@pytest.mark.skipif(native_module("polytable.interop._csample") is None, reason="_csample is not built")
def test_compiled_sampler_picks_as_numpy() -> None:
    """``sample_legal`` in C chooses what the NumPy walk chooses for the same draws (any mask length and
    density, values other than 1 counted as legal), and names a row without a legal action."""
    from polytable.interop import vector

    rng = np.random.default_rng(7)
    for width in (1, 7, 8, 9, 61, 2172, 37222):
        for density in (0.001, 0.05, 0.5, 1.0):
            masks = (rng.random((6, width)) < density).astype(np.int8) * rng.integers(1, 3, (6, width)).astype(np.int8)
            masks[:, rng.integers(width)] = 1  # at least one legal action per row
            seed = int(rng.integers(1 << 30))
            got = vector.sample_legal(masks, np.random.default_rng(seed))
            draws = np.random.default_rng(seed).random(len(masks))
            want = [np.flatnonzero(row)[int(u * np.count_nonzero(row))] for row, u in zip(masks, draws, strict=True)]
            assert got.tolist() == want, (width, density)
    masks = np.ones((3, 10), np.int8)
    masks[1] = 0
    with pytest.raises(ValueError, match="game 1 has no legal action"):
        vector.sample_legal(masks, rng)


@pytest.mark.skipif(not (FAST and QUADEFY and QWIRKLE), reason="the compiled batches are not built")
@pytest.mark.parametrize(
    ("game_id", "players", "seed"),
    [("forma", 4, 1), ("forma", 2, 2), ("quadefy", 2, 3), ("qwirkle-cubes", 2, 4), ("qwirkle-cubes", 3, 5)],
)
def test_pettingzoo_on_a_batch_matches_pure_rules(
    monkeypatch: pytest.MonkeyPatch, game_id: str, players: int, seed: int
) -> None:
    """The PettingZoo environment on a compiled batch of one (``BatchTable``) against the pure rules: the same
    observations (the agent to act and another), masks, rewards, terminations and states over seeded games."""
    from polytable.interop._batch import BatchTable
    from polytable.interop.pettingzoo import raw_env

    fast = raw_env(game_id, players=players, seed=seed)
    monkeypatch.setenv("POLYTABLE_PURE", "1")
    pure = raw_env(game_id, players=players, seed=seed)
    monkeypatch.delenv("POLYTABLE_PURE")
    assert isinstance(fast.table, BatchTable) and not isinstance(pure.table, BatchTable)
    rng = np.random.default_rng(seed)
    games = 12 if game_id == "quadefy" else 2
    for game in range(games):
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


@pytest.mark.skipif(not (FAST and QUADEFY), reason="the compiled batches are not built")
@pytest.mark.parametrize(
    "game_id",
    ["forma", "quadefy", pytest.param("qwirkle-cubes", marks=pytest.mark.skipif(not QWIRKLE, reason="not built"))],
)
def test_batch_refuses_bad_actions_before_any_game_moves(game_id: str) -> None:
    """The batch checks every action in C before it moves a game: an action outside the ids or not legal
    raises ValueError naming the first game at fault, and the states, observations and masks are untouched."""
    env = VectorEnv(game_id, 3, players=2, seed=4)
    assert env._batch is not None
    env.reset()
    legal = [int(np.flatnonzero(row)[0]) for row in env.masks]
    illegal = int(np.flatnonzero(env.masks[2] == 0)[0])
    before = (env._batch.states.copy(), env.observations.copy(), env.masks.copy(), env.to_act.copy())
    with pytest.raises(ValueError, match=r"game 2: action .* is not legal now"):
        env.step([legal[0], legal[1], illegal])
    with pytest.raises(ValueError, match=r"game 1: action -1 is outside 0\.\."):
        env.step(np.array([legal[0], -1, illegal]))  # outside before illegal, whatever the order of the games
    after = (env._batch.states, env.observations, env.masks, env.to_act)
    assert all(np.array_equal(b, a) for b, a in zip(before, after, strict=True))
    env.step(legal)  # and the batch still steps
    assert env.masks.any(axis=1).all()


@pytest.mark.skipif(not (FAST and QWIRKLE), reason="the compiled batch is not built")
def test_qwirkle_batch_refuses_an_action_a_spoiled_mask_allows() -> None:
    """A mask row is the caller's array: an id it was made to allow past the game's legal actions is refused
    by the batch (which counts them itself), before any game moves."""
    env = VectorEnv("qwirkle-cubes", 2, players=2, seed=3)
    assert env._batch is not None
    env.reset()
    count = int(np.count_nonzero(env.masks[1]))
    env.masks[1, count] = 1
    before = env._batch.states.copy()
    with pytest.raises(ValueError, match=f"game 1: no seat to act, or action {count} is not legal"):
        env.step([0, count])
    assert np.array_equal(before, env._batch.states)
