"""Offline play in a real browser: with the network cut, the PWA plays a hot-seat game with the same Python
rules under Pyodide, saves it in IndexedDB, resumes it after a reload and exports a record that replays here.

Skipped with a reason without Chromium or Pyodide (npm at set-up); in CI a missing Pyodide fails instead.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from polytable.match import Match
from polytable.web._offline import PYODIDE_DIR, pyodide_available

from ._browser import (
    CHROMIUM,
    ENGINE_START,
    PHONE,
    launch,
    offline_foldris,
    serve,
    tap,
    wait_cached,
)  # skips without Chromium
from ._browser import page as _page
from ._browser import shot as _shot
from ._proc import Server

if not pyodide_available():
    if os.environ.get("CI"):
        raise RuntimeError(f"Pyodide is not installed at {PYODIDE_DIR}: CI must run the offline tests")
    pytest.skip(f"Pyodide is not installed at {PYODIDE_DIR} (scripts/npm-assets.sh)", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("offline"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def _move(page: Any) -> None:
    """Hand the phone over if asked, then play the first legal move shown."""
    passing = page.locator("#pass-ok")
    if passing.is_visible():
        passing.click()
    page.locator("#fd-sheet rect[data-col='0']").first.click()
    page.locator("#fd-sheet .ghost").first.wait_for()
    before = page.locator("#app").get_attribute("data-version")
    page.locator("#play").click()
    page.wait_for_function("v => document.querySelector('#app').dataset.version !== v", arg=before)


def test_offline_hot_seat_foldris_to_the_end_with_a_reload(server: Server, browser: Any, tmp_path: Path) -> None:
    page = _page(browser, accept_downloads=True)
    page.goto(server.base + "/")
    page.reload()  # the second load is controlled by the service worker
    wait_cached(page)

    page.context.set_offline(True)
    page.goto(server.base + "/")
    page.locator("#offline-note").wait_for()
    assert "Failed to fetch" not in page.locator("body").inner_text()
    page.select_option("#game", "foldris")
    page.select_option("#players", "2")
    page.fill("[name=name-0]", "Ann")
    page.fill("[name=name-1]", "Bob")
    page.locator("#create summary").filter(has_text="Options").click()
    page.fill("#opt-deck", "I 1\nO 2\nT 3\nL 4\nI 5\nO 6\n")
    _shot(page, "offline-home")
    page.locator("#create-local").click()
    page.wait_for_url("**/local/*")
    page.locator("#pass-ok, #fd-sheet").first.wait_for(timeout=ENGINE_START)
    _move(page)
    version = page.locator("#app").get_attribute("data-version")

    page.reload()  # offline: the shell, the engine and the saved game all come from this device
    page.locator("#pass-ok, #fd-sheet").first.wait_for(timeout=ENGINE_START)
    page.wait_for_function("v => document.querySelector('#app').dataset.version === v", arg=version)
    while not page.locator("#over").is_visible():
        _move(page)
    over = page.locator("#over").inner_text()  # who won and why; never a "null" beside the buttons
    assert "null" not in over and page.locator("#result-why").is_visible(), over
    _shot(page, "offline-over")
    with page.expect_download() as info:
        page.locator("#export-record").click()
    path = tmp_path / "record.json"
    info.value.save_as(str(path))
    record = json.loads(path.read_text())
    assert record["game"] == "foldris" and record["config"]["players"] == 2
    assert Match.replay(record).is_over()  # `polytable replay` accepts what the phone made offline
    assert page.errors == []


def test_offline_the_guided_game_plays_on_this_device_with_the_hint_on_the_board(server: Server, browser: Any) -> None:
    """With no server, /learn/<game> runs on the offline engine: the guide, the hint drawn on the board and
    played with one tap, the AI's turn (the guide says who is thinking), in Dutch, with no placeholder."""
    page = _page(browser, "nl-NL")
    page.goto(server.base + "/")
    page.reload()
    wait_cached(page)
    page.context.set_offline(True)
    page.goto(server.base + "/learn/forma")
    page.locator("#guide").filter(has_text="willekeurig geplaatst").wait_for(timeout=ENGINE_START)  # after the set-up
    page.locator("#learn-hint").wait_for(timeout=60_000)
    page.locator("#learn-hint").click()
    page.locator("#fm-board .ghost").first.wait_for(timeout=60_000)
    before = int(page.locator("#app").get_attribute("data-version") or 0)
    tap(page, "#fm-board .ghost")  # the pick and the placement
    page.wait_for_function("v => Number(document.querySelector('#app').dataset.version) >= v + 2", arg=before)
    page.locator("#guide").filter(has_text="denkt na").wait_for(timeout=60_000)  # the AI's turn, said in words
    text = page.locator("body").inner_text()
    assert not re.search(r"\bnull\b|\bundefined\b|\{[a-z_]+\}", text), text
    assert "@" not in page.locator("#history").inner_text()
    # The other games' guided games, on the same engine (the page moves on as a player does, without a reload).
    for game, ghost in OFFLINE_GHOSTS.items():
        page.evaluate(
            "g => { history.pushState({}, '', '/learn/' + g); dispatchEvent(new PopStateEvent('popstate')); }", game
        )
        page.locator("#learn-hint").wait_for(timeout=ENGINE_START)
        assert [s["kind"] for s in page.evaluate("() => document.querySelector('#app').polytableState.room.seats")] == [
            "here",
            "ai",
        ], game
        if game == "qwirkle-cubes":
            page.locator("#qc-keep").click()  # keep the hand: the hint is then cubes on the grid
            page.locator("#qc-confirm, #learn-hint:not([disabled])").first.wait_for(timeout=60_000)
        before = int(page.locator("#app").get_attribute("data-version") or 0)
        page.locator("#learn-hint").click()
        page.locator(ghost).first.wait_for(timeout=60_000)
        tap(page, ghost)
        page.wait_for_function("v => Number(document.querySelector('#app').dataset.version) > v", arg=before)
        text = page.locator("body").inner_text()
        assert not re.search(r"\bnull\b|\bundefined\b|\{[a-z_]+\}", text), (game, text)
        assert "@" not in page.locator("#history").inner_text(), game
    assert page.errors == []


