"""The client takes its games from ``/api/games``: the home page's rules links and the rules index list the
server's games, a game without a board module (the test-only toy game) gets the generic board without
asking for one, and a board module that loads late still draws the latest state, once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ._browser import launch, open_room, serve  # skips the module without Chromium
from ._browser import need as _need
from ._browser import page as _page

httpx = pytest.importorskip("httpx")

from ._proc import Server  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("client"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def _boards_asked(page: Any) -> list[str]:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/static/boards/" in r.url else None)
    return asked


def test_home_and_rules_pages_list_the_servers_games(server: Server, browser: Any) -> None:
    games = httpx.get(server.base + "/api/games").json()
    page = _page(browser)
    page.goto(server.base + "/")
    page.locator("#game").wait_for()
    links = page.locator("a[href^='/rules/']")
    assert sorted(links.evaluate_all("as => as.map((a) => a.getAttribute('href'))")) == sorted(
        f"/rules/{g['id']}" for g in games
    )
    page.goto(server.base + "/rules")
    page.locator("li a[href^='/rules/']").first.wait_for()
    assert page.locator("li a[href^='/rules/']").count() == len(games)
    assert page.errors == []


def test_a_game_without_a_board_module_plays_on_the_generic_board(server: Server, browser: Any) -> None:
    r = httpx.post(
        server.base + "/api/rooms",
        json={"game": "toy", "players": 2, "seed": 1, "seats": [{"name": "Ann"}, {"kind": "ai", "ai": "random"}]},
    ).json()
    page = _page(browser)
    asked = _boards_asked(page)
    open_room(page, server.base, r)
    page.locator("#board-text").filter(has_text="round 1").wait_for()
    page.locator("#moves button").first.wait_for()
    assert [u for u in asked if not u.endswith(("/generic.js", "/index.js"))] == []  # no module asked for
    assert page.errors == []


def test_a_board_module_that_loads_late_draws_the_latest_state_once(server: Server, browser: Any) -> None:
    _need("forma")
    # Two AIs play on while the spectator's page waits 1.5 s for the Forma board module.
    r = httpx.post(
        server.base + "/api/rooms",
        json={"game": "forma", "players": 2, "seats": [{"kind": "ai", "ai": "random"}] * 2},
    ).json()
    page = _page(browser)
    asked = _boards_asked(page)

    held: list[Any] = []  # the module's request, held until the test lets it go (no timing race)

    def hold(route: Any) -> None:
        held.append(route)

    page.route("**/static/boards/forma.js", hold)
    page.goto(f"{server.base}/r/{r['code']}")
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    page.wait_for_timeout(700)  # more states arrive while the module is held: nothing is drawn yet
    assert page.evaluate("() => document.querySelector('#board').children.length") == 0
    assert page.evaluate("() => document.querySelector('#app').polytableState") is None
    held[0].continue_()
    page.locator("#fm-board").wait_for()
    # Drawn when the module arrived (one board, one status), showing the state the page holds.
    page.wait_for_function(
        "() => { const a = document.querySelector('#app');"
        " return a.polytableState && a.dataset.version === String(a.polytableState.version); }"
    )
    assert page.locator("#fm-board").count() == 1
    assert page.locator("#status").count() == 1
    assert sum(u.endswith("/static/boards/forma.js") for u in asked) == 1
    assert page.errors == []
