"""Qwirkle Cubes' learned value: a tiny training run through the shared loop, the features, the weights
files (the shipped ones load, a wrong rules version is refused) and ``expert`` playing legal moves."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from polytable.ai import arena, make_bot
from polytable.ai._learn import TrainConfig, ValueNet, WeightsError, load_value_net, train
from polytable.ai.qwirkle_cubes import _value
from polytable.core import ConfigError, Rng, get_game

GAME = get_game("qwirkle-cubes")
TINY = TrainConfig(
    seed=3, iterations=1, games=2, epochs=2, gate_games=2, seconds=0.005, validation_games=1, clock="cpu"
)


def test_tiny_run_through_the_shared_loop(tmp_path: Path) -> None:
    state = train("qwirkle-cubes", tmp_path / "run", TINY)
    assert state["iteration"] == 1 and state["game"] == "qwirkle-cubes"
    curve = json.loads((tmp_path / "run" / "curve.json").read_text())
    assert curve[0]["positions"] > 10 and 0.0 <= curve[0]["gate_win_rate"] <= 1.0
    rules = GAME.spec.rules_version
    first = load_value_net(tmp_path / "run" / "candidate-1.npz", "qwirkle-cubes", rules, _value.FEATURES)
    train("qwirkle-cubes", tmp_path / "again", TINY)
    again = load_value_net(tmp_path / "again" / "candidate-1.npz", "qwirkle-cubes", rules, _value.FEATURES)
    for a, b in zip(first.weights, again.weights, strict=True):
        np.testing.assert_array_equal(a, b)
    # The weights play: expert with them, in the arena, against greedy.
    weights = tmp_path / "run" / "candidate-1.npz"
    result = arena(
        "qwirkle-cubes", [f"expert:weights={weights},seconds=0.005,clock=cpu", "greedy"], 1, seed=5, workers=1
    )
    assert result["pairs"][0]["games"] == 1


def test_self_play_labels_every_placement() -> None:
    x, y, stats = _value.self_play(None, 1, seed=7)
    assert x.shape == (stats["positions"], _value.N_FEATURES)
    assert set(np.unique(y)) <= {0.0, 0.5, 1.0} and stats["positions"] > 10
    again, _, _ = _value.self_play(None, 1, seed=7)
    np.testing.assert_array_equal(x, again)


def test_features_read_the_table() -> None:
    trail, scores = _value.play_greedy_game(GAME, 4, Rng(1))
    first, p = trail[0]
    last, _ = trail[-1]
    assert first.shape == (_value.N_FEATURES,) and p in (0, 1) and len(scores) == 2
    assert first[3] > last[3]  # the bag empties
    assert last[14:22].sum() > 0  # open lines on a full table


def test_a_wrong_rules_version_is_refused(tmp_path: Path) -> None:
    old = ValueNet("qwirkle-cubes", "0", _value.FEATURES, (_value.N_FEATURES, 4, 1))
    old.save(tmp_path / "old.npz")
    with pytest.raises(WeightsError, match="rules version 0"):
        _value.load(tmp_path / "old.npz")
    with pytest.raises(ConfigError):
        make_bot(f"expert:weights={tmp_path / 'old.npz'}", "qwirkle-cubes")
    other = ValueNet("qwirkle-cubes", GAME.spec.rules_version, "quadefy-v1", (_value.N_FEATURES, 4, 1))
    other.save(tmp_path / "other.npz")
    with pytest.raises(WeightsError, match="feature set"):
        _value.load(tmp_path / "other.npz")


def test_expert_plays_legal_moves(tmp_path: Path) -> None:
    net = _value.new_net(1)
    net.save(tmp_path / "w.npz")
    bot = make_bot(f"expert:weights={tmp_path / 'w.npz'},seconds=0.005,clock=cpu", "qwirkle-cubes")
    state = GAME.new_game(seed=1)
    rng = Rng(2)
    for _ in range(40):
        if GAME.is_terminal(state):
            break
        player = GAME.current_player(state)
        if player < 0:
            state = GAME.apply(state, GAME.chance_outcome(state), player)
            continue
        action = bot.choose(GAME, state, player, rng)
        state = GAME.apply(state, action, player)  # checks legality


def test_expert_without_shipped_weights_says_so() -> None:
    # No weights are shipped (the measured candidate scored below hard): asking for them is a clear error.
    if _value.shipped_weights().exists():
        assert _value.load().meta.features == _value.FEATURES
        return
    with pytest.raises(WeightsError, match="no Qwirkle Cubes weights are shipped"):
        make_bot("expert:seconds=0.01,clock=cpu", "qwirkle-cubes")


def test_tables_offer_expert_only_with_shipped_weights() -> None:
    # A player who picks a level gets a player: without shipped weights `expert` is not offered to tables
    # (the web's list, `polytable games`), though a researcher still names it with weights=FILE.
    from polytable.ai import bot_names
    from polytable.web._base import ai_names

    shipped = _value.shipped_weights().exists()
    assert "expert" in bot_names("qwirkle-cubes")
    assert ("expert" in bot_names("qwirkle-cubes", offered=True)) == shipped
    assert ("expert" in ai_names("qwirkle-cubes")) == shipped
    assert "expert" in ai_names("quadefy")  # shipped weights: offered
