"""A batched environment: N games of one configuration stepped in one call, Gymnasium ``VectorEnv`` style.

``VectorEnv("quadefy", num_envs=64, seed=1, opponent="random")`` keeps N tables and NumPy buffers for
what a training loop reads every step: observations ``(N, height, width, channels)`` uint8 (the planes of
:mod:`polytable.interop._planes`), action masks ``(N, actions)`` int8, rewards ``(N,)`` float32,
terminations and truncations ``(N,)`` bool. ``step(actions)`` takes one action id per game.

* **Who plays.** With ``opponent`` (any AI name ``polytable simulate --ai`` accepts: ``random``,
  ``greedy`` ...) the caller plays ``seat`` in every game and the other seats move inside the call, as in
  the Gymnasium environments; the reward is that seat's return when its game ends. Without an opponent
  the caller plays every seat (self-play): each observation and mask is for the seat to act,
  ``infos["to_act"]`` says which, the reward is the return of the seat that just moved when the game
  ends, and ``infos["returns"]`` (N, players) holds every seat's return in the games that just ended.
* **Automatic reset, same step** (Gymnasium's ``AutoresetMode.SAME_STEP``): a game that ends is reset
  inside that ``step``; its row of the returned observation and mask is already the next game's, its
  termination is True and its reward the return of the game that ended.
* **Seeds.** Episode ``k`` of game ``i`` uses a seed derived from (``seed``, ``i``, ``k``) and its
  opponents draw from generators derived from it, so game ``i`` plays the same for a seed whatever N is
  and however the other games go.
* **Compiled batches.** Self-play Forma, Quadefy, Foldris, Qwirkle Cubes and FORMFINITY games (no opponent) are
  held and stepped in C, all N in one call (:mod:`polytable.interop._batch`; Foldris', Qwirkle Cubes' and
  FORMFINITY's batches also start the next episodes in that call); every other case steps the games one after
  another in Python. Both give the same observations, masks, rewards and terminations
  (``tests/interop/test_vector_fast.py``, ``tests/interop/test_vector_foldris.py``,
  ``tests/interop/test_vector_formfinity.py``).
* **Buffers** are the environment's own and are overwritten by the next call (copy what you keep), as
  EnvPool does; read them, do not write into them (a compiled batch rewrites only the parts of a row that
  changed). An illegal action raises ``ValueError`` naming the game and changes nothing: every action is
  checked against the mask before any game moves (by the compiled batch itself, in the same call).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..core import Rng, native_module, pure_engine_forced
from ._batch import batch_for
from ._table import OBS_HIGH, Table

__all__ = ["VectorEnv", "episode_seed", "sample_legal"]

_SAMPLE = native_module("polytable.interop._csample")

Obs = npt.NDArray[np.uint8]


def episode_seed(seed: int, env: int, episode: int) -> int:
    """The game seed of episode ``episode`` of game ``env`` (independent of the number of games)."""
    return int(np.random.SeedSequence([seed, env, episode]).generate_state(1, np.uint32)[0]) >> 1


def sample_legal(masks: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One uniformly random legal action per row of ``masks`` (the benchmark's and a baseline's policy)."""
    out = np.empty(len(masks), np.int64)
    draws = rng.random(len(masks))
    if _SAMPLE is not None and masks.dtype == np.int8 and masks.ndim == 2 and masks.flags.c_contiguous:
        empty = _SAMPLE.sample(masks, draws, out)  # the same choices, in one C call
        if empty >= 0:
            raise ValueError(f"game {empty} has no legal action")
        return out
    for i, row in enumerate(masks):
        legal = np.flatnonzero(row.view(np.bool_))  # a bool view: NumPy's fast path for long masks
        if not len(legal):
            raise ValueError(f"game {i} has no legal action")
        out[i] = legal[int(draws[i] * len(legal))]
    return out


