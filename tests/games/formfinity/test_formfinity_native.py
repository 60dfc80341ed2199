"""FORMFINITY's compiled kernel against the pure-Python rules (the reference), side by side.

100,000 random actions over every sample configuration (every variant, 2-4 players, a deck file, a
custom variant, card draws included) must give the same legal counts and lists, the same draws, states,
scores and playouts (``polytable._native.fuzz``); the kernel's two functions are also checked directly on
random boards. Skipped only under ``POLYTABLE_PURE=1``.
"""

from __future__ import annotations

import pytest

from polytable._native import fuzz
from polytable.core import Rng, get_game, native_module, pure_engine_forced
from polytable.games.formfinity import NUM_SHAPES, ROTATIONS, Setup, _flow, element_anchors, setup_of

from ._helpers import random_midgame

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")

GAME = get_game("formfinity", "compiled")
PURE = get_game("formfinity", "pure")


@pytest.mark.slow  # 100,000 actions against the pure rules: make nightly (conftest.NIGHTLY_TESTS)
def test_100k_random_actions_agree() -> None:
    # Playouts compared in every fifth game: a pure playout of a connection race can take seconds, and
    # `polytable fuzz formfinity` (every game) covers them at length.
    rep = fuzz("formfinity", 100_000, seed=0, list_every=100, check_every=2000, playout_every=5)
    assert rep.actions == 100_000
    assert rep.games >= 1_000  # about 40 player actions a game
    assert rep.playouts >= rep.games // 5
    assert rep.round_trips >= 40 and rep.illegal_refused >= 40


def test_the_extension_is_built() -> None:
    assert native_module("polytable.games.formfinity._cformfinity") is not None


def test_a_short_fuzz_run_agrees() -> None:
    rep = fuzz("formfinity", 1_500, seed=31, list_every=5, check_every=50)
    assert rep.actions == 1_500 and rep.games >= 20


def _setups() -> list[tuple[Setup, Setup]]:
    """(the compiled game's setup, the pure game's) of every sample configuration and the largest template."""
    configs = [GAME.spec.config(options, players) for options, players in GAME.sample_configs()]
    big = "\n".join(" ".join("." for _ in range(40)) for _ in range(40))
    configs.append(GAME.spec.config({"variant": "1", "template": big}, 2))
    return [(setup_of(GAME, c), setup_of(PURE, c)) for c in configs]


def _random_board(rng: Rng, setup: Setup, density: float) -> int:
    m = 0
    for y in range(setup.H):
        for x in range(setup.W):
            if rng.random() < density:
                m |= setup.bit(x, y)
    return m


def test_element_anchors_and_flood_are_the_pure_ones_on_random_boards() -> None:
    rng = Rng(2024)
    checked = nonempty = 0
    for setup, pure in _setups():
        for trial in range(40):
            drawn = _random_board(rng, setup, 0.05 + 0.4 * rng.random())
            blocked = setup.wall | drawn
            allowed = setup.playable & ~drawn & ~(_random_board(rng, setup, 0.1) if trial % 3 == 0 else 0)
            touch = setup.n4(drawn) if trial % 2 else None
            orients = ROTATIONS[rng.below(NUM_SHAPES)] if trial % 4 else tuple(range(NUM_SHAPES))
            edges = trial % 16
            got = element_anchors(setup, orients, edges, blocked, allowed, touch)
            seed = _random_board(rng, setup, 0.02)
            region = setup.flood(seed, allowed)
            want = element_anchors(pure, orients, edges, blocked, allowed, touch)
            want_region = pure.flood(seed, allowed)
            assert got == want, (setup.W, setup.H, edges, trial)
            assert region == want_region
            checked += 1
            nonempty += bool(got)
    assert checked >= 400 and nonempty >= 200


def test_keeps_a_way_is_the_pure_one_in_race_positions() -> None:
    """Variant 3's filter (no element may take the opponent's last way), on random positions where it
    removes something and where it does not."""
    filtered = 0
    for seed in range(30):
        for corner in (False, True):
            st = random_midgame({"variant": "3"}, seed, 4 + seed % 30)
            setup, pure = setup_of(GAME, st), setup_of(PURE, st)
            if corner:
                from dataclasses import replace

                setup = replace(setup, rules=replace(setup.rules, corner_touch=True))
                pure = replace(pure, rules=setup.rules)
            for player in (0, 1):
                blocked, allowed, touch = _flow.constraints(setup, st, player)
                options = element_anchors(setup, range(NUM_SHAPES), 0, blocked, allowed, touch)
                got = _flow.keeps_a_way(setup, st, player, options)
                want = _flow.keeps_a_way(pure, st, player, options)
                assert got == want, (seed, corner, player)
                filtered += got != options
    assert filtered >= 5


def test_bad_input_is_refused() -> None:
    ext = native_module("polytable.games.formfinity._cformfinity")
    assert ext is not None
    with pytest.raises(ValueError):
        ext.element_anchors(41, 5, (0,), 0, 0, 1, None)
    with pytest.raises(ValueError):
        ext.element_anchors(5, 5, (999,), 0, 0, 1, None)
    with pytest.raises(ValueError):
        ext.element_anchors(5, 5, (0,), 0, -1, 1, None)
    with pytest.raises(OverflowError):
        ext.flood(1, 1 << 5000, 6)
    assert ext.element_anchors(2, 1, (0,), 0, 0, 0b11, None) == [(0, 0b11)]


def test_playouts_match_on_every_configuration() -> None:
    for i, (options, players) in enumerate(GAME.sample_configs()):
        s = GAME.new_game(options, i, players)
        r1, r2 = [Rng(i, 100 + p) for p in range(players)], [Rng(i, 100 + p) for p in range(players)]
        end, n = GAME.playout(s, r1)
        end_p, n_p = PURE.playout(s, r2)
        assert end == end_p and n == n_p and GAME.winners(end) == GAME.winners(end_p)
