"""The greedy AI plays sensibly through action_value; the printable sheet is a valid PDF."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from polytable.ai import GreedyBot, evaluator, make_bot
from polytable.core import CHANCE, Rng
from polytable.printables import printables
from polytable.printables.foldris import print_sheets

from ._helpers import GAME, make_sheet, make_state


def _solo_lines(seed: int) -> int:
    bot = GreedyBot()
    rng = Rng(seed, 1)
    state = GAME.new_game(seed=seed, players=1)
    while not GAME.is_terminal(state):
        if GAME.current_player(state) == CHANCE:
            state = GAME.apply_chance(state)
        else:
            state = GAME.apply(state, bot.choose(GAME, state, 0, rng), 0)
    return state.sheets[0].lines


def test_greedy_solo_completes_many_lines() -> None:
    lines = [_solo_lines(seed) for seed in range(6)]
    assert sum(lines) / len(lines) >= 7.5, lines


def test_greedy_takes_a_line_and_avoids_a_hole() -> None:
    sheet = make_sheet("####.###\n####.###")
    state = make_state([sheet, make_sheet()], card=("I", 4))
    best = max(GAME.legal_actions(state, 0), key=lambda a: evaluator(GAME).action_value(GAME, state, a, 0))
    assert GAME.format_action(best) == "I r1 c5"
    assert make_bot("greedy", "foldris").choose(GAME, state, 0, Rng(0)) == best


def test_action_value_does_not_look_at_other_players_choices() -> None:
    state = make_state([make_sheet(), make_sheet()], card=("T", 3))
    pending = GAME.apply(state, GAME.parse_action("T r0 c1", state), 1)
    for a in GAME.legal_actions(state, 0):
        assert evaluator(GAME).action_value(GAME, state, a, 0) == evaluator(GAME).action_value(GAME, pending, a, 0)


@pytest.mark.parametrize(("paper", "players", "width"), [("a4", 3, 595.27), ("letter", 1, 612)])
def test_printable_sheet_is_a_pdf_with_one_page_per_player(
    tmp_path: Path, paper: str, players: int, width: float
) -> None:
    out = tmp_path / "sheet.pdf"
    print_sheets(str(out), paper, {"players": str(players)})
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type /Page\b", data)) == players
    assert f"{width}".encode() in data
    assert printables()["foldris"] is print_sheets


def test_printable_options_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="players"):
        print_sheets(str(tmp_path / "x.pdf"), "a4", {"players": "9"})
    with pytest.raises(ValueError, match="paper"):
        print_sheets(str(tmp_path / "x.pdf"), "a3", {})
    print_sheets(str(tmp_path / "tall.pdf"), "a4", {"height": "16"})


def test_solo_stats_command_counts_titles() -> None:
    from polytable.cli.cmd_foldris import solo_stats

    stats = solo_stats(3, seed=0)
    assert stats["games"] == 3 and sum(stats["titles"].values()) == 3 and sum(stats["lines"].values()) == 3
    assert stats["mean_lines"] == round(sum(int(k) * v for k, v in stats["lines"].items()) / 3, 3)
