"""Forma's compiled kernel against the pure-Python rules (the reference), side by side.

100,000 random actions over every sample configuration (2-4 players, both board sizes, obstacles, a set
set-up, touch-move) must give the same legal counts and lists, the same draws, states, scores and
playouts (``polytable._native.fuzz``). Skipped only under ``POLYTABLE_PURE=1``.
"""

from __future__ import annotations

import pytest

from polytable._native import fuzz
from polytable.core import Rng, get_game, pure_engine_forced

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")

GAME = get_game("forma", "compiled")
PURE = get_game("forma", "pure")


@pytest.mark.slow  # 100,000 actions against the pure rules: make nightly (conftest.NIGHTLY_TESTS)
def test_100k_random_actions_agree() -> None:
    rep = fuzz("forma", 100_000, seed=0, list_every=500, check_every=2000)
    assert rep.actions == 100_000
    assert rep.games >= 600  # the default rules add the players' set-up and a pick before each placement
    assert rep.playouts >= rep.games
    assert rep.round_trips >= 40 and rep.illegal_refused >= 40


def test_a_short_fuzz_run_agrees() -> None:
    """10,000 actions, checked more often: the 100,000 run's short version in make check and CI."""
    rep = fuzz("forma", 10_000, seed=0, list_every=50, check_every=200)
    assert rep.actions == 10_000 and rep.games >= 60 and rep.playouts >= rep.games
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
            end_p, k_p = PURE.playout(s, rngs_p, limit)
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
    v2 = bot._rollout(PURE, s, r2)
    assert v1 == v2 and r1.state == r2.state
    compiled = bot.choose(GAME, s, s.turn, Rng(3))
    pure = bot.choose(PURE, s, s.turn, Rng(3))
    assert compiled == pure


def test_playouts_from_every_phase_agree() -> None:
    """From the players' set-up, a random fill, a piece in hand, a second pick and plain placements, in
    every sample configuration (the default has the set-up and touch-move): the same end, counts and draws."""
    from polytable.core import CHANCE

    configs = GAME.sample_configs()
    phases = {"setup": 0, "fill": 0, "picked": 0, "misses": 0, "play": 0}
    for k, (i, (options, players)) in ((k, c) for k in range(10) for c in enumerate(configs)):
        seed = 100 * k + i
        s = GAME.new_game(options, seed, players)
        rng = Rng(seed, 5)
        steps = (0, 1, 4, 11, 13, 25, 40, 80, 150)[(k + i) % 9]
        for _ in range(steps):
            if GAME.is_terminal(s):
                break
            if GAME.current_player(s) == CHANCE:
                s = GAME.apply_chance(s)
            else:
                s = GAME.apply(s, GAME.legal_actions(s).sample(rng))
        phases["setup" if s.placing and s.turn >= 0 else "fill" if s.placing else "play"] += 1
        phases["picked"] += s.picked >= 0
        phases["misses"] += s.misses > 0
        for limit in (None, 1 + seed % 7):
            r1, r2 = [Rng(seed, 9 + p) for p in range(players)], [Rng(seed, 9 + p) for p in range(players)]
            end, n = GAME.playout(s, r1, limit)
            end_p, n_p = PURE.playout(s, r2, limit)
            assert end == end_p and n == n_p, (options, players, seed, steps, limit)
            assert [r.state for r in r1] == [r.state for r in r2]
            r1, r2 = [Rng(seed)], [Rng(seed)]
            end, n = GAME.playout(s, r1, limit)
            end_p, n_p = PURE.playout(s, r2, limit)
            assert end == end_p and n == n_p and r1[0].state == r2[0].state
    assert all(phases.values()), phases


@pytest.mark.parametrize("options", [{}, {"touch_move": False}, {"placement": "random"}])
def test_simulate_gives_the_same_games_on_both_engines(
    options: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default rules (set-up, touch-move) and each option alone: compiled playouts, the same games
    (the second run finds the pure game object under Forma's id)."""
    from polytable.ai import make_bot
    from polytable.core import _registry
    from polytable.match import simulate

    compiled = simulate("forma", 4, 6, ["random"], options, seed=1, make_player=make_bot)["per_game"]
    monkeypatch.setitem(_registry._GAMES, "forma", PURE)
    pure = simulate("forma", 4, 6, ["random"], options, seed=1, make_player=make_bot)["per_game"]
    assert compiled == pure and len(compiled) == 6


def test_a_held_piece_fits_in_both_kernels_as_the_pure_anchor_table_says() -> None:
    """The pick's fit test (a kernel's can_place of a one-piece stock) against the pure anchors."""
    from polytable.games import forma as P
    from polytable.games.forma import FormaKernel
    from polytable.games.forma._rules import ONE_OF

    tb = P.tables(19)
    kernels = (FormaKernel(), GAME.kernel)
    fits = misses = 0
    for seed in range(6):
        s, rng = GAME.new_game(seed=seed, players=4), Rng(seed)
        while s.turn >= 0:
            free = tb.board & ~s.filled
            table = tb.anchors(free)  # P.tables: the pure anchor function
            for piece in range(P.NUM_PIECES):
                expected = any(table[g] for g in P.PIECE_ORIENTS[piece])
                for kernel in kernels:
                    ktb = kernel.tables(19)
                    assert kernel.can_place(ktb, ONE_OF[piece], P.PIECE_ORIENTS[piece], free) == expected
                fits += expected
                misses += not expected
            _, s = GAME.sample_and_apply(s, s.turn, rng)
    assert fits and misses