OFFLINE_GHOSTS = {
    "foldris": "#fd-sheet .ghost",
    "quadefy": "#qd-layers .ghost",
    "formfinity": "#ff-board .ghost",
    "qwirkle-cubes": "#qc-table .new",
}
"""Where each game's board draws the hint (the journey's own gestures, tests/web/test_browser_journey.py)."""


def test_offline_companion_deals_formfinity_cards(server: Server, browser: Any) -> None:
    page = _page(browser)
    page.goto(server.base + "/")
    page.reload()
    wait_cached(page)
    page.context.set_offline(True)
    page.goto(server.base + "/")
    page.locator("#offline-note").wait_for()
    page.select_option("#game", "formfinity")
    page.select_option("#mode", "companion")
    page.locator("#create-local").click()
    page.wait_for_url("**/local/*")
    page.locator("#deal").wait_for(timeout=ENGINE_START)
    page.locator("#deal").click()
    page.locator("#companion-text").wait_for(timeout=60_000)
    first = page.locator("#companion-text").inner_text()
    page.locator("#deal").click()
    page.locator("#companion-turn").filter(has_text="Player 2").wait_for(timeout=60_000)
    assert page.locator("#companion-round").inner_text() == "Round 1"  # each player's first card
    assert page.locator("#companion-card svg").count() == 1
    page.reload()  # the deal so far is saved on the device
    page.locator("#companion-turn").filter(has_text="Player 2").wait_for(timeout=ENGINE_START)
    assert "Card 2: " in page.locator("#history").inner_text()  # the cards revealed, in words
    _shot(page, "offline-companion")
    assert first
    assert page.errors == []


def test_the_offline_engine_gives_an_engine_error_its_code(server: Server, browser: Any) -> None:
    """A refused start in the Pyodide worker reaches the page with its code and params, as from a server."""
    page = _page(browser, "nl-NL")
    page.goto(server.base + "/")
    got = page.evaluate(
        """async () => {
          const { call } = await import('/static/offline/engine.js');
          const { tError } = await import('/static/i18n.js');
          try { await call('start', { game: 'forma', options: { obstacles: 99 }, players: 2, seed: 1 }); }
          catch (e) { return { message: e.message, reason: e.reason, params: e.params, shown: tError(e) }; }
          return null;
        }"""
    )
    assert got is not None and got["reason"] == "engine.option_max", got
    assert got["params"] == {"option": "obstacles", "max": "25", "value": "99"}
    assert got["shown"] == "optie 'obstacles' mag hoogstens 25 zijn, niet 99"
    assert got["message"].startswith("option 'obstacles' must be at most 25")
    assert page.errors == []


