"""The kernel: generator, specs and options, the protocol wrapper, errors."""

from __future__ import annotations

import pytest

from polytable.core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    ConfigError,
    GameSpec,
    IllegalActionError,
    Option,
    Rng,
    below,
    get_game,
    next_u64,
    seed_state,
    shuffled,
)


def test_generator_is_frozen() -> None:
    # These numbers are part of every game's rules version: if they change, recorded games break.
    s = seed_state(1)
    v, s2 = next_u64(s)
    assert (s, v) == (seed_state(1), next_u64(seed_state(1))[0])
    assert next_u64(0) == (0xE220A8397B1DCDAF, 0x9E3779B97F4A7C15)
    assert s2 != s


def test_below_is_uniform_enough_and_in_range() -> None:
    s = seed_state(5)
    counts = [0] * 6
    for _ in range(6000):
        k, s = below(s, 6)
        counts[k] += 1
    assert all(850 < c < 1150 for c in counts)
    with pytest.raises(ValueError):
        below(s, 0)


def test_shuffle_is_a_permutation_and_seeded() -> None:
    items = list(range(20))
    a, _ = shuffled(seed_state(3), items)
    b, _ = shuffled(seed_state(3), items)
    c, _ = shuffled(seed_state(4), items)
    assert sorted(a) == items and a == b and a != c
    r = Rng(9)
    assert 0 <= r.random() < 1
    assert r.choice("abc") in "abc"


SPEC = GameSpec(
    "demo",
    "Demo",
    2,
    4,
    2,
    "1",
    options=(
        Option("size", "int", 12, "rows", min=8, max=20),
        Option("mode", "choice", "easy", "mode", choices=("easy", "hard")),
        Option("fast", "bool", False, "fast"),
        Option("weight", "float", 0.5, "weight", min=0, max=1),
    ),
)


def test_config_validation_messages() -> None:
    c = SPEC.config({"size": "10", "fast": "yes"}, 3)
    assert c.players == 3 and c.int("size") == 10 and c.bool("fast") is True and c.str("mode") == "easy"
    assert dict(c) == {"size": 10, "mode": "easy", "fast": True, "weight": 0.5}
    with pytest.raises(ConfigError, match="at most 20"):
        SPEC.config({"size": 21})
    with pytest.raises(ConfigError, match="whole number"):
        SPEC.config({"size": "x"})
    with pytest.raises(ConfigError, match="one of easy, hard"):
        SPEC.config({"mode": "medium"})
    with pytest.raises(ConfigError, match="no option 'colour'"):
        SPEC.config({"colour": 1})
    with pytest.raises(ConfigError, match="2 to 4 players"):
        SPEC.config({}, 5)
    with pytest.raises(ConfigError, match="true or false"):
        SPEC.config({"fast": "maybe"})
    assert SPEC.config(c) is c


def test_protocol_wrapper_turns_and_errors() -> None:
    game = get_game("toy")
    s = game.new_game({"rounds": 1}, seed=1, players=2)
    assert game.current_player(s) == CHANCE
    assert game.acting_players(s) == ()
    with pytest.raises(IllegalActionError, match="chance event"):
        game.apply(s, 1, 0)
    s = game.apply_chance(s)
    assert game.current_player(s) == SIMULTANEOUS
    with pytest.raises(IllegalActionError, match="say which player"):
        game.apply(s, 2)
    with pytest.raises(IllegalActionError, match="no player 5"):
        game.apply(s, 2, 4)
    with pytest.raises(IllegalActionError, match="pick 1, 2 or 3"):
        game.apply(s, 7, 0)
    s1 = game.apply(s, 2, 0)
    with pytest.raises(IllegalActionError, match="already chosen"):
        game.apply(s1, 2, 0)
    assert game.acting_players(s1) == (1,)
    s2 = game.apply(s1, 3)  # the only acting player is implied
    assert game.current_player(s2) == TERMINAL
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply(s2, 1)
    assert game.returns(s2) in ((1.0, -1.0), (-1.0, 1.0), (0.0, 0.0))
    assert game.legal_actions(s, 0).mask() == [True, True, True]
    assert repr(game.legal_actions(s, 0)) == "<LegalActions of Player 1: 3>"


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown game 'chess'.*toy"):
        get_game("chess")
