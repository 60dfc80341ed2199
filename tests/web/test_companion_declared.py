"""A game that declares a companion gets companion mode in a web room and on the offline table, with no
file of the match or web layers edited: the dealer, the server and the client follow the declaration."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from polytable.core import (
    CHANCE,
    TERMINAL,
    Companion,
    Config,
    Game,
    GameSpec,
    IllegalActionError,
    _registry,
    below,
    register,
    seed_state,
)
from polytable.match import Table, supports

from .conftest import error, hello, state


@dataclass(frozen=True)
class BarsState:
    config: Config
    rng: int
    deck: tuple[int, ...]


class BarsCompanion(Companion[BarsState]):
    together = True

    def cards_left(self, state: BarsState) -> int:
        return len(state.deck)

    def card(self, text: str, config: Config) -> dict[str, Any]:
        n = int(text.split()[-1])
        return {"shape": ["#" * n], "count": n}


class Bars(Game[BarsState, int]):
    """Four cards, bars of 1 to 4 squares, dealt in a seeded order; nothing else happens."""

    spec = GameSpec(
        id="bars", name="Bars", min_players=1, max_players=4, default_players=2, rules_version="1", listed=False
    )
    companion = BarsCompanion()

    def _new(self, config: Config, seed: int) -> BarsState:
        return BarsState(config, seed_state(seed), (1, 2, 3, 4))

    def current_player(self, state: BarsState) -> int:
        return CHANCE if state.deck else TERMINAL

    def _legal(self, state: BarsState, player: int) -> Iterable[int]:
        return state.deck if player == CHANCE else ()

    def _check(self, state: BarsState, action: int, player: int) -> None:
        if action not in state.deck:
            raise IllegalActionError(f"no bar {action!r} is left", "bars.gone", {"bar": action})

    def _apply(self, state: BarsState, action: int, player: int) -> BarsState:
        _, rng = below(state.rng, len(state.deck))
        return replace(state, rng=rng, deck=tuple(c for c in state.deck if c != action))

    def chance_outcome(self, state: BarsState) -> int:
        return state.deck[below(state.rng, len(state.deck))[0]]

    def scores(self, state: BarsState) -> tuple[float, ...]:
        return (0.0,) * state.config.players

    def winners(self, state: BarsState) -> tuple[int, ...]:
        return ()

    def format_action(self, action: int, state: BarsState | None = None) -> str:
        return f"bar {action}"

    def parse_action(self, text: str, state: BarsState | None = None) -> int:
        if text not in ("bar 1", "bar 2", "bar 3", "bar 4"):
            raise IllegalActionError(f"{text!r} is no bar", "bars.text", {"text": text})
        return int(text[-1])

    def num_distinct_actions(self, config: Config) -> int:
        return 4

    def action_id(self, action: int, state: BarsState | None = None) -> int:
        return action - 1

    def action_from_id(self, action_id: int, state: BarsState) -> int:
        return action_id + 1

    def state_to_dict(self, state: BarsState) -> dict[str, Any]:
        return {"config": state.config.to_dict(), "rng": state.rng, "deck": list(state.deck)}

    def state_from_dict(self, data: Mapping[str, Any]) -> BarsState:
        cfg = data["config"]
        return BarsState(self.spec.config(cfg["options"], cfg["players"]), data["rng"], tuple(data["deck"]))

    def view(self, state: BarsState, player: int | None) -> dict[str, Any]:
        return {"left": len(state.deck)}

    def render(self, state: BarsState, player: int | None = None, color: bool = False) -> str:
        return f"{len(state.deck)} bars left"


@pytest.fixture
def bars(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(_registry, "_GAMES", dict(_registry._GAMES))  # forget the game after the test
    register(Bars())
    yield "bars"


def test_a_declared_companion_deals_in_a_web_room(bars: str, client: TestClient) -> None:
    assert supports(bars)
    r = client.post("/api/rooms", json={"game": bars, "mode": "companion", "players": 3, "seed": 5})
    assert r.status_code == 201, r.text
    with client.websocket_connect(f"/ws/{r.json()['code']}") as ws:
        hello(ws)
        msg = state(ws)
        assert msg["companion"]["deck_left"] == 4 and msg["companion"]["turn"] is None
        while msg["companion"]["can_deal"]:
            ws.send_json({"type": "deal", "version": msg["version"]})
            msg = state(ws, lambda m, v=msg["version"]: m["version"] > v)
            card = msg["companion"]["card"]
            assert card["shape"] == ["#" * card["count"]] and card["text"] == f"bar {card['count']}"
        companion = msg["companion"]
        assert sorted(c["count"] for c in companion["history"]) == [1, 2, 3, 4] and companion["deck_left"] == 0
        assert companion["together"] and not companion["can_give"] and companion["deck_print"] is None
        ws.send_json({"type": "deal", "version": msg["version"]})
        assert "empty" in error(ws)["message"]
    offline = Table.companion(bars, {}, 3, 5, [c["text"] for c in companion["history"]])
    assert offline.message()["companion"]["history"] == companion["history"]
