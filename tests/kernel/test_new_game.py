"""Adding a game is one package: a throwaway game written to a temporary folder at test time, found by the
registry (a ``polytable.games`` entry point) and played through the CLI, ``simulate`` and the conformance
checks, with no file of polytable edited. Its missing translations are reported, not fatal."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kernel.throwaway_game import nim  # noqa: F401  (the fixture)
from polytable.ai import make_bot
from polytable.cli import app
from polytable.core import _registry, get_game
from polytable.match import simulate


def test_a_new_game_package_is_found_and_plays_everywhere(nim: str) -> None:  # noqa: F811
    game = get_game(nim)
    assert game.spec.name == "Nim"
    runner = CliRunner()
    listed = runner.invoke(app, ["games", "--json"])
    assert listed.exit_code == 0 and "nim" in [g["id"] for g in json.loads(listed.stdout)]
    r = runner.invoke(app, ["simulate", nim, "--games", "3", "--ai", "greedy", "--ai", "random", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["games"] == 3
    r = runner.invoke(app, ["play", nim, "--ai", "2=greedy", "--no-color", "--option", "stones=5"], input="3\n3\n2\n")
    assert r.exit_code == 0 and "stones left" in r.output, r.output
    out = simulate(nim, 2, 4, ["random"], {"stones": 7}, seed=1, make_player=make_bot)
    assert out["summary"]["mean_turns"] >= 3 and sum(out["summary"]["win_rate_by_seat"]) == pytest.approx(1.0)


def test_a_new_game_passes_the_conformance_checks(nim: str) -> None:  # noqa: F811
    from conformance.test_conformance import test_bad_input_is_refused, test_random_playouts, test_same_seed_same_game

    game = get_game(nim)
    for options, players in [({}, 2), ({"stones": 13}, 3)]:
        test_random_playouts(game, options, players)
        test_bad_input_is_refused(game, options, players)
        test_same_seed_same_game(game, options, players)


def test_a_new_game_without_translations_is_reported_and_shown_in_english(nim: str) -> None:  # noqa: F811
    from polytable.web import _i18n

    get_game(nim)
    gaps = _i18n.missing()
    assert "game.nim.name" in gaps["en"] and "game.nim.name" in gaps["nl"]
    assert "nim_take" not in _i18n.engine_codes()  # an installed game is not in the shipped sources
    assert _i18n.spec_keys()["game.nim.name"] == "Nim"  # the English fallback the client shows


def test_a_game_installed_while_running_is_found_by_its_id(nim: str) -> None:  # noqa: F811
    _registry._loaded.add(_registry.BUILTIN_GAMES)  # the built-in games were loaded before the installation
    assert "nim" not in _registry._GAMES
    assert get_game("Nim").spec.id == "nim"  # an unknown id looks at the installed games once more
