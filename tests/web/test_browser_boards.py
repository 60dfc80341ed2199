"""The dedicated boards of Forma, Qwirkle Cubes and Quadefy, the designer, the rules pages and the Dutch
interface in a real browser (Playwright driving Debian's Chromium at /usr/bin/chromium).

Each game is played to the end by a person on a phone-sized screen against an AI, through the board's own
controls (tray, rotate/flip, ghost and preview for Forma; hand, reroll, target squares and confirm for
Qwirkle Cubes; block, rotation, tinted squares and ghost for Quadefy). Forma's first moves are made with the
keyboard alone. Screenshots at 360x640 go to ``artifacts/``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from polytable.core import get_game

from ._browser import launch, open_room, rect, serve  # skips the module without Chromium
from ._browser import need as _need
from ._browser import page as _page
from ._browser import shot as _shot

httpx = pytest.importorskip("httpx")

from ._proc import Server  # noqa: E402

STATIC = Path(__file__).resolve().parents[2] / "src" / "polytable" / "web" / "static"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("boards"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def _room(server: Server, browser: Any, game: str, ai: str, locale: str = "en-GB", **body: Any) -> tuple[Any, str]:
    r = httpx.post(
        server.base + "/api/rooms",
        json={"game": game, "players": 2, "seats": [{"name": "Ann"}, {"kind": "ai", "ai": ai}], **body},
    ).json()
    page = _page(browser, locale)
    open_room(page, server.base, r)
    return page, r["code"]


def _version(page: Any) -> str:
    return str(page.locator("#app").get_attribute("data-version"))


def _moved(page: Any, before: str) -> None:
    page.wait_for_function("v => document.querySelector('#app').dataset.version !== v", arg=before)


def _my_view(page: Any) -> dict[str, Any]:
    view: dict[str, Any] = page.evaluate("() => document.querySelector('#app').polytableState.mine['0'].view")
    return view


def _forma_move(view: dict[str, Any]) -> tuple[str, int, bool, str]:
    """A legal placement of Ann's largest remaining piece: (piece, quarter turns, flipped, anchor cell)."""
    game = get_game("forma")
    state = game.state_from_dict(view)
    stock = view["players"][0]["stock"]
    best = None
    for a in game.legal_actions(state, 0):
        text = game.format_action(a, state)
        name = text.split()[0]
        size = int(name[-1])  # names end in the size: 1, 2, I3 ... X5
        if best is None or size > best[0]:
            best = (size, text)
            if size == 5 and stock.get(name):
                break
    assert best is not None
    m = re.match(r"^(\w+) r(\d)(f?) @ ([a-t]\d+)$", best[1])
    assert m
    return m.group(1), int(m.group(2)), bool(m.group(3)), m.group(4)


