"""Forma's learned value: a tiny training run through the shared loop, the features, the weights files
(a wrong rules version or feature set is refused) and ``expert`` playing legal moves."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from polytable.ai import arena, make_bot
from polytable.ai._learn import TrainConfig, ValueNet, WeightsError, load_value_net, train
from polytable.ai.forma import _value
from polytable.core import ConfigError, Rng, get_game

GAME = get_game("forma")
TINY = TrainConfig(seed=3, iterations=1, games=3, epochs=2, gate_games=2, seconds=0.01, validation_games=2, clock="cpu")


def test_tiny_run_through_the_shared_loop(tmp_path: Path) -> None:
    state = train("forma", tmp_path / "run", TINY)
    assert state["iteration"] == 1 and state["game"] == "forma"
    curve = json.loads((tmp_path / "run" / "curve.json").read_text())
    assert curve[0]["positions"] > 100 and 0.0 <= curve[0]["gate_win_rate"] <= 1.0
    rules = GAME.spec.rules_version
    first = load_value_net(tmp_path / "run" / "candidate-1.npz", "forma", rules, _value.FEATURES)
    train("forma", tmp_path / "again", TINY)
    again = load_value_net(tmp_path / "again" / "candidate-1.npz", "forma", rules, _value.FEATURES)
    for a, b in zip(first.weights, again.weights, strict=True):
        np.testing.assert_array_equal(a, b)
    # The weights play: expert with them, in a 2-player arena game against greedy.
    weights = tmp_path / "run" / "candidate-1.npz"
    bots = [f"expert:weights={weights},seconds=0.01,clock=cpu", "greedy"]
    result = arena("forma", bots, 1, players=2, seed=5, workers=1)
    assert result["pairs"][0]["games"] == 1


def test_self_play_labels_every_placement() -> None:
    x, y, stats = _value.self_play(None, 2, seed=7)
    assert x.shape == (stats["positions"], _value.N_FEATURES)
    assert set(np.unique(y)) <= {0.0, 0.5, 1.0} and stats["positions"] > 80
    again, _, _ = _value.self_play(None, 2, seed=7)
    np.testing.assert_array_equal(x, again)


def test_features_read_the_board() -> None:
    trail, returns = _value.play_game(GAME, 4, Rng(1))
    first, _ = trail[0]
    assert first.shape == (_value.N_FEATURES,) and first[0] == 0.0  # no score yet
    assert np.allclose(first[6:16], 1.0)  # both stocks full
    last, _ = trail[-1]
    assert last[5] < first[5] and last[24] > first[24] and len(returns) == 2


def test_a_wrong_rules_version_is_refused(tmp_path: Path) -> None:
    old = ValueNet("forma", "0", _value.FEATURES, (_value.N_FEATURES, 4, 1))
    old.save(tmp_path / "old.npz")
    with pytest.raises(WeightsError, match="rules version 0"):
        _value.load(tmp_path / "old.npz")
    with pytest.raises(ConfigError):
        make_bot(f"expert:weights={tmp_path / 'old.npz'}", "forma")
    other = ValueNet("forma", GAME.spec.rules_version, "quadefy-v1", (_value.N_FEATURES, 4, 1))
    other.save(tmp_path / "other.npz")
    with pytest.raises(WeightsError, match="feature set"):
        _value.load(tmp_path / "other.npz")


def test_expert_plays_legal_moves(tmp_path: Path) -> None:
    weights = tmp_path / "w.npz"
    _value.new_net(1).save(weights)
    bot = make_bot(f"expert:weights={weights},seconds=0.01,clock=cpu,logit=1", "forma")
    assert bot.name == "expert" and getattr(bot, "logit", False)
    state = GAME.new_game(seed=1, players=2)
    rng = Rng(2)
    for _ in range(40):
        if GAME.is_terminal(state):
            break
        player = GAME.current_player(state)
        if player < 0:
            state = GAME.apply(state, GAME.chance_outcome(state), player)
            continue
        action = bot.choose(GAME, state, player, rng)
        assert action in GAME.legal_actions(state, player)
        state = GAME.apply(state, action, player)


def test_expert_is_offered_only_with_shipped_weights() -> None:
    from polytable.ai import bot_names, forma

    assert "expert" in forma.PLAYERS  # reachable by name, with weights=FILE
    assert ("expert" in bot_names("forma", offered=True)) == forma.SHIPPED_WEIGHTS.is_file()
