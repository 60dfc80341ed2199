"""Quadefy's ``expert``: the tuned search parameters it ships (loaded for these rules only, other files
refused with a clear error), its bit-set prior (the values of ``hard``'s), where its time goes, and legal
play. Its strength is measured in the arena (docs/ai-training.md), never asserted here."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from polytable.ai import arena, make_bot
from polytable.ai._evaluator import evaluator
from polytable.ai._learn import WeightsError
from polytable.ai._mcts import _Node
from polytable.ai.quadefy import QuadefyConfig, QuadefyHardBot, native_unavailable
from polytable.ai.quadefy._tuned import TUNED_FILE, QuadefyExpert, SearchParams, _TunedMCTS, load_tuned
from polytable.core import ConfigError, Rng, get_game, pure_engine_forced

GAME = get_game("quadefy")


def _shipped() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(str(resources.files("polytable.ai.quadefy") / TUNED_FILE)).read_text())
    return data


def _write(path: Path, **changes: object) -> Path:
    path.write_text(json.dumps({**_shipped(), **changes}))
    return path


def test_the_shipped_parameters_load_for_these_rules() -> None:
    params = load_tuned()
    assert _shipped()["rules_version"] == str(GAME.spec.rules_version)
    assert params != SearchParams() and params.leaf_solve_nodes > 0
    bot = make_bot("expert:seconds=0.01,clock=cpu", "quadefy")
    assert isinstance(bot, QuadefyExpert) and bot.params == params and bot.solve_share == params.solve_share
    hard = make_bot("hard", "quadefy")
    assert type(hard) is QuadefyHardBot and hard.solve_share == 0.5  # hard keeps its knobs


def test_a_parameter_given_by_name_replaces_the_files() -> None:
    bot = make_bot("expert:seconds=0.01,solve_from=0,exploration=0.25", "quadefy")
    assert isinstance(bot, QuadefyExpert)
    assert bot.params == dataclasses.replace(load_tuned(), solve_from=0, exploration=0.25)
    with pytest.raises(ConfigError, match="not a number"):
        make_bot("expert:solve_from=early", "quadefy")
    with pytest.raises(ConfigError, match="solve_share"):
        make_bot("expert:solve_share=1", "quadefy")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rules_version": "0"}, "tuned under quadefy rules version 0"),
        ({"game": "forma"}, "not 'quadefy'"),
        ({"terms": "quadefy-search-v0"}, "sets the parameters"),
        ({"params": {"solve_from": 5}}, "sets the parameters"),
        ({"params": {**_shipped()["params"], "playouts": "many"}}, "not a number"),
    ],
)
def test_other_parameter_files_are_refused(tmp_path: Path, changes: dict[str, object], message: str) -> None:
    path = _write(tmp_path / "p.json", **changes)
    with pytest.raises(WeightsError, match=message):
        load_tuned(path)
    with pytest.raises(ConfigError, match=message):
        make_bot(f"expert:tuned={path}", "quadefy")
    with pytest.raises(WeightsError, match="no parameters file"):
        load_tuned(tmp_path / "absent.json")
    (tmp_path / "junk.json").write_text("[1, 2")
    with pytest.raises(WeightsError, match="not a Quadefy parameters file"):
        load_tuned(tmp_path / "junk.json")
    with pytest.raises(ConfigError, match="not both"):
        make_bot(f"expert:tuned={path},weights={path}", "quadefy")


def test_the_prior_orders_by_the_values_of_hards_prior() -> None:
    state = GAME.new_game(seed=2)
    rng = Rng(3)
    for _ in range(3):
        state = GAME.apply(state, GAME.legal_actions(state).sample(rng))
    p = state.to_move
    mcts = _TunedMCTS(QuadefyExpert(QuadefyConfig(seconds=0.01), SearchParams())._shared, SearchParams(), None)
    node = _Node(p)
    opened = mcts._open_actions(GAME, state, node, p, rng)
    judge = evaluator(GAME)
    values = [judge.action_value(GAME, state, a, p) for a in node.order or []]
    assert node.order is not None and sorted(node.order, key=id) == sorted(GAME.legal_actions(state), key=id)
    assert values == sorted(values, reverse=True) and opened == node.order[:2]  # widen_c 2 at 0 visits


@pytest.mark.parametrize("native", [True, False])
def test_expert_plays_legal_games_against_hard(native: bool) -> None:
    if native and (pure_engine_forced() or native_unavailable() is not None):
        pytest.skip("the compiled solver is not built")
    # Exact leaves from the first ply, so the short budget still reaches them.
    params = dataclasses.replace(load_tuned(), leaf_solve_ply=0, leaf_solve_nodes=50, playouts=2)
    config = QuadefyConfig(seconds=0.01, clock="cpu", native=native)
    for seed in range(2):
        bots = [QuadefyExpert(config, params), QuadefyHardBot(config)]
        state = GAME.new_game(seed=seed)
        rng = Rng(seed)
        while not GAME.is_terminal(state):
            p = state.to_move
            action = bots[(p + seed) % 2].choose(GAME, state, p, rng)
            assert action in list(GAME.legal_actions(state, p))
            state = GAME.apply(state, action, p)


def test_expert_plays_in_the_arena() -> None:
    result = arena("quadefy", ["expert:seconds=0.01,clock=cpu", "greedy"], 2, seed=5, workers=1)
    assert result["pairs"][0]["games"] == 2