def test_forma_to_the_end_with_the_keyboard_first(server: Server, browser: Any) -> None:
    _need("forma")
    # The house rules (a random set-up, no touch-move): every turn is one placement.
    options = {"obstacles": 25, "placement": "random", "touch_move": False}
    page, _ = _room(server, browser, "forma", "random", seed=5, options=options)
    page.locator("#fm-board").wait_for()
    page.locator("#fm-tray button").first.wait_for()
    # Keyboard only: Tab to the board, choose a piece with ] , turn with R, move with the arrows, Enter twice.
    for _ in range(60):
        if page.evaluate("() => document.activeElement && document.activeElement.id") == "fm-board":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "fm-board"
    for key in ["]", "]", "]", "r", "ArrowLeft", "ArrowDown"]:  # each step is previewed by the server
        page.keyboard.press(key)
    for _ in range(20):  # walk down until the spot is free (obstacles and the tower are in the way)
        page.wait_for_timeout(150)
        if page.locator("#fm-info strong").count():
            break
        page.keyboard.press("ArrowDown")
    page.locator("#fm-info strong").wait_for()  # the server's preview: the points before confirming
    info = page.locator("#fm-info").inner_text()
    assert re.search(r"\+\d+ points", info), info
    _shot(page, "forma-preview")
    before = _version(page)
    page.keyboard.press("Enter")
    _moved(page, before)
    assert page.locator("#history li").count() >= 1
    # An illegal spot is shown as such: the tower's cell. Nothing is shown before the player's first tap.
    setup = _my_view(page)["setup"]
    tower = re.search(r"tower ([a-t]\d+)", setup)
    assert tower
    page.locator("#fm-rotate").wait_for()  # my turn again
    assert page.locator("#fm-board .ghost").count() == 0 and "fit" not in page.locator("#fm-info").inner_text()
    page.locator(f"#fm-board rect[data-cell='{tower.group(1)}']").dispatch_event("click")
    page.locator("#fm-board .ghost.bad").first.wait_for()
    # Then the rest of the game with the tray and taps, each move previewed before it is placed.
    start = time.monotonic()
    moves = 0
    while not page.locator("#over").is_visible():
        assert time.monotonic() - start < 60, "the Forma game did not end in time"
        if not page.locator("#fm-place").count():
            page.wait_for_timeout(30)
            continue
        view = _my_view(page)
        piece, turns, flipped, cell = _forma_move(view)
        page.locator(f"#fm-tray button[data-piece='{piece}']").click()
        for _ in range(turns):
            page.locator("#fm-rotate").click()
        if flipped:
            page.locator("#fm-flip").click()
        page.locator(f"#fm-board rect[data-cell='{cell}']").dispatch_event("click")
        page.locator("#fm-place:not([disabled])").wait_for()
        before = _version(page)
        page.locator("#fm-place").click()
        _moved(page, before)
        moves += 1
    page.locator("#over").wait_for()
    _shot(page, "forma")
    assert moves > 5
    assert page.locator("#announce").inner_text()  # screen readers heard the moves
    assert page.errors == []


def test_qwirkle_cubes_to_the_end(server: Server, browser: Any) -> None:
    _need("qwirkle-cubes")
    page, _ = _room(server, browser, "qwirkle-cubes", "greedy", seed=3)
    page.locator("#qc-table").wait_for()
    start = time.monotonic()
    turns = rerolls = 0
    shot = False
    while not page.locator("#over").is_visible():
        assert time.monotonic() - start < 60, "the Qwirkle Cubes game did not end in time"
        if page.locator("#qc-keep").count():
            before = _version(page)
            if turns % 3 == 0:  # reroll one cube now and then
                page.locator("#qc-hand button.cube").first.click()
                page.locator("#qc-roll").click()
                rerolls += 1
            else:
                page.locator("#qc-keep").click()
            _moved(page, before)
        elif page.locator("#qc-confirm").count():
            legal = page.evaluate("() => document.querySelector('#app').polytableState.mine['0'].legal")
            plays = [m for m in legal if "@" in m]
            if not plays:
                page.locator("#qc-pass").click()
                continue
            play = max(plays, key=lambda m: len(m.split()))  # several cubes in one line when we can
            hand = page.evaluate("() => document.querySelector('#app').polytableState.mine['0'].view.hands[0]")
            taken: set[int] = set()
            for tok in play.split():
                cube, at = tok.split("@")
                i = next(i for i, c in enumerate(hand) if c == cube and i not in taken)  # the cube's place in hand
                taken.add(i)
                page.locator(f"#qc-hand button[data-i='{i}']").click()
                page.locator(f"#qc-table rect.target[data-at='{at}']").dispatch_event("click")
            page.locator("#qc-info strong").wait_for()  # the score of the play, from the server
            assert re.search(r"\+\d+", page.locator("#qc-info").inner_text())
            if not shot and len(play.split()) > 1:
                _shot(page, "qwirkle-preview")
                shot = True
            before = _version(page)
            page.locator("#qc-confirm").click()
            _moved(page, before)
            turns += 1
        elif page.locator("#qc-pass").count():
            page.locator("#qc-pass").click()
        else:
            page.wait_for_timeout(30)
    assert page.locator("#qc-bag").inner_text().startswith("Cubes in the bag")
    _shot(page, "qwirkle")
    assert turns > 5 and rerolls > 0
    assert page.errors == []


