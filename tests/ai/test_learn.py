"""The self-play pipeline (a tiny run, resumed and reproduced), the value network's weights files (the
shipped ones load, a wrong rules version is refused) and the learned player (legal moves in the arena)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from polytable.ai import arena, make_bot
from polytable.ai._learn import TrainConfig, ValueNet, WeightsError, load_value_net, train
from polytable.ai._learn._train import fit
from polytable.ai.quadefy import _value
from polytable.core import ConfigError, Rng, get_game

GAME = get_game("quadefy")
TINY = TrainConfig(seed=3, iterations=1, games=3, epochs=2, gate_games=2, seconds=0.01, validation_games=2)


def test_network_learns_a_separable_rule() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((512, 5)).astype(np.float32)
    y = (x[:, 0] + x[:, 1] > 0).astype(np.float32)
    net = ValueNet("quadefy", "1", "toy", (5, 8, 1), seed=1)
    before = net.loss(x, y)
    fit(net, x, y, TrainConfig(epochs=30, batch=64, lr=1e-2), seed=2)
    assert net.loss(x, y) < 0.5 * before
    assert ((net.predict(x) > 0.5) == (y > 0.5)).mean() > 0.9


def test_tiny_run_writes_its_curve_and_continues(tmp_path: Path) -> None:
    state = train("quadefy", tmp_path / "run", TINY)
    assert state["iteration"] == 1
    curve = json.loads((tmp_path / "run" / "curve.json").read_text())
    assert [e["iteration"] for e in curve] == [1]
    assert curve[0]["positions"] > 3 and 0.0 <= curve[0]["gate_win_rate"] <= 1.0
    assert (tmp_path / "run" / "curve.png").stat().st_size > 1000
    first = load_value_net(tmp_path / "run" / "candidate-1.npz", "quadefy", GAME.spec.rules_version, _value.FEATURES)
    # Continued: iteration 1 is not played again, iteration 2 is added. A run written before the clock
    # option (no "clock" in its settings) read the wall clock, and continues as such.
    state_path = tmp_path / "run" / "state.json"
    saved = json.loads(state_path.read_text())
    del saved["settings"]["clock"]
    state_path.write_text(json.dumps(saved))
    more = train("quadefy", tmp_path / "run", TrainConfig(**{**TINY.__dict__, "iterations": 2}))
    assert [e["iteration"] for e in more["curve"]] == [1, 2]
    # Reproduced: the same seed in a new folder gives the same first candidate.
    train("quadefy", tmp_path / "again", TINY)
    again = load_value_net(tmp_path / "again" / "candidate-1.npz", "quadefy", GAME.spec.rules_version, _value.FEATURES)
    for a, b in zip(first.weights, again.weights, strict=True):
        np.testing.assert_array_equal(a, b)
    # Other settings on the same folder are refused.
    with pytest.raises(ConfigError, match="other settings"):
        train("quadefy", tmp_path / "run", TrainConfig(**{**TINY.__dict__, "games": 4}))
    with pytest.raises(ConfigError, match="other settings"):
        train("quadefy", tmp_path / "run", TrainConfig(**{**TINY.__dict__, "clock": "cpu"}))
    with pytest.raises(ConfigError, match="clock"):
        TrainConfig(clock="sundial")


def test_self_play_labels_on_either_clock() -> None:
    for clock in ("wall", "cpu"):
        x, y, stats = _value.self_play(None, 1, seed=7, clock=clock)
        assert x.shape == (stats["positions"], _value.N_FEATURES) and set(np.unique(y)) <= {0.0, 1.0}
    with pytest.raises(ConfigError, match="clock"):
        _value.self_play(None, 1, seed=7, clock="sundial")


def test_untrainable_game_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no training pipeline"):
        train("foldris", tmp_path, TINY)


def test_shipped_weights_load_and_a_wrong_version_is_refused(tmp_path: Path) -> None:
    net = _value.VALUE.load()
    state = GAME.new_game(seed=0)
    p = float(net.predict(_value.features(GAME.kernel, state)[None, :])[0])
    assert 0.0 < p < 1.0
    old = ValueNet("quadefy", "0", _value.FEATURES, net.meta.sizes)
    old.save(tmp_path / "old.npz")
    with pytest.raises(WeightsError, match="rules version 0"):
        _value.VALUE.load(tmp_path / "old.npz")
    with pytest.raises(WeightsError, match="for 'quadefy', not 'forma'"):
        load_value_net(tmp_path / "old.npz", "forma", "0", _value.FEATURES)
    with pytest.raises(WeightsError, match="feature set"):
        load_value_net(tmp_path / "old.npz", "quadefy", "0", "other")
    (tmp_path / "junk.npz").write_bytes(b"not a weights file")
    with pytest.raises(WeightsError, match="not a polytable weights file"):
        _value.VALUE.load(tmp_path / "junk.npz")
    with pytest.raises(ConfigError):
        make_bot(f"expert:weights={tmp_path / 'old.npz'}", "quadefy")


def test_features_read_the_position() -> None:
    state = GAME.new_game(seed=0)
    x = _value.features(GAME.kernel, state)
    assert x.shape == (_value.N_FEATURES,) and x[:64].sum() == 0 and x[64:80].sum() == 16
    after = GAME.apply(state, GAME.legal_actions(state).sample(Rng(1)))
    y = _value.features(GAME.kernel, after)
    assert y[:64].sum() == 4 and y[64:72].sum() == 8 and y[72:80].sum() == 7  # the mover's block is gone


def test_expert_plays_legal_moves_in_the_arena() -> None:
    result = arena("quadefy", ["expert:seconds=0.02", "greedy"], 2, seed=5, workers=1)
    assert result["pairs"][0]["games"] == 2
    bot = make_bot("expert:seconds=0.02", "quadefy")
    state = GAME.new_game(seed=1)
    rng = Rng(2)
    while not GAME.is_terminal(state):
        action = bot.choose(GAME, state, state.to_move, rng)
        assert action in list(GAME.legal_actions(state))
        state = GAME.apply(state, action)


def test_cli_refuses_a_game_without_a_pipeline(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from polytable.cli import app

    done = CliRunner().invoke(app, ["train", "foldris", "--out", str(tmp_path / "run")])
    assert done.exit_code == 2 and "no training pipeline for foldris" in done.output
