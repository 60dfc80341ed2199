"""Golden data: legal-action counts at fixed positions and whole-game traces for every variant.

Regenerate after a deliberate rules change with ``FORMFINITY_REGEN=1 pytest tests/games/formfinity`` (and
bump the rules version).
"""

from __future__ import annotations

import json
import os
import pathlib
from typing import Any

import pytest

from polytable.match import Match

from ._helpers import GAME, play_random, position

DATA = pathlib.Path(__file__).parents[2] / "data" / "formfinity"
REGEN = os.environ.get("FORMFINITY_REGEN") == "1"

SLIDE_GRID = ". . . . . . . .\n. # . . . . - .\n. . . . # . . .\n. . . . . . . .\n. . # . . . . .\n. . . . . . . #\n"
SLIDE = {"variant_file": f'template = """\n{SLIDE_GRID}"""\n[goal]\ntype = "lines"\nlength = 4\n'}

COUNT_CASES: list[tuple[str, dict[str, Any], dict[int, str], str, int]] = [
    ("slide-mono-T", SLIDE, {}, "#x1:T:f", 0),
    ("slide-mono-R", SLIDE, {}, "#x1:R:f", 0),
    ("slide-mono-B", SLIDE, {}, "#x1:B:f", 0),
    ("slide-mono-L", SLIDE, {}, "#x1:L:f", 0),
    ("slide-L4-all-rot", SLIDE, {1: "d4 e4"}, "#./#./##x1:TRBL:r", 0),
    ("slide-P5-TB-fixed", SLIDE, {0: "b6"}, "##/##/#.x1:TB:f", 0),
    ("slide-W5-LR-rot", SLIDE, {}, "#../##./.##x1:LR:r", 0),
    ("v1-anywhere-T4", {"variant": "1"}, {0: "a1 b1 c1"}, "###/.#.x1:-:r", 0),
    ("v1-top-I5", {"variant": "1"}, {}, "#####x1:T:r", 0),
    ("v2-area-A-S4", {"variant": "2", "area": 0}, {}, ".##/##.x1:TRBL:r", 0),
    ("v3-p1-first", {"variant": "3"}, {}, "##/#.x1:-:r", 0),
    ("v3-p2-arrows", {"variant": "3"}, {0: "f11 f10"}, "###x1:TB:r", 1),
    ("v4-first", {"variant": "4"}, {}, "##x1:-:r", 0),
    ("v4-connected", {"variant": "4"}, {0: "e6 f6"}, "##/#.x1:-:r", 1),
]


def _counts() -> dict[str, int]:
    out = {}
    for name, options, drawn, card, turn in COUNT_CASES:
        opts = dict(options)
        area = opts.pop("area", -1)
        state = position(opts, drawn=drawn, card=card, turn=turn, area=area)
        legal = GAME.legal_actions(state)
        assert legal.count() == len(list(legal))
        out[name] = legal.count()
    return out


LINES5 = 'template = "blank"\n[goal]\ntype = "lines"\nlength = 5\ntarget = 3\n'
DECK = '{"cards": ["#x2:-:f", "##x1:-:r", "###/#..x1:-:r"]}'

TRACE_CASES: list[tuple[str, dict[str, object], int, int]] = [
    ("v1-easy-2p", {"variant": "1"}, 2, 11),
    ("v1-hard-3p", {"variant": "1", "difficulty": "hard"}, 3, 12),
    ("v2-2p", {"variant": "2"}, 2, 13),
    ("v2-4p", {"variant": "2"}, 4, 14),
    ("v3-2p", {"variant": "3"}, 2, 15),
    ("v4-2p", {"variant": "4"}, 2, 16),
    (
        "custom-lines5",
        {"variant": "custom", "variant_file": 'template = "blank"\n[goal]\ntype = "lines"\nlength = 5\ntarget = 3\n'},
        2,
        17,
    ),
    ("deck-v4", {"variant": "4", "deck": '{"cards": ["#x2:-:f", "##x1:-:r", "###/#..x1:-:r"]}'}, 2, 18),
]


def _traces() -> dict[str, Any]:
    out = {}
    for name, options, players, seed in TRACE_CASES:
        state, log = play_random(options, players, seed)
        out[name] = {"options": options, "players": players, "seed": seed, "log": log,
                     "result": GAME.result(state)}  # fmt: skip
    return out


def _golden(name: str, make: Any) -> Any:
    path = DATA / name
    if REGEN or not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(make(), indent=1) + "\n", encoding="utf-8")
    return json.loads(path.read_text(encoding="utf-8"))


def test_golden_legal_action_counts() -> None:
    assert _counts() == _golden("legal_counts.json", _counts)


@pytest.mark.parametrize("case", [c[0] for c in TRACE_CASES])
def test_golden_traces_replay_exactly(case: str) -> None:
    golden = _golden("traces.json", _traces)[case]
    # Replaying the log through the checked API from (options, seed) reaches the recorded result.
    match = Match(GAME, golden["options"], golden["players"], golden["seed"])
    for text in golden["log"]:
        match.play(GAME.parse_action(text, match.state), GAME.current_player(match.state))
    assert GAME.result(match.state) == golden["result"]
    # And the same seeded random game produces the same log today.
    _, log = play_random(golden["options"], golden["players"], golden["seed"])
    assert log == golden["log"]
