"""The kernel's bridge count, placement value and reply bonus against the pure-Python reference.

``_cforma_bridges.c`` ports ``_bridges.py`` and ``_cforma_eval.c`` ports ``_ai.place_value`` and
``polytable.ai.forma.best_bonus``; both must give identical results (the same count and exactness, the same
doubles) on many seeded inputs: random colour sets of every density (dense ones reach the search caps, where
only the same search order gives the same answer) and positions of seeded games. Skipped only under
``POLYTABLE_PURE=1``.
"""

from __future__ import annotations

import random

import pytest

from polytable.ai.forma import FormaGreedy, best_bonus, candidates
from polytable.core import Rng, get_game, pure_engine_forced
from polytable.games.forma import ENGINE_WEIGHTS, CompiledForma, FormaState, Weights, kernel_of
from polytable.games.forma._bridges import count_bridges

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")

GAME = get_game("forma", "compiled")
PURE = get_game("forma", "pure")


def test_bridge_count_matches_on_random_colour_sets() -> None:
    kernel = kernel_of(GAME)
    assert isinstance(kernel, CompiledForma)
    capped = 0
    for seed in range(400):
        r = random.Random(seed)
        n = (19, 20, 8)[seed % 3]
        tb = kernel.tables(n)
        density = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)[seed % 6]
        cells = [(x, y) for y in range(n) for x in range(n) if r.random() < density]
        own = sum(1 << (y * tb.stride + x) for x, y in cells)
        pure = tuple(count_bridges(cells, n))
        assert kernel.ext.bridges(n, own) == pure, (seed, n, density)
        capped += not pure[3]
    assert 50 <= capped <= 350  # both the exact and the capped searches are compared


def _positions(seeds: range, players: int = 2, greedy: bool = False) -> list[FormaState]:
    """Placement positions of seeded games, random or ``greedy`` (whose bridge feature builds bridges)."""
    bot = FormaGreedy()
    out = []
    for seed in seeds:
        s = GAME.new_game({"touch_move": False, "placement": "random"}, seed=seed, players=players)
        rng = Rng(seed, 3)
        while not GAME.is_terminal(s):
            out.append(s)
            q = GAME.current_player(s)
            a = bot.choose(GAME, s, q, rng) if greedy else GAME.legal_actions(s).sample(rng)
            s = GAME.apply(s, a, q)
    return out


def _compare(states: list[FormaState], weights: Weights) -> int:
    checked = 0
    for i, s in enumerate(states[::3]):
        q = GAME.current_player(s)
        if q < 0:
            continue
        rng = Rng(i)
        acts = candidates(s, q, GAME.legal_actions(s, q), rng)[:40]
        fast = [kernel_of(GAME).place_value(s, a, q, weights) for a in acts]
        bonus = best_bonus(s, q, 4000, kernel_of(GAME))
        slow = [kernel_of(PURE).place_value(s, a, q, weights) for a in acts]
        bonus_p = best_bonus(s, q, 4000, kernel_of(PURE))
        assert fast == slow, (i, q)
        assert bonus == bonus_p, (i, q)
        checked += len(acts)
    return checked


def test_place_value_and_best_bonus_match_in_seeded_games() -> None:
    assert _compare(_positions(range(3)), ENGINE_WEIGHTS) > 1000
    states = _positions(range(2), greedy=True)
    assert any(s.bridges != (0, 0) for s in states)
    assert _compare(states, ENGINE_WEIGHTS) > 500
    odd = Weights(gift=5.3, pocket=1.7, bridge=41.0, block=13.9, space=7.1, size=0.77)
    assert _compare(_positions(range(4, 6), players=3), odd) > 300
