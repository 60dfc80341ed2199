"""Single-agent Gymnasium environments: one seat is the agent, the other seats are played by a polytable AI.

Importing this module registers ``polytable/FoldrisSolo-v0`` (Foldris with one player) and
``polytable/<Game>-v0`` for every game (``Foldris``, ``Forma``, ``Formfinity``, ``Quadefy``,
``QwirkleCubes``), so ``gymnasium.make("polytable/Forma-v0", opponent="greedy", players=2)`` works.

* The observation is the game's planes (as in :mod:`polytable.interop.pettingzoo`); the legal actions are
  ``env.action_masks()`` (what sb3-contrib's MaskablePPO asks for) and ``info["action_mask"]``.
* The reward is the agent's return at the end (zero-sum: a 2-player win is +1; one-player games: the
  score in [0, 1], for Foldris solo lines / height).
* An illegal action ends the episode at once with the worst return (-1, or 0 alone) and
  ``info["illegal_action"]`` saying why: an agent that ignores the mask cannot loop forever.
* ``step()`` after the episode ended (or before the first ``reset()``) raises ``gymnasium.error.ResetNeeded``.
* ``render_mode="ansi"`` returns the spectator's text board; ``"human"`` prints it.
* Opponents choose with their own seeded generators (derived from the episode seed), so an episode
  replays exactly from its seed and the agent's actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from ..core import IllegalActionError, Rng, game_ids, get_game
from ._table import OBS_HIGH, Table, check_render_mode

__all__ = ["ENV_IDS", "PolytableEnv", "register_envs"]


class PolytableEnv(gymnasium.Env[npt.NDArray[np.uint8], np.int64]):
    """One polytable game seen by the player in ``seat``; the others are ``opponent`` AIs."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(
        self,
        game: str = "foldris",
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        seat: int = 0,
        opponent: str = "greedy",
        render_mode: str | None = None,
    ) -> None:
        from ..ai import make_bot

        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.table = Table(game, players, options)
        if not 0 <= seat < self.table.players:
            raise ValueError(f"seat must be 0..{self.table.players - 1}, not {seat}")
        self.seat = seat
        gid = self.table.game.spec.id
        self.opponents = {p: make_bot(opponent, gid) for p in range(self.table.players) if p != seat}
        self.plane_names = self.table.plane_names
        self.feature_names = self.table.feature_names
        self.observation_space = gymnasium.spaces.Box(0, OBS_HIGH, self.table.obs_shape, np.uint8)
        self.action_space = gymnasium.spaces.Discrete(self.table.num_actions)
        self.worst = -1.0 if self.table.players > 1 else 0.0
        self._rngs: dict[int, Rng] = {}
        self._over = True

    def _run_opponents(self) -> None:
        table = self.table
        while (p := table.to_act()) is not None and p != self.seat:
            table.play(p, self.opponents[p].choose(table.game, table.state, p, self._rngs[p]))

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.table.mask(self.seat).copy()}  # Gymnasium: fresh data
        left_out = self.table.truncated(self.seat)
        if left_out:
            info["actions_left_out"] = left_out
        return info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31)) if seed is None else seed
        self._rngs = {p: Rng(game_seed, stream=1000 + p) for p in self.opponents}
        self.table.reset(game_seed)
        self._run_opponents()
        self._over = self.table.is_over()
        return self.table.observation(self.seat), self._info()

    def step(self, action: Any) -> tuple[npt.NDArray[np.uint8], float, bool, bool, dict[str, Any]]:
        table = self.table
        if self._over:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset() before step()")
        try:
            value = table.action_for(self.seat, int(action))
        except IllegalActionError as exc:
            self._over = True
            info = self._info()
            info["illegal_action"] = str(exc)
            return table.observation(self.seat), self.worst, True, False, info
        table.play(self.seat, value)
        self._run_opponents()
        self._over = done = table.is_over()
        reward = table.returns()[self.seat] if done else 0.0
        return table.observation(self.seat), reward, done, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now (sb3-contrib's MaskablePPO calls this)."""
        return self.table.mask(self.seat).astype(bool)

    def render(self) -> str | None:  # type: ignore[override]
        return self.table.show(self.render_mode)


_ENTRY = "polytable.interop.gymnasium:PolytableEnv"


def _camel(game_id: str) -> str:
    name = get_game(game_id).spec.name
    if name.isupper():  # FORMFINITY
        name = name.capitalize()
    return "".join(part[:1].upper() + part[1:] for part in name.replace("-", " ").split())


def register_envs() -> list[str]:
    """Register the environments with Gymnasium (done on import; safe to call again)."""
    ids = ["polytable/FoldrisSolo-v0"]
    if ids[0] not in gymnasium.registry:
        gymnasium.register(ids[0], entry_point=_ENTRY, kwargs={"game": "foldris", "players": 1})
    for gid in game_ids():
        env_id = f"polytable/{_camel(gid)}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=_ENTRY, kwargs={"game": gid})
        ids.append(env_id)
    return ids


ENV_IDS = register_envs()
"""The registered environment ids."""
