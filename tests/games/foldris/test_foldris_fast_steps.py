"""The Foldris protocol step's short cuts (the kernel's ``new``, ``view``, ``sample_drop``, ``try_drop``,
``reveal`` and ``can_act``) give what the general path gives: the same actions, states and errors."""

from __future__ import annotations

import pytest

from polytable.core import CHANCE, IllegalActionError, LegalActions, Rng, get_game, pure_engine_forced
from polytable.games.foldris import Drop

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")

GAME = get_game("foldris", "compiled")
PURE = get_game("foldris", "pure")


def _error(fn: object, *args: object) -> tuple[str, str]:
    try:
        fn(*args)  # type: ignore[operator]
    except IllegalActionError as e:
        return (e.code, str(e))
    return ("accepted", "")


@pytest.mark.parametrize("players", [1, 3, 4, 7])
def test_steps_and_refusals_are_the_pure_ones(players: int) -> None:
    for seed in range(4):
        s = GAME.new_game(seed=seed, players=players)
        sp = PURE.new_game(seed=seed, players=players)
        rn, rp = Rng(seed, 3), Rng(seed, 3)
        while not GAME.is_terminal(s):
            if GAME.current_player(s) == CHANCE:
                s2 = GAME.apply_chance(s)
                assert s2 == GAME.apply(s, GAME.chance_outcome(s), CHANCE)
                sp = PURE.apply_chance(sp)
                s = s2
                assert s == sp
                continue
            p = GAME.acting_players(s)[0]
            a = GAME.legal_actions(s, p).sample(rn)
            ap = PURE.legal_actions(sp, p).sample(rp)
            assert a == ap and type(a) is Drop and rn.state == rp.state
            wrong = a._replace(col=9)
            other = a._replace(name="?")
            for bad in (wrong, other):
                assert _error(GAME.apply, s, bad, p) == _error(PURE.apply, sp, bad, p)
            assert _error(GAME.apply, s, a, players + 2) == _error(PURE.apply, sp, a, players + 2)
            s = GAME.apply(s, a, p)
            sp = PURE.apply(sp, ap, p)
            assert s == sp
            if not GAME.is_terminal(s):  # the same drop again: chosen already, or not the round's card
                assert _error(GAME.apply, s, a, p) == _error(PURE.apply, sp, a, p)
    with pytest.raises(IllegalActionError):
        GAME.apply_chance(s)  # over: the protocol's error


@pytest.mark.parametrize("seed", [0, 7, -3, 2**70 + 5, -(2**65)])
def test_new_games_and_legal_views_are_the_pure_ones(seed: int) -> None:
    for options, players in GAME.sample_configs():
        s = GAME.new_game(options, seed=seed, players=players)
        assert s == PURE.new_game(options, seed=seed, players=players)
        s = GAME.apply_chance(GAME.apply_chance(s))
        sp = PURE.apply_chance(PURE.apply_chance(PURE.new_game(options, seed=seed, players=players)))
        assert s == sp
        if GAME.is_terminal(s):
            continue
        for p in GAME.acting_players(s):
            view = GAME.legal_actions(s, p)
            pure = PURE.legal_actions(sp, p)
            listed = list(pure)
            assert type(pure) is LegalActions
            assert isinstance(view, LegalActions) and list(view) == listed and len(view) == len(listed)
            first = listed[0]
            assert isinstance(first, Drop) and bool(view) and first in view and first._replace(col=9) not in view
        # not a player who may act: the general path answers (and explains)
        for who in (True, -1, players, None if players > 1 else -5):
            assert _error(GAME.legal_actions, s, who) == _error(PURE.legal_actions, sp, who)
            assert _error(GAME.apply, s, listed[0], who) == _error(PURE.apply, sp, listed[0], who)
