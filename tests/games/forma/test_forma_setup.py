"""Set-up: placed by the starting player (the default) or at random from the seed, explicit set-ups,
board sizes, options."""

from __future__ import annotations

import pytest

from polytable.core import ConfigError
from polytable.games import forma as P
from polytable.games.forma import format_setup, parse_setup

from .forma_helpers import GAME, names_of


def _xy(name: str, n: int = 19) -> tuple[int, int]:
    return "abcdefghijklmnopqrst".index(name[0]), n - int(name[1:])


@pytest.mark.parametrize(("count", "size", "seed"), [(0, 19, 1), (10, 19, 2), (25, 19, 3), (25, 20, 4), (25, 19, 5)])
def test_random_setup_obeys_the_rules(count, size, seed):
    s = GAME.new_game({"obstacles": count, "size": size, "placement": "random"}, seed=seed)
    obs = names_of(s, s.obstacles)
    tower = names_of(s, s.tower)
    assert len(obs) == count and len(tower) == 1
    cells = {_xy(c, size) for c in obs | tower}
    for x, y in cells:
        assert 0 < x < size - 1 and 0 < y < size - 1, "on the border"
        for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            assert nb not in cells, "two obstacles touch"
    tb = P.tables(size)
    assert s.filled == s.obstacles | s.tower and not s.filled & ~tb.board


def test_default_is_ten_obstacles_placed_by_the_starting_player_on_19_by_19_and_four_players():
    s = GAME.new_game(seed=0)
    assert s.size == 19 and s.config.players == 4 and s.config["touch_move"] is True
    assert s.placing == 11 and s.obstacles == 0 and s.tower == 0  # ten obstacles and the tower to place
    assert GAME.current_player(s) == 0
    s = GAME.new_game({"placement": "random"}, seed=0)
    assert s.placing == 0 and s.obstacles.bit_count() == 10 and s.tower.bit_count() == 1


def test_same_seed_same_board_other_seed_other_board():
    random = {"placement": "random"}
    assert GAME.new_game(random, seed=5) == GAME.new_game(random, seed=5)
    assert GAME.new_game(random, seed=5).obstacles != GAME.new_game(random, seed=6).obstacles


def test_explicit_setup_and_its_round_trip():
    s = GAME.new_game({"setup": "tower j10; obstacles c3, e5 g7"}, seed=0)
    assert names_of(s, s.tower) == {"j10"}
    assert names_of(s, s.obstacles) == {"c3", "e5", "g7"}
    tower, obstacles = parse_setup(format_setup(s), 19)
    assert (tower, sorted(obstacles)) == ((9, 9), sorted([_xy("c3"), _xy("e5"), _xy("g7")]))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("obstacles c3", "tower's cell is missing"),
        ("tower a10", "on the border"),
        ("tower j10; obstacles j11", "touches another"),
        ("tower j10; obstacles c3 c3", "same cell"),
        ("tower j10; obstacles b2 d2 c1", "border"),
        ("tower j10; obstacles c4 e4 d5 d3", "walled in"),
        ("tower j10; obstacles zz", "not a cell"),
        ("tower j10 k12", "exactly one cell"),
        ("towers j10", "expected"),
    ],
)
def test_bad_setups_are_refused(text, message):
    with pytest.raises(ConfigError, match=message):
        GAME.new_game({"setup": text}, seed=0)


def test_too_many_obstacles_are_refused():
    cells = " ".join(f"{c}{r}" for c in "cegikmoq" for r in (3, 5, 7, 9))
    with pytest.raises(ConfigError, match="at most 25"):
        GAME.new_game({"setup": f"tower s? ; obstacles {cells}".replace("s? ", "d12 ")}, seed=0)


def test_options_are_validated():
    with pytest.raises(ConfigError):
        GAME.new_game({"obstacles": 26})
    with pytest.raises(ConfigError):
        GAME.new_game({"size": 21})
    with pytest.raises(ConfigError):
        GAME.new_game(players=5)
    with pytest.raises(ConfigError):
        GAME.new_game(players=1)


def test_twenty_by_twenty_board():
    s = GAME.new_game({"size": 20, "placement": "random", "touch_move": False}, seed=2)
    assert s.size == 20
    s = GAME.apply_text(s, "1 r0 @ t20")
    assert names_of(s, s.pieces[0]) == {"t20"}
