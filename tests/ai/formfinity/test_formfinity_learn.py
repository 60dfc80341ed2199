"""FORMFINITY's learned value: what its features read and the shipped weights valuing a sheet (the checks
every learned value shares are in ``tests/ai/test_learned_values.py``)."""

from __future__ import annotations

from polytable.ai import make_bot
from polytable.ai.formfinity import _value
from polytable.core import Rng, get_game
from polytable.games.formfinity import setup_of

GAME = get_game("formfinity")


def test_features_read_the_sheet() -> None:
    state = GAME.new_game(seed=0)
    setup = setup_of(GAME, state)
    x = _value.features(setup, state, 0)
    assert x.shape == (_value.N_FEATURES,) and x[0] == 1.0 and x[1:16].sum() == 0
    assert x[-2] == 0.0 and x[-1] == 0.0  # nothing drawn, no card drawn
    trail, returns = _value.play_greedy_game(GAME, 4, Rng(1))
    last, _ = trail[-1]
    assert last[-2] > 0.3 and len(returns) == 2


def test_shipped_weights_load_and_value_a_sheet() -> None:
    net = _value.VALUE.load()
    assert net.meta.rules_version == str(GAME.spec.rules_version) and net.meta.features == _value.FEATURES
    state = GAME.new_game(seed=0)
    p = float(net.predict(_value.features(setup_of(GAME, state), state, 0)[None, :])[0])
    assert 0.3 < p < 0.7  # an empty sheet: about even
    assert make_bot("expert:seconds=0.01,clock=cpu", "formfinity").name == "expert"
