"""Forma's compiled kernel against the pure-Python rules (the reference), side by side.

100,000 random actions over every sample configuration (2-4 players, both board sizes, obstacles, a set
set-up, touch-move) must give the same legal counts and lists, the same draws, states, scores and
playouts (``polytable._native.fuzz``). Skipped only under ``POLYTABLE_PURE=1``.
"""

from __future__ import annotations

import pytest

from polytable._native import fuzz
from polytable.core import Rng, pure_engine_forced
from polytable.games.forma import GAME, pure_engine

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")


@pytest.mark.slow  # 100,000 actions against the pure rules: in make test and CI, not make check
def test_100k_random_actions_agree() -> None:
    rep = fuzz("forma", 100_000, seed=0, list_every=500, check_every=2000)
    assert rep.actions == 100_000
    assert rep.games >= 600  # the default rules add the players' set-up and a pick before each placement
    assert rep.playouts >= rep.games
    assert rep.round_trips >= 40 and rep.illegal_refused >= 40


def test_playout_matches_a_match_of_random_bots() -> None:
    """Per-seat generators (simulate) and one shared generator (MCTS rollouts), with an action limit."""
    for seed in range(30):
        s = GAME.new_game(seed=seed, players=2 + seed % 3)
        n = s.config.players
        for rngs_c, rngs_p, limit in (
            ([Rng(seed, 1000 + p) for p in range(n)], [Rng(seed, 1000 + p) for p in range(n)], None),
            ([Rng(seed)], [Rng(seed)], 17),
        ):
            end, k = GAME.playout(s, rngs_c, limit)
            with pure_engine():
                end_p, k_p = GAME.playout(s, rngs_p, limit)
            assert end == end_p and k == k_p
            assert [r.state for r in rngs_c] == [r.state for r in rngs_p]
            assert limit is None or k == limit
        assert GAME.is_terminal(GAME.playout(s, [Rng(1)])[0])


def test_mcts_rollouts_and_choices_are_the_same_on_both_engines() -> None:
    from polytable.ai import MCTSBot, MCTSConfig

    s = GAME.new_game(seed=4, players=3)
    for _ in range(20):
        s = GAME.apply(s, GAME.legal_actions(s).sample(Rng(len(str(s.filled)))))
    bot = MCTSBot(MCTSConfig(iterations=30, reuse_tree=False))
    r1, r2 = Rng(9), Rng(9)
    v1 = bot._rollout(GAME, s, r1)
    with pure_engine():
        v2 = bot._rollout(GAME, s, r2)
    assert v1 == v2 and r1.state == r2.state
    compiled = bot.choose(GAME, s, s.turn, Rng(3))
    with pure_engine():
        pure = bot.choose(GAME, s, s.turn, Rng(3))
    assert compiled == pure
