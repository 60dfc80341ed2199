"""What the browser tests share: Debian's Chromium driven by Playwright, phone-sized pages, screenshots.

Importing this module skips the importing test module (with the reason) when Chromium or Playwright is
missing; Playwright never downloads a browser here.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from polytable.core import ConfigError, get_game

from ._proc import Server

CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
ENGINE_START = 90_000
"""Milliseconds allowed for the first offline board: Pyodide starts in the worker (seconds on a busy machine)."""
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
TIMEOUT = 15_000


def serve(tmp: Path) -> Iterator[Server]:
    """A real server process on a fresh SQLite file (body of a module-scoped fixture)."""
    s = Server(f"sqlite:///{tmp / 'rooms.db'}", delay=0.0, log=tmp / "server.log")
    yield s
    s.kill()


def launch() -> Iterator[Any]:
    """One headless Chromium for a module (body of a module-scoped fixture)."""
    with sync_api.sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        except Exception as exc:  # a broken Chromium install: say so instead of failing every test
            pytest.skip(f"Chromium does not start: {exc}")
        yield b
        b.close()


def page(browser: Any, locale: str = "en-GB", **extra: Any) -> Any:
    """A phone-sized page whose JavaScript errors are collected in ``page.errors``."""
    ctx = browser.new_context(**PHONE, locale=locale, **extra)
    pg = ctx.new_page()
    pg.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    return pg


_RECT = """([sel, scroll, uncovered]) => {
  const e = document.querySelector(sel);
  if (!e) return null;
  if (scroll) e.scrollIntoView({ block: "center", inline: "center" });
  const r = e.getBoundingClientRect();
  if (!r.width || !r.height) return null;
  const x = r.x + r.width / 2, y = r.y + r.height / 2;
  if (uncovered) { const hit = document.elementFromPoint(x, y); if (hit !== e && !e.contains(hit)) return "covered"; }
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}"""


def rect(pg: Any, selector: str, scroll: bool = False, uncovered: bool = False) -> dict[str, float]:
    """Where the first element a selector shows is drawn (x, y, width, height), once it is drawn.

    Boards are drawn again whenever a state, a preview or the AI's move arrives, so an element found by
    one call may be gone by the next: the element is found, scrolled to (``scroll``: to the middle of the
    view) and measured in one step of the page's own JavaScript, and looked for again until it is there.
    ``uncovered`` also asks that a tap at its centre reaches the element itself (nothing drawn over it)."""
    r = pg.wait_for_function(_RECT, arg=[selector, scroll, uncovered]).json_value()
    assert r != "covered", f"{selector} is covered"
    return {k: float(v) for k, v in r.items()}


def scroll_to(pg: Any, selector: str) -> None:
    """Scroll the first element a selector shows to the middle of the view, even while it is drawn again."""
    rect(pg, selector, scroll=True)


def centre(pg: Any, selector: str, uncovered: bool = False) -> tuple[float, float]:
    """The centre of the first element a selector shows, scrolled to the middle of the view (see ``rect``)."""
    r = rect(pg, selector, scroll=True, uncovered=uncovered)
    return r["x"] + r["width"] / 2, r["y"] + r["height"] / 2


def tap(pg: Any, selector: str) -> None:
    """A finger on the centre of what a selector shows (see ``rect``)."""
    pg.touchscreen.tap(*centre(pg, selector))


def open_room(pg: Any, base: str, room: dict[str, Any], tokens: dict[str, str] | None = None) -> None:
    """Open a room's page as the device that made it: the seats' tokens (``room["tokens"]`` unless given)
    go into the page's saved rooms first, as the home page keeps them after a "create"."""
    pg.goto(base + "/")
    pg.evaluate(
        "([c, t]) => localStorage.setItem('polytable.rooms', JSON.stringify({[c]: {tokens: t, seen: 1}}))",
        [room["code"], room["tokens"] if tokens is None else tokens],
    )
    pg.goto(f"{base}/r/{room['code']}")


def shot(pg: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"web-{name}.png"), full_page=False)


def need(game_id: str) -> None:
    try:
        get_game(game_id)
    except ConfigError:
        pytest.skip(f"{game_id} is not installed yet")


CACHED = """async () => {
  if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return false;
  for (const k of await caches.keys()) {
    const c = await caches.open(k);
    if (await c.match('/static/vendor/pyodide/pyodide.asm.wasm') && await c.match('/offline/rules.whl')) return true;
  }
  return false;
}"""


def wait_cached(page: Any) -> None:
    """Wait until the service worker controls the page and holds the offline engine."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if page.evaluate(CACHED):
            return
        time.sleep(0.5)
    raise AssertionError("the service worker did not cache the offline engine")


def offline_foldris(page: Any, base: str) -> None:
    """With the network cut, open the home page and start a two-player Foldris game on the device (the
    offline engine); return at its first screen (the pass screen or the sheet)."""
    page.context.set_offline(True)
    page.goto(base + "/")
    page.locator("#offline-note").wait_for()
    page.select_option("#game", "foldris")
    page.select_option("#players", "2")
    page.locator("#create-local").click()
    page.wait_for_url("**/local/*")
    page.locator("#pass-ok, #fd-sheet").first.wait_for(timeout=ENGINE_START)
