"""The web client's files: each under the line limit with lines of at most 120 characters, every one in the
service worker's shell (so the app opens offline), and each game's ``board`` in ``/api/games`` naming the
module the client will import."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.testclient import TestClient

from kernel.throwaway_game import nim  # noqa: F401  (the fixture)
from polytable.web._http import board_module

STATIC = Path(__file__).resolve().parents[2] / "src" / "polytable" / "web" / "static"
MAX_LINES = 600


def _client_files() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*") if p.is_file() and "vendor" not in p.relative_to(STATIC).parts)


def test_every_client_file_is_under_the_line_limit() -> None:
    # Code only: the translation files (i18n/*.json) are data, one key a line.
    code = [p for p in _client_files() if p.suffix in (".js", ".css", ".html")]
    long = {str(p.relative_to(STATIC)): n for p in code if (n := len(p.read_bytes().splitlines())) > MAX_LINES}
    assert not long, f"client files over {MAX_LINES} lines: {long}"


def test_no_client_line_is_longer_than_120_characters() -> None:
    # Prettier wraps code at 120; a long string or template literal it cannot wrap is split by hand.
    wide = [
        f"{p.relative_to(STATIC)}:{n}"
        for p in _client_files()
        if p.suffix == ".js"
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if len(line) > 120
    ]
    assert not wide, f"lines over 120 characters: {wide}"


def test_the_service_worker_caches_every_client_file() -> None:
    sw = (STATIC / "sw.js").read_text(encoding="utf-8")
    shell = set(re.findall(r'"(/static/[^"]+)"', sw[sw.index("const SHELL") : sw.index("const ENGINE")]))
    wanted = {
        f"/static/{p.relative_to(STATIC).as_posix()}"
        for p in _client_files()
        if p.suffix in (".js", ".json", ".css", ".svg") and p.name != "sw.js"
    }
    assert wanted - shell == set(), f"missing from the service worker's SHELL: {sorted(wanted - shell)}"
    assert shell - wanted == set(), f"in SHELL but not a file: {sorted(shell - wanted)}"


def test_games_name_their_board_module(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    for gid, g in games.items():
        board = g["board"]
        assert board is None or (STATIC / "boards" / f"{board}.js").is_file(), gid
    shipped = {"forma", "qwirkle-cubes", "quadefy", "formfinity", "foldris"}
    for gid in shipped & set(games):
        assert games[gid]["board"] == gid
    for p in (STATIC / "boards").glob("*.js"):
        assert p.stem in ("generic", "index") or p.stem in games, f"boards/{p.name} belongs to no game"


def test_a_new_game_has_no_board_module_and_gets_the_generic_one(nim: str, client: TestClient) -> None:  # noqa: F811
    entry = next(g for g in client.get("/api/games").json() if g["id"] == nim)
    assert entry["board"] is None


def test_board_module_is_found_by_name_only() -> None:
    assert board_module("forma") == "forma"
    assert board_module("no-such-game") is None
    for name in ("generic", "index", "../app", "a/b", ""):
        assert board_module(name) is None, name
