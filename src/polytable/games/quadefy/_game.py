"""The Quadefy game object: the protocol over :mod:`._moves` (bit-level rules) and :mod:`._state`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from polytable.core import (
    TERMINAL,
    Config,
    Game,
    GameSpec,
    IllegalActionError,
    LegalActions,
    Option,
    Rng,
    StateFormatError,
    player_name,
    require,
    require_list,
    turns_in_rotation,
)

from ._kernel import CompiledQuadefy, QuadefyKernel
from ._moves import REACH, STABLE, reason
from ._render import cell_blocks, hand_text, render_state
from ._said import narrate, outcome
from ._state import ACTION_IDS, ACTIONS, ORIENT_COUNT, Placement, QuadefyState, format_placement, parse_placement
from ._tables import ALL_BLOCKS, BLOCK_INDEX, BLOCKS, ORIENTS, PLACEMENTS

__all__ = ["Quadefy", "kernel_of"]


def _flags(config: Config) -> int:
    return (REACH if config.bool("reachability") else 0) | (STABLE if config.bool("stability") else 0)


_SHARED_IDS: dict[int, int] = {id(a): i for i, a in enumerate(ACTIONS)}
"""Placement id by object identity of the shared action instances (they live as long as the module, so an
equal identity is the same object): the compiled ``apply`` skips hashing the dataclass."""


class _Legal(LegalActions[Placement]):
    """The protocol's lazy legal-action view; ``sample`` is one C call with the kernel (``draw``: the state
    and the generator object in, a placement id out; it declines with -1, generator untouched, where the
    game's ``_sample`` then decides, with its error)."""

    __slots__ = ()

    def sample(self, rng: Rng) -> Placement:
        game: Quadefy = self._game  # type: ignore[assignment]
        pid = game.kernel.draw(self._state, self._player, rng)
        if pid >= 0:
            return ACTIONS[pid]
        return game._sample(self._state, self._player, rng)