SNAPSHOT = """async () => {
  const store = await caches.open('polytable-engine-snapshot');
  const keys = await store.keys();
  if (keys.length !== 1) return null;
  const res = await store.match(keys[0]);
  return { url: keys[0].url, unusable: res.headers.get('X-Unusable'), size: (await res.blob()).size };
}"""
BREAK_SNAPSHOT = """async (url) => {
  await (await caches.open('polytable-engine-snapshot')).put(url, new Response(new Uint8Array(4096).fill(7)));
}"""
SAVED = """async () => {
  const { loadGame } = await import('/static/offline/engine.js');
  const game = await loadGame(location.pathname.split('/').pop());
  return !!game && !!game.record && game.record.actions.length === document.querySelector('#app').polytableState.moves;
}"""
ENGINE = "import('/static/offline/engine.js').then((m) => m.call('engine'))"


def _snapshot(page: Any) -> dict[str, Any]:
    """The engine's snapshot once it is stored (the first start keeps it in the background)."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        found: dict[str, Any] | None = page.evaluate(SNAPSHOT)
        if found is not None:
            return found
        time.sleep(0.5)
    raise AssertionError("the offline engine kept no snapshot")


def _reloaded(page: Any) -> str:
    """Reload the game page; the board comes back at the same version. How the engine started."""
    version = page.locator("#app").get_attribute("data-version")
    page.wait_for_function(SAVED, timeout=ENGINE_START)  # the last move is saved on the device
    page.reload()
    page.locator("#pass-ok, #fd-sheet").first.wait_for(timeout=ENGINE_START)
    page.wait_for_function("v => document.querySelector('#app').dataset.version === v", arg=version)
    started: str = page.evaluate(ENGINE)["started"]
    return started


def test_offline_engine_starts_from_its_snapshot_and_anew_when_the_snapshot_is_broken(
    server: Server, browser: Any
) -> None:
    page = _page(browser)
    page.goto(server.base + "/")
    page.reload()
    wait_cached(page)
    offline_foldris(page, server.base)
    snap = _snapshot(page)
    assert snap["unusable"] is None and snap["size"] > 1_000_000
    assert f"/offline/snapshot/{(PYODIDE_DIR / 'VERSION').read_text().strip()}/" in snap["url"]
    _move(page)

    assert _reloaded(page) == "snapshot"
    _move(page)  # the restored engine plays on

    page.evaluate(BREAK_SNAPSHOT, snap["url"])
    assert _reloaded(page) == "fresh"  # the broken snapshot is set aside and Python starts anew
    assert page.evaluate(SNAPSHOT)["unusable"] == "1"
    _move(page)
    assert _reloaded(page) == "fresh"  # not tried again
    _move(page)
    assert page.errors == []


def test_offline_engine_plays_without_a_snapshot_over_plain_http_on_a_network(server: Server, browser: Any) -> None:
    """A phone reaching a laptop at http://<its address>: no secure context, so no Cache API for a snapshot
    (nor a service worker); the engine still starts, every time anew, and the board plays."""
    port = server.base.rsplit(":", 1)[1]
    lan = "--host-resolver-rules=MAP lan.test 127.0.0.1"  # a name, not this machine: not a secure context
    b = browser.browser_type.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", lan])
    try:
        page = b.new_context(**PHONE).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"http://lan.test:{port}/")
        assert page.evaluate("window.isSecureContext") is False
        page.select_option("#game", "foldris")
        page.select_option("#players", "2")
        page.locator("#create-local").click()
        page.wait_for_url("**/local/*")
        page.locator("#pass-ok, #fd-sheet").first.wait_for(timeout=ENGINE_START)
        _move(page)
        assert _reloaded(page) == "fresh"
        _move(page)
        assert errors == []
    finally:
        b.close()
