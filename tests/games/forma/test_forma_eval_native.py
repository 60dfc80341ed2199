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


def _bridge_counts_match(seeds: int) -> None:
    kernel = kernel_of(GAME)
    assert isinstance(kernel, CompiledForma)
    capped = 0
    for seed in range(seeds):
        r = random.Random(seed)
        n = (19, 20, 8)[seed % 3]
        tb = kernel.tables(n)
        density = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)[seed % 6]
        cells = [(x, y) for y in range(n) for x in range(n) if r.random() < density]
        own = sum(1 << (y * tb.stride + x) for x, y in cells)
        pure = tuple(count_bridges(cells, n))
        assert kernel.ext.bridges(n, own) == pure, (seed, n, density)
        capped += not pure[3]
    assert seeds // 8 <= capped <= seeds * 7 // 8  # both the exact and the capped searches are compared


def test_bridge_count_matches_on_random_colour_sets() -> None:
    """Six rounds of every board size and density."""
    _bridge_counts_match(36)


def test_bridge_count_matches_on_many_random_colour_sets() -> None:
    """400 sets (slow: the pure count takes seconds on the dense ones)."""
    _bridge_counts_match(400)


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


def _place_values_match(games: int) -> None:
    """``games`` random and greedy 2-player games under the engine's weights, and 3-player ones under odd
    weights."""
    assert _compare(_positions(range(games)), ENGINE_WEIGHTS) > 300 * games
    states = _positions(range(games), greedy=True)
    assert any(s.bridges != (0, 0) for s in states)
    assert _compare(states, ENGINE_WEIGHTS) > 250 * games
    odd = Weights(gift=5.3, pocket=1.7, bridge=41.0, block=13.9, space=7.1, size=0.77)
    assert _compare(_positions(range(4, 4 + games), players=3), odd) > 150 * games


def test_place_value_and_best_bonus_match_in_seeded_games() -> None:
    _place_values_match(1)


def test_place_value_and_best_bonus_match_in_more_seeded_games() -> None:
    _place_values_match(3)