class Quadefy(Game[QuadefyState, Placement]):
    """Two players place their eight tetracubes in a 4x4x4 space; whoever cannot place a block loses."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="quadefy",
        name="Quadefy",
        min_players=2,
        max_players=2,
        default_players=2,
        rules_version="1",
        options=(
            Option(
                "reachability",
                "bool",
                True,
                "a block must be slid into place from outside the cube without moving placed blocks",
            ),
            Option(
                "stability",
                "bool",
                False,
                "a block's centre of mass must lie strictly over the cubes it rests on",
            ),
        ),
        summary="Place blocks of four cubes in a 4x4x4 cube; the player who cannot place a block loses.",
    )

    compiled_kernel: ClassVar[str | None] = "polytable.games.quadefy._cquadefy"
    kernel: QuadefyKernel
    """The rules kernel this game object runs (see :mod:`._kernel`)."""

    def _use_kernel(self, ext: Any) -> None:
        self.kernel = QuadefyKernel() if ext is None else CompiledQuadefy(ext)

    # ------------------------------------------------------------------ set-up and turn
    def _new(self, config: Config, seed: int) -> QuadefyState:
        return QuadefyState(config, 0, (0, 0), (ALL_BLOCKS, ALL_BLOCKS), (), 0, -1, _flags(config))

    def current_player(self, state: QuadefyState) -> int:
        return TERMINAL if state.loser >= 0 else state.to_move

    # The protocol's per-step entry points, without the generic turn resolution where the answer is plain
    # (same results and errors: anything unusual takes the base class's checked path).
    def is_terminal(self, state: QuadefyState) -> bool:
        return state.loser >= 0

    def legal_actions(self, state: QuadefyState, player: int | None = None) -> LegalActions[Placement]:
        if state.loser < 0 and (player is None or player == state.to_move):
            return _Legal(self, state, state.to_move)
        return super().legal_actions(state, player)

    def apply(self, state: QuadefyState, action: Placement, player: int | None = None) -> QuadefyState:
        """The checked ``apply``; with the kernel, a legal move of a shared action instance is checked and
        applied in one C call (``_cquadefy.apply``), which declines (None) anything it does not handle."""
        pid = _SHARED_IDS.get(id(action))
        if pid is not None:
            new = self.kernel.apply(state, pid, player)
            if new is not None:
                return new
        return super().apply(state, action, player)

    # ------------------------------------------------------------------ legal actions
    def _legal(self, state: QuadefyState, player: int) -> Iterator[Placement]:
        actions = ACTIONS
        for pid in self.kernel.legal(state.occupied, state.remaining[player], state.flags):
            yield actions[pid]

    def _count(self, state: QuadefyState, player: int) -> int:
        return self.kernel.count(state.occupied, state.remaining[player], state.flags)

    def _any(self, state: QuadefyState, player: int) -> bool:
        return self.kernel.any(state.occupied, state.remaining[player], state.flags)

    def _sample(self, state: QuadefyState, player: int, rng: Rng) -> Placement:
        pid = self.kernel.sample(state.occupied, state.remaining[player], state.flags, rng)
        if pid is None:
            raise IllegalActionError(
                f"{player_name(player)} cannot place any block", "quadefy.cannot_place", {"player": player + 1}
            )
        return ACTIONS[pid]

    def _check(self, state: QuadefyState, action: Placement, player: int) -> None:
        if not isinstance(action, Placement):
            raise IllegalActionError(
                f"a Quadefy move is a block placement, not {type(action).__name__}",
                "quadefy.move_kind",
                {"name": type(action).__name__},
            )
        name = action.block
        if name not in BLOCK_INDEX:
            raise IllegalActionError(
                f"there is no block {name!r}; the blocks are {', '.join(BLOCKS)}",
                "quadefy.no_such_block",
                {"name": f"{name!r}", "blocks": ", ".join(BLOCKS)},
            )
        if not state.remaining[player] >> BLOCK_INDEX[name] & 1:
            raise IllegalActionError(
                f"{player_name(player)} has already placed block {name}",
                "quadefy.already_placed",
                {"player": player + 1, "name": name},
            )
        pid = ACTION_IDS.get(action)
        if pid is None:
            count = ORIENT_COUNT[name]
            if not isinstance(action.rotation, int) or not 0 <= action.rotation < count:
                raise IllegalActionError(
                    f"block {name} has rotations r0 to r{count - 1}",
                    "quadefy.orientation_range",
                    {"name": name, "count": count - 1},
                )
            raise IllegalActionError(
                f"{format_placement(action)}: part of block {name} would stick out of the cube",
                "quadefy.sticks_out",
                {"move": format_placement(action), "name": name},
            )
        if self.kernel.allowed(state.occupied, pid, state.flags):
            return
        p = PLACEMENTS[pid]
        found = reason(state.occupied, ORIENTS[p.orient], p.pbit, p.mask, state.flags)
        if found is not None:
            why = found["message"]
            raise IllegalActionError(
                f"{format_placement(action)} is not allowed: {why}",
                "quadefy.not_allowed",
                {"move": format_placement(action), "why": found},
            )

    def _apply(self, state: QuadefyState, action: Placement, player: int) -> QuadefyState:
        p = PLACEMENTS[ACTION_IDS[action]]
        occ = state.occupied | p.mask
        bit = 1 << p.block
        if player == 0:
            owned = (state.owned[0] | p.mask, state.owned[1])
            rem = (state.remaining[0] & ~bit, state.remaining[1])
        else:
            owned = (state.owned[0], state.owned[1] | p.mask)
            rem = (state.remaining[0], state.remaining[1] & ~bit)
        nxt = 1 - player
        loser = -1 if self.kernel.any(occ, rem[nxt], state.flags) else nxt
        return QuadefyState(state.config, occ, owned, rem, (*state.moves, p.id), nxt, loser, state.flags)

    def playout(
        self, state: QuadefyState, rngs: Sequence[Rng], max_actions: int | None = None
    ) -> tuple[QuadefyState, int]:
        """The protocol's random playout, one C call when the kernel is built (same draws, same states)."""
        return self.kernel.playout(state, rngs, max_actions) or super().playout(state, rngs, max_actions)

    def playouts(self, state: QuadefyState, seeds: Sequence[int], stream: int = 1000) -> list[tuple[QuadefyState, int]]:
        """A random playout from ``state`` for each seed, seat ``p`` drawing from ``Rng(seed, stream=stream + p)``
        (what ``simulate`` with random players does game by game): the final states and action counts,
        the whole batch one C call when the kernel is built."""
        out = self.kernel.playouts(state, seeds, stream)
        if out is not None:
            return out
        return [self.playout(state, [Rng(seed, stream=stream + p) for p in range(2)]) for seed in seeds]

    def random_games(
        self, options: Mapping[str, object] | None, players: int, seeds: Sequence[int]
    ) -> list[tuple[QuadefyState, int]]:
        """Whole games of random players, one per seed, exactly as ``simulate`` plays them one by one
        (``new_game(options, seed, players)``, seat ``p`` drawing from ``Rng(seed, stream=1000 + p)``): the
        final states and action counts, in one call (the set-up does not depend on the seed)."""
        return self.playouts(self.new_game(options, 0, players), seeds, 1000)

    # ------------------------------------------------------------------ results
    def scores(self, state: QuadefyState) -> tuple[float, ...]:
        """Blocks placed by each player."""
        n = len(state.moves)
        return (float((n + 1) // 2), float(n // 2))

    def turns_begun(self, state: QuadefyState) -> tuple[int, ...]:
        """One block a turn, in turn; the turn of the player who could not move counts (it began)."""
        return turns_in_rotation(len(state.moves) + 1, 2)

    def decision_kind(self, state: QuadefyState, player: int) -> str:
        return "place"

    def score_unit(self, config: Config) -> str | None:
        """The scores count blocks placed, which says nothing of who is ahead: no running tally."""
        return None

    def winners(self, state: QuadefyState) -> tuple[int, ...]:
        return (1 - state.loser,) if state.loser >= 0 else ()

    def outcome(self, state: QuadefyState) -> dict[str, object]:
        return outcome(state)

    def narrate(self, action: Placement, state: QuadefyState, after: QuadefyState, player: int) -> dict[str, object]:
        return narrate(action, state, player)

    # ------------------------------------------------------------------ notation and ids
    def format_action(self, action: Placement, state: QuadefyState | None = None) -> str:
        return format_placement(action)

    def parse_action(self, text: str, state: QuadefyState | None = None) -> Placement:
        return parse_placement(text)

    def describe_action(self, action: Placement, state: QuadefyState) -> str:
        return (
            f"block {action.block} in rotation {action.rotation} with its corner at column "
            f"{'abcd'[action.x]}, row {action.y + 1}, layer {action.z + 1}"
        )

    def num_distinct_actions(self, config: Config) -> int:
        return len(ACTIONS)

    def action_id(self, action: Placement, state: QuadefyState | None = None) -> int:
        pid = ACTION_IDS.get(action) if isinstance(action, Placement) else None
        if pid is None:
            raise IllegalActionError(
                f"{action!r} is not a placement inside the cube",
                "quadefy.not_a_placement",
                {"action": f"{action!r}"},
            )
        return pid

    def action_from_id(self, action_id: int, state: QuadefyState) -> Placement:
        if isinstance(action_id, bool) or not isinstance(action_id, int) or not 0 <= action_id < len(ACTIONS):
            raise IllegalActionError(
                f"action id {action_id!r} is out of range (0 to {len(ACTIONS) - 1})",
                "quadefy.action_id_range",
                {"action_id": f"{action_id!r}", "actions": len(ACTIONS) - 1},
            )
        return ACTIONS[action_id]

    # ------------------------------------------------------------------ serialisation and views
    def state_to_dict(self, state: QuadefyState) -> dict[str, Any]:
        return {
            "game": "quadefy",
            "config": state.config.to_dict(),
            "moves": [format_placement(ACTIONS[i]) for i in state.moves],
        }

    def state_from_dict(self, data: Mapping[str, Any]) -> QuadefyState:
        """Rebuild by replaying the moves, so a saved state is validated by the rules themselves."""
        cfg = require(data, "config")
        if not isinstance(cfg, Mapping):
            raise StateFormatError("field 'config' must be an object", "state.field_config_object")
        options = cfg.get("options", {})
        players = cfg.get("players", 2)
        if not isinstance(options, Mapping):
            raise StateFormatError("field 'config.options' must be an object", "quadefy.state_options")
        try:
            state = self.new_game(dict(options), 0, players)
        except ValueError as exc:
            raise StateFormatError(f"bad config: {exc}", "quadefy.state_config", {"why": exc}) from None
        for i, text in enumerate(require_list(data, "moves")):
            if not isinstance(text, str):
                raise StateFormatError(
                    f"move {i + 1} must be text, not {text!r}",
                    "quadefy.state_move_type",
                    {"i": i + 1, "text": f"{text!r}"},
                )
            try:
                state = self.apply(state, self.parse_action(text, state))
            except IllegalActionError as exc:
                raise StateFormatError(
                    f"move {i + 1} ({text}) cannot be replayed: {exc}",
                    "quadefy.state_replay",
                    {"i": i + 1, "text": text, "why": exc},
                ) from None
        return state

    def view(self, state: QuadefyState, player: int | None) -> dict[str, Any]:
        cells = cell_blocks(state)
        return {
            "game": "quadefy",
            "to_move": None if state.loser >= 0 else state.to_move,
            "winner": 1 - state.loser if state.loser >= 0 else None,
            "cells": [None if c is None else {"owner": c[0], "block": c[1]} for c in cells],
            "in_hand": [hand_text(r).split() if r else [] for r in state.remaining],
            "moves": [format_placement(ACTIONS[i]) for i in state.moves],
            "options": {"reachability": bool(state.flags & REACH), "stability": bool(state.flags & STABLE)},
        }

    def render(self, state: QuadefyState, player: int | None = None, color: bool = False) -> str:
        return render_state(state, color)

    # ------------------------------------------------------------------ AI hooks
    def mobility(self, state: QuadefyState, player: int) -> int:
        """How many placements ``player`` would have in this position (whoever is to move)."""
        return self.kernel.count(state.occupied, state.remaining[player], state.flags)

    def sample_configs(self) -> list[tuple[dict[str, object], int]]:
        return [
            ({}, 2),
            ({"reachability": False}, 2),
            ({"stability": True}, 2),
            ({"reachability": False, "stability": True}, 2),
        ]


def kernel_of(game: Game[Any, Any]) -> QuadefyKernel:
    """The kernel a Quadefy game object runs: the solvers and players order their moves with it."""
    if not isinstance(game, Quadefy):
        raise TypeError(f"not a Quadefy game object: {game!r}")
    return game.kernel
