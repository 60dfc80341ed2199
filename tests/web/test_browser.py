"""End-to-end tests in a real browser (Playwright driving Debian's Chromium at /usr/bin/chromium).

Skipped with a reason when Chromium or Playwright is missing; Playwright never downloads a browser here.
Screenshots at phone size (360x640) are kept under ``artifacts/`` (ignored by git).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from polytable.core import get_game

from ._browser import launch, open_room, scroll_to, serve  # skips the module without Chromium
from ._browser import need as _need
from ._browser import page as _page
from ._browser import shot as _shot

httpx = pytest.importorskip("httpx")

from ._proc import Server  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("browser"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def _create(server: Server, body: dict[str, Any]) -> dict[str, Any]:
    """A room made through the API (its code and the tokens of its ``here`` seats)."""
    room: dict[str, Any] = httpx.post(server.base + "/api/rooms", json=body).json()
    return room


TO_ACT = """() => {
  const s = document.querySelector('#app').polytableState;
  return !!s && Object.values(s.mine).some((m) => m.to_act);
}"""


def _notation(page: Any) -> None:
    """Open "Moves in notation" under a dedicated board (folded away until a player asks for it)."""
    fold = page.locator("#notation")
    if fold.is_visible() and fold.get_attribute("open") is None:
        fold.locator("summary").click()


def _play_first_move(page: Any) -> str:
    _notation(page)
    button = page.locator("#moves button").first
    button.wait_for()
    move = str(button.get_attribute("data-move"))
    button.click()
    page.locator("#play").click()
    return move


def test_foldris_round_two_phones_a_spectator_and_a_reload(server: Server, browser: Any) -> None:
    _need("foldris")
    host = _page(browser)
    host.goto(server.base + "/")
    host.select_option("#game", "foldris")
    host.select_option("#players", "2")
    host.fill("[name=name-0]", "Ann")
    host.select_option("[name=kind-1]", "invite")
    _shot(host, "home")
    host.locator("#create-room").click()
    host.wait_for_url(re.compile(r"/r/[A-Z0-9]{5}$"))
    code = host.url.rsplit("/", 1)[1]
    assert host.locator("#room-code").inner_text() == code
    host.locator("#fd-sheet").wait_for()
    assert host.locator("#moves").is_hidden()  # the notation is there only when asked for
    _shot(host, "foldris-host")

    guest = _page(browser)
    guest.goto(f"{server.base}/r/{code}")
    guest.fill("#join-name", "Bob <i>")
    guest.locator("button.take").first.click()
    guest.locator("#fd-sheet").wait_for()
    guest.locator("#seats").filter(has_text="Bob <i>").wait_for()  # the seat list may follow the moves
    assert "Bob <i>" in guest.locator("#seats").inner_text()  # shown as text, never as markup
    assert guest.locator("#seats i").count() == 0

    watcher = _page(browser)
    watcher.goto(f"{server.base}/r/{code}")
    watcher.locator("#board-text").wait_for(state="attached")
    assert watcher.locator("#controls").is_hidden()
    before = watcher.evaluate("() => document.querySelector('#app').polytableState.version")

    _play_first_move(host)
    host.locator("#status").filter(has_text="waiting").wait_for()
    host.reload()  # a reload returns to the same seat with the current state
    host.locator("#status").filter(has_text="Ann: waiting for Bob").wait_for()
    _play_first_move(guest)
    host.locator("#status").filter(has_text="Ann, your move").wait_for()
    guest.locator("#status").filter(has_text="your move").wait_for()
    watcher.wait_for_function("v => document.querySelector('#app').polytableState.version > v", arg=before)
    # The engine's text view is sent only once it is opened (a dedicated board draws from the view).
    assert "render" not in watcher.evaluate("() => document.querySelector('#app').polytableState.spectator")
    watcher.locator("#board details:not(#notation) summary").click()
    watcher.wait_for_function("() => /\\S/.test(document.querySelector('#board details pre.board').textContent)")
    watcher.locator("#board details[open] pre.board").wait_for()
    _shot(host, "foldris-round2")
    _shot(watcher, "foldris-spectator")
    for p in (host, guest, watcher):
        assert p.errors == []
        p.context.close()


def test_a_name_being_typed_survives_a_state_arriving_meanwhile(server: Server, browser: Any) -> None:
    """Every state message draws the room again; the join panel's name field must not be made afresh (a
    phone connecting while someone types their name used to wipe it, and the seat was taken nameless)."""
    _need("foldris")
    r = _create(
        server,
        {"game": "foldris", "players": 2, "seed": 3, "seats": [{"name": "Ann"}, {"kind": "invite"}]},
    )
    code = r["code"]
    guest = _page(browser)
    guest.goto(f"{server.base}/r/{code}")
    guest.fill("#join-name", "Cleo")
    seen = guest.evaluate("() => (window.seenState = document.querySelector('#app').polytableState, 1)")
    assert seen == 1
    watcher = _page(browser)  # a connection coming: every page of the room is sent a new state
    watcher.goto(f"{server.base}/r/{code}")
    guest.wait_for_function("() => document.querySelector('#app').polytableState !== window.seenState")
    assert guest.locator("#join-name").input_value() == "Cleo"
    assert guest.evaluate("() => document.activeElement && document.activeElement.id") == "join-name"
    guest.locator("button.take").first.click()
    guest.locator("#seats").filter(has_text="Cleo").wait_for()
    for p in (guest, watcher):
        assert p.errors == []
        p.context.close()


def test_a_short_formfinity_game_on_two_phones_to_the_end(server: Server, browser: Any) -> None:
    _need("formfinity")
    small = ". . . . . . . .\n" * 4  # an 8 x 4 template: a whole game in a few dozen actions
    r = _create(
        server,
        {
            "game": "formfinity",
            "players": 2,
            "seed": 1,
            "options": {"template": small},
            "seats": [{"name": "Ann"}, {"kind": "invite"}],
        },
    )
    code, token = r["code"], r["tokens"]["0"]
    host = _page(browser)
    open_room(host, server.base, r, {"0": token})
    guest = _page(browser)
    guest.goto(f"{server.base}/r/{code}")
    guest.fill("#join-name", "Bob")
    guest.locator("button.take").first.click()
    guest.locator("#status").filter(has_text="Bob").wait_for()
    host.locator("#ff-board").wait_for()
    for _ in range(120):
        if host.locator("#over").is_visible():
            break
        mover = next((p for p in (host, guest) if p.evaluate(TO_ACT)), None)
        if mover is None:
            host.wait_for_timeout(100)
            continue
        before = mover.locator("#app").get_attribute("data-version")
        _play_first_move(mover)
        mover.wait_for_function("v => document.querySelector('#app').dataset.version !== v", arg=before)
    host.locator("#over").wait_for()
    guest.locator("#over").wait_for()
    _shot(host, "formfinity-over")
    assert host.errors == [] and guest.errors == []


def test_hot_seat_hides_the_previous_choice_behind_a_pass_screen(server: Server, browser: Any) -> None:
    r = _create(
        server,
        {"game": "toy", "players": 2, "seed": 1, "seats": [{"name": "Ann"}, {"name": "Bob"}]},
    )
    code = r["code"]
    page = _page(browser)
    page.goto(server.base + "/")
    page.evaluate(
        "([c, t]) => localStorage.setItem('polytable.rooms', JSON.stringify({[c]: {tokens: t, seen: 1}}))",
        [code, r["tokens"]],
    )
    page.goto(f"{server.base}/r/{code}")
    page.locator("#pass").filter(has_text="Pass the device to Ann").wait_for()
    assert page.locator("#board-text").count() == 0
    _shot(page, "pass-screen")
    page.locator("#pass-ok").click()
    page.locator("#moves button[data-move='3']").click()
    page.locator("#play").click()
    page.locator("#pass").filter(has_text="Pass the device to Bob").wait_for()
    assert page.locator("#board-text").count() == 0  # nothing of Ann's choice is left on screen
    # Until Bob acts, Ann may still take her choice back from the pass screen; her board returns.
    page.locator("#pass-undo").filter(has_text="Ann").click()
    page.locator("#status").filter(has_text="Ann, your move").wait_for()
    page.locator("#moves button[data-move='2']").click()
    page.locator("#play").click()
    page.locator("#pass").filter(has_text="Pass the device to Bob").wait_for()
    page.locator("#pass-ok").click()
    text = page.locator("#board-text").inner_text()
    assert "my_pick" not in text
    page.locator("#moves button").first.wait_for()
    assert page.errors == []


def test_companion_every_phone_shows_the_same_card(server: Server, browser: Any) -> None:
    _need("formfinity")
    r = _create(server, {"game": "formfinity", "mode": "companion", "seed": 9})
    a, b = _page(browser), _page(browser)
    for p in (a, b):
        p.goto(f"{server.base}/r/{r['code']}")
    a.locator("#deal").click()
    a.locator("#companion-text").wait_for()
    b.locator("#companion-text").wait_for()
    assert a.locator("#companion-text").inner_text() == b.locator("#companion-text").inner_text()
    a.locator("#deal").click()  # both players' first cards make round 1; the third card starts round 2
    b.locator("#companion-turn").filter(has_text="Player 2").wait_for()
    assert b.locator("#companion-round").inner_text() == "Round 1"
    a.locator("#deal").click()
    b.locator("#companion-round").filter(has_text="Round 2").wait_for()
    history = b.locator("#history").inner_text()  # the cards revealed so far, in words
    assert "Card 1: " in history and "Card 3: " in history and "Nothing public" not in history
    assert a.locator("#companion-card svg").count() == 1
    _shot(b, "companion")
    assert a.errors == [] and b.errors == []


def test_a_short_foldris_game_to_the_end_then_step_through_it(server: Server, browser: Any) -> None:
    _need("foldris")
    r = _create(
        server,
        {"game": "foldris", "players": 1, "seed": 2, "options": {"deck": "I 1\nO 2\nT 3\nL 4\n"}},
    )
    page = _page(browser)
    open_room(page, server.base, r)
    for _ in range(3):
        page.locator("#fd-sheet").wait_for()
        page.locator("#fd-sheet rect[data-col='0']").first.click()  # tap a column: the ghost shows the landing
        page.locator("#fd-sheet .ghost").first.wait_for()
        before = page.locator("#app").get_attribute("data-version")
        page.locator("#play").click()
        page.wait_for_function("v => document.querySelector('#app').dataset.version !== v", arg=before)
    page.locator("#over").wait_for()
    _shot(page, "foldris-over")
    page.locator("#replay-start").click()
    page.locator("#replay-info").filter(has_text="Position 0").wait_for()
    page.locator("#replay-next").click()
    page.locator("#replay-info").filter(has_text="Position 1").wait_for()
    assert "chance" in page.locator("#replay-info").inner_text()
    page.locator("#replay-next").click()
    page.locator("#replay-info").filter(has_text="Position 2").wait_for()
    # each position is drawn by the game's own board (read-only), not as engine text
    page.locator("#replay-board #fd-sheet").wait_for()
    assert page.locator("#replay-board #fd-sheet .ghost").count() == 0
    _shot(page, "foldris-replay")
    assert page.errors == []


def _open(server: Server, browser: Any, body: dict[str, Any], locale: str = "en-GB") -> tuple[Any, dict[str, Any]]:
    r = _create(server, body)
    page = _page(browser, locale)
    open_room(page, server.base, r)
    return page, r


def test_foldris_solo_game_over_shows_the_title_in_dutch(server: Server, browser: Any) -> None:
    _need("foldris")
    # An 8-square bar fills a whole row: every drop is a line, so three drops earn the first title.
    deck = "W8 1 ########\nW8 1\nW8 1\nW8 1\n"
    page, _ = _open(server, browser, {"game": "foldris", "players": 1, "seed": 2, "options": {"deck": deck}}, "nl-NL")
    for _ in range(3):
        page.locator("#fd-sheet rect[data-col='0']").first.click()
        page.locator("#fd-sheet .ghost").first.wait_for()
        before = page.locator("#app").get_attribute("data-version")
        page.locator("#play").click()
        page.wait_for_function("v => document.querySelector('#app').dataset.version !== v", arg=before)
    page.locator("#over").wait_for()
    assert page.locator("#fd-title").inner_text() == "3 lijnen: Foldris-amateur!"
    scroll_to(page, "#fd-title")
    assert page.locator("#fd-starter").count() == 0  # solo: nobody else to start
    _shot(page, "foldris-solo-title-nl")
    assert page.errors == []


def test_foldris_shows_who_starts(server: Server, browser: Any) -> None:
    _need("foldris")
    bots = [{"kind": "ai", "ai": "random", "name": name} for name in ("Bob", "Cas")]
    seats = [{"name": "Ann"}, *bots]
    seed = next(s for s in range(50) if get_game("foldris").new_game(seed=s, players=3).starter == 1)
    page, _ = _open(server, browser, {"game": "foldris", "players": 3, "seed": seed, "seats": seats})
    page.locator("#fd-starter").wait_for()
    view = page.evaluate("() => document.querySelector('#app').polytableState.mine['0'].view")
    assert view["starter"] == 1
    assert page.locator("#fd-starter").inner_text() == f"Bob started: start lane {view['start_lane']}."
    assert page.errors == []


def test_generic_board_search_chosen_and_typed_moves(server: Server, browser: Any) -> None:
    r = _create(
        server,
        {"game": "toy", "players": 2, "seed": 1, "seats": [{"name": "Ann"}, {"kind": "ai", "ai": "random"}]},
    )
    page = _page(browser)
    open_room(page, server.base, r)
    page.locator("#moves button").first.wait_for()
    shown = "() => [...document.querySelectorAll('#moves button')].map(b => b.dataset.move)"
    assert page.evaluate(shown) == ["1", "2", "3"]
    page.fill("#move-search", "2")  # the search narrows the list
    page.wait_for_function(f"() => ({shown})().join() === '2'")
    page.fill("#move-search", "")
    page.wait_for_function(f"() => ({shown})().length === 3")
    page.locator("#moves button[data-move='3']").click()  # a tap puts the move in the box and marks it alone
    assert page.input_value("#move-input") == "3"
    assert page.evaluate("() => [...document.querySelectorAll('#moves button.chosen')].map(b => b.dataset.move)") == [
        "3"
    ]
    page.locator("#moves button[data-move='1']").click()
    assert page.evaluate("() => [...document.querySelectorAll('#moves button.chosen')].map(b => b.dataset.move)") == [
        "1"
    ]
    page.fill("#move-input", "7")  # what is typed is what Play sends: 7 is no move, and the server says so
    before = page.locator("#app").get_attribute("data-version")
    page.locator("#play").click()
    page.locator("#notice.error").wait_for()
    assert page.locator("#app").get_attribute("data-version") == before
    page.fill("#move-input", "2")
    page.locator("#play").click()
    page.wait_for_function("v => document.querySelector('#app').dataset.version !== v", arg=before)
    assert page.input_value("#move-input") == ""  # sent: the box is empty again
    assert page.errors == []
