"""Qwirkle Cubes rulebook sentences that no other test pinned down (see docs/rules/qwirkle_cubes.md)."""

from __future__ import annotations

from games.qwirkle_cubes.qc_helpers import GAME
from polytable.ai import make_bot
from polytable.core import CHANCE, Rng
from polytable.games.qwirkle_cubes import Place


def test_ninety_cubes_fifteen_of_each_of_six_colours_all_in_the_bag() -> None:
    """ "90 kubussen, 15 per kleur (6 kleuren)" and "Plaats alle kubussen in de zak.\""""
    s = GAME.new_game(players=4, seed=2)
    assert s.bag == (15,) * 6 and all(len(h) == 0 for h in s.hands)
    while GAME.current_player(s) == CHANCE:
        s = GAME.apply_chance(s)
    assert sum(s.bag) + sum(len(h) for h in s.hands) == 90


def test_play_goes_clockwise() -> None:
    """ "Het spel gaat verder met de klok mee": placements come from players 1, 2, 3, 1, ... in seat order."""
    bot = make_bot("greedy", "qwirkle-cubes")
    assert bot is not None
    s = GAME.new_game(players=3, seed=9)
    rng = Rng(3)
    movers: list[int] = []
    while len(movers) < 9 and not GAME.is_terminal(s):
        p = GAME.current_player(s)
        if p == CHANCE:
            s = GAME.apply_chance(s)
            continue
        action = bot.choose(GAME, s, p, rng)
        if isinstance(action, Place):
            movers.append(p)
        s = GAME.apply(s, action, p)
    assert movers == [0, 1, 2] * 3
