"""The state machine the PettingZoo and Gymnasium environments share: a seeded game whose chance nodes are
resolved at once, the seat to act, observations and action masks.

Action ids are the game's dense ids (``Game.action_id``). A game with more ids than :data:`DENSE_LIMIT`
(Qwirkle Cubes: about 1.5e9, since a placement names every cube and cell) is *indexed*: action ``k`` is the
``k``-th legal action in the order ``Game.legal_actions`` lists them, and the mask has :data:`INDEXED_CAP`
entries. Chosen over the order of the ids (the first encoding): the listing order is part of the protocol
(both engines list the same actions in the same order, which the fuzzer checks), and sorting by id cost
most of a Qwirkle Cubes step (an id ranks a placement's cube sequence).

Chosen: a position with more legal actions than the cap (Qwirkle Cubes can reach thousands; random play
has been seen above 5,000) offers the first :data:`INDEXED_CAP` of them in that order instead of failing in
the middle of a training run; :meth:`Table.truncated` says how many were left out, and the environments
put that number in ``info["actions_left_out"]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import CHANCE, SIMULTANEOUS, TERMINAL, Game, IllegalActionError, get_game, pure_engine_forced
from ._fast import Codec, codec_for, write_mask
from ._planes import Encoder, encoder_for

__all__ = [
    "DENSE_LIMIT",
    "INDEXED_CAP",
    "OBS_HIGH",
    "RENDER_MODES",
    "Table",
    "action_space_of",
    "check_render_mode",
    "fast_codec",
    "observe",
    "ordered_legal",
]

OBS_HIGH = 255
"""Upper bound of every observation value (observations are uint8; see :mod:`polytable.interop._planes`)."""

DENSE_LIMIT = 1 << 20
"""Games with more action ids than this are indexed (the mask would be too long to build every step)."""

INDEXED_CAP = 1 << 15
"""Mask length of an indexed game; a position with more legal actions offers the first this many."""


def action_space_of(game: Game[Any, Any], config: Any) -> tuple[bool, int]:
    """(indexed, number of actions) of a configuration: the encoding every adapter shares."""
    ids = game.num_distinct_actions(config)
    return (True, INDEXED_CAP) if ids > DENSE_LIMIT else (False, ids)


def ordered_legal(game: Game[Any, Any], state: Any, player: int) -> tuple[list[Any], int]:
    """An indexed game's legal actions of ``player`` in the game's listing order, at most
    :data:`INDEXED_CAP`, and how many were left out."""
    actions = list(game.legal_actions(state, player))
    left_out = max(0, len(actions) - INDEXED_CAP)
    if left_out:
        del actions[INDEXED_CAP:]
    return actions, left_out


def observe(game: Game[Any, Any], encoder: Encoder, state: Any, player: int, players: int) -> npt.NDArray[np.uint8]:
    """The planes of ``player`` by the reference encoder (see :mod:`polytable.interop._planes`)."""
    return encoder(game.view(state, player), player, players, game.scores(state)).array()


def fast_codec(game: Game[Any, Any], config: Any, first_view: Any) -> Codec | None:
    """The fast codec of a configuration (:mod:`polytable.interop._fast`); None under ``POLYTABLE_PURE=1``."""
    return None if pure_engine_forced() else codec_for(game, config, first_view)


class Table:
    """One game being played: state, whose turn, observation and mask, seeded chance."""

    def __init__(self, game_id: str, players: int | None, options: Mapping[str, object] | None) -> None:
        self.game: Game[Any, Any] = get_game(game_id)
        self.options = dict(options or {})
        first = self.game.new_game(self.options, seed=0, players=players)
        self.config = first.config
        self.players = first.config.players
        self.indexed, self.num_actions = action_space_of(self.game, self.config)
        first_view = self.game.view(first, 0)
        self.encoder: Encoder = encoder_for(self.game.spec.id, first_view, self.config)
        self.codec = fast_codec(self.game, self.config, first_view)
        planes = self.encoder(self.game.view(first, 0), 0, self.players, self.game.scores(first))
        self.plane_names = planes.channel_names()
        self.feature_names = list(planes.features)
        self.obs_shape = planes.array().shape
        self.state: Any = first
        self._legal: tuple[Any, int, list[Any]] | None = None
        self._left_out = 0
        self._mask: tuple[Any, int, npt.NDArray[np.int8]] | None = None

    # ------------------------------------------------------------------ playing
    def reset(self, seed: int) -> None:
        self.state = self.game.new_game(self.options, seed=seed, players=self.players)
        self._legal = None
        self.settle()

    def settle(self) -> None:
        """Resolve chance nodes from the state's own generator until a player acts or the game ends."""
        while self.game.current_player(self.state) == CHANCE:
            self.state = self.game.apply_chance(self.state)

    def to_act(self) -> int | None:
        """The seat to act (the lowest seat still choosing in a simultaneous round); None at the end."""
        cp = self.game.current_player(self.state)
        if cp == TERMINAL:
            return None
        if cp == SIMULTANEOUS:
            return int(self.game.acting_players(self.state)[0])
        return int(cp)

    def is_over(self) -> bool:
        return bool(self.game.is_terminal(self.state))

    def returns(self) -> tuple[float, ...]:
        return tuple(float(x) for x in self.game.returns(self.state))

    def legal(self, player: int) -> list[Any]:
        """The legal actions of ``player`` in the index order (cached for the current state)."""
        cached = self._legal
        if cached is not None and cached[0] is self.state and cached[1] == player:
            return cached[2]
        s = self.state
        actions, self._left_out = ordered_legal(self.game, s, player)
        if not self.indexed:
            self._left_out = 0
        self._legal = (s, player, actions)
        return actions

    def truncated(self, player: int) -> int:
        """How many of ``player``'s legal actions the indexed action space leaves out now (usually 0)."""
        if not self.indexed or player != self.to_act():
            return 0
        self.legal(player)
        return self._left_out

    def mask(self, player: int) -> npt.NDArray[np.int8]:
        """The action mask of ``player`` (all zeros when it is not their turn), read-only: one array per
        position and player, shared by every caller (copy it to change it)."""
        cached = self._mask
        if cached is not None and cached[0] is self.state and cached[1] == player:
            return cached[2]
        out = self._build_mask(player)
        out.flags.writeable = False
        self._mask = (self.state, player, out)
        return out

    def _build_mask(self, player: int) -> npt.NDArray[np.int8]:
        out = np.empty(self.num_actions, np.int8)
        self.write_mask(out, player)
        return out

    def write_mask(self, out: npt.NDArray[np.int8], player: int) -> None:
        """Write the action mask of ``player`` into ``out`` (a preallocated row of a batch)."""
        if player != self.to_act():
            out[:] = 0
            return
        if self.indexed:
            out[:] = 0
            out[: len(self.legal(player))] = 1
            return
        ids = None if self.codec is None or self.codec.legal_ids is None else self.codec.legal_ids(self.state, player)
        if ids is None:
            s, action_id = self.state, self.game.action_id
            ids = [action_id(a, s) for a in self.game.legal_actions(s, player)]
        write_mask(out, ids)

    def action_for(self, player: int, action_id: int) -> Any:
        """The game action of an id (or index), IllegalActionError with a message when it is not legal."""
        if player != self.to_act():
            raise IllegalActionError(f"it is not seat {player + 1}'s turn")
        if not 0 <= action_id < self.num_actions:
            raise IllegalActionError(f"action {action_id} is outside 0..{self.num_actions - 1}")
        if self.indexed:
            actions = self.legal(player)
            if action_id >= len(actions):
                raise IllegalActionError(f"action {action_id}: there are only {len(actions)} legal actions")
            return actions[action_id]
        action = self.game.action_from_id(action_id, self.state)
        cached = self._mask  # the mask of this position, when built, already says (apply checks again)
        if cached is not None and cached[0] is self.state and cached[1] == player:
            legal = bool(cached[2][action_id])
        else:
            legal = action in self.game.legal_actions(self.state, player)
        if not legal:
            text = self.game.format_action(action, self.state)
            raise IllegalActionError(f"action {action_id} ({text}) is not legal now (see the action mask)")
        return action

    def play(self, player: int, action: Any) -> None:
        """Apply a game action for ``player`` and settle chance."""
        self.state = self.game.apply(self.state, action, player)
        self.settle()

    def id_of(self, player: int, action: Any) -> int:
        """The id (or index) of a legal game action."""
        if self.indexed:
            return self.legal(player).index(action)
        return int(self.game.action_id(action, self.state))

    # ------------------------------------------------------------------ seeing
    def observation(self, player: int) -> npt.NDArray[np.uint8]:
        if self.codec is None:
            return observe(self.game, self.encoder, self.state, player, self.players)
        out = np.empty(self.obs_shape, np.uint8)
        self.codec.write(self.state, player, out)
        return out

    def write_observation(self, out: npt.NDArray[np.uint8], player: int) -> None:
        """Write the observation of ``player`` into ``out`` (a preallocated row of a batch)."""
        if self.codec is None:
            out[:] = observe(self.game, self.encoder, self.state, player, self.players)
        else:
            self.codec.write(self.state, player, out)

    def render(self) -> str:
        return str(self.game.render(self.state, None))

    def show(self, render_mode: str | None) -> str | None:
        """``render()`` of the environments: the spectator's text board for ``ansi``, printed for ``human``."""
        if render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without render_mode; pass render_mode='ansi' or 'human'")
            return None
        if render_mode == "human":
            print(self.render())
            return None
        return self.render()


RENDER_MODES = ("ansi", "human")


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