def test_quadefy_to_the_end_then_the_puzzle(server: Server, browser: Any) -> None:
    _need("quadefy")
    page, _ = _room(server, browser, "quadefy", "random", seed=3)
    page.locator("#qd-3d").wait_for()
    # Turn the 3D view by dragging it (mouse or touch) and with the buttons.
    box = rect(page, "#qd-3d")
    page.mouse.move(box["x"] + 50, box["y"] + 50)
    page.mouse.down()
    page.mouse.move(box["x"] + 120, box["y"] + 80)
    page.mouse.up()
    start = time.monotonic()
    n = 0
    while not page.locator("#over").is_visible():
        assert time.monotonic() - start < 40, "the Quadefy game did not end in time"
        if not page.locator("#qd-place").count():
            page.wait_for_timeout(30)
            continue
        if n % 2:
            page.locator("#qd-rot-next").click()  # another rotation now and then
        tinted = page.locator("#qd-layers rect.cell[fill='#dff3e4']")
        if not tinted.count():
            page.locator("#qd-rot-next").click()
            continue
        tinted.first.dispatch_event("click")
        page.locator("#qd-layers .ghost").first.wait_for()
        if n == 0:
            _shot(page, "quadefy-ghost")
        before = _version(page)
        page.locator("#qd-place").click()
        _moved(page, before)
        n += 1
    assert "Ann" in page.locator("#qd-remaining").inner_text()
    page.locator("#qd-puzzle summary").click()
    page.locator("#qd-pz-layers rect.cell").first.dispatch_event("click")  # a block placed by hand
    page.locator("#qd-solve").click()
    page.locator("#qd-pz-msg").filter(has_text="solver").wait_for()
    _shot(page, "quadefy")
    assert n >= 3
    assert page.errors == []


def test_dutch_interface_rules_page_and_switch(server: Server, browser: Any) -> None:
    page = _page(browser, "nl-NL")
    page.goto(server.base + "/")
    page.locator("h1").filter(has_text="Samen aan één tafel").wait_for()
    assert page.locator("#create-room").inner_text() == "Kamer maken"
    assert page.evaluate("() => document.documentElement.lang") == "nl"
    _shot(page, "home-nl")
    page.goto(server.base + "/rules/forma")
    page.locator("#rules h1").filter(has_text="Speluitleg").wait_for()
    assert page.locator("#rules svg").count() >= 1
    page.locator("#rules-words dt").filter(has_text="legvorm").wait_for()  # the glossary's Dutch words
    assert page.locator("a.reading").first.inner_text() == "lezing van polytable"
    _shot(page, "rules-forma-nl")
    if get_game("qwirkle-cubes"):
        qpage, _ = _room(server, browser, "qwirkle-cubes", "greedy", locale="nl-NL", seed=4)
        qpage.locator("#status").filter(has_text="jouw zet").wait_for()
        assert qpage.locator("#qc-keep").inner_text() == "Houden"
        qpage.context.close()
    page.goto(server.base + "/")
    page.select_option("#lang", "en")
    page.locator("h1").filter(has_text="Play at one table").wait_for()
    assert page.errors == []


def test_how_to_play_marks_polytables_readings_and_links_their_notes(server: Server, browser: Any) -> None:
    """Every rule flagged in readings.json carries the mark, and only those; each mark links to its note in the
    list at the end of the page, which names the file in docs/rules/; the page ends with the game's words."""
    flags = json.loads((STATIC / "i18n" / "readings.json").read_text(encoding="utf-8"))
    page = _page(browser)
    for game, key in {"formfinity": "formfinity", "foldris": "foldris", "forma": "forma",
                      "qwirkle-cubes": "qwirkle", "quadefy": "quadefy"}.items():  # fmt: skip
        if not get_game(game):
            continue
        page.goto(f"{server.base}/rules/{game}")
        page.locator("#rules-words dt").first.wait_for()
        marks = page.locator("li.reading-rule a.reading")
        assert marks.count() == len(flags[key]["items"]), game
        assert page.locator("#rules a.reading").count() == marks.count()  # no mark on a rulebook rule
        for i in range(marks.count()):
            target = marks.nth(i).get_attribute("href")
            assert target and page.locator(f"#readings {target}").count() == 1, (game, target)
        assert flags[key]["notes"] in page.locator("#readings").inner_text()
    page.goto(f"{server.base}/rules/formfinity")
    page.locator("#rules-v3 summary").click()  # a folded variant
    page.locator("li[data-notes~='FF48']").evaluate("e => e.scrollIntoView()")
    _shot(page, "rules-formfinity-readings")
    page.locator("li[data-notes~='FF48'] a.reading").click()  # to its note, the page staying as it is
    page.wait_for_function("() => document.getElementById('reading-FF48').getBoundingClientRect().top < innerHeight")
    assert page.locator("#rules-v3").get_attribute("open") is not None
    assert page.errors == []


