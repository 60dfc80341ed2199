"""Accessibility in a real browser: axe-core (from npm, see scripts/npm-assets.sh) finds no serious or critical
violation on the landing page, the designer, every How-to-play page and every board, in English and Dutch,
at phone size; and every choice on the new-room form fits at 360 px.

Skipped with a reason without Chromium or axe-core; in CI a missing axe-core fails instead.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ._browser import CHROMIUM, PHONE, serve  # skips the module without Chromium
from ._browser import launch as _launch
from ._proc import Server

AXE = Path(__file__).resolve().parents[2] / "build" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
if not AXE.is_file():
    if os.environ.get("CI"):
        raise RuntimeError(f"axe-core is not installed at {AXE}: CI must run the accessibility checks")
    pytest.skip(f"axe-core is not installed at {AXE} (scripts/npm-assets.sh)", allow_module_level=True)

GAMES = ("formfinity", "foldris", "forma", "qwirkle-cubes", "quadefy")
RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`);
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("a11y"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    assert CHROMIUM
    yield from _launch()


def _rooms(server: Server) -> dict[str, dict[str, Any]]:
    out = {}
    for game in GAMES:
        r = httpx.post(
            server.base + "/api/rooms",
            json={"game": game, "players": 2, "seed": 1, "seats": [{"name": "Ann"}, {"kind": "ai", "ai": "random"}]},
        )
        assert r.status_code == 201, r.text
        out[game] = r.json()
    return out


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_no_serious_or_critical_axe_violation(server: Server, browser: Any, locale: str) -> None:
    rooms = _rooms(server)
    # axe is injected as an inline script, which the app's Content-Security-Policy rightly forbids.
    ctx = browser.new_context(**PHONE, locale=locale, bypass_csp=True)
    page = ctx.new_page()
    page.goto(server.base + "/")
    for r in rooms.values():
        page.evaluate(
            "([c, t]) => { const all = JSON.parse(localStorage.getItem('polytable.rooms') || '{}');"
            " all[c] = {tokens: t, seen: 1}; localStorage.setItem('polytable.rooms', JSON.stringify(all)); }",
            [r["code"], r["tokens"]],
        )
    paths = ["/", "/designer", "/rules", *[f"/rules/{g}" for g in GAMES], *[f"/r/{r['code']}" for r in rooms.values()]]
    found = {}
    for path in paths:
        page.goto(server.base + path)
        page.locator("#app > *").first.wait_for()
        if path.startswith("/r/"):
            page.locator("#board > *").first.wait_for()
        time.sleep(0.3)  # let late renders (fonts, SVG) settle
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
        bad = page.evaluate(RUN)
        if bad:
            found[path] = bad
    ctx.close()
    assert not found, "\n".join(f"{p}: {v}" for p, vs in found.items() for v in vs)


def test_the_new_room_form_fits_a_360_px_phone(server: Server, browser: Any) -> None:
    ctx = browser.new_context(**PHONE, locale="en-GB")
    page = ctx.new_page()
    page.goto(server.base + "/")
    page.select_option("#game", "forma")
    page.select_option("#players", "4")
    cut = page.evaluate(
        """() => [...document.querySelectorAll('#create select')].filter(s => s.offsetParent !== null)
          .filter(s => { const c = document.createElement('canvas').getContext('2d');
                         c.font = getComputedStyle(s).font;
                         const text = s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : '';
                         return c.measureText(text).width + 40 > s.clientWidth; })
          .map(s => s.id || s.name)"""
    )
    ctx.close()
    assert cut == [], f"these selects cut their text at 360 px: {cut}"
