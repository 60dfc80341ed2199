"""Qwirkle Cubes' learned value: what its features read (the checks every learned value shares are in
``tests/ai/test_learned_values.py``)."""

from __future__ import annotations

from polytable.ai.qwirkle_cubes import _value
from polytable.core import Rng, get_game

GAME = get_game("qwirkle-cubes")


def test_features_read_the_table() -> None:
    trail, scores = _value.play_greedy_game(GAME, 4, Rng(1))
    first, p = trail[0]
    last, _ = trail[-1]
    assert first.shape == (_value.N_FEATURES,) and p in (0, 1) and len(scores) == 2
    assert first[3] > last[3]  # the bag empties
    assert last[14:22].sum() > 0  # open lines on a full table
