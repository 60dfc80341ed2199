"""Quadefy's compiled move generator and playout against the pure-Python rules, side by side.

100,000 random actions over every sample configuration (reachability and stability on and off) must give
the same legal counts and lists, draws, states, scores and playouts (``polytable._native.fuzz``).
Skipped only under ``POLYTABLE_PURE=1``.
"""

from __future__ import annotations

import pytest

from polytable._native import fuzz
from polytable.core import Rng, pure_engine_forced
from polytable.games.quadefy import GAME, pure_engine

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")


@pytest.mark.slow  # 100,000 actions against the pure rules: in make test and CI, not make check
def test_100k_random_actions_agree() -> None:
    rep = fuzz("quadefy", 100_000, seed=0, list_every=100, check_every=1000)
    assert rep.actions == 100_000
    assert rep.games >= 5000 and rep.playouts >= 5000
    assert rep.round_trips >= 90 and rep.illegal_refused >= 90


def test_playout_with_a_shared_generator_and_a_limit() -> None:
    for seed in range(40):
        s = GAME.new_game({"reachability": seed % 2 == 0, "stability": seed % 3 == 0}, seed)
        r1, r2 = [Rng(seed)], [Rng(seed)]
        end, k = GAME.playout(s, r1, 5)
        with pure_engine():
            end_p, k_p = GAME.playout(s, r2, 5)
        assert (end, k, r1[0].state) == (end_p, k_p, r2[0].state)
        assert k == 5
