"""Golden data: legal-action counts at fixed sheets and cards, and whole-game playthrough traces.

Regenerate after an intended rules change (and bump the rules version):
``FOLDRIS_REGEN=1 .venv/bin/pytest tests/games/foldris/test_foldris_golden.py -p no:cacheprovider``
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from polytable.ai import GreedyBot
from polytable.ai.foldris import _eval
from polytable.core import CHANCE, Rng

from ._helpers import GAME, make_sheet, make_state

DATA = Path(__file__).resolve().parents[2] / "data" / "foldris"
REGEN = os.environ.get("FOLDRIS_REGEN") == "1"

SHEETS = {
    "empty": ("", 12),
    "start-lane-4": ("...##...\n...##...", 12),
    "cluttered": (
        """
        ........
        .#......
        .##...#.
        ###.#.##
        ####.###
        """,
        12,
    ),
    "barrier": (
        """
        ..==....
        ..#.....
        #####.##
        """,
        10,
    ),
    "near-top": (
        """
        ##......
        ###..#.#
        ###.####
        """,
        4,
    ),
}
CARDS = [("I", 1), ("O", 5), ("T", 2), ("S", 6), ("Z", 2), ("J", 5), ("L", 1)]


def _counts() -> dict[str, int]:
    out = {}
    for sheet_name, (drawing, height) in SHEETS.items():
        for players in (1, 3):
            for bonus in (0, 1, 2, 3):
                for card in CARDS:
                    sheet = make_sheet(drawing, height=height, bonus=bonus)
                    state = make_state([sheet] * players, card=card)
                    key = f"{sheet_name} {players}p bonus={bonus} {card[0]}"
                    out[key] = GAME.legal_actions(state, 0).count()
    return out


def _load(name: str, fresh: Any) -> Any:
    path = DATA / name
    if REGEN:
        DATA.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(fresh, indent=1, sort_keys=True) + "\n")
    return json.loads(path.read_text())


def test_hand_counted_legal_actions_on_an_empty_sheet() -> None:
    def count(card: tuple[str, int], bonus: int, players: int = 3) -> int:
        return GAME.legal_actions(make_state([make_sheet(bonus=bonus)] * players, card=card), 0).count()

    assert count(("T", 2), 0) == 6 + 7 + 6 + 7  # four rotations, widths 3, 2, 3, 2
    assert count(("T", 2), 1) == 26  # a mirrored T is a T
    assert count(("T", 2), 2) == 26 + 4 * 7 + (6 + 8)  # + trimmed: the bent tromino x4, the straight x2
    assert count(("T", 2), 1, players=1) == 68  # solo: trimming costs 1
    assert count(("I", 1), 0) == 5 + 8
    assert count(("I", 1), 2) == 13 + 6 + 8  # only an end square can go: a straight tromino
    assert count(("O", 5), 0) == 7
    assert count(("O", 5), 2) == 7 + 4 * 7  # trimmed O: the bent tromino, 4 ways
    assert count(("S", 6), 0) == 6 + 7
    assert count(("S", 6), 1) == 26  # + Z
    assert count(("S", 6), 3) == 26 + 4 * 7  # trimming an end of S or Z: the bent tromino
    assert count(("L", 1), 1) == 2 * (6 + 7 + 6 + 7)  # L and J


def test_golden_legal_action_counts() -> None:
    fresh = _counts()
    assert _load("legal_counts.json", fresh) == fresh


# The traces are played by the greedy AI with these weights frozen, so tuning the AI does not move them.
FROZEN_WEIGHTS = {
    "landing": -4.5,
    "lines": 3.4,
    "row_transitions": -3.2,
    "col_transitions": -9.3,
    "holes": -7.9,
    "wells": -3.4,
    "bonus": 6.0,
    "barrier_gap": -4.0,
    "danger": -40.0,
    "trimmed": -6.0,
    "bump": 0.0,
    "hole_rows": 0.0,
}


def _playthrough(players: int, seed: int) -> dict[str, Any]:
    bot = GreedyBot()
    rng = Rng(seed, stream=5)
    state = GAME.new_game(seed=seed, players=players)
    log = []
    rounds = []
    while not GAME.is_terminal(state):
        if GAME.current_player(state) == CHANCE:
            action = GAME.chance_outcome(state)
            log.append(["chance", GAME.format_action(action, state)])
            state = GAME.apply(state, action, CHANCE)
            continue
        for p in GAME.acting_players(state):
            action = bot.choose(GAME, state, p, rng)
            log.append([p + 1, GAME.format_action(action, state)])
            state = GAME.apply(state, action, p)
        rounds.append([[s.lines, s.bonus, s.height, s.out, bin(s.barrier).count("1")] for s in state.sheets])
    return {
        "players": players,
        "seed": seed,
        "log": log,
        "after_each_round": rounds,
        "final": GAME.state_to_dict(state),
        "result": GAME.result(state),
    }


@pytest.mark.parametrize(("players", "seed"), [(1, 11), (4, 22)])
def test_golden_playthrough(players: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_eval, "WEIGHTS", FROZEN_WEIGHTS)
    fresh = json.loads(json.dumps(_playthrough(players, seed)))
    golden = _load(f"playthrough_{players}p.json", fresh)
    assert golden == fresh
    # The recorded log replays to the same end.
    state = GAME.new_game(seed=seed, players=players)
    for who, text in golden["log"]:
        state = GAME.apply_text(state, text, CHANCE if who == "chance" else who - 1)
    assert GAME.state_to_dict(state) == golden["final"]
