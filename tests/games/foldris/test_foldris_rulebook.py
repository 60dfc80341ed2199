"""Foldris rulebook sentences that no other test pinned down (see docs/rules/foldris.md)."""

from __future__ import annotations

import pytest

from polytable.core import ConfigError

from ._helpers import GAME, drop, make_sheet, make_state, picture

EMPTY = make_sheet()


def test_mirroring_flips_the_block_horizontally() -> None:
    """ "Mirroring (costs 1 bonus point): Flip the block horizontally." An L mirrored lands as a J."""
    plain = drop(drop(make_state([EMPTY, EMPTY], card=("L", 1)), "L r0 c1"), "L r0 c1", 1)
    mirrored = drop(drop(make_state([EMPTY, EMPTY], card=("L", 1)), "L m r0 c1"), "L r0 c1", 1)
    a = picture(plain.sheets[0]).splitlines()[-3:]
    b = picture(mirrored.sheets[0]).splitlines()[-3:]
    width = max(len(r.rstrip(".")) for r in a)
    assert [r[:width][::-1] for r in a] == [r[:width] for r in b]  # the same rows, left and right swapped
    assert a != b
    assert mirrored.sheets[0].bonus == 1 and plain.sheets[0].bonus == 2


def test_one_to_seven_players_as_there_are_seven_barriers_and_pencils() -> None:
    """ "7 barrier blocks, 7 pencils": at most 7 players; solo mode is one player."""
    for n in (1, 7):
        assert len(GAME.new_game(seed=1, players=n).sheets) == n
    with pytest.raises(ConfigError):
        GAME.new_game(seed=1, players=8)
