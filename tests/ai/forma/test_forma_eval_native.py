"""The compiled evaluation's placement value and reply bonus against the pure-Python reference.

``ai/forma/_cforma_eval.c`` ports ``_eval.place_value`` and ``best_bonus``; on a game object with the
compiled kernel they run in C, on one with the pure kernel in Python, and both must give identical results
(the same doubles, the same bonus) on the positions of seeded games. Skipped only under ``POLYTABLE_PURE=1``.
"""

from __future__ import annotations

import pytest

from polytable.ai.forma import ENGINE_WEIGHTS, FormaGreedy, Weights, best_bonus, candidates, compiled_eval, place_value
from polytable.core import Rng, get_game, pure_engine_forced
from polytable.games.forma import FormaState, kernel_of

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")

GAME = get_game("forma", "compiled")
PURE = get_game("forma", "pure")


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
        fast = [place_value(kernel_of(GAME), s, a, q, weights) for a in acts]
        bonus = best_bonus(s, q, 4000, kernel_of(GAME))
        slow = [place_value(kernel_of(PURE), s, a, q, weights) for a in acts]
        bonus_p = best_bonus(s, q, 4000, kernel_of(PURE))
        assert fast == slow, (i, q)
        assert bonus == bonus_p, (i, q)
        checked += len(acts)
    return checked


def _place_values_match(games: int) -> None:
    """``games`` random and greedy 2-player games under the engine's weights, and 3-player ones under odd
    weights."""
    assert compiled_eval(kernel_of(GAME)) is not None and compiled_eval(kernel_of(PURE)) is None
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
