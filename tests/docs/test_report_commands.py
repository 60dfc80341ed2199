"""Every finding in docs/reports/ comes from its checked-in command file: each one runs here at a small
size and its report renders; the full-size report beside it was made from that file under the rules it
states, which are the game's rules today (a new rules version means the figures must be made again)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from polytable.analysis import analyse, grid_configs, read_plan, write_report
from polytable.core import get_game

REPORTS = Path(__file__).resolve().parents[2] / "docs" / "reports"
COMMANDS = sorted(REPORTS.glob("*/command.toml"))


def test_every_report_has_its_command_file() -> None:
    folders = {p.parent for p in REPORTS.glob("*/report.json")}
    assert folders <= {p.parent for p in COMMANDS}


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS, ids=[p.parent.name for p in COMMANDS])
def test_the_command_file_runs_small_and_renders(command: Path, tmp_path: Path) -> None:
    plan = read_plan(command)
    plan.games = 2
    plan.ladder, plan.ladder_games = plan.ladder[:2], 2  # the cheap rungs: the whole ladder is the full run's
    data = analyse(plan, base=command.parent)
    page = write_report(tmp_path, data).read_text(encoding="utf-8")
    assert f"rules version <b>{get_game(plan.game).spec.rules_version}</b>" in page
    assert page.count("<svg") >= 3 and len(data["configurations"]) == len(grid_configs(plan, command.parent))


@pytest.mark.parametrize("command", COMMANDS, ids=[p.parent.name for p in COMMANDS])
def test_the_full_report_is_the_command_files_under_todays_rules(command: Path) -> None:
    report = command.parent / "report.json"
    if not report.exists():
        pytest.skip("the full-size report has not been made yet")
    data = json.loads(report.read_text(encoding="utf-8"))
    plan = read_plan(command)
    assert data["rules_version"] == get_game(plan.game).spec.rules_version, "make the report again"
    assert data["games"] == plan.games and data["title"] == plan.title
    assert [c["label"] for c in data["configurations"]] == [label for label, _ in grid_configs(plan, command.parent)]
