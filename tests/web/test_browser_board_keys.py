"""FORMFINITY's template and Foldris's sheet from the keyboard alone, in a real browser (Playwright driving
Debian's Chromium): Tab reaches one square of the board (a button named in words), the arrow keys move to
another, Enter or Space presses it as a tap would, and a move is played that way on each board.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ._browser import launch, open_room, serve  # skips the module without Chromium
from ._browser import need as _need
from ._browser import page as _page

httpx = pytest.importorskip("httpx")

from ._proc import Server  # noqa: E402

FOCUSED = "() => { const e = document.activeElement; return e && e.closest('svg') ? e.closest('svg').id : ''; }"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("board-keys"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def _room(server: Server, browser: Any, game: str, locale: str, **body: Any) -> Any:
    r = httpx.post(
        server.base + "/api/rooms",
        json={"game": game, "players": 2, "seats": [{"name": "Ann"}, {"kind": "ai", "ai": "random"}], **body},
    )
    assert r.status_code == 201, r.text
    room = r.json()
    page = _page(browser, locale)
    open_room(page, server.base, room)
    return page


def _version(page: Any) -> str:
    return str(page.locator("#app").get_attribute("data-version"))


def _tab_to(page: Any, board: str) -> None:
    """Press Tab until the focus is on a square of ``board`` (an svg's id)."""
    for _ in range(80):
        if page.evaluate(FOCUSED) == board:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached a square of #{board}")


def _focused(page: Any, *attrs: str) -> list[str | None]:
    got: list[str | None] = page.evaluate("as => as.map((a) => document.activeElement.getAttribute(a))", list(attrs))
    return got


def _walk_to(page: Any, board: str, where: Any, goal: tuple[int, int], keys: dict[str, tuple[int, int]]) -> None:
    """Move the focus with the arrow keys until ``where()`` (the focused square's column and row) is ``goal``;
    ``keys`` says which way each arrow key moves."""
    for _ in range(120):
        at = where()
        if at == goal:
            return
        dx, dy = goal[0] - at[0], goal[1] - at[1]
        want = (1 if dx > 0 else -1, 0) if dx else (0, 1 if dy > 0 else -1)
        page.keyboard.press(next(k for k, step in keys.items() if step == want))
        assert page.evaluate(FOCUSED) == board, "an arrow key took the focus off the board"
    raise AssertionError(f"the arrow keys never reached {goal} (at {where()})")


def _ff_cell(name: str) -> tuple[int, int]:
    return ord(name[0]) - 97, int(name[1:]) - 1


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_formfinity_square_played_by_keyboard(server: Server, browser: Any, locale: str) -> None:
    _need("formfinity")
    page = _room(server, browser, "formfinity", locale, seed=3, options={"variant": "1"})
    page.locator("#ff-board rect.cell[tabindex='0']").wait_for()  # our turn: the squares are buttons
    _tab_to(page, "ff-board")
    role, label, start = _focused(page, "role", "aria-label", "data-cell")
    assert role == "button" and start
    assert label and label.startswith({"en-GB": "Square ", "nl-NL": "Vakje "}[locale] + start + ": "), label
    # A square a legal placement covers (the server's legal actions), reached with the arrow keys.
    legal = page.evaluate("() => document.querySelector('#app').polytableState.mine['0'].legal")
    shape, anchor = next(a for a in legal if "@" in a).split("@")
    ax, ay = _ff_cell(anchor)
    dx, dy = next((x, y) for y, row in enumerate(shape.split("/")) for x, ch in enumerate(row) if ch == "#")
    goal = (ax + dx, ay + dy)
    arrows = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}
    _walk_to(page, "ff-board", lambda: _ff_cell(str(_focused(page, "data-cell")[0])), goal, arrows)
    page.keyboard.press("Enter")  # shows a placement covering it; the focus stays on that square, drawn anew
    page.locator("#ff-board .ghost").first.wait_for()
    name = f"{chr(97 + goal[0])}{goal[1] + 1}"
    assert page.evaluate(FOCUSED) == "ff-board" and _focused(page, "data-cell") == [name]
    ghost = {"en-GB": "the element goes here", "nl-NL": "hier komt het element"}[locale]
    assert ghost in str(_focused(page, "aria-label")[0])
    before = _version(page)
    page.keyboard.press(" ")  # Space on the shown placement draws it
    page.wait_for_function("v => document.querySelector('#app').dataset.version !== v", arg=before)
    page.locator("#history li").first.wait_for()
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_foldris_square_played_by_keyboard(server: Server, browser: Any, locale: str) -> None:
    _need("foldris")
    page = _room(server, browser, "foldris", locale, seed=3)
    page.locator("#fd-sheet rect[tabindex='0']").wait_for()  # our choice: the squares are buttons
    _tab_to(page, "fd-sheet")
    role, label, col, row = _focused(page, "role", "aria-label", "data-col", "data-row")
    assert role == "button" and col is not None and row is not None
    words = {"en-GB": f"Column {int(col) + 1}, row {int(row) + 1}: ", "nl-NL": f"Kolom {int(col) + 1}, rij "}
    assert label and label.startswith(words[locale]), label
    page.keyboard.press("ArrowRight")
    assert _focused(page, "data-col") == [str(int(col) + 1)]
    page.keyboard.press("Enter")  # the block moves over that column; its ghost shows where it lands
    page.locator("#fd-sheet .ghost").first.wait_for()
    assert page.evaluate(FOCUSED) == "fd-sheet"
    landed = {"en-GB": "the block lands here", "nl-NL": "hier landt het blok"}[locale]
    target = page.evaluate(
        "w => { const e = [...document.querySelectorAll('#fd-sheet rect[role=button]')]"
        ".find((r) => r.getAttribute('aria-label').includes(w)); return [+e.dataset.col, +e.dataset.row]; }",
        landed,
    )
    arrows = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, 1), "ArrowDown": (0, -1)}
    where = lambda: tuple(int(str(v)) for v in _focused(page, "data-col", "data-row"))  # noqa: E731
    _walk_to(page, "fd-sheet", where, (target[0], target[1]), arrows)
    assert landed in str(_focused(page, "aria-label")[0])
    mine = "document.querySelector('#app').polytableState.mine['0'].view.players[0]"
    ink = page.evaluate(f"() => JSON.stringify({mine}.ink)")
    before = _version(page)
    page.keyboard.press(" ")  # Space on the ghost drops the block there: chosen, or drawn once the AI chose too
    page.wait_for_function("v => document.querySelector('#app').dataset.version !== v", arg=before)
    page.wait_for_function(f"b => {mine}.chosen || JSON.stringify({mine}.ink) !== b", arg=ink)
    assert page.errors == []
    page.context.close()
