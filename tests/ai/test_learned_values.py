"""Every game's learned value through the same checks: a tiny training run through the shared loop
(reproduced from its seed, its weights playing in the arena), self-play labels, a wrong rules version or
feature set refused, ``expert`` playing legal moves, and ``expert`` offered to tables only with shipped
weights (a clear error without them). What a game's features read stays in its own test file; Quadefy's
run (resumed, on either clock) is in ``test_learn.py``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from polytable.ai import arena, bot_names, make_bot
from polytable.ai._learn import TrainConfig, ValueNet, WeightsError, load_value_net, train
from polytable.ai.forma import _value as forma_value
from polytable.ai.formfinity import _value as formfinity_value
from polytable.ai.quadefy import _value as quadefy_value
from polytable.ai.qwirkle_cubes import _value as qwirkle_value
from polytable.core import ConfigError, Rng, get_game

_TINY = TrainConfig(
    seed=3, iterations=1, games=3, epochs=2, gate_games=2, seconds=0.01, validation_games=2, clock="cpu"
)


@dataclass(frozen=True)
class Case:
    """One game's settings: its ``_value`` module, its tiny run, the positions a tiny run and a small
    self-play give at least, the arena's player count and ``expert``'s options in the tests."""

    game_id: str
    value: ModuleType
    tiny: TrainConfig
    min_run_positions: int
    self_play_games: int
    min_self_play_positions: int
    players: int | None
    expert: str


CASES = [
    Case("forma", forma_value, _TINY, 100, 2, 80, 2, "seconds=0.01,clock=cpu,logit=1"),
    Case("formfinity", formfinity_value, _TINY, 10, 2, 20, None, "seconds=0.005,clock=cpu"),
    Case(
        "qwirkle-cubes",
        qwirkle_value,
        TrainConfig(**{**_TINY.__dict__, "games": 2, "seconds": 0.005, "validation_games": 1}),
        10,
        1,
        10,
        None,
        "seconds=0.005,clock=cpu",
    ),
]
"""The games trained by greedy self-play labelled with the result (Quadefy's own tests: ``test_learn.py``)."""
_IDS = [c.game_id for c in CASES]


@pytest.mark.parametrize("case", CASES, ids=_IDS)
def test_tiny_run_through_the_shared_loop(case: Case, tmp_path: Path) -> None:
    state = train(case.game_id, tmp_path / "run", case.tiny)
    assert state["iteration"] == 1 and state["game"] == case.game_id
    curve = json.loads((tmp_path / "run" / "curve.json").read_text())
    assert curve[0]["positions"] > case.min_run_positions and 0.0 <= curve[0]["gate_win_rate"] <= 1.0
    rules = get_game(case.game_id).spec.rules_version
    first = load_value_net(tmp_path / "run" / "candidate-1.npz", case.game_id, rules, case.value.FEATURES)
    train(case.game_id, tmp_path / "again", case.tiny)
    again = load_value_net(tmp_path / "again" / "candidate-1.npz", case.game_id, rules, case.value.FEATURES)
    for a, b in zip(first.weights, again.weights, strict=True):
        np.testing.assert_array_equal(a, b)
    # The weights play: expert with them, in the arena, against greedy.
    weights = tmp_path / "run" / "candidate-1.npz"
    bots = [f"expert:weights={weights},seconds={case.tiny.seconds},clock=cpu", "greedy"]
    result = arena(case.game_id, bots, 1, players=case.players, seed=5, workers=1)
    assert result["pairs"][0]["games"] == 1


@pytest.mark.parametrize("case", CASES, ids=_IDS)
def test_self_play_labels_every_position(case: Case) -> None:
    x, y, stats = case.value.self_play(None, case.self_play_games, seed=7)
    assert x.shape == (stats["positions"], case.value.N_FEATURES)
    assert set(np.unique(y)) <= {0.0, 0.5, 1.0} and stats["positions"] > case.min_self_play_positions
    again, _, _ = case.value.self_play(None, case.self_play_games, seed=7)
    np.testing.assert_array_equal(x, again)


@pytest.mark.parametrize("case", CASES, ids=_IDS)
def test_a_wrong_rules_version_or_feature_set_is_refused(case: Case, tmp_path: Path) -> None:
    old = ValueNet(case.game_id, "0", case.value.FEATURES, (case.value.N_FEATURES, 4, 1))
    old.save(tmp_path / "old.npz")
    with pytest.raises(WeightsError, match="rules version 0"):
        case.value.VALUE.load(tmp_path / "old.npz")
    with pytest.raises(ConfigError):
        make_bot(f"expert:weights={tmp_path / 'old.npz'}", case.game_id)
    rules = get_game(case.game_id).spec.rules_version
    other = ValueNet(case.game_id, rules, "quadefy-v1", (case.value.N_FEATURES, 4, 1))
    other.save(tmp_path / "other.npz")
    with pytest.raises(WeightsError, match="feature set"):
        case.value.VALUE.load(tmp_path / "other.npz")


@pytest.mark.parametrize("case", CASES, ids=_IDS)
def test_expert_plays_legal_moves(case: Case, tmp_path: Path) -> None:
    game = get_game(case.game_id)
    weights = tmp_path / "w.npz"
    case.value.VALUE.new_net(1).save(weights)
    bot = make_bot(f"expert:weights={weights},{case.expert}", case.game_id)
    assert bot.name == "expert"
    if "logit=1" in case.expert:
        assert getattr(bot, "logit", False)
    state = game.new_game(seed=1, players=case.players) if case.players else game.new_game(seed=1)
    rng = Rng(2)
    for _ in range(40):
        if game.is_terminal(state):
            break
        player = game.current_player(state)
        if player < 0:
            state = game.apply(state, game.chance_outcome(state), player)
            continue
        action = bot.choose(game, state, player, rng)
        state = game.apply(state, action, player)  # raises on an illegal action


@pytest.mark.parametrize("value", [forma_value, formfinity_value, quadefy_value, qwirkle_value])
def test_expert_is_offered_only_with_shipped_weights(value: ModuleType) -> None:
    # A player who picks a level gets a player: without shipped weights `expert` is not offered to tables
    # (the web's list, `polytable games`), though a researcher still names it with weights=FILE; asking for
    # the shipped weights then is a clear error.
    from polytable.web._base import ai_names

    game_id = value.VALUE.game_id
    tuned = getattr(value, "TUNED_FILE", None)  # Forma's expert ships tuned evaluation weights, not a network
    shipped_file = value.VALUE.shipped_weights().with_name(tuned) if tuned else value.VALUE.shipped_weights()
    shipped = shipped_file.is_file()
    assert "expert" in bot_names(game_id)
    assert ("expert" in bot_names(game_id, offered=True)) == shipped
    assert ("expert" in ai_names(game_id)) == shipped
    if shipped:
        if tuned:
            value.load_tuned()
        else:
            assert value.VALUE.load().meta.features == value.FEATURES
        return
    name = get_game(game_id).spec.name
    with pytest.raises(WeightsError, match=f"no {name} weights are shipped"):
        make_bot("expert:seconds=0.01,clock=cpu", game_id)


def test_expert_is_not_offered_without_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    # A base install has no NumPy: the learned level would fail when picked, so no table offers it.
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "numpy" else real(name, *a))
    for value in (forma_value, formfinity_value, quadefy_value, qwirkle_value):
        assert "expert" not in bot_names(value.VALUE.game_id, offered=True)
