"""Forma's learned player: what the value's features read, and the tuned evaluation weights ``expert``
ships (loaded for these rules only; the checks every learned value shares are in
``tests/ai/test_learned_values.py``)."""

from __future__ import annotations

import json
from dataclasses import asdict
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from polytable.ai import make_bot
from polytable.ai._learn import WeightsError
from polytable.ai.forma import ENGINE_WEIGHTS, Weights, _value
from polytable.core import ConfigError, Rng, get_game

GAME = get_game("forma")


def test_features_read_the_board() -> None:
    trail, returns = _value.play_game(GAME, 4, Rng(1))
    first, _ = trail[0]
    assert first.shape == (_value.N_FEATURES,) and first[0] == 0.0  # no score yet
    assert np.allclose(first[6:16], 1.0)  # both stocks full
    last, _ = trail[-1]
    assert last[5] < first[5] and last[24] > first[24] and len(returns) == 2


def test_the_shipped_tuned_weights_load_for_these_rules() -> None:
    tuned = _value.load_tuned()
    assert tuned != ENGINE_WEIGHTS and tuned.gift < ENGINE_WEIGHTS.gift
    bot = make_bot("expert:seconds=0.01,clock=cpu", "forma")
    assert bot.name == "expert" and getattr(bot, "weights", None) == tuned and getattr(bot, "net", 0) is None
    assert make_bot("hard", "forma").weights == ENGINE_WEIGHTS  # type: ignore[attr-defined]


def _write(path: Path, **changes: object) -> Path:
    data = json.loads(Path(str(resources.files("polytable.ai.forma") / _value.TUNED_FILE)).read_text())
    data.update(changes)
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rules_version": "1"}, "tuned under forma rules version 1"),
        ({"game": "formfinity"}, "not 'forma'"),
        ({"terms": "forma-place-v0"}, "weighs the terms"),
        ({"weights": {"gift": 3.0}}, "weighs the terms"),
    ],
)
def test_other_tuned_weights_are_refused(tmp_path: Path, changes: dict[str, object], message: str) -> None:
    path = _write(tmp_path / "w.json", **changes)
    with pytest.raises(WeightsError, match=message):
        _value.load_tuned(path)
    with pytest.raises(ConfigError, match=message):
        make_bot(f"expert:tuned={path}", "forma")
    with pytest.raises(WeightsError, match="no weights file"):
        _value.load_tuned(tmp_path / "absent.json")


def test_expert_with_tuned_weights_plays_legal_moves_with_4_players(tmp_path: Path) -> None:
    path = _write(tmp_path / "w.json", weights={**asdict(ENGINE_WEIGHTS), "gift": 1.0})
    bot = make_bot(f"expert:tuned={path},seconds=0.01,clock=cpu", "forma")
    assert getattr(bot, "weights", None) == Weights(**{**asdict(ENGINE_WEIGHTS), "gift": 1.0})
    state = GAME.new_game(seed=3, players=4)
    rng = Rng(4)
    for _ in range(30):
        player = GAME.current_player(state)
        if player < 0:
            state = GAME.apply(state, GAME.chance_outcome(state), player)
            continue
        state = GAME.apply(state, bot.choose(GAME, state, player, rng), player)  # raises on an illegal action
