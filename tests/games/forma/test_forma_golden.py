"""Golden data: legal-action counts at fixed positions (like perft files) and whole-game traces.

Regenerate after an intended rules change (and bump ``rules_version``) with::

    FORMA_REGEN=1 .venv/bin/pytest tests/games/forma/test_forma_golden.py -p no:cacheprovider
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from polytable.core import Rng

from .forma_helpers import GAME

DATA = Path(__file__).resolve().parents[2] / "data" / "forma"
REGEN = os.environ.get("FORMA_REGEN") == "1"

# Rules version 1's defaults, now the house rules (a random set-up from the seed, no touch-move): the
# positions and traces recorded under version 1 replay unchanged with them.
V1 = {"placement": "random", "touch_move": False}

# name -> (options, players, seed, random moves before counting, rng seed)
POSITIONS = {
    "empty, tower only": ({**V1, "setup": "tower j10"}, 4, 0, 0, 0),
    "default 10 obstacles, seed 1": (V1, 4, 1, 0, 0),
    "25 obstacles, seed 2": ({**V1, "obstacles": 25}, 4, 2, 0, 0),
    "20x20, 25 obstacles, seed 3": ({**V1, "size": 20, "obstacles": 25}, 4, 3, 0, 0),
    "mid-game after 20 moves": (V1, 4, 4, 20, 4),
    "mid-game after 40 moves": (V1, 4, 5, 40, 5),
    "late game after 55 moves": (V1, 4, 6, 55, 6),
    "2 players after 30 moves": (V1, 2, 7, 30, 7),
    "3 players after 30 moves": (V1, 3, 8, 30, 8),
    "touch-move, piece in hand": ({**V1, "touch_move": True}, 4, 9, 21, 9),
    "rules v2: the set-up, nothing placed yet": ({}, 4, 10, 0, 0),
    "rules v2: the set-up, 6 placed": ({}, 4, 11, 6, 11),
    "rules v2: 20x20, the set-up, 20 placed": ({"size": 20, "obstacles": 25}, 2, 12, 20, 12),
    "rules v2: after the set-up and 15 actions": ({}, 3, 13, 26, 13),
}

TRACES = {
    "2 players": (V1, 2, 11),
    "3 players": (V1, 3, 12),
    "4 players": (V1, 4, 13),
    "4 players, touch-move": ({**V1, "touch_move": True}, 4, 14),
    "2 players, 20x20, 25 obstacles": ({**V1, "size": 20, "obstacles": 25}, 2, 15),
    "rules v2, 4 players": ({}, 4, 16),
    "rules v2, 2 players, 25 obstacles": ({"obstacles": 25}, 2, 17),
}


def _position(options, players, seed, moves, rng_seed):
    s = GAME.new_game(options, seed=seed, players=players)
    rng = Rng(rng_seed)
    for _ in range(moves):
        s = GAME.apply(s, GAME.legal_actions(s).sample(rng))
    return s


def _counts() -> dict[str, int]:
    return {name: GAME.legal_actions(_position(*spec)).count() for name, spec in POSITIONS.items()}


def _trace(options, players, seed):
    s = GAME.new_game(options, seed=seed, players=players)
    rng = Rng(seed)
    moves = []
    while not GAME.is_terminal(s):
        a = GAME.legal_actions(s).sample(rng)
        moves.append(f"{s.turn + 1}: {GAME.format_action(a, s)}")
        s = GAME.apply(s, a)
    return {
        "options": options,
        "players": players,
        "seed": seed,
        "moves": moves,
        "scores": list(s.scores),
        "bridges": list(s.bridges),
        "winners": list(GAME.winners(s)),
    }


def _load(name: str, make):
    path = DATA / name
    if REGEN or not path.exists():
        if not REGEN:
            pytest.fail(f"{path} is missing; run with FORMA_REGEN=1 to create it")
        DATA.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(make(), indent=1) + "\n")
    return json.loads(path.read_text())


def test_golden_legal_counts():
    golden = _load("legal_counts.json", _counts)
    assert _counts() == golden


@pytest.mark.parametrize("name", list(POSITIONS))
def test_count_equals_iteration(name):
    s = _position(*POSITIONS[name])
    legal = GAME.legal_actions(s)
    actions = list(legal)
    assert len(actions) == len(set(actions)) == legal.count()


def test_golden_traces():
    golden = _load("traces.json", lambda: {k: _trace(*v) for k, v in TRACES.items()})
    for name, spec in TRACES.items():
        assert _trace(*spec) == golden[name], name


@pytest.mark.parametrize("name", list(TRACES))
def test_trace_replays_from_notation(name):
    golden = _load("traces.json", lambda: {k: _trace(*v) for k, v in TRACES.items()})[name]
    s = GAME.new_game(golden["options"], seed=golden["seed"], players=golden["players"])
    for line in golden["moves"]:
        who, text = line.split(": ", 1)
        assert s.turn == int(who) - 1
        s = GAME.apply_text(s, text)
    assert GAME.is_terminal(s)
    assert list(s.scores) == golden["scores"]
    assert list(GAME.winners(s)) == golden["winners"]