def test_template_designer_validates_prints_and_plays(server: Server, browser: Any) -> None:
    _need("formfinity")
    page = _page(browser, accept_downloads=True)
    page.goto(server.base + "/designer")
    page.locator("#ds-grid").wait_for()
    page.fill("#ds-w", "8")
    page.locator("#ds-w").dispatch_event("change")
    page.fill("#ds-h", "5")
    page.locator("#ds-h").dispatch_event("change")
    page.locator("#ds-tool-black").click()
    page.locator("#ds-grid [data-x='2'][data-y='1']").click()
    page.locator("#ds-grid [data-x='5'][data-y='3']").click()
    assert "# " in page.locator("#ds-text").input_value()
    page.fill("#ds-length", "9")
    page.locator("#ds-length").dispatch_event("change")
    page.locator("#ds-validate").click()
    page.locator("#ds-result.bad").wait_for()  # no line of 9 fits on an 8 x 5 template
    page.fill("#ds-length", "4")
    page.locator("#ds-length").dispatch_event("change")
    page.locator("#ds-validate").click()
    page.locator("#ds-result.ok").wait_for()
    page.locator("#ds-save").click()
    assert page.locator("#ds-saved button").count() == 1
    page.select_option("#ds-paper", "letter")
    with page.expect_download() as dl, page.expect_request("**/api/formfinity/print") as req:
        page.locator("#ds-print").click()
    assert dl.value.suggested_filename.endswith(".pdf")
    assert json.loads(req.value.post_data or "{}")["paper"] == "letter"  # the paper chosen in the card
    _shot(page, "designer")
    page.locator("#ds-play").click()
    page.locator("#ff-board").wait_for()
    assert page.locator("#ff-board rect[fill='#222']").count() == 2
    assert page.errors == []


def test_template_designer_checks_balance_with_progress(server: Server, browser: Any) -> None:
    _need("formfinity")
    page = _page(browser)
    page.goto(server.base + "/designer")
    page.locator("#ds-grid").wait_for()
    page.fill("#ds-balance-games", "3")
    page.locator("#ds-balance-run").click()
    page.locator("#ds-balance img.ds-figure").first.wait_for(timeout=60_000)
    assert page.locator("#ds-balance img.ds-figure").count() >= 5  # seats, rounds, choices, scores, skill...
    out = page.locator("#ds-balance").inner_text()
    assert "Balance" in out and "Rounds" in out and "skill gap" in out and "is left out" in out
    assert page.locator("#ds-balance-progress").is_hidden()
    json_link = page.locator("#ds-balance-json")
    assert json_link.get_attribute("download") == "balance-report.json"
    data = page.request.get(server.base + json_link.get_attribute("href")).json()
    assert data["configurations"] and data["ladder"]["pairs"]
    assert page.locator("#ds-balance-page").get_attribute("href").endswith("/report.html")
    assert page.errors == []