class VectorEnv(gymnasium.vector.VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """N games of one configuration (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(
        self,
        game: str,
        num_envs: int,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        seed: int = 0,
        opponent: str | None = None,
        seat: int = 0,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.tables = [Table(game, players, options) for _ in range(num_envs)]
        first = self.tables[0]
        self.num_envs = num_envs
        self.players = first.players
        if opponent is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}, not {seat}")
        self.seat = seat if opponent is not None else None
        self.bots: dict[int, Any] = {}
        if opponent is not None:
            from ..ai import make_bot

            self.bots = {p: make_bot(opponent, first.game.spec.id) for p in range(self.players) if p != seat}
        self.plane_names = first.plane_names
        self.feature_names = first.feature_names
        self.single_observation_space = gymnasium.spaces.Box(0, OBS_HIGH, first.obs_shape, np.uint8)
        self.single_action_space = gymnasium.spaces.Discrete(first.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observations: Obs = np.zeros((num_envs, *first.obs_shape), np.uint8)
        self.masks = np.zeros((num_envs, first.num_actions), np.int8)
        self.rewards = np.zeros(num_envs, np.float32)
        self.terminations = np.zeros(num_envs, np.bool_)
        self.truncations = np.zeros(num_envs, np.bool_)
        self.to_act = np.zeros(num_envs, np.int16)
        self.returns = np.zeros((num_envs, self.players), np.float32)
        self.episodes = np.zeros(num_envs, np.int64)
        self._seed = seed
        self._rngs: list[dict[int, Rng]] = [{} for _ in range(num_envs)]
        self._batch = None
        if opponent is None and not pure_engine_forced():
            game0 = first.game
            self._batch = batch_for(game0, first.state, game0.view(first.state, 0), num_envs, first.num_actions)
            if self._batch is not None:
                self._batch.attach(self)

    # ------------------------------------------------------------------ the vector API
    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Start every game anew: episode 0 of each (``seed`` replaces the constructor's; ``options`` is
        accepted for the API and ignored, game options are fixed when the env is made)."""
        if seed is not None:
            if not isinstance(seed, int):
                raise ValueError("seed must be one integer: each game's seed is derived from it")
            self._seed = seed
        self.episodes[:] = 0
        for i in range(self.num_envs):
            self._start(i)
        self.rewards[:] = 0
        self.terminations[:] = False
        return self.observations, self._infos()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        acts = actions
        if not (type(acts) is np.ndarray and acts.dtype == np.int64 and acts.flags.c_contiguous):
            acts = np.ascontiguousarray(acts, np.int64)
        if acts.shape != (self.num_envs,):
            acts = acts.reshape(-1)
            if acts.shape != (self.num_envs,):
                raise ValueError(f"step() takes {self.num_envs} actions, one per game, not {acts.size}")
        if self._batch is not None and self._batch.play(self, acts):  # the whole step, restarts included
            return self.observations, self.rewards, self.terminations, self.truncations, self._infos()
        if self._batch is not None:  # the checks, the moves and the rows in one C call
            ended = self._batch.step(
                acts, self.observations, self.masks, self.to_act, self.rewards, self.returns, self.terminations
            )
            if ended:
                self.episodes += self.terminations
                seeds = self._batch.seeds
                for i in np.flatnonzero(self.terminations).tolist():
                    if seeds is not None:  # the batch started the next game from its seed: the one after it
                        seeds[i] = episode_seed(self._seed, i, int(self.episodes[i]) + 1)
                    elif self._batch.fresh is None:  # else the batch started the next game itself (no chance)
                        self._start(i)
            return self.observations, self.rewards, self.terminations, self.truncations, self._infos()
        n = self.masks.shape[1]
        outside = (acts < 0) | (acts >= n)
        if outside.any():
            i = int(np.flatnonzero(outside)[0])
            raise ValueError(f"game {i}: action {int(acts[i])} is outside 0..{n - 1}")
        illegal = self.masks[np.arange(self.num_envs), acts] == 0
        if illegal.any():
            i = int(np.flatnonzero(illegal)[0])
            raise ValueError(f"game {i}: action {int(acts[i])} is not legal now (see its action mask)")
        self.rewards[:] = 0
        self.returns[:] = 0
        for i, table in enumerate(self.tables):
            mover = int(self.to_act[i])
            table.play(mover, table.action_for(mover, int(acts[i])))
            self._run_bots(i)
            done = table.is_over()
            self.terminations[i] = done
            if done:
                returns = table.returns()
                self.returns[i] = returns
                self.rewards[i] = returns[mover if self.seat is None else self.seat]
                self.episodes[i] += 1
                self._start(i)
            else:
                self._write(i)
        return self.observations, self.rewards, self.terminations, self.truncations, self._infos()

    def sample_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """One uniformly random legal action per game (a baseline policy, and the benchmark's): from a
        compiled batch's lists of legal ids without reading the masks, else :func:`sample_legal`. The
        choice for a draw may differ between the two; both are uniform over the legal actions."""
        if self._batch is not None:
            return self._batch.sample(rng.random(self.num_envs))
        return sample_legal(self.masks, rng)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game now (sb3-contrib's name for it)."""
        return self.masks.astype(bool)

    def render(self) -> tuple[str, ...]:
        """Every game's spectator board, as text."""
        if self._batch is not None:
            for i, table in enumerate(self.tables):
                table.state = self._batch.state(i)
        return tuple(t.render() for t in self.tables)

    # ------------------------------------------------------------------ inside
    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self.masks, "to_act": self.to_act, "returns": self.returns}

    def _start(self, i: int) -> None:
        table = self.tables[i]
        game_seed = episode_seed(self._seed, i, int(self.episodes[i]))
        table.reset(game_seed)
        if self._batch is not None and self._batch.seeds is not None:  # the batch starts the next one itself
            self._batch.seeds[i] = episode_seed(self._seed, i, int(self.episodes[i]) + 1)
        self._rngs[i] = {p: Rng(game_seed, stream=1000 + p) for p in self.bots}
        self._run_bots(i)
        if table.is_over():  # a game the opponents finish before the agent moves: take the next one
            self.episodes[i] += 1
            self._start(i)
            return
        self._write(i)

    def _run_bots(self, i: int) -> None:
        if not self.bots:
            return
        table, rngs = self.tables[i], self._rngs[i]
        while (p := table.to_act()) is not None and p != self.seat:
            table.play(p, self.bots[p].choose(table.game, table.state, p, rngs[p]))

    def _write(self, i: int) -> None:
        table = self.tables[i]
        if self._batch is not None:
            self._batch.load(i, table.state)
            self._batch.write(i, self.observations, self.masks, self.to_act)
            return
        seat = table.to_act()
        assert seat is not None
        self.to_act[i] = seat
        table.write_observation(self.observations[i], seat)
        table.write_mask(self.masks[i], seat)
