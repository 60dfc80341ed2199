"""FORMFINITY's learned value: a tiny training run through the shared loop, the features, the weights
files (the shipped ones load, a wrong rules version is refused) and ``expert`` playing legal moves."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from polytable.ai import arena, make_bot
from polytable.ai._learn import TrainConfig, ValueNet, WeightsError, load_value_net, train
from polytable.ai.formfinity import _value
from polytable.core import ConfigError, Rng, get_game
from polytable.games.formfinity import setup_of

GAME = get_game("formfinity")
TINY = TrainConfig(seed=3, iterations=1, games=3, epochs=2, gate_games=2, seconds=0.01, validation_games=2, clock="cpu")


def test_tiny_run_through_the_shared_loop(tmp_path: Path) -> None:
    state = train("formfinity", tmp_path / "run", TINY)
    assert state["iteration"] == 1 and state["game"] == "formfinity"
    curve = json.loads((tmp_path / "run" / "curve.json").read_text())
    assert curve[0]["positions"] > 10 and 0.0 <= curve[0]["gate_win_rate"] <= 1.0
    rules = GAME.spec.rules_version
    first = load_value_net(tmp_path / "run" / "candidate-1.npz", "formfinity", rules, _value.FEATURES)
    train("formfinity", tmp_path / "again", TINY)
    again = load_value_net(tmp_path / "again" / "candidate-1.npz", "formfinity", rules, _value.FEATURES)
    for a, b in zip(first.weights, again.weights, strict=True):
        np.testing.assert_array_equal(a, b)
    # The weights play: expert with them, in the arena, against greedy.
    weights = tmp_path / "run" / "candidate-1.npz"
    result = arena("formfinity", [f"expert:weights={weights},seconds=0.01,clock=cpu", "greedy"], 1, seed=5, workers=1)
    assert result["pairs"][0]["games"] == 1


def test_self_play_labels_every_draw() -> None:
    x, y, stats = _value.self_play(None, 2, seed=7)
    assert x.shape == (stats["positions"], _value.N_FEATURES)
    assert set(np.unique(y)) <= {0.0, 0.5, 1.0} and stats["positions"] > 20
    again, _, _ = _value.self_play(None, 2, seed=7)
    np.testing.assert_array_equal(x, again)


def test_features_read_the_sheet() -> None:
    state = GAME.new_game(seed=0)
    setup = setup_of(GAME, state)
    x = _value.features(setup, state, 0)
    assert x.shape == (_value.N_FEATURES,) and x[0] == 1.0 and x[1:16].sum() == 0
    assert x[-2] == 0.0 and x[-1] == 0.0  # nothing drawn, no card drawn
    trail, returns = _value.play_greedy_game(GAME, 4, Rng(1))
    last, _ = trail[-1]
    assert last[-2] > 0.3 and len(returns) == 2


def test_a_wrong_rules_version_is_refused(tmp_path: Path) -> None:
    old = ValueNet("formfinity", "0", _value.FEATURES, (_value.N_FEATURES, 4, 1))
    old.save(tmp_path / "old.npz")
    with pytest.raises(WeightsError, match="rules version 0"):
        _value.load(tmp_path / "old.npz")
    with pytest.raises(ConfigError):
        make_bot(f"expert:weights={tmp_path / 'old.npz'}", "formfinity")
    other = ValueNet("formfinity", GAME.spec.rules_version, "quadefy-v1", (_value.N_FEATURES, 4, 1))
    other.save(tmp_path / "other.npz")
    with pytest.raises(WeightsError, match="feature set"):
        _value.load(tmp_path / "other.npz")


def test_expert_plays_legal_moves() -> None:
    bot = make_bot("expert:seconds=0.005,clock=cpu", "formfinity")
    state = GAME.new_game(seed=1)
    rng = Rng(2)
    for _ in range(30):
        if GAME.is_terminal(state):
            break
        player = GAME.current_player(state)
        if player < 0:
            state = GAME.apply(state, GAME.chance_outcome(state), player)
            continue
        action = bot.choose(GAME, state, player, rng)
        assert action in list(GAME.legal_actions(state, player))
        state = GAME.apply(state, action, player)


def test_shipped_weights_load_and_value_a_sheet() -> None:
    net = _value.load()
    assert net.meta.rules_version == str(GAME.spec.rules_version) and net.meta.features == _value.FEATURES
    state = GAME.new_game(seed=0)
    p = float(net.predict(_value.features(setup_of(GAME, state), state, 0)[None, :])[0])
    assert 0.3 < p < 0.7  # an empty sheet: about even
    assert make_bot("expert:seconds=0.01,clock=cpu", "formfinity").name == "expert"
