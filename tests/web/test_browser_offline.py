"""Offline play in a real browser: with the network cut, the PWA plays a hot-seat game with the same Python
rules under Pyodide, saves it in IndexedDB, resumes it after a reload and exports a record that replays here.

Skipped with a reason without Chromium or Pyodide (npm at set-up); in CI a missing Pyodide fails instead.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from polytable.match import Match
from polytable.web._offline import PYODIDE_DIR, pyodide_available

from ._browser import launch, serve  # skips the module without Chromium
from ._browser import page as _page
from ._browser import shot as _shot
from ._proc import Server

if not pyodide_available():
    if os.environ.get("CI"):
        raise RuntimeError(f"Pyodide is not installed at {PYODIDE_DIR}: CI must run the offline tests")
    pytest.skip(f"Pyodide is not installed at {PYODIDE_DIR} (scripts/npm-assets.sh)", allow_module_level=True)

ENGINE_START = 90_000
"""Milliseconds allowed for the first board: Pyodide starts in the worker (seconds on a busy machine)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("offline"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def _cached(page: Any) -> None:
    """Wait until the service worker controls the page and holds the offline engine."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if page.evaluate(CACHED):
            return
        time.sleep(0.5)
    raise AssertionError("the service worker did not cache the offline engine")


CACHED = """async () => {
  if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return false;
  for (const k of await caches.keys()) {
    const c = await caches.open(k);
    if (await c.match('/static/vendor/pyodide/pyodide.asm.wasm') && await c.match('/offline/rules.whl')) return true;
  }
  return false;
}"""


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
    _cached(page)

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
    _shot(page, "offline-over")
    with page.expect_download() as info:
        page.locator("#export-record").click()
    path = tmp_path / "record.json"
    info.value.save_as(str(path))
    record = json.loads(path.read_text())
    assert record["game"] == "foldris" and record["config"]["players"] == 2
    assert Match.replay(record).is_over()  # `polytable replay` accepts what the phone made offline
    assert page.errors == []


def test_offline_companion_deals_formfinity_cards(server: Server, browser: Any) -> None:
    page = _page(browser)
    page.goto(server.base + "/")
    page.reload()
    _cached(page)
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
    page.locator("#companion-round").filter(has_text="Round 2").wait_for(timeout=60_000)
    assert page.locator("#companion-card svg").count() == 1
    page.reload()  # the deal so far is saved on the device
    page.locator("#companion-round").filter(has_text="Round 2").wait_for(timeout=ENGINE_START)
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
    assert got["shown"] == "optie 'obstacles' moet hoogstens 25 zijn; kreeg 99"
    assert got["message"].startswith("option 'obstacles' must be at most 25")
    assert page.errors == []
