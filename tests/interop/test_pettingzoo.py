"""The PettingZoo AEC environments: PettingZoo's API and seed tests for every game and variant family, and
what the API test cannot see (hidden simultaneous choices, chance inside the env, rewards = returns)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from polytable.core import all_games, get_game

pytest.importorskip("pettingzoo")

with warnings.catch_warnings():  # with pygame installed, PettingZoo's test module loads a deprecated classic env
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, render_test, seed_test

from polytable.interop._table import INDEXED_CAP
from polytable.interop.pettingzoo import env, raw_env

CONFIGS = [
    pytest.param(g.spec.id, opts, n, id=f"{g.spec.id}-{n}p-{i}")
    for g in all_games()
    for i, (opts, n) in enumerate(g.sample_configs())
]


def _cycles(game_id: str) -> int:
    return 4 if game_id == "forma" else 25  # a Forma step lists thousands of placements


@pytest.mark.parametrize(("game_id", "options", "players"), CONFIGS)
@pytest.mark.filterwarnings("error")
def test_api_and_seed(game_id: str, options: dict[str, object], players: int) -> None:
    api_test(env(game_id, players=players, options=options, seed=3), num_cycles=_cycles(game_id))
    seed_test(lambda: env(game_id, players=players, options=options), num_cycles=_cycles(game_id))


@pytest.mark.parametrize("game_id", ["quadefy", "qwirkle-cubes", "foldris", "formfinity"])
def test_whole_game_rewards_are_the_returns(game_id: str) -> None:
    e = raw_env(game_id, seed=11)
    e.reset()
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter(100_000):
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert obs.dtype == np.uint8
        legal = np.flatnonzero(e.infos[agent]["action_mask"])
        assert legal.size > 0
        e.step(int(rng.choice(legal)))
    assert e.table.is_over()
    returns = e.table.returns()
    assert [totals[a] for a in e.possible_agents] == pytest.approx(list(returns))
    assert any(r != 0 for r in returns) or game_id != "quadefy"


def test_foldris_pending_choices_stay_hidden() -> None:
    """Seat 1 observes the same thing whatever seat 0 chose this round."""
    seen = []
    for k in (0, -1):
        e = raw_env("foldris", players=2, seed=4)
        e.reset()
        assert e.agent_selection == "player_0"
        legal = np.flatnonzero(e.infos["player_0"]["action_mask"])
        e.step(int(legal[k]))
        assert e.agent_selection == "player_1"
        seen.append((e.observe("player_1"), e.infos["player_1"]["action_mask"]))
    assert np.array_equal(seen[0][0], seen[1][0])
    assert np.array_equal(seen[0][1], seen[1][1])
    assert not e.infos["player_0"]["action_mask"].any()
    assert _feature(e, seen[0][0], "next1.chosen") == 1


def test_chance_is_resolved_inside_and_seeded() -> None:
    a, b, c = raw_env("qwirkle-cubes", seed=1), raw_env("qwirkle-cubes"), raw_env("qwirkle-cubes")
    a.reset()
    b.reset(seed=1)
    c.reset(seed=2)
    game = get_game("qwirkle-cubes")
    assert not game.is_chance(a.table.state)
    assert a.table.state == b.table.state
    assert a.table.state != c.table.state


def test_illegal_action_raises_and_changes_nothing() -> None:
    e = raw_env("quadefy", seed=0)
    e.reset()
    before = e.table.state
    mask = e.action_mask("player_0")
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    with pytest.raises(ValueError, match="outside"):
        e.step(10**9)
    assert e.table.state is before and e.agent_selection == "player_0"


def test_qwirkle_is_indexed_and_the_index_is_the_listed_legal_action() -> None:
    e = raw_env("qwirkle-cubes", seed=5)
    e.reset()
    table = e.table
    assert table.indexed and table.num_actions == INDEXED_CAP
    seat = table.to_act()
    assert seat is not None
    mask = e.infos[f"player_{seat}"]["action_mask"]
    legal = table.legal(seat)
    assert int(mask.sum()) == len(legal)
    assert legal == list(table.game.legal_actions(table.state, seat))
    # the order is the protocol's: the pure rules list the same actions in the same order
    assert legal == list(get_game("qwirkle-cubes", "pure").legal_actions(table.state, seat))
    e.step(len(legal) - 1)
    assert table.state != legal  # the game moved on
    assert table.game.view(table.state, None)["turn"] >= 1 or not table.is_over()


def test_a_position_with_more_legal_actions_than_the_cap_offers_the_first_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    # Qwirkle Cubes has been seen with 5,069 legal actions in random play; a mask cannot grow mid-episode,
    # so the env offers the first INDEXED_CAP (in id order) and says how many it left out, never crashing.
    import polytable.interop._table as table_module

    monkeypatch.setattr(table_module, "INDEXED_CAP", 3)
    e = raw_env("qwirkle-cubes", seed=5)
    e.reset()
    table = e.table
    seat = table.to_act()
    assert seat is not None
    everything = list(table.game.legal_actions(table.state, seat))
    assert len(everything) > 3
    assert table.legal(seat) == everything[:3]
    agent = f"player_{seat}"
    assert table.truncated(seat) == len(everything) - 3
    e._select()
    assert e.infos[agent]["actions_left_out"] == len(everything) - 3
    with pytest.raises(ValueError, match=r"outside 0\.\.2"):
        e.step(3)
    before = table.state
    e.step(2)
    assert table.state is not before


def _feature(e: object, obs: np.ndarray, name: str) -> int:
    """The value of a named feature: the features fill the last channels row by row."""
    names = e.plane_names  # type: ignore[attr-defined]
    first = names.index("features0")
    flat = obs[:, :, first:].transpose(2, 0, 1).reshape(-1)
    return int(flat[e.feature_names.index(name)])  # type: ignore[attr-defined]


def test_planes_are_named_and_match_the_shape() -> None:
    for g in all_games():
        e = raw_env(g.spec.id, seed=0)
        e.reset()
        obs = e.observe("player_0")
        assert obs.dtype == np.uint8
        assert obs.shape[-1] == len(e.plane_names) == len(set(e.plane_names))
        h, w, _ = obs.shape
        features = sum(n.startswith("features") for n in e.plane_names)
        assert (features - 1) * h * w < len(e.feature_names) <= features * h * w
        assert e.observation_space("player_0").contains(obs)


def test_features_read_back_by_name() -> None:
    e = raw_env("qwirkle-cubes", seed=4)
    e.reset()
    view = e.table.game.view(e.table.state, 0)
    obs = e.observe("player_0")
    assert _feature(e, obs, "bag.R") == view["bag_colours"]["red"]
    assert _feature(e, obs, "phase.reroll") == (view["phase"] == "reroll")
    # the observation is a small fraction of the one-constant-plane-per-number layout it replaced
    assert obs.nbytes < 31 * 31 * 20


def test_render_ansi_is_the_spectator_board(capsys: pytest.CaptureFixture[str]) -> None:
    e = raw_env("forma", players=2, seed=2, render_mode="ansi")
    e.reset()
    text = e.render()
    assert text == get_game("forma").render(e.table.state, None)
    human = raw_env("forma", players=2, seed=2, render_mode="human")
    human.reset()
    assert human.render() is None
    assert capsys.readouterr().out == text + "\n"
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("forma", render_mode="rgb_array")


@pytest.mark.parametrize("game_id", ["quadefy", "foldris"])
def test_render_test(game_id: str) -> None:
    # PettingZoo's render test plays actions drawn without the mask: env() ends the game on an illegal one
    render_test(lambda render_mode=None: env(game_id, seed=1, render_mode=render_mode))


def test_wrapped_env_ends_the_game_on_an_illegal_action() -> None:
    e = env("quadefy", seed=0)
    e.reset()
    _, _, _, _, info = e.last()
    e.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards == {"player_0": -1, "player_1": 0}


def test_docs_list_the_planes_of_every_game() -> None:
    from polytable.interop.planes_doc import planes_markdown

    text = (__import__("pathlib").Path(__file__).parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    assert planes_markdown() in text, "regenerate the planes section: python -m polytable.interop.planes_doc"
