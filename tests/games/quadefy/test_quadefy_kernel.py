"""Quadefy's compiled move generator and playout against the pure-Python rules, side by side.

100,000 random actions over every sample configuration (reachability and stability on and off) must give
the same legal counts and lists, draws, states, scores and playouts (``polytable._native.fuzz``).
Skipped only under ``POLYTABLE_PURE=1``.
"""

from __future__ import annotations

import pytest

from polytable._native import fuzz
from polytable.core import Rng, get_game, pure_engine_forced

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")

GAME = get_game("quadefy", "compiled")
PURE = get_game("quadefy", "pure")


@pytest.mark.slow  # 100,000 actions against the pure rules: make nightly (conftest.NIGHTLY_TESTS)
def test_100k_random_actions_agree() -> None:
    rep = fuzz("quadefy", 100_000, seed=0, list_every=100, check_every=1000)
    assert rep.actions == 100_000
    assert rep.games >= 5000 and rep.playouts >= 5000
    assert rep.round_trips >= 90 and rep.illegal_refused >= 90


def test_a_short_fuzz_run_agrees() -> None:
    """10,000 actions, checked more often: the 100,000 run's short version in make check and CI."""
    rep = fuzz("quadefy", 10_000, seed=0, list_every=10, check_every=100)
    assert rep.actions == 10_000 and rep.games >= 500 and rep.playouts >= 500
    assert rep.round_trips >= 90 and rep.illegal_refused >= 90


def test_playout_with_a_shared_generator_and_a_limit() -> None:
    for seed in range(40):
        s = GAME.new_game({"reachability": seed % 2 == 0, "stability": seed % 3 == 0}, seed)
        r1, r2 = [Rng(seed)], [Rng(seed)]
        end, k = GAME.playout(s, r1, 5)
        end_p, k_p = PURE.playout(s, r2, 5)
        assert (end, k, r1[0].state) == (end_p, k_p, r2[0].state)
        assert k == 5


def _options(seed: int) -> dict[str, object]:
    return {"reachability": seed % 2 == 0, "stability": seed % 3 == 0}


def test_batched_random_games_equal_one_by_one_on_both_engines() -> None:
    for seed in range(8):
        opts = _options(seed)
        seeds = [seed * 100 + i for i in range(30)] + [-3, 2**40]
        batch = GAME.random_games(opts, 2, seeds)
        one = [GAME.playout(GAME.new_game(opts, s), [Rng(s, stream=1000), Rng(s, stream=1001)]) for s in seeds]
        pure = PURE.random_games(opts, 2, seeds)
        assert batch == one == pure
        assert all(GAME.is_terminal(s) and n == len(s.moves) for s, n in batch)
    huge = [2**70]  # beyond 64 bits: the batch falls back to the Python generators
    start = GAME.new_game()
    assert GAME.playouts(start, huge) == [GAME.playout(start, [Rng(2**70, stream=1000), Rng(2**70, stream=1001)])]


def test_playout_from_mid_game_and_an_ended_game() -> None:
    for seed in range(30):
        s = GAME.new_game(_options(seed), seed)
        rng = Rng(seed)
        for _ in range(seed % 9):
            s = GAME.apply(s, GAME.legal_actions(s).sample(rng))
        a, b = [Rng(seed, stream=1), Rng(seed, stream=2)], [Rng(seed, stream=1), Rng(seed, stream=2)]
        end, n = GAME.playout(s, a)
        assert (end, n) == PURE.playout(s, b)
        assert [r.state for r in a] == [r.state for r in b]
        assert GAME.playout(end, a) == (end, 0)


def test_compiled_apply_equals_the_checked_rules_and_refuses_alike() -> None:
    from polytable.core import IllegalActionError
    from polytable.games.quadefy import ACTIONS, Placement

    for seed in range(40):
        s = GAME.new_game(_options(seed), seed)
        rng = Rng(seed)
        while not GAME.is_terminal(s):
            action = GAME.legal_actions(s).sample(rng)
            copy = Placement(action.block, action.rotation, action.x, action.y, action.z)  # not the shared one
            nxt = GAME.apply(s, action)
            assert PURE.apply(s, action) == nxt == PURE.apply(s, copy, s.to_move)
            assert type(nxt) is type(s) and nxt.moves[:-1] == s.moves
            for bad in (ACTIONS[rng.below(len(ACTIONS))], action):
                for who in (None, 1 - s.to_move):
                    if who is None and bad is action:
                        continue
                    errors = []
                    for pure in (False, True):
                        try:
                            (PURE if pure else GAME).apply(s, bad, who)
                            errors.append("")
                        except IllegalActionError as exc:
                            errors.append(str(exc))
                    assert errors[0] == errors[1]
            s = nxt
        with pytest.raises(IllegalActionError):
            GAME.apply(s, ACTIONS[0])
