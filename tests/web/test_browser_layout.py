"""Board layout and the second round of board features in a real browser (Playwright, Debian's Chromium).

A 20x20 Forma room on a phone and on a desktop (the board fits, the page never scrolls sideways, a piece
can be placed); each of the five games on a desktop (the board and the side panel both visible, side by
side without overlapping); Forma's bridges drawn and highlighted when a move scores one, with the points
preview naming the bridge; choosing a Quadefy placement by tapping the 3D view (touch and mouse); the
template designer's keyboard grid; the Quadefy bonus puzzle re-checked by the engine (a wrong build
rejected, a right one accepted); and the board squares that take taps chosen from the keyboard (Quadefy's
layer view, Qwirkle Cubes' squares to place on), the focus staying on the board as it is drawn again.
Screenshots go to ``artifacts/`` (``web-phone-*``, ``web-desktop-*``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from ._browser import TIMEOUT, centre, launch, need, open_room, serve, shot
from ._browser import page as phone_page
from ._browser import rect as box  # skips the module without Chromium

httpx = pytest.importorskip("httpx")
ws_client = pytest.importorskip("websockets.sync.client")

from ._proc import Server  # noqa: E402

DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
BOARDS = {
    "formfinity": "#ff-board",
    "foldris": "#fd-sheet",
    "forma": "#fm-board",
    "qwirkle-cubes": "#qc-table",
    "quadefy": "#qd-3d",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("layout"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def desktop_page(browser: Any) -> Any:
    ctx = browser.new_context(**DESKTOP, locale="en-GB")
    pg = ctx.new_page()
    pg.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    return pg


def create(server: Server, game: str, seats: list[dict[str, Any]] | None = None, **body: Any) -> dict[str, Any]:
    seats = seats or [{"name": "Ann"}, {"kind": "ai", "ai": "random"}]
    r = httpx.post(server.base + "/api/rooms", json={"game": game, "players": 2, "seats": seats, **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def version(pg: Any) -> str:
    return str(pg.locator("#app").get_attribute("data-version"))


def moved(pg: Any, before: str) -> None:
    pg.wait_for_function("v => document.querySelector('#app').dataset.version !== v", arg=before)


def no_sideways_scroll(pg: Any) -> None:
    width = pg.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"


def tap_or_click(pg: Any, x: float, y: float, touch: bool) -> None:
    if touch:
        pg.touchscreen.tap(x, y)
    else:
        pg.mouse.click(x, y)


def show_board(pg: Any, selector: str) -> None:
    """Scroll so the board starts just below the sticky header (for the screenshots)."""
    pg.evaluate(
        "s => window.scrollTo(0, document.querySelector(s).getBoundingClientRect().top + window.scrollY - 70)", selector
    )


# ---------------------------------------------------------------- (a) a 20x20 Forma room, phone and desktop
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_forma_20_by_20_fits_and_places(server: Server, browser: Any, size: str) -> None:
    need("forma")
    touch = size == "phone"
    pg = phone_page(browser) if touch else desktop_page(browser)
    options = {"size": 20, "obstacles": 0, "setup": "tower p15", "touch_move": False}
    room = create(server, "forma", seed=11, options=options)
    open_room(pg, server.base, room)
    pg.locator("#fm-place").wait_for()
    assert pg.locator("#fm-board rect.cell").count() == 400
    board, width = box(pg, "#fm-board"), pg.viewport_size["width"]
    assert board["x"] >= 0 and board["x"] + board["width"] <= width, f"the board does not fit: {board}"
    if not touch:  # a desktop shows the whole board at once
        assert board["y"] + board["height"] <= pg.viewport_size["height"] + pg.evaluate("() => window.scrollY")
    no_sideways_scroll(pg)
    # A piece is placed by tapping (clicking) a square and then Place: the 2x2 square at b19.
    pg.locator("#fm-tray button[data-piece='O4']").click()
    x, y = centre(pg, "#fm-board rect[data-cell='b19']", uncovered=True)
    tap_or_click(pg, x, y, touch)
    pg.locator("#fm-place:not([disabled])").wait_for()
    info = pg.locator("#fm-info").inner_text()
    assert "+4" in info and "@" not in info, info  # what it earns, in words (no notation)
    before = version(pg)
    pg.locator("#fm-place").click()
    moved(pg, before)
    pg.locator("#history li").filter(has_text="O4 on b19").wait_for()
    no_sideways_scroll(pg)
    shot(pg, f"{size}-forma-20")
    assert pg.errors == []
    pg.context.close()


# ---------------------------------------------------------------- (b) each game on a desktop
def test_desktop_layout_board_and_side_panel(server: Server, browser: Any) -> None:
    games = [g for g in BOARDS if _installed(g)]
    assert "forma" in games
    rooms = {g: create(server, g, seed=2) for g in games}
    pg = desktop_page(browser)
    pg.goto(server.base + "/")  # one page for all five rooms: their tokens go in at once
    pg.evaluate(
        "rooms => localStorage.setItem('polytable.rooms', JSON.stringify(rooms))",
        {r["code"]: {"tokens": r["tokens"], "seen": 1} for r in rooms.values()},
    )
    for game, room in rooms.items():
        pg.goto(f"{server.base}/r/{room['code']}")
        pg.locator(BOARDS[game]).wait_for()
        main, side = box(pg, ".roomgrid > :nth-child(1)"), box(pg, ".roomgrid > :nth-child(2)")
        board = box(pg, BOARDS[game])
        width = pg.viewport_size["width"]
        assert main["x"] + main["width"] <= side["x"] + 0.5, f"{game}: the board overlaps the side panel: {main} {side}"
        assert side["x"] + side["width"] <= width, f"{game}: the side panel is cut off: {side}"
        assert board["x"] >= main["x"] - 0.5 and board["x"] + board["width"] <= main["x"] + main["width"] + 0.5, (
            f"{game}: the board spills out of its column: {board} {main}"
        )
        assert side["y"] < pg.viewport_size["height"], f"{game}: the side panel starts below the first screen"
        assert pg.locator(".roomgrid > :nth-child(2) h2").first.is_visible()
        no_sideways_scroll(pg)
        shot(pg, f"desktop-{game}")
    assert pg.errors == []
    pg.context.close()


def _installed(game: str) -> bool:
    try:
        need(game)
    except pytest.skip.Exception:
        return False
    return True


# ---------------------------------------------------------------- (c) Forma: a bridge drawn when scored
def _recv_state(ws: Any, pred: Any = lambda m: True) -> dict[str, Any]:
    for _ in range(100):
        m = json.loads(ws.recv(timeout=10))
        if m["type"] == "state" and pred(m):
            return m  # type: ignore[no-any-return]
        assert m["type"] != "error", m
    raise AssertionError("no matching state")


def test_forma_bridge_drawn_and_highlighted(server: Server, browser: Any) -> None:
    need("forma")
    options = {"setup": "tower p15", "touch_move": False}
    room = create(server, "forma", seats=[{"name": "Ann"}, {"name": "Bob"}], seed=1, options=options)
    # Column c from row 19 down to row 2 for Ann, column r for Bob, through the room's own protocol.
    moves = ["I5 r0 @ c19", "I5 r0 @ r19", "I5 r0 @ c14", "I5 r0 @ r14", "I4 r0 @ c9", "I4 r0 @ r9"]
    moves += ["I4 r0 @ c5", "I4 r0 @ r5"]
    with ws_client.connect(f"ws://127.0.0.1:{server.port}/ws/{room['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "tokens": list(room["tokens"].values())}))
        msg = _recv_state(ws)
        for action in moves:
            seat = msg["acting"][0]
            ws.send(json.dumps({"type": "act", "seat": seat, "version": msg["version"], "action": action}))
            msg = _recv_state(ws, lambda m, v=msg["version"]: m["version"] > v)
    pg = phone_page(browser)
    open_room(pg, server.base, room, {"0": room["tokens"]["0"]})
    pg.locator("#fm-place").wait_for()
    assert pg.locator("#fm-board g.bridge").count() == 0
    pg.locator("#fm-tray button[data-piece='1']").click()
    pg.locator("#fm-board rect[data-cell='c1']").dispatch_event("click")
    pg.locator("#fm-info strong").wait_for()
    info = pg.locator("#fm-info").inner_text()
    assert "+51 points" in info and "1 bridge +50" in info, info  # the preview names the bridge
    would = pg.locator("#fm-board g.bridge.would")
    assert would.count() == 1 and would.get_attribute("data-cells") == " ".join(f"c{r}" for r in range(19, 0, -1))
    show_board(pg, "#fm-board")
    shot(pg, "phone-forma-bridge-preview")
    before = version(pg)
    pg.locator("#fm-place").click()
    moved(pg, before)
    drawn = pg.locator("#fm-board g.bridge.fresh[data-player='0']")
    drawn.wait_for()
    assert drawn.get_attribute("data-cells") == " ".join(f"c{r}" for r in range(19, 0, -1))
    assert drawn.locator("polyline.halo").count() == 1  # highlighted, and the letter at both ends
    assert drawn.locator("text").all_text_contents() == ["A", "A"]
    assert "Ann" in str(drawn.get_attribute("aria-label"))
    assert "Bridge!" in pg.locator("#fm-banner").inner_text()
    assert pg.locator("#fm-board g.bridge").count() == 1  # Bob's column r is not a bridge (r1 is missing)
    show_board(pg, "#fm-board")
    shot(pg, "phone-forma-bridge")
    assert pg.errors == []
    pg.context.close()


# ---------------------------------------------------------------- (d) Quadefy: tap the 3D view to place
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_quadefy_tap_the_3d_view_to_place(server: Server, browser: Any, size: str) -> None:
    need("quadefy")
    touch = size == "phone"
    pg = phone_page(browser) if touch else desktop_page(browser)
    open_room(pg, server.base, create(server, "quadefy", seed=4))
    pg.locator("#qd-place").wait_for()
    assert pg.locator("#qd-3d .ghost3d").count() == 0
    # A drag turns the cube and chooses nothing.
    b = box(pg, "#qd-3d")
    pg.mouse.move(b["x"] + 40, b["y"] + 40)
    pg.mouse.down()
    pg.mouse.move(b["x"] + 110, b["y"] + 70, steps=4)
    pg.mouse.up()
    assert pg.locator("#qd-3d .ghost3d").count() == 0
    assert pg.locator("#qd-3d").count() == 1  # the turned view replaces the old one (nothing nested)
    # A tap on one of the marked cells chooses it: the ghost follows in both views, Place confirms.
    targets = pg.locator("#qd-3d circle.target").evaluate_all("es => es.map(e => e.dataset.i)")
    assert targets, "no cells are marked in the 3D view"
    hit = None
    for i in targets:
        try:
            hit = (i, centre(pg, f"#qd-3d circle.target[data-i='{i}']", uncovered=True))
            break
        except AssertionError:
            continue
    assert hit, "every marked cell is covered"
    tap_or_click(pg, *hit[1], touch)
    pg.locator("#qd-3d .ghost3d").first.wait_for()
    assert pg.locator("#qd-layers .ghost").count() == 4
    text = pg.locator("#qd-info").inner_text()
    assert text.startswith("Placement 1 of ") and "@" not in text, text  # in words, no notation
    cells = pg.evaluate(
        """() => [...document.querySelectorAll('#qd-layers .ghost')].map(g => document.querySelector(
            `#qd-layers rect.cell[x='${g.getAttribute('x') - 2}'][y='${g.getAttribute('y') - 2}']`).dataset.i)"""
    )
    assert hit[0] in cells, (hit[0], cells)  # the ghost covers the cell tapped in 3D
    show_board(pg, "#qd-3d")
    shot(pg, f"{size}-quadefy-tap")
    before = version(pg)
    pg.locator("#qd-place:not([disabled])").click()  # the confirm step
    moved(pg, before)
    assert "Ann placed block " in pg.locator("#history").inner_text()  # the history in words
    # Next turn: a tap on a face of a placed block chooses the cell beyond that face (on top of it, say).
    pg.locator("#qd-place").wait_for()
    show_board(pg, "#qd-3d")
    face = pg.evaluate(
        """() => { for (const e of document.querySelectorAll('#qd-3d polygon[data-i]:not(.floor):not(.ghost3d)')) {
            const r = e.getBoundingClientRect(); const x = r.x + r.width / 2, y = r.y + r.height / 2;
            if (document.elementFromPoint(x, y) === e) return [e.dataset.i, x, y]; } return null; }"""
    )
    assert face, "no face of a placed block can be tapped"
    tap_or_click(pg, face[1], face[2], touch)
    cursor = pg.locator("#qd-layers rect[stroke='#f1c453']")
    cursor.wait_for()
    under = pg.locator(f"#qd-layers rect.cell[data-i='{face[0]}']")
    assert (cursor.get_attribute("x"), cursor.get_attribute("y")) == (
        under.get_attribute("x"),
        under.get_attribute("y"),
    )
    assert pg.errors == []
    pg.context.close()


# ---------------------------------------------------------------- (e) the designer with the keyboard
def test_designer_arrow_keys_and_cell_keys(server: Server, browser: Any) -> None:
    need("formfinity")
    pg = desktop_page(browser)
    pg.goto(server.base + "/designer")
    pg.locator("#ds-grid").wait_for()
    assert pg.locator("#ds-grid [tabindex='0']").count() == 1  # one tab stop for the whole grid
    pg.locator("#ds-grid [data-x='0'][data-y='0']").focus()
    for key in ["ArrowRight", "ArrowRight", "ArrowDown"]:
        pg.keyboard.press(key)
    active = pg.evaluate("() => [document.activeElement.dataset.x, document.activeElement.dataset.y]")
    assert active == ["2", "1"]
    outline = pg.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "the focused square shows no focus"
    assert pg.locator("#ds-grid [tabindex='0']").get_attribute("data-x") == "2"
    pg.keyboard.press("b")
    cell = pg.locator("#ds-grid [data-x='2'][data-y='1']")
    assert "black" in str(cell.get_attribute("class"))
    assert cell.get_attribute("aria-label") == "c2: black"
    assert pg.locator("#ds-said").inner_text() == "c2: black"
    rows = pg.locator("#ds-text").input_value().split('template = """\n')[1].split("\n")
    assert rows[1].split() == [".", ".", "#", ".", ".", ".", ".", ".", ".", "."]  # the variant file follows
    pg.keyboard.press("End")
    pg.keyboard.press("s")
    assert "start" in str(pg.locator("#ds-grid [data-x='9'][data-y='1']").get_attribute("class"))
    pg.keyboard.press("Delete")
    assert "free" in str(pg.locator("#ds-grid [data-x='9'][data-y='1']").get_attribute("class"))
    pg.keyboard.press("ArrowLeft")
    pg.keyboard.press("Enter")  # paints with the chosen tool (black by default)
    assert "black" in str(pg.locator("#ds-grid [data-x='8'][data-y='1']").get_attribute("class"))
    show_board(pg, "#ds-grid")
    shot(pg, "desktop-designer-keys")
    pg.keyboard.press("Tab")  # leaves the grid at once
    assert pg.evaluate("() => document.activeElement.classList.contains('ds-cell')") is False
    assert pg.errors == []
    pg.context.close()


