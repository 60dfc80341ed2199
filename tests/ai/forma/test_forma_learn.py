"""Forma's learned value: what its features read (the checks every learned value shares are in
``tests/ai/test_learned_values.py``)."""

from __future__ import annotations

import numpy as np

from polytable.ai.forma import _value
from polytable.core import Rng, get_game

GAME = get_game("forma")


def test_features_read_the_board() -> None:
    trail, returns = _value.play_game(GAME, 4, Rng(1))
    first, _ = trail[0]
    assert first.shape == (_value.N_FEATURES,) and first[0] == 0.0  # no score yet
    assert np.allclose(first[6:16], 1.0)  # both stocks full
    last, _ = trail[-1]
    assert last[5] < first[5] and last[24] > first[24] and len(returns) == 2
