"""The Foldris protocol step's short cuts (``_native.fast_drop``, ``fast_sample``, ``can_act`` and
``FoldrisGame.apply_chance``) give what the general path gives: the same actions, states and errors."""

from __future__ import annotations

import pytest

from polytable.core import CHANCE, IllegalActionError, Rng, pure_engine_forced
from polytable.games.foldris import GAME, pure_engine
from polytable.games.foldris._state import Drop

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")


def _error(fn: object, *args: object) -> tuple[str, str]:
    try:
        fn(*args)  # type: ignore[operator]
    except IllegalActionError as e:
        return (e.code, str(e))
    return ("accepted", "")


def _pure_error(fn: object, *args: object) -> tuple[str, str]:
    with pure_engine():
        return _error(fn, *args)


@pytest.mark.parametrize("players", [1, 3, 4, 7])
def test_steps_and_refusals_are_the_pure_ones(players: int) -> None:
    for seed in range(4):
        s = GAME.new_game(seed=seed, players=players)
        with pure_engine():
            sp = GAME.new_game(seed=seed, players=players)
        rn, rp = Rng(seed, 3), Rng(seed, 3)
        while not GAME.is_terminal(s):
            if GAME.current_player(s) == CHANCE:
                s2 = GAME.apply_chance(s)
                assert s2 == GAME.apply(s, GAME.chance_outcome(s), CHANCE)
                with pure_engine():
                    sp = GAME.apply_chance(sp)
                s = s2
                assert s == sp
                continue
            p = GAME.acting_players(s)[0]
            a = GAME.legal_actions(s, p).sample(rn)
            with pure_engine():
                ap = GAME.legal_actions(sp, p).sample(rp)
            assert a == ap and type(a) is Drop and rn.state == rp.state
            wrong = a._replace(col=9)
            other = a._replace(name="?")
            for bad in (wrong, other):
                assert _error(GAME.apply, s, bad, p) == _pure_error(GAME.apply, sp, bad, p)
            assert _error(GAME.apply, s, a, players + 2) == _pure_error(GAME.apply, sp, a, players + 2)
            s = GAME.apply(s, a, p)
            with pure_engine():
                sp = GAME.apply(sp, ap, p)
            assert s == sp
            if not GAME.is_terminal(s):  # the same drop again: chosen already, or not the round's card
                assert _error(GAME.apply, s, a, p) == _pure_error(GAME.apply, sp, a, p)
    with pytest.raises(IllegalActionError):
        GAME.apply_chance(s)  # over: the protocol's error
