"""A throwaway game package written to a temporary folder at test time and installed there as a
distribution with a ``polytable.games`` entry point: the proof that adding a game is one package."""

from __future__ import annotations

import importlib
import pathlib
import sys
import textwrap
from collections.abc import Iterator

import pytest

from polytable.core import _registry

NIM = '''
"""Nim: take 1-3 stones from one pile in turn; whoever takes the last stone wins."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from polytable.core import (
    TERMINAL, Config, Game, GameSpec, IllegalActionError, Option, StateFormatError, register, require,
    require_int, turns_in_rotation,
)


@dataclass(frozen=True)
class NimState:
    config: Config
    left: int
    moves: int


class Nim(Game[NimState, int]):
    spec = GameSpec(
        id="nim", name="Nim", min_players=2, max_players=3, default_players=2, rules_version="1",
        options=(Option("stones", "int", 10, "stones in the pile", min=1, max=50),), summary="Take the last stone.",
    )

    def _new(self, config: Config, seed: int) -> NimState:
        return NimState(config, config.int("stones"), 0)

    def current_player(self, state: NimState) -> int:
        return TERMINAL if state.left == 0 else state.moves % state.config.players

    def _legal(self, state: NimState, player: int) -> Iterable[int]:
        return range(1, min(3, state.left) + 1) if player == self.current_player(state) else ()

    def _check(self, state: NimState, action: int, player: int) -> None:
        if type(action) is not int or not 1 <= action <= min(3, state.left):
            raise IllegalActionError(f"take 1 to {min(3, state.left)} stones, not {action!r}", "nim_take")

    def _apply(self, state: NimState, action: int, player: int) -> NimState:
        return NimState(state.config, state.left - action, state.moves + 1)

    def turns_begun(self, state: NimState) -> tuple[int, ...]:
        return turns_in_rotation(state.moves + (state.left > 0), state.config.players)  # one in progress counts

    def scores(self, state: NimState) -> tuple[float, ...]:
        return tuple(float(p in self.winners(state)) for p in range(state.config.players))

    def winners(self, state: NimState) -> tuple[int, ...]:
        return ((state.moves - 1) % state.config.players,) if state.left == 0 else ()

    def format_action(self, action: int, state: NimState | None = None) -> str:
        return str(action)

    def parse_action(self, text: str, state: NimState | None = None) -> int:
        if text.strip() not in ("1", "2", "3"):
            raise IllegalActionError(f"{text!r} is not a move: type 1, 2 or 3")
        return int(text)

    def num_distinct_actions(self, config: Config) -> int:
        return 3

    def action_id(self, action: int, state: NimState | None = None) -> int:
        return action - 1

    def action_from_id(self, action_id: int, state: NimState) -> int:
        if type(action_id) is not int or not 0 <= action_id < 3:
            raise IllegalActionError(f"no action has id {action_id!r}")
        return action_id + 1

    def state_to_dict(self, state: NimState) -> dict[str, Any]:
        return {"config": state.config.to_dict(), "left": state.left, "moves": state.moves}

    def state_from_dict(self, data: Mapping[str, Any]) -> NimState:
        cfg = require(data, "config")
        try:
            config = self.spec.config(cfg["options"], cfg["players"])
        except (KeyError, TypeError) as exc:
            raise StateFormatError("bad config") from exc
        return NimState(config, require_int(data, "left", 0, 50), require_int(data, "moves", 0))

    def view(self, state: NimState, player: int | None) -> dict[str, Any]:
        return {"left": state.left}

    def render(self, state: NimState, player: int | None = None, color: bool = False) -> str:
        return f"{state.left} stones left"


GAME = register(Nim())
'''


@pytest.fixture
def nim(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The package ``throwaway_nim`` in a temporary folder, installed as a distribution with an entry point."""
    (tmp_path / "throwaway_nim").mkdir()
    (tmp_path / "throwaway_nim" / "__init__.py").write_text(textwrap.dedent(NIM), encoding="utf-8")
    info = tmp_path / "throwaway_nim-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: throwaway-nim\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[polytable.games]\nnim = throwaway_nim\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    monkeypatch.setattr(_registry, "_GAMES", dict(_registry._GAMES))  # forget the game after the test
    monkeypatch.setattr(_registry, "_loaded", set())  # as in a process started after the installation
    yield "nim"
    sys.modules.pop("throwaway_nim", None)
