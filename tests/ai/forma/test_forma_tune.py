"""Forma's tuning of ``expert``'s evaluation weights (``polytable train forma --method tune``): a tiny plan
reproduced, resumed after an interruption to the same end, other settings refused, and its weights file
read by ``load_tuned`` and played by ``expert``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polytable.ai import make_bot
from polytable.ai.forma import ENGINE_WEIGHTS, _value
from polytable.ai.forma._tune import tune
from polytable.core import ConfigError, Rng, get_game

TINY = [(100, {"gift": [3.0, 9.0]}), (300, {"pocket": [0.5]})]
GAMES = 4


def _results(state: dict[str, object]) -> tuple[object, ...]:
    curve = state["curve"]
    assert isinstance(curve, list)
    return (
        state["weights"],
        state["rounds"],
        [(e["weight"], e["value"], e["win_rate"], e["lead"], e["lead_se"]) for e in curve],
    )


class _Stop(Exception):
    pass


def test_a_tiny_plan_is_reproduced_and_resumed(tmp_path: Path) -> None:
    first = tune(tmp_path / "a", GAMES, plan=TINY)
    assert len(first["curve"]) == 3 and len(first["rounds"]) == 2
    assert _results(tune(tmp_path / "b", GAMES, plan=TINY)) == _results(first)
    for name in ("state.json", "curve.json", "weights.json"):
        assert (tmp_path / "a" / name).exists()

    def stop_after_one(line: str) -> None:
        if line.startswith("step 1"):
            raise _Stop

    with pytest.raises(_Stop):
        tune(tmp_path / "c", GAMES, plan=TINY, log=stop_after_one)
    assert len(json.loads((tmp_path / "c" / "state.json").read_text())["curve"]) == 1
    assert not (tmp_path / "c" / "weights.json").exists()
    lines: list[str] = []
    resumed = tune(tmp_path / "c", GAMES, plan=TINY, log=lines.append)
    assert lines[0] == "continuing after step 1" and not any(x.startswith("step 1:") for x in lines)
    assert _results(resumed) == _results(first)
    assert (tmp_path / "c" / "weights.json").read_text() == (tmp_path / "a" / "weights.json").read_text()


def test_other_settings_on_the_same_folder_are_refused(tmp_path: Path) -> None:
    tune(tmp_path / "run", 2, plan=TINY[:1])
    with pytest.raises(ConfigError, match="other settings"):
        tune(tmp_path / "run", 3, plan=TINY[:1])
    with pytest.raises(ConfigError, match="other settings"):
        tune(tmp_path / "run", 2, seed=1, plan=TINY[:1])
    with pytest.raises(ConfigError, match="no weight named"):
        tune(tmp_path / "other", 2, plan=[(1, {"colour": [1.0]})])


def test_the_written_weights_drive_expert(tmp_path: Path) -> None:
    state = tune(tmp_path / "run", GAMES, plan=[(100, {"gift": [3.0]})])
    path = tmp_path / "run" / "weights.json"
    tuned = _value.load_tuned(path)
    assert tuned.__dict__ == state["weights"] and tuned.block == ENGINE_WEIGHTS.block
    bot = make_bot(f"expert:tuned={path},seconds=0.005,clock=cpu", "forma")
    assert getattr(bot, "weights", None) == tuned
    game = get_game("forma")
    st = game.new_game(seed=3, players=2)
    rng = Rng(4)
    while not game.is_terminal(st):
        q = game.current_player(st)
        a = game.chance_outcome(st) if q < 0 else bot.choose(game, st, q, rng)
        if q >= 0:
            assert a in game.legal_actions(st, q)
        st = game.apply(st, a, q)


def test_cli_runs_the_tuning_and_refuses_other_games(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from polytable.cli import app

    bad = CliRunner().invoke(app, ["train", "quadefy", "--method", "tune", "--out", str(tmp_path / "q")])
    assert bad.exit_code == 2 and "no tuning method for quadefy" in bad.output
    bad = CliRunner().invoke(app, ["train", "forma", "--method", "grid", "--out", str(tmp_path / "q")])
    assert bad.exit_code == 2 and "unknown method" in bad.output
    bad = CliRunner().invoke(app, ["train", "forma", "--method", "tune", "--epochs", "3", "--out", str(tmp_path / "e")])
    assert bad.exit_code == 2 and "--epochs: for --method net only" in bad.output
    assert not (tmp_path / "e").exists()
    (tmp_path / "net").mkdir()
    (tmp_path / "net" / "state.json").write_text(json.dumps({"game": "forma", "settings": {"seed": 0}}))
    bad = CliRunner().invoke(app, ["train", "forma", "--method", "tune", "--out", str(tmp_path / "net")])
    assert bad.exit_code == 2 and "other settings" in bad.output