# ---------------------------------------------------------------- (f) the bonus puzzle checked by the engine
def _orient_for(blocks: list[dict[str, Any]], name: str, cells: list[int]) -> tuple[int, int]:
    """(rotation, cell to tap) that places block ``name`` exactly on ``cells``: the board taps the first
    cube of the rotation's list, so the tap goes where that cube lands."""
    target = sorted((i % 4, i // 4 % 4, i // 16) for i in cells)
    lo = [min(c[k] for c in target) for k in range(3)]
    for r, o in enumerate(next(b for b in blocks if b["name"] == name)["orients"]):
        olo = [min(c[k] for c in o) for k in range(3)]
        shape = sorted(tuple(c[k] - olo[k] + lo[k] for k in range(3)) for c in o)
        if shape == target:
            x, y, z = (o[0][k] - olo[k] + lo[k] for k in range(3))
            return r, x + 4 * y + 16 * z
    raise AssertionError(f"no rotation of {name} covers {cells}")


def test_quadefy_puzzle_checked_by_the_engine(server: Server, browser: Any) -> None:
    need("quadefy")
    tables = httpx.get(server.base + "/api/boards/quadefy").json()
    pattern = tables["patterns"][0]["name"]
    answer = httpx.get(server.base + "/api/puzzle/quadefy", params={"pattern": pattern}).json()
    assert answer["solved"]
    groups: dict[tuple[int, str], list[int]] = {}
    for i, c in enumerate(answer["cells"]):
        groups.setdefault((c["owner"], c["block"]), []).append(i)
    right: list[dict[str, Any]] = [{"colour": o, "block": b, "cells": cs} for (o, b), cs in groups.items()]
    check = server.base + "/api/puzzle/quadefy/check"
    assert httpx.post(check, json={"pattern": pattern, "blocks": right}).json() == {
        "valid": True,
        "reasons": [],
        "problems": [],
    }
    swapped = [{**b, "colour": 1 - b["colour"]} for b in right]  # each block on the other colour's squares
    verdict = httpx.post(check, json={"pattern": pattern, "blocks": swapped}).json()
    assert verdict["valid"] is False and "other colour" in verdict["reasons"][0]
    assert verdict["problems"][0]["reason"] == "colour"
    assert httpx.post(check, json={"pattern": pattern, "blocks": "x"}).status_code == 400

    pg = desktop_page(browser)
    open_room(pg, server.base, create(server, "quadefy", seed=5))
    pg.locator("#qd-puzzle").wait_for()
    pg.locator("#qd-puzzle summary").click()
    msg = pg.locator("#qd-pz-msg")
    # Each block through the panel's own buttons (colour, block, rotation) and a tap on the layer view; the
    # clicks of one block are sent in one go (the panel is redrawn after each), which keeps this quick.
    place = """([colour, block, r, cell]) => {
        const q = (sel) => document.querySelector(sel);
        if (!q('#qd-pz-colour').textContent.includes(colour ? 'light' : 'dark')) q('#qd-pz-colour').click();
        q(`#qd-puzzle button[data-pzblock='${block}']`).click();
        for (let i = 0; i < r; i++) q('#qd-pz-rot').click();
        const rot = q('#qd-pz-rot').dataset.r;
        q(`#qd-pz-layers rect.cell[data-i='${cell}']`).dispatchEvent(new MouseEvent('click', { bubbles: true }));
        return rot; }"""
    for n, ((owner, block), cells) in enumerate(sorted(groups.items())):  # dark blocks first, then light
        r, cell = _orient_for(tables["blocks"], block, cells)
        assert pg.evaluate(place, [owner, block, r, cell]) == str(r)
        if n == 0:  # one block is not a solution: the engine says why
            pg.locator("#qd-pz-check").click()
            pg.locator("#qd-pz-msg[data-verdict='bad']").wait_for()
            assert "Not solved" in msg.inner_text() and "not covered" in msg.inner_text()
    assert pg.locator("#qd-pz-layers rect.cell[fill='#fff']").count() == 0  # all 64 cells built by hand
    pg.locator("#qd-pz-msg[data-verdict='ok']").wait_for()  # the full cube went to the engine by itself
    assert "Solved" in msg.inner_text()
    show_board(pg, "#qd-puzzle")
    shot(pg, "desktop-quadefy-puzzle")
    assert pg.errors == []
    pg.context.close()


# ---------------------------------------------------------------- (g) board squares from the keyboard
def test_board_squares_from_the_keyboard(server: Server, browser: Any) -> None:
    need("quadefy")
    pg = desktop_page(browser)
    open_room(pg, server.base, create(server, "quadefy", seed=4))
    pg.locator("#qd-place").wait_for()
    # Quadefy: each of the 64 squares of the layer view is a button named by its cell, reachable with Tab.
    squares = pg.locator("#qd-layers rect.cell")
    assert squares.count() == 64
    named = squares.evaluate_all(
        "es => es.filter(e => e.getAttribute('role') === 'button' && e.tabIndex === 0"
        " && /^[a-d][1-4]\\.[1-4]: /.test(e.getAttribute('aria-label'))).length"
    )
    assert named == 64
    cell = squares.evaluate_all("es => es.find(e => e.getAttribute('fill') === '#dff3e4').dataset.i")  # reachable
    pg.locator(f"#qd-layers rect.cell[data-i='{cell}']").focus()
    pg.keyboard.press("Enter")  # shows a placement covering it; the focus stays on that square, drawn anew
    pg.locator("#qd-layers .ghost").first.wait_for()
    assert pg.evaluate("() => [document.activeElement.closest('svg').id, document.activeElement.dataset.i]") == [
        "qd-layers",
        cell,
    ]
    # The arrow keys turn the 3D view.
    faces = "() => [...document.querySelectorAll('#qd-3d polygon')].map(e => e.getAttribute('points')).join(' ')"
    turned = pg.evaluate(faces)
    pg.locator("#qd-3d").focus()
    pg.keyboard.press("ArrowLeft")
    assert pg.evaluate(faces) != turned and pg.locator("#qd-3d").count() == 1
    pg.locator(f"#qd-layers rect.cell[data-i='{cell}']").focus()
    before = version(pg)
    pg.keyboard.press(" ")  # Space on the shown placement places it
    moved(pg, before)
    assert "Ann placed block " in pg.locator("#history").inner_text()
    assert pg.errors == []
    pg.context.close()
    # Qwirkle Cubes: a hand cube picked with Enter sends the focus to a square it may go to (each such square a
    # button named by the cube and the square); Enter there puts it down and the focus goes on to Confirm,
    # where it stays when the play's score arrives and the board is drawn again; Enter confirms.
    need("qwirkle-cubes")
    pg = desktop_page(browser)
    open_room(pg, server.base, create(server, "qwirkle-cubes", seed=2))
    pg.locator("#qc-hand").wait_for()
    if pg.locator("#qc-keep").count():
        before = version(pg)
        pg.locator("#qc-keep").click()
        moved(pg, before)
    pg.locator("#qc-hand button:not([disabled])").first.wait_for()
    legal = pg.evaluate("() => document.querySelector('#app').polytableState.mine['0'].legal")
    play = next(m for m in legal if "@" in m).split()
    hand = pg.evaluate("() => document.querySelector('#app').polytableState.mine['0'].view.hands[0]")
    taken: list[int] = []
    for tok in play:
        cube, at = tok.split("@")
        i = next(i for i, c in enumerate(hand) if c == cube and i not in taken)
        taken.append(i)
        pg.locator(f"#qc-hand button[data-i='{i}']").focus()
        pg.keyboard.press("Enter")
        pg.wait_for_function("() => document.activeElement && document.activeElement.matches('#qc-table .target')")
        square = pg.locator(f"#qc-table rect.target[data-at='{at}']")
        assert (square.get_attribute("role"), square.get_attribute("tabindex")) == ("button", "0")
        assert (square.get_attribute("aria-label") or "").startswith("Place ")
        square.focus()
        pg.keyboard.press("Enter")
    assert pg.locator("#qc-table g.new").count() == len(play)
    pg.locator("#qc-info strong").wait_for()  # the score of the play, from the server: the board drawn again
    assert pg.evaluate("() => document.activeElement.id") == "qc-confirm"
    before = version(pg)
    pg.keyboard.press("Enter")
    moved(pg, before)
    assert pg.errors == []
    pg.context.close()
