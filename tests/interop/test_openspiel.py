"""The OpenSpiel adapter, checked with OpenSpiel's own tools over every game: the random-simulation test
with serialisation, pickling, game strings, and an episode of its RL environment."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from polytable.core import all_games, get_game

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is an optional extra (pip install 'polytable[openspiel]')")

from polytable.interop import openspiel as adapter  # noqa: E402
from polytable.interop.pettingzoo import raw_env  # noqa: E402

GAMES = [g.spec.id for g in all_games()]


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_random_simulation_with_serialisation(game_id: str) -> None:
    game = adapter.load(game_id, seed=5)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_rl_environment_runs_an_episode(game_id: str) -> None:
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(adapter.load(game_id, seed=2))
    rng = np.random.default_rng(0)
    step = env.reset()
    size = env.observation_spec()["info_state"][0]
    steps = 0
    while not step.last():
        player = step.observations["current_player"]
        obs = np.asarray(step.observations["info_state"][player])
        assert obs.shape == (size,) and obs.any()
        step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
        steps += 1
    assert steps > 0 and len(step.rewards) == env.num_players


def test_games_and_states_pickle_and_serialise() -> None:
    options = {"variant": "1", "difficulty": "hard"}  # a game string with a comma inside the options
    game = adapter.load("formfinity", options, players=2, seed=7)
    assert pickle.loads(pickle.dumps(game)).options == game.options == options
    again = pyspiel.load_game(str(game))
    assert again.options == options and again.num_players() == 2
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.history()) < 6:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[-1])
    copy = pickle.loads(pickle.dumps(state))
    assert copy.s == state.s and copy.history() == state.history()
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert restored.s == state.s
    assert restored.observation_tensor(0) == state.observation_tensor(0)


def test_loaded_by_openspiel_name_and_parameters() -> None:
    game = pyspiel.load_game(adapter.game_string("toy", {"rounds": 2}, 3))
    assert game.num_players() == 3
    state = game.new_initial_state()
    assert state.is_chance_node()
    # Sampled chance: one outcome, the one the seeded state draws.
    [(outcome, p)] = state.chance_outcomes()
    assert p == 1.0
    state.apply_action(outcome)
    assert state.current_player() == 0 and state.legal_actions() == [0, 1, 2]
    # Simultaneous rounds are sequential for OpenSpiel, and the observation hides the pending choice.
    state.apply_action(2)
    assert state.current_player() == 1
    assert '"my_pick": 0' in state.observation_string(1)
    with pytest.raises(Exception, match="action 7"):
        state.apply_action(7)


def test_chance_nodes_are_one_sampled_outcome() -> None:
    """A FORMFINITY card reveal and a Qwirkle Cubes roll are one outcome each, the state's own draw."""
    for game_id in ("formfinity", "qwirkle-cubes"):
        game = adapter.load(game_id, seed=3)
        state = game.new_initial_state()
        rules = get_game(game_id)
        assert state.is_chance_node()
        expected = rules.apply_chance(state.s)
        assert len(state.chance_outcomes()) == 1
        state.apply_action(state.chance_outcomes()[0][0])
        assert state.s == expected


def test_actions_and_observations_are_the_pettingzoo_encoding() -> None:
    for game_id in ("qwirkle-cubes", "quadefy"):
        game = adapter.load(game_id, seed=4)
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        env = raw_env(game_id, seed=4)
        env.reset(seed=4)
        env.table.state = state.s
        player = state.current_player()
        agent = f"player_{player}"
        assert state.legal_actions() == list(np.flatnonzero(env.action_mask(agent)))
        obs = env.observe(agent)
        assert np.array_equal(np.asarray(state.observation_tensor(player)), obs.astype(np.float32).ravel())
        assert game.num_distinct_actions() == env.table.num_actions


def test_openspiel_mcts_bot_plays_in_our_arena() -> None:
    from polytable.ai import arena

    r = arena("toy", ["random", "openspiel-mcts:seconds=0.01"], 4, 2, {"rounds": 2}, seed=3)
    assert {row["ai"] for row in r["ladder"]} == {"random", "openspiel-mcts:seconds=0.01"}
