"""The per-game hooks of the web app: web extras found by name, companion mode declared by the game."""

from __future__ import annotations

import ast
import pathlib

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from polytable.core import Companion, PolytableError, all_games, get_game
from polytable.match import Dealer, game_catalogue, supports
from polytable.web import extras


def test_each_extras_module_serves_one_registered_game_through_its_public_face() -> None:
    found = extras.all_extras()
    assert {"forma", "quadefy", "formfinity"} <= set(found)
    ids = {g.spec.id for g in all_games()}
    folder = pathlib.Path(extras.__file__).parent
    for game_id, ext in found.items():
        assert game_id in ids and ext.game == game_id
        path = folder / f"{get_game(game_id).__module__.split('.')[2]}.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        games = {
            n.module.split(".")[1]
            for n in ast.walk(tree)
            if isinstance(n, ast.ImportFrom) and n.level == 3 and n.module and n.module.startswith("games.")
        }
        assert games == {path.stem}, f"{path.name} imports the games {games}"


def test_a_game_without_extras_has_no_board_tables(client: TestClient) -> None:
    assert extras.extras_for("toy") is None and extras.board_data("toy") is None
    assert client.get("/api/boards/toy").json()["reason"] == "no_tables"


def test_the_extras_pages_are_the_app_shell(client: TestClient) -> None:
    for path in ("/designer", "/c/ABCDEFGH"):
        r = client.get(path)
        assert r.status_code == 200 and "<html" in r.text.lower(), path


def test_companion_mode_is_what_the_game_declares(client: TestClient) -> None:
    declared = {g.spec.id: g.companion for g in all_games() if g.spec.listed}
    assert {k for k, c in declared.items() if c is not None} == {"formfinity", "foldris"}
    assert all(c is None or isinstance(c, Companion) for c in declared.values())
    entries = {d["id"]: d for d in client.get("/api/games").json()}
    offline = {d["id"]: d for d in game_catalogue()}
    for game_id, companion in declared.items():
        reads = companion is not None and companion.reads_cards
        assert entries[game_id]["companion"] is (companion is not None) is supports(game_id)
        assert entries[game_id]["printed_cards"] is reads is offline[game_id]["printed_cards"]
    assert not supports("no-such-game")
    quadefy = get_game("quadefy")
    with pytest.raises(PolytableError) as exc:
        Dealer(quadefy, quadefy.new_game(seed=0), [])
    assert exc.value.code == "match.no_companion"


def test_a_game_that_reads_no_printed_cards_refuses_one() -> None:
    game = get_game("foldris")
    dealer = Dealer(game, game.new_game(seed=1, players=2), [])
    with pytest.raises(ValueError, match="no cards to scan"):
        dealer.give("5")
    assert dealer.dealt == [] and not dealer.can_give()
    message = dealer.message()
    assert message["together"] and message["turn"] is None and not message["start"]
    dealer.push()
    message = dealer.message()
    assert message["start"] and message["round"] == 0 and message["start_lanes"]
