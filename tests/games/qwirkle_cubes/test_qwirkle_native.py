"""Qwirkle Cubes' compiled kernel against the pure-Python rules (the reference), side by side.

100,000 random actions over every sample configuration (2, 3 and 4 players, every draw and roll) must
give the same legal counts and lists, the same draws, states, scores and playouts
(``polytable._native.fuzz``). Skipped only under ``POLYTABLE_PURE=1``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from polytable._native import fuzz
from polytable.core import CHANCE, Rng, get_game, native_module, pure_engine_forced
from polytable.games.qwirkle_cubes import PLACE, QState

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")

GAME = get_game("qwirkle-cubes", "compiled")
PURE = get_game("qwirkle-cubes", "pure")


@pytest.mark.slow  # 100,000 actions against the pure rules: make nightly (conftest.NIGHTLY_TESTS)
def test_100k_random_actions_agree() -> None:
    rep = fuzz("qwirkle-cubes", 100_000, seed=0, list_every=100, check_every=2000)
    assert rep.actions == 100_000
    assert rep.games >= 800  # about 105 player actions a game
    assert rep.playouts >= rep.games
    assert rep.round_trips >= 40 and rep.illegal_refused >= 40


def test_the_extension_is_built() -> None:
    assert native_module("polytable.games.qwirkle_cubes._cqwirkle") is not None


def test_a_short_fuzz_run_agrees() -> None:
    rep = fuzz("qwirkle-cubes", 1_000, seed=77, list_every=5, check_every=50)
    assert rep.actions == 1_000 and rep.games >= 5


def _positions(seed: int, players: int, every: int = 7) -> list[QState]:
    """Every ``every``-th placement position of one seeded random game (the first turn included)."""
    s = GAME.new_game(seed=seed, players=players)
    rng = Rng(seed, stream=3)
    out: list[QState] = []
    while not GAME.is_terminal(s):
        if GAME.current_player(s) == CHANCE:
            s = GAME.apply_chance(s)
            continue
        if s.phase == PLACE and (not s.placed or len(out) % every == 0 or rng.below(every) == 0):
            out.append(s)
        s = GAME.apply(s, GAME.legal_actions(s).sample(rng))
    return out


def test_placements_count_and_sample_are_the_pure_ones() -> None:
    checked = 0
    for seed in range(6):
        for s in _positions(seed, 2 + seed % 3):
            legal = GAME.legal_actions(s)
            legal_p = PURE.legal_actions(s)
            listed_p = list(legal_p)
            assert list(legal) == listed_p
            assert legal.count() == len(listed_p) > 0
            for k in range(3):
                r1, r2 = Rng(seed, stream=k), Rng(seed, stream=k)
                a = legal.sample(r1)
                b = legal_p.sample(r2)
                assert a == b and r1.state == r2.state
            checked += 1
    assert checked >= 30


def test_counts_and_picks_of_any_hand_are_the_pure_ones() -> None:
    """Hands that are not the seat's, rich in one colour or one shape (long lines, several kinds of line,
    free cells before a frontier cell): the compiled count (placements of two cubes or more counted by
    combinations, not walked) and the placement each number names are the pure rules' walk's."""
    ext = native_module("polytable.games.qwirkle_cubes._cqwirkle")
    assert ext is not None
    rng = Rng(11)
    checked = 0
    for seed in range(3):
        for s in _positions(seed, 2 + seed, every=9)[1:]:
            c, t = rng.below(6), rng.below(6)
            colour = sum(1 << (6 * c + k) for k in range(6) if rng.below(3))
            shape = sum(1 << (6 * k + t) for k in range(6) if rng.below(3))
            mixed = sum(1 << rng.below(36) for _ in range(6))
            for hand in (colour | 1 << rng.below(36), shape, colour | shape, mixed):
                n = s.board.count(hand)
                assert ext.count(s.placed, hand, 0) == n
                if n:
                    r1, r2 = Rng(seed, stream=5), Rng(seed, stream=5)
                    cubes, r1.state = ext.sample(s.placed, hand, 0, r1.state)
                    assert cubes == s.board.sample(hand, 0, r2.below(n)) and r1.state == r2.state
                checked += 1
    assert checked >= 40


def test_interleaved_games_do_not_share_a_stale_table() -> None:
    """The kernel keeps the last table; positions of two games in turn must still be judged on their own."""
    a, b = _positions(1, 2, every=1), _positions(2, 3, every=1)
    for sa, sb in zip(a, b, strict=False):
        for s in (sa, sb, sa):
            want = PURE.legal_actions(s).count()
            assert GAME.legal_actions(s).count() == want


def test_playout_matches_a_match_of_random_bots() -> None:
    """Per-seat generators (simulate) and one shared generator (MCTS rollouts), with an action limit,
    from the start and from the middle of games."""
    for seed in range(12):
        n = 2 + seed % 3
        starts = [GAME.new_game(seed=seed, players=n), *_positions(seed, n, every=25)[:3]]
        for s in starts:
            for rngs_c, rngs_p, limit in (
                ([Rng(seed, 1000 + p) for p in range(n)], [Rng(seed, 1000 + p) for p in range(n)], None),
                ([Rng(seed)], [Rng(seed)], 17),
                ([Rng(seed, 5)], [Rng(seed, 5)], 0),
            ):
                end, k = GAME.playout(s, rngs_c, limit)
                end_p, k_p = PURE.playout(s, rngs_p, limit)
                assert end == end_p and k == k_p
                assert GAME.state_to_dict(end) == GAME.state_to_dict(end_p)
                assert [r.state for r in rngs_c] == [r.state for r in rngs_p]
                assert limit is None or k == limit or GAME.is_terminal(end)
                assert dict(end.board.cells) == {c: t for t, c in end.placed}
        assert GAME.is_terminal(GAME.playout(starts[0], [Rng(1)])[0])


def test_a_playout_state_plays_on_in_python() -> None:
    """The state a compiled playout returns (its table rebuilt in Python) is a normal state."""
    s = GAME.new_game(seed=5, players=2)
    mid, _ = GAME.playout(s, [Rng(3)], 40)
    rng_c, rng_p = Rng(9), Rng(9)
    end, _ = GAME.playout(mid, [rng_c])
    end_p, _ = PURE.playout(mid, [rng_p])
    assert end == end_p and GAME.winners(end) == GAME.winners(end_p)


def test_bad_input_is_refused_and_changes_nothing() -> None:
    ext = native_module("polytable.games.qwirkle_cubes._cqwirkle")
    assert ext is not None
    s = _positions(3, 2)[4]
    want = GAME.legal_actions(s).count()
    for placed in (((40, s.placed[0][1]),), (s.placed[0], s.placed[0]), ((0, -5),), ((1, 2, 3),)):
        with pytest.raises(ValueError):
            ext.count(placed, 1, 0)
    with pytest.raises(TypeError):
        ext.count([(0, 0)], 1, 0)
    with pytest.raises(ValueError):
        ext.count((), 1 << 40, 0)
    assert GAME.legal_actions(s).count() == want


def test_polytable_pure_switches_both_new_kernels_off_silently() -> None:
    code = "from polytable.core import get_game\nprint(get_game('qwirkle-cubes').engine, get_game('formfinity').engine)"
    env = {**os.environ, "POLYTABLE_PURE": "1"}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert res.stdout.split() == ["pure", "pure"] and res.stderr == ""


def test_pure_and_compiled_simulate_print_the_same_games() -> None:
    cli = "import sys; from polytable.cli import main; sys.argv[0] = 'polytable'; main()"
    cmd = [sys.executable, "-c", cli, "simulate", "qwirkle-cubes", "--games", "20", "--seed", "1", "--json"]
    runs = []
    for pure in ("1", "0"):  # the pure engine, then the compiled one
        env = {**os.environ, "POLYTABLE_PURE": pure}
        out = subprocess.run([*cmd, "--workers", "1"], env=env, capture_output=True, text=True, check=True)
        runs.append(json.loads(out.stdout)["per_game"])
    assert runs[0] == runs[1] and len(runs[0]) == 20
