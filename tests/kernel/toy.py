"""A tiny game used only by the kernel's own tests: it has chance nodes and simultaneous rounds, so the
protocol, matches, records and the conformance suite are exercised before (and besides) the real games.

Each round a die (1-3) is rolled (chance), then every player at once secretly picks 1, 2 or 3; each
player's pick times the die is added to their score. After ``rounds`` rounds the highest score wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from polytable.core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Config,
    Game,
    GameSpec,
    IllegalActionError,
    Option,
    Rng,
    StateFormatError,
    below,
    require,
    require_int,
    require_list,
    seed_state,
)


@dataclass(frozen=True)
class ToyState:
    config: Config
    rng: int
    round: int
    die: int  # 0 = not rolled yet this round
    scores: tuple[int, ...]
    pending: tuple[int, ...]  # 0 = not chosen


class ToyGame(Game[ToyState, int]):
    spec = GameSpec(
        id="toy",
        name="Toy",
        min_players=1,
        max_players=3,
        default_players=2,
        rules_version="1",
        options=(Option("rounds", "int", 3, "rounds to play", min=1, max=20),),
        chance=True,
        simultaneous=True,
        hidden_information=True,
        listed=False,
    )

    def _new(self, config: Config, seed: int) -> ToyState:
        n = config.players
        return ToyState(config, seed_state(seed), 0, 0, (0,) * n, (0,) * n)

    def current_player(self, state: ToyState) -> int:
        if state.round >= state.config.int("rounds"):
            return TERMINAL
        if state.die == 0:
            return CHANCE
        return SIMULTANEOUS

    def acting_players(self, state: ToyState) -> tuple[int, ...]:
        if self.current_player(state) != SIMULTANEOUS:
            return ()
        return tuple(p for p, v in enumerate(state.pending) if v == 0)

    def _legal(self, state: ToyState, player: int) -> Iterable[int]:
        if player == CHANCE:
            return (1, 2, 3)
        return (1, 2, 3)

    def _check(self, state: ToyState, action: int, player: int) -> None:
        if not isinstance(action, int) or action not in (1, 2, 3):
            raise IllegalActionError(f"pick 1, 2 or 3, not {action!r}")

    def _apply(self, state: ToyState, action: int, player: int) -> ToyState:
        if player == CHANCE:
            _, rng = below(state.rng, 3)
            return replace(state, die=action, rng=rng)
        pending = list(state.pending)
        pending[player] = action
        if all(pending):
            scores = tuple(s + p * state.die for s, p in zip(state.scores, pending, strict=True))
            n = len(pending)
            return replace(state, scores=scores, pending=(0,) * n, die=0, round=state.round + 1)
        return replace(state, pending=tuple(pending))

    def determinize(self, state: ToyState, player: int, rng: Rng) -> ToyState:
        # Future dice are unknown to every player: a fresh generator state.
        return replace(state, rng=rng.u64())

    def chance_outcome(self, state: ToyState) -> int:
        return below(state.rng, 3)[0] + 1

    def chance_outcomes(self, state: ToyState) -> list[tuple[int, float]]:
        return [(d, 1 / 3) for d in (1, 2, 3)]

    def turns_begun(self, state: ToyState) -> tuple[int, ...]:
        """Everyone picks once a round; a round begins with its roll."""
        return (state.round + (1 if state.die else 0),) * state.config.players

    def scores(self, state: ToyState) -> tuple[float, ...]:
        return tuple(float(s) for s in state.scores)

    def winners(self, state: ToyState) -> tuple[int, ...]:
        if not self.is_terminal(state):
            return ()
        best = max(state.scores)
        return tuple(p for p, s in enumerate(state.scores) if s == best)

    def returns(self, state: ToyState) -> tuple[float, ...]:
        if state.config.players == 1:
            return (state.scores[0] / (9.0 * state.config.int("rounds")),) if self.is_terminal(state) else (0.0,)
        return super().returns(state)

    def format_action(self, action: int, state: ToyState | None = None) -> str:
        return str(action)

    def parse_action(self, text: str, state: ToyState | None = None) -> int:
        t = text.strip()
        if t not in ("1", "2", "3"):
            raise IllegalActionError(f"{text!r} is not a move: type 1, 2 or 3")
        return int(t)

    def num_distinct_actions(self, config: Config) -> int:
        return 3

    def action_id(self, action: int, state: ToyState | None = None) -> int:
        return action - 1

    def action_from_id(self, action_id: int, state: ToyState) -> int:
        if not 0 <= action_id < 3:
            raise IllegalActionError(f"no action has id {action_id}")
        return action_id + 1

    def state_to_dict(self, state: ToyState) -> dict[str, Any]:
        return {
            "config": state.config.to_dict(),
            "rng": state.rng,
            "round": state.round,
            "die": state.die,
            "scores": list(state.scores),
            "pending": list(state.pending),
        }

    def state_from_dict(self, data: Mapping[str, Any]) -> ToyState:
        cfg = require(data, "config")
        try:
            config = self.spec.config(cfg["options"], cfg["players"])
        except (KeyError, TypeError) as exc:
            raise StateFormatError("bad config") from exc
        n = config.players
        return ToyState(
            config,
            require_int(data, "rng", 0),
            require_int(data, "round", 0),
            require_int(data, "die", 0, 3),
            tuple(int(x) for x in require_list(data, "scores", n)),
            tuple(int(x) for x in require_list(data, "pending", n)),
        )

    def view(self, state: ToyState, player: int | None) -> dict[str, Any]:
        return {
            "round": state.round,
            "die": state.die,
            "scores": list(state.scores),
            "chosen": [p != 0 for p in state.pending],
            "my_pick": state.pending[player] if player is not None else None,
        }

    def render(self, state: ToyState, player: int | None = None, color: bool = False) -> str:
        return f"round {state.round + 1}, die {state.die}, scores {list(state.scores)}"
