"""What players noticed on the phone, checked in a real browser: Quadefy placed by tapping the 3D view."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ._browser import launch, open_room, scroll_to, serve  # skips the module without Chromium
from ._browser import need as _need
from ._browser import page as _page
from ._browser import shot as _shot
from ._proc import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("polish"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def _room(server: Server, browser: Any, game: str, **body: Any) -> Any:
    r = httpx.post(
        server.base + "/api/rooms",
        json={"game": game, "players": 2, "seats": [{"name": "Ann"}, {"kind": "ai", "ai": "random"}], **body},
    ).json()
    page = _page(browser)
    open_room(page, server.base, r)
    return page


def test_quadefy_a_block_placed_by_tapping_the_3d_view(server: Server, browser: Any) -> None:
    _need("quadefy")
    page = _room(server, browser, "quadefy", seed=5)
    page.locator("#qd-3d circle.target").first.wait_for()
    page.locator("#qd-3d circle.target").first.tap()  # a finger on a dot: a cell a placement can cover
    page.locator("#qd-3d .ghost3d").first.wait_for()  # the ghost follows in the 3D view ...
    page.locator("#qd-layers .ghost").first.wait_for()  # ... and in the layer grid kept for keys and readers
    _shot(page, "quadefy-3d-tap")
    before = page.locator("#app").get_attribute("data-version")
    page.locator("#qd-place").click()
    page.wait_for_function("v => document.querySelector('#app').dataset.version !== v", arg=before)
    cells = page.evaluate("() => document.querySelector('#app').polytableState.mine['0'].view.cells")
    assert sum(1 for c in cells if c) >= 4
    assert page.errors == []


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_foldris_a_completed_line_folds_away(server: Server, browser: Any, motion: str) -> None:
    _need("foldris")
    # An 8-square bar fills a whole row: the drop completes a line and the sheet folds.
    deck = "W8 1 ########\nW8 1\nW8 1\n"
    r = httpx.post(
        server.base + "/api/rooms", json={"game": "foldris", "players": 1, "seed": 2, "options": {"deck": deck}}
    ).json()
    page = _page(browser, reduced_motion=motion)
    open_room(page, server.base, r)
    page.locator("#fd-sheet rect[data-col='0']").first.click()
    page.locator("#fd-sheet .ghost").first.wait_for()
    page.locator("#play").click()
    page.locator("#fd-folded").wait_for()  # the banner says a line folded away ...
    page.locator("#fd-sheet .fold-line").wait_for(state="attached")  # ... and the sheet shows where it folded
    animation = page.evaluate("() => getComputedStyle(document.querySelector('#fd-sheet .fold-above')).animationName")
    assert animation == ("none" if motion == "reduce" else "fold-down")
    if motion != "reduce":
        scroll_to(page, "#fd-sheet")
        _shot(page, "foldris-fold")
    assert page.errors == []
