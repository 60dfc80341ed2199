"""``benchmarks/foldris_solo_flawless.py``: its clairvoyant flawless search, checked against the rules."""

from __future__ import annotations

import sys
from pathlib import Path

from polytable.core import get_game
from polytable.games.foldris import FoldrisState, heights

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from foldris_solo_flawless import Position, clairvoyant_flawless

GAME = get_game("foldris")


def _start(seed: int) -> FoldrisState:
    state = GAME.apply_chance(GAME.new_game(seed=seed, players=1))
    assert isinstance(state, FoldrisState)
    return state


def test_a_flawless_game_it_finds_is_one_the_rules_play() -> None:
    # Seed 4: the search finds a perfect game without a hole along the true order; replay its sheets with
    # the rules' own drops (each card drawn as it is revealed), never a hole, and count the lines.
    state = _start(4)
    path: list[Position] = []
    assert clairvoyant_flawless(state, 200_000, path) is True
    assert len(path) == len(state.deck)
    for hts, rows, _, _ in path:
        state = GAME.apply_chance(state)
        for action in GAME.legal_actions(state, 0):
            after = GAME.apply(state, action, 0)
            assert isinstance(after, FoldrisState)
            ink = after.sheets[0].ink
            if tuple(heights(ink)) == hts and after.sheets[0].height == rows and sum(hts) == ink.bit_count():
                state = after
                break
        else:
            raise AssertionError(f"no drop of the rules leaves the heights {hts}")
    assert GAME.is_terminal(state)
    assert state.sheets[0].lines == 12


def test_no_clean_first_drop_means_no_flawless_game() -> None:
    # Seed 0: the first card has no clean drop on the start square's surface (the bound's 12 there goes
    # through a hole), and a search with no positions to spare says it does not know.
    assert clairvoyant_flawless(_start(0), 200_000) is False
    assert clairvoyant_flawless(_start(4), 1) is None