def test_forma_touch_move_pick_then_place(server: Server, browser: Any) -> None:
    _need("forma")
    page, _ = _room(server, browser, "forma", "random", seed=5, options={"placement": "random"})
    page.locator("#fm-pick").wait_for()
    assert page.locator("#fm-place").count() == 0  # a piece must be picked up first
    page.locator("#fm-tray button[data-piece='X5']").click()
    before = _version(page)
    page.locator("#fm-pick").click()
    _moved(page, before)
    page.locator("#fm-place").wait_for()
    assert page.locator("#fm-tray button.chosen").get_attribute("data-piece") == "X5"
    assert page.locator("#fm-tray button[disabled]").count() == 20  # no other piece can be chosen now
    page.locator("#fm-board rect[data-cell='e5']").dispatch_event("click")
    page.locator("#fm-info strong").wait_for()
    before = _version(page)
    page.locator("#fm-place").click()
    _moved(page, before)
    assert "placed piece X5 on e5" in page.locator("#history").inner_text()  # the history in words ...
    page.locator("#history-notation").click()
    assert "X5 r0 @ e5" in page.locator("#history").inner_text()  # ... with the notation on demand
    assert page.errors == []


def test_forma_set_up_by_the_starting_player_then_pick_then_place(server: Server, browser: Any) -> None:
    _need("forma")
    # The default rules: player 1 places the obstacles (3 chosen here) and the tower, then touch-move.
    page, _ = _room(server, browser, "forma", "random", seed=5, options={"obstacles": 3})
    page.locator("#fm-setup").wait_for()
    assert "3 to go" in page.locator("#fm-info").inner_text()
    assert page.locator("#fm-board circle.allowed").count() == 17 * 17  # every interior square, to start
    # A border square is refused with the engine's reason, and nothing is sent.
    before = _version(page)
    page.locator("#fm-board rect[data-cell='a5']").dispatch_event("click")
    page.locator("#fm-setup-error").filter(has_text="on the border").wait_for()  # the reason comes back async
    assert _version(page) == before
    page.locator("#fm-board rect[data-cell='e5']").dispatch_event("click")
    _moved(page, before)
    assert "placed an obstacle on e5" in page.locator("#history").inner_text()
    page.locator("#fm-info").filter(has_text="2 to go").wait_for()
    page.locator("#fm-board rect[data-cell='e6']").dispatch_event("click")  # next to e5
    page.locator("#fm-setup-error").filter(has_text="next to the obstacle on e5").wait_for()
    page.locator("#fm-kind-tower").click()
    before = _version(page)
    page.locator("#fm-board rect[data-cell='j10']").dispatch_event("click")
    _moved(page, before)
    _shot(page, "forma-setup")
    before = _version(page)
    page.locator("#fm-fill").click()  # the two obstacles left, at random
    _moved(page, before)
    page.locator("#fm-pick").wait_for()
    view = _my_view(page)
    assert view["placing"] == 0 and view["setup"].startswith("tower j10; obstacles ")
    assert len(view["setup"].split("obstacles ")[1].split()) == 3
    # Touch-move: a piece is tried on the board before it is picked up (nothing is sent) ...
    page.locator("#fm-tray button[data-piece='X5']").click()
    page.locator("#fm-board rect[data-cell='m15']").dispatch_event("click")
    assert "tap it again to pick it up and place it there" in page.locator("#fm-info").inner_text()
    before = _version(page)
    page.locator("#fm-pick").click()
    _moved(page, before)
    # ... and once picked it is shown in hand, the only piece the tray allows, and it must be placed.
    assert page.locator("#fm-hand").inner_text() == "You hold X5: place it (touch-move)."
    assert page.locator("#fm-tray button[disabled]").count() == 20
    game = get_game("forma")
    state = game.state_from_dict(_my_view(page))
    action = next(iter(game.legal_actions(state, 0)))
    cell = game.format_action(action, state).split(" @ ")[1]
    page.locator(f"#fm-board rect[data-cell='{cell}']").dispatch_event("click")
    page.locator("#fm-place:not([disabled])").wait_for()
    before = _version(page)
    page.locator("#fm-place").click()
    _moved(page, before)
    assert f"Ann placed piece X5 on {cell}" in page.locator("#history").inner_text()
    _shot(page, "forma-touch-move")
    assert page.errors == []


