"""The OpenSpiel adapter, checked with OpenSpiel's own random-simulation test over every game."""

from __future__ import annotations

import pytest

from polytable.core import all_games

pyspiel = pytest.importorskip("pyspiel")

from polytable.interop import openspiel as adapter  # noqa: E402

GAMES = [g.spec.id for g in all_games()]


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_random_simulation(game_id: str) -> None:
    game = adapter.load(game_id, seed=5)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_loaded_by_openspiel_name_and_parameters() -> None:
    adapter.register_all()
    game = pyspiel.load_game("polytable_toy", {"players": 3, "options": '{"rounds": 2}'})
    assert game.num_players() == 3
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert sorted(p for _, p in outcomes) == pytest.approx([1 / 3] * 3)
    state.apply_action(outcomes[0][0])
    assert state.current_player() == 0 and state.legal_actions() == [0, 1, 2]
    # Simultaneous rounds are sequential for OpenSpiel, and the observation hides the pending choice.
    state.apply_action(2)
    assert state.current_player() == 1
    obs = state.observation_string(1)
    assert '"my_pick": 0' in obs


def test_openspiel_mcts_bot_plays_in_our_arena() -> None:
    from polytable.ai import arena

    r = arena("toy", ["random", "openspiel-mcts:seconds=0.01"], 4, 2, {"rounds": 2}, seed=3)
    assert {row["ai"] for row in r["ladder"]} == {"random", "openspiel-mcts:seconds=0.01"}
