"""Quadefy rulebook sentences that no other test pinned down (see docs/rules/quadefy.md)."""

from __future__ import annotations

import pytest

from polytable.core import IllegalActionError, Rng, get_game
from polytable.games.quadefy import BLOCKS, QuadefyState

GAME = get_game("quadefy")


def test_each_player_gets_the_same_eight_blocks_of_their_own_colour() -> None:
    """ "Take the 8 blocks of one color and give the 8 blocks of the other color to your opponent.\""""
    state: QuadefyState = GAME.new_game()
    assert len(BLOCKS) == 8
    assert state.remaining == ((1 << 8) - 1, (1 << 8) - 1)
    assert GAME.spec.min_players == GAME.spec.max_players == 2


def test_no_part_may_rise_higher_than_four_cubes() -> None:
    """ "A block is within the cube if none of its parts ... is higher than four cubes above the field.\""""
    state = GAME.new_game()
    upright = GAME.parse_action("I r2 @ a1.1")  # the I standing up: levels 1-4
    assert upright in GAME.legal_actions(state)
    with pytest.raises(IllegalActionError, match="stick out"):
        GAME.apply_text(state, "I r2 @ a1.2")
    state = GAME.apply_text(state, "O r0 @ a1.1")  # a flat O on the field: the upright I no longer fits on it
    on_top = {a for a in GAME.legal_actions(state) if a.block == "I" and a.rotation == 2}
    assert on_top and all(a.z == 0 for a in on_top)


def test_placed_blocks_never_move() -> None:
    """ "A player may not change the position of blocks already placed in order to squeeze a new block in.\""""
    rng = Rng(5)
    for seed in range(3):
        state = GAME.new_game({}, seed)
        while not GAME.is_terminal(state):
            before = state.owned
            state = GAME.apply(state, GAME.legal_actions(state).sample(rng))
            assert all(after & old == old for after, old in zip(state.owned, before, strict=True))
            assert state.owned[0] & state.owned[1] == 0
