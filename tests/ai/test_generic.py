"""Generic AI: the bot registry, parameters, MCTS on the toy game, the arena's statistics."""

from __future__ import annotations

import importlib
import math

import pytest

from polytable.ai import GAME_PLAYERS, arena, bot_names, elo_ratings, make_bot, wilson
from polytable.core import ConfigError, Rng, get_game


def test_registry_and_parameters() -> None:
    assert {"random", "greedy", "easy", "medium", "hard", "mcts"} <= set(bot_names("toy"))
    bot = make_bot("mcts:iterations=30,exploration=1.2", "toy")
    assert bot.config.iterations == 30 and bot.config.exploration == 1.2  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="key=value"):
        make_bot("mcts:fast", "toy")
    with pytest.raises(ConfigError, match="does not take"):
        make_bot("mcts:colour=red", "toy")


@pytest.mark.parametrize("game_id", sorted(GAME_PLAYERS))
def test_every_game_table_lists_its_own_players(game_id: str) -> None:
    """The explicit table: each entry names a registered game whose subpackage's ``PLAYERS`` are offered
    by name and built with their level's name (a game's own player wins over the generic one)."""
    get_game(game_id)
    players = importlib.import_module(GAME_PLAYERS[game_id]).PLAYERS
    assert set(players) <= set(bot_names(game_id))
    for name in players:
        if name in ("hard", "medium"):
            bot = make_bot(name, game_id)
            assert bot.name == name and type(bot).__module__.startswith(GAME_PLAYERS[game_id])
    with pytest.raises(ConfigError, match="nonsense_option"):
        make_bot("hard:nonsense_option=1", game_id)


def test_mcts_finds_the_best_pick_in_the_toy_game() -> None:
    game = get_game("toy")
    state = game.apply_chance(game.new_game({"rounds": 1}, seed=2, players=2))
    bot = make_bot("mcts:iterations=200", "toy")
    assert bot.choose(game, state, 0, Rng(1)) == 3
    solo = game.apply_chance(game.new_game({"rounds": 2}, seed=2, players=1))
    assert bot.choose(game, solo, 0, Rng(1)) == 3


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.404, abs=1e-3) and hi == pytest.approx(0.596, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_elo_matches_the_logistic_model() -> None:
    # 76% against the anchor is about +200 Elo under the logistic model (with a small prior pull).
    elo = elo_ratings(["random", "x"], {("x", "random"): 760, ("random", "x"): 240}, "random")
    assert elo["random"] == 0.0
    assert 190 < elo["x"] < 210
    assert math.isclose(400 * math.log10(0.76 / 0.24), 200.2, abs_tol=0.5)


def test_arena_is_seat_balanced_and_ranks_greedy_above_random() -> None:
    r = arena("toy", ["random", "greedy"], 10, 2, {"rounds": 3}, seed=1)
    assert r["anchor"] == "random"
    ladder = {row["ai"]: row for row in r["ladder"]}
    assert ladder["greedy"]["elo"] > 0 == ladder["random"]["elo"]
    assert ladder["greedy"]["games"] == 10
    assert r["ladder"][0]["ai"] == "greedy"
    with pytest.raises(ValueError, match="two different"):
        arena("toy", ["random"], 1)


def test_mcts_reuses_its_tree_between_moves() -> None:
    from polytable.match import Match

    game = get_game("toy")
    bot = make_bot("mcts:iterations=300", "toy")
    m = Match(game, {"rounds": 3}, 2, seed=4)
    m.resolve_chance()
    m.play(bot.choose(game, m.state, 0, Rng(1)), 0)
    assert bot.last_reused_visits == 0  # type: ignore[attr-defined]
    m.play(3, 1)
    m.resolve_chance()
    bot.choose(game, m.state, 0, Rng(1))
    assert bot.last_reused_visits > 0  # type: ignore[attr-defined]
