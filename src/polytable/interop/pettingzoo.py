"""Every polytable game as a PettingZoo AEC environment: ``env("forma", players=4, seed=1)``.

* Agents are ``player_0`` ... ``player_{n-1}`` in seat order. Chance nodes (card reveals, rolls, draws) are
  resolved inside the environment from the seeded state, so ``reset(seed=s)`` fixes the whole game.
* Simultaneous rounds (Foldris) become AEC turns, lowest seat first; each observation is built from that
  player's view, which never shows another player's pending choice of the round.
* Observations are the planes: a ``uint8`` NumPy array (height x width x channels, seats relative to the
  observer, numbers as features in the last channels) listed per game in docs/research.md and in
  ``env.unwrapped.plane_names`` / ``feature_names``. The acting agent's action mask (int8) is
  ``info["action_mask"]`` (what PettingZoo's own tests and ``action_space.sample(mask)`` use; all zeros
  in the other agents' infos) and ``env.action_mask(agent)``; it covers the game's dense action ids
  (Qwirkle Cubes: the legal actions by index, see :mod:`polytable.interop._table`).
* Rewards are the protocol's returns, given once at the end (zero-sum; one-player games in [0, 1]).
* An illegal action: ``raw_env`` raises ``ValueError`` saying why and changes nothing; ``env`` wraps it as
  PettingZoo's classic games are wrapped, so an illegal action ends the game with -1 for the player who
  chose it (0 for the others; PettingZoo's ``TerminateIllegalWrapper``), and an action outside the space
  fails an assertion.
* ``render_mode="ansi"``: ``render()`` returns the game's text board as a spectator sees it;
  ``render_mode="human"`` prints it and returns None.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core import IllegalActionError
from ._batch import table_for
from ._planes import ENCODED_GAMES
from ._table import OBS_HIGH, check_render_mode

__all__ = ["ENCODED_GAMES", "PolytableAEC", "env", "raw_env"]  # ENCODED_GAMES: the games with planes


class PolytableAEC(AECEnv):  # type: ignore[misc]
    """The AEC environment of one game configuration (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "render_fps": 1,
        "name": "polytable_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.table = table_for(game, players, options)  # compiled where the game has a batch
        self.plane_names = self.table.plane_names
        self.feature_names = self.table.feature_names
        n = self.table.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = gymnasium.spaces.Box(0, OBS_HIGH, self.table.obs_shape, np.uint8)
        act_space = gymnasium.spaces.Discrete(self.table.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._seeds = np.random.default_rng(seed)
        self._next_seed: int | None = seed
        self.agents: list[str] = []
        self._no_actions = np.zeros(self.table.num_actions, np.int8)
        self._no_actions.flags.writeable = False

    def __str__(self) -> str:
        return f"polytable {self.table.game.spec.id} ({self.table.players} players)"

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the AEC API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` fixes it; without one the next seed comes from the constructor's seed.
        ``options`` is accepted for the API and ignored: game options are fixed when the env is made."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = seed
        elif self._next_seed is not None:
            game_seed = self._next_seed
        else:
            game_seed = int(self._seeds.integers(2**31))
        self._next_seed = None
        self.table.reset(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        for info in self.infos.values():
            info["action_mask"] = self._no_actions
        seat = self.table.to_act()
        if seat is None:
            for a, r in zip(self.possible_agents, self.table.returns(), strict=True):
                if a in self.agents:
                    self.rewards[a] = r
                    self.terminations[a] = True
            return
        self.agent_selection = agent = self.possible_agents[seat]
        info = self.infos[agent]
        info["action_mask"] = self.table.mask(seat)
        left_out = self.table.truncated(seat)
        if left_out:
            info["actions_left_out"] = left_out
        else:
            info.pop("actions_left_out", None)

    def observe(self, agent: str) -> npt.NDArray[np.uint8]:
        return self.table.observation(self._index[agent])

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The legal actions of ``agent`` now (all zeros when it is not their turn)."""
        return self.table.mask(self._index[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must choose an action (None is only for a finished agent)")
        seat = self._index[agent]
        try:
            value = self.table.action_for(seat, int(action))
        except IllegalActionError as exc:
            raise ValueError(str(exc)) from None
        self._cumulative_rewards[agent] = 0.0
        self.table.play(seat, value)
        self._clear_rewards()
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        return self.table.show(self.render_mode)

    def close(self) -> None:
        pass


def raw_env(
    game: str,
    players: int | None = None,
    options: Mapping[str, object] | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
) -> PolytableAEC:
    """The environment without PettingZoo's order-enforcing wrapper."""
    return PolytableAEC(game, players, options, seed, render_mode)


def env(
    game: str,
    players: int | None = None,
    options: Mapping[str, object] | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
) -> Any:
    """The AEC environment of ``game`` in PettingZoo's classic wrappers (see the module docstring)."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(game, players, options, seed, render_mode), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(wrapped))
