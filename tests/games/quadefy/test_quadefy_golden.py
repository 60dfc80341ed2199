"""Golden data: legal-action counts at fixed positions and whole-game traces (seeded random games in every
option set, and a greedy self-play game), replayed exactly.

Regenerate after an intended rules change (and bump ``rules_version``) with::

    QUADEFY_REGEN=1 .venv/bin/pytest tests/games/quadefy/test_quadefy_golden.py -p no:cacheprovider
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from polytable.ai import make_bot
from polytable.core import Rng, get_game

GAME = get_game("quadefy")
DATA = Path(__file__).resolve().parents[2] / "data" / "quadefy" / "golden.json"

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"reachability": False},
    {"stability": True},
    {"reachability": False, "stability": True},
]
COUNT_POSITIONS: list[list[str]] = [
    [],
    ["O r0 @ b2.1"],
    ["O r0 @ b2.1", "O r0 @ b2.2", "I r1 @ a1.1"],
    ["L r15 @ a1.1", "O r0 @ c3.1"],
    ["I r0 @ a1.1", "I r0 @ a4.1", "O r2 @ a2.1", "L r23 @ d2.1", "T r0 @ b1.2"],
]


def _random_trace(options: dict[str, object], seed: int) -> dict[str, Any]:
    rng = Rng(seed, stream=1)
    state = GAME.new_game(options, seed)
    moves = []
    while not GAME.is_terminal(state):
        action = GAME.legal_actions(state).sample(rng)
        moves.append(GAME.format_action(action))
        state = GAME.apply(state, action)
    return {"options": options, "seed": seed, "moves": moves, "winner": GAME.winners(state)[0]}


def _greedy_trace(seed: int) -> dict[str, Any]:
    bot = make_bot("greedy", "quadefy")
    rng = Rng(seed, stream=2)
    state = GAME.new_game({}, seed)
    moves = []
    while not GAME.is_terminal(state):
        action = bot.choose(GAME, state, state.to_move, rng)
        moves.append(GAME.format_action(action))
        state = GAME.apply(state, action)
    return {"options": {}, "seed": seed, "moves": moves, "winner": GAME.winners(state)[0]}


def _counts() -> list[dict[str, Any]]:
    out = []
    for options in OPTION_SETS:
        for moves in COUNT_POSITIONS:
            state = GAME.new_game(options)
            for text in moves:
                state = GAME.apply_text(state, text)
            out.append({"options": options, "moves": moves, "count": GAME.legal_actions(state).count()})
    return out


def _build() -> dict[str, Any]:
    return {
        "rules_version": GAME.spec.rules_version,
        "counts": _counts(),
        "random_games": [_random_trace(o, seed) for o in OPTION_SETS for seed in (1, 2)],
        "greedy_games": [_greedy_trace(3)],
    }


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    if os.environ.get("QUADEFY_REGEN") or not DATA.exists():
        DATA.parent.mkdir(parents=True, exist_ok=True)
        DATA.write_text(json.dumps(_build(), indent=1) + "\n", encoding="utf-8")
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def test_golden_counts(golden: dict[str, Any]) -> None:
    assert golden["rules_version"] == GAME.spec.rules_version
    assert _counts() == golden["counts"]


def test_golden_random_games_replay(golden: dict[str, Any]) -> None:
    for trace in golden["random_games"]:
        assert _random_trace(trace["options"], trace["seed"]) == trace
        # Replaying the recorded moves from text reaches the same end.
        state = GAME.new_game(trace["options"], trace["seed"])
        for text in trace["moves"]:
            state = GAME.apply_text(state, text)
        assert GAME.is_terminal(state) and GAME.winners(state) == (trace["winner"],)


def test_golden_greedy_game(golden: dict[str, Any]) -> None:
    for trace in golden["greedy_games"]:
        assert _greedy_trace(trace["seed"]) == trace
