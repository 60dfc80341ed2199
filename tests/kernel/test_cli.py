"""The command line, driven in-process (typer's CliRunner) with the kernel's toy game."""

from __future__ import annotations

import json
import pathlib

from typer.testing import CliRunner

from polytable.cli import app

runner = CliRunner()


def test_version_and_help() -> None:
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0 and r.stdout.startswith("polytable ")
    for cmd in ("games", "play", "simulate", "replay", "bench", "print"):
        r = runner.invoke(app, [cmd, "--help"])
        assert r.exit_code == 0, cmd


def test_games_json_lists_every_registered_game() -> None:
    r = runner.invoke(app, ["games", "--json"])
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    for d in data:
        assert {"id", "name", "players", "options", "rules_version", "ai"} <= set(d)
        assert "random" in d["ai"] and "greedy" in d["ai"]


def test_simulate_json_and_save(tmp_path: pathlib.Path) -> None:
    r = runner.invoke(
        app,
        ["simulate", "toy", "--players", "2", "--games", "4", "--ai", "greedy", "--ai", "random",
         "--option", "rounds=2", "--seed", "3", "--json", "--save", str(tmp_path)],
    )  # fmt: skip
    assert r.exit_code == 0, r.stdout
    out = json.loads(r.stdout)
    assert out["games"] == 4 and len(out["per_game"]) == 4
    assert set(out) == {"game", "config", "players", "games", "seed", "summary", "per_game"}
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 4
    r = runner.invoke(app, ["replay", str(files[0]), "--json"])
    assert r.exit_code == 0, r.stdout
    assert json.loads(r.stdout)["valid"] is True


def test_bad_input_gives_one_clear_line_and_status_2(tmp_path: pathlib.Path) -> None:
    r = runner.invoke(app, ["simulate", "chess"])
    assert r.exit_code == 2 and "unknown game 'chess'" in r.output
    r = runner.invoke(app, ["simulate", "toy", "--option", "rounds=99"])
    assert r.exit_code == 2 and "at most 20" in r.output
    r = runner.invoke(app, ["simulate", "toy", "--ai", "genius"])
    assert r.exit_code == 2 and "no AI named 'genius'" in r.output
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = runner.invoke(app, ["replay", str(bad)])
    assert r.exit_code == 2 and "not a JSON record" in r.output
    r = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert r.exit_code == 2 and "cannot read" in r.output
    r = runner.invoke(app, ["play", "toy", "--ai", "5=greedy"])
    assert r.exit_code == 2 and "no seat 5" in r.output


def test_play_in_the_terminal_with_bad_input_reprompting(tmp_path: pathlib.Path) -> None:
    record = tmp_path / "game.json"
    # Player 1 is a person, player 2 an AI; "9" is refused with the engine's message, then moves follow.
    lines = ["help", "moves", "hint", "9", "undo", "2", "3", "1"]
    r = runner.invoke(
        app,
        ["play", "toy", "--option", "rounds=3", "--ai", "2=greedy", "--seed", "4", "--no-color", "--save", str(record)],
        input="\n".join(lines) + "\n",
    )
    assert r.exit_code == 0, r.output
    assert "is not a move: type 1, 2 or 3" in r.output
    assert "Player 1 has no move to take back" in r.output
    assert "3 legal move(s)" in r.output
    assert "greedy would play: 3" in r.output
    assert "Game over." in r.output
    rec = json.loads(record.read_text())
    assert rec["result"]["terminal"] is True
    assert [a for p, a in rec["actions"] if p == 0] == ["2", "3", "1"]


def test_play_stops_cleanly_when_input_ends() -> None:
    r = runner.invoke(app, ["play", "toy", "--seed", "1"], input="")
    assert r.exit_code == 0 and "Input ended" in r.output


def test_bench_geometry_quick() -> None:
    r = runner.invoke(app, ["bench", "geometry", "--quick", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["geometry"]["tetracubes"] == 8
    r = runner.invoke(app, ["bench", "nothing"])
    assert r.exit_code == 2


def test_arena_command() -> None:
    r = runner.invoke(
        app, ["arena", "toy", "--ai", "random", "--ai", "greedy", "--games", "4", "--option", "rounds=2", "--json"]
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert [row["ai"] for row in data["ladder"]][-1] == "random" or data["ladder"][0]["elo"] >= 0
    r = runner.invoke(app, ["arena", "toy", "--ai", "random", "--games", "2"])
    assert r.exit_code == 2 and "two different" in r.output