def test_forma_a_pick_that_fits_nowhere_is_told_from_the_history(server: Server, browser: Any) -> None:
    _need("forma")
    page = _page(browser)
    page.goto(server.base + "/")
    said = page.evaluate(
        """async () => {
            const { lostPicks } = await import('/static/boards/forma.js');
            const ctx = (history) => ({ msg: { history }, seatName: (p) => ['Ann', 'Bob'][p] });
            const h = (rows) => rows.map(([player, action], n) => ({ n, player, action }));
            const placed = [0, 'X5 r0 @ e10'];
            return [
              // Ann's F5 did not fit and she is to pick once more
              lostPicks({}, { picked: null, current_player: 0, misses: 1 }, ctx(h([placed, [0, 'pick F5']]))),
              // her second pick did not fit either: the turn passed to Bob
              lostPicks({}, { picked: null, current_player: 1, misses: 0 },
                ctx(h([placed, [0, 'pick F5'], [0, 'pick L5']]))),
              // a pick in hand is no news, nor one followed by its placement
              lostPicks({}, { picked: 'F5', current_player: 0, misses: 0 }, ctx(h([placed, [0, 'pick F5']]))),
              lostPicks({}, { picked: null, current_player: 1, misses: 0 },
                ctx(h([[0, 'pick F5'], [0, 'F5 r0 @ c3']]))),
            ];
        }"""
    )
    assert said == [
        "Ann's F5 fits nowhere: it leaves the game. Ann picks once more.",
        "Ann's L5 fits nowhere: it leaves the game and the turn passes.",
        None,
        None,
    ]
    assert page.errors == []


def test_forma_obstacle_count_and_who_places_them_are_chosen_when_the_room_is_made(
    server: Server, browser: Any
) -> None:
    _need("forma")
    page = _page(browser)
    page.goto(server.base + "/")
    page.select_option("#game", "forma")
    page.select_option("#players", "2")
    page.select_option("[name=kind-1]", "ai")
    page.locator("#create summary").filter(has_text="Options").click()
    assert page.locator("#opt-placement").input_value() == "players"  # the default: set up by hand
    assert page.locator("#opt-touch_move").is_checked()  # touch-move: on, as the rulebook says
    page.fill("#opt-obstacles", "4")
    page.locator("#create-room").click()
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]{5}$"))
    page.locator("#fm-setup").wait_for()
    assert "4 to go" in page.locator("#fm-info").inner_text()
    assert page.locator("#fm-kind-obstacle").inner_text() == "Obstacle (4 to go)"
    _shot(page, "forma-setup-new-room")
    assert page.errors == []


def test_formfinity_board_as_printed_coordinates_and_variant_3s_start_squares(server: Server, browser: Any) -> None:
    """The template's column letters and row numbers are drawn as on the printed template, and variant 3's
    start squares are black and marked P1 (the lower one) and P2; the status line says what to tap."""
    _need("formfinity")
    page, _ = _room(server, browser, "formfinity", "random", seed=4, options={"variant": "3"})
    page.locator("#ff-board").wait_for()
    view = _my_view(page)
    width, height = view["width"], view["height"]
    texts = "s => [...document.querySelectorAll(s)].map((t) => t.textContent)"  # SVG text has no innerText
    coords = page.evaluate(texts, "#ff-board text.coord")
    assert coords[:3] == ["a", "b", "c"] and coords[width : width + 2] == ["1", "2"]
    assert len(coords) == width + height
    stars = [(y, x) for y, row in enumerate(view["template"]) for x, label in enumerate(row) if label == "*"]
    assert sorted(page.evaluate(texts, "#ff-board text.start")) == ["P1", "P2"]
    lower = max(stars)  # player 1's start square: the lower one
    cell = f"{chr(97 + lower[1])}{lower[0] + 1}"
    assert page.locator(f"#ff-board rect[data-cell='{cell}']").get_attribute("fill") == "#222"
    p1 = page.evaluate(
        "() => [...document.querySelectorAll('#ff-board text.start')].find((t) => t.textContent === 'P1')"
        ".getAttribute('y')"
    )
    p2 = page.evaluate(
        "() => [...document.querySelectorAll('#ff-board text.start')].find((t) => t.textContent === 'P2')"
        ".getAttribute('y')"
    )
    assert float(p1) > float(p2)  # P1 is drawn on the lower square
    status = page.locator("#ff-status").inner_text()
    assert "tap a square" in status and "T:c" not in status and "L:5" not in status, status
    assert page.errors == []
