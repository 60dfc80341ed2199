"""The room page shows the server's clocks and they run down for the seats that must act."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from ._browser import launch, serve  # skips the module without Chromium
from ._browser import page as _page

httpx = pytest.importorskip("httpx")

from ._proc import Server  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("clocks"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.mark.slow
def test_a_spectator_sees_the_clocks_run(server: Server, browser: Any) -> None:
    body = {"game": "toy", "players": 2, "seats": [{}, {}], "time_control": {"kind": "realtime", "minutes": 3}}
    code = httpx.post(server.base + "/api/rooms", json=body).json()["code"]
    page = _page(browser)
    page.goto(f"{server.base}/r/{code}")
    clock = page.locator(".seat .clock").first
    clock.wait_for()
    first = _seconds(clock.inner_text())
    assert 150 <= first <= 180, first  # the room was made moments ago (a loaded machine may take seconds)
    time.sleep(2.2)
    later = _seconds(clock.inner_text())
    assert first - 4 <= later < first, (first, later)
    page.close()


def _seconds(text: str) -> int:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


@pytest.mark.slow
def test_my_games_on_the_home_page_and_a_rematch(server: Server, browser: Any) -> None:
    import json

    ws_client = pytest.importorskip("websockets.sync.client")
    body = {"game": "toy", "players": 2, "options": {"rounds": 1}, "seats": [{}, {"kind": "ai", "ai": "random"}]}
    room = httpx.post(server.base + "/api/rooms", json=body).json()
    code, token = room["code"], room["tokens"]["0"]
    page = _page(browser)
    page.goto(server.base + "/")
    saved = {code: {"tokens": {"0": token}, "game": "toy", "name": "Toy", "seen": 1}}
    page.evaluate("(rooms) => localStorage.setItem('polytable.rooms', JSON.stringify(rooms))", saved)
    page.goto(server.base + "/")
    status = page.locator(f'[data-room="{code}"] .mine-status')
    page.wait_for_function(
        f"() => {{ const e = document.querySelector('[data-room=\"{code}\"] .mine-status'); "
        "return !!e && e.textContent.length > 0; }"
    )
    assert "your turn" in status.inner_text()
    with ws_client.connect(f"ws://127.0.0.1:{server.port}/ws/{code}") as ws:
        ws.send(json.dumps({"type": "hello", "tokens": [token]}))
        while True:
            m = json.loads(ws.recv(timeout=10))
            if m["type"] != "state":
                continue
            if m["over"]:
                break
            if 0 in m["acting"]:
                ws.send(json.dumps({"type": "act", "seat": 0, "version": m["version"], "action": "3"}))
    page.goto(f"{server.base}/r/{code}")
    page.locator("#rematch").click()
    page.wait_for_url(lambda url: not url.endswith(code))
    new = page.url.rsplit("/", 1)[1]
    page.wait_for_function("() => { const s = document.querySelector('#app').polytableState; return !!(s && s.mine); }")
    assert httpx.get(f"{server.base}/api/rooms/{code}").json()["rematch"] == new
    held = page.evaluate("() => document.querySelector('#app').polytableState.mine")
    assert list(held) == ["0"]  # the same seat, through the same token
    page.close()


@pytest.mark.slow
def test_a_room_with_a_clock_is_made_from_the_home_page(server: Server, browser: Any) -> None:
    import re

    page = _page(browser)
    page.goto(server.base + "/")
    page.select_option("#game", "foldris")
    page.locator("summary", has_text="Time control").click()
    page.select_option("#tc-kind", "realtime")
    page.fill("#tc-minutes", "7")
    page.fill("#tc-increment", "3")
    page.locator("#create-room").click()
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]{5}$"))
    code = page.url.rsplit("/", 1)[1]
    clock = page.locator(".seat .clock").first
    clock.wait_for()
    assert 390 <= _seconds(clock.inner_text()) <= 420
    control = httpx.get(f"{server.base}/api/rooms/{code}").json()["time_control"]
    assert control == {"kind": "realtime", "minutes": 7.0, "increment": 3.0, "hours": 0.0, "on_timeout": "ai"}
    page.close()
