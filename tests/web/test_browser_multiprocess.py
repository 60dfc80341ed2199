"""Two phones (Playwright) on two real ``serve`` processes sharing PostgreSQL and Redis play a game to the
end; one process is killed with SIGKILL mid-game and restarted at the same address (as a supervisor
would); the phone on it reconnects by itself with backoff and nothing acknowledged is lost."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ._browser import launch  # skips the module without Chromium
from ._browser import page as _page

httpx = pytest.importorskip("httpx")

from ._proc import Server  # noqa: E402
from .conftest import REDIS_URL  # noqa: E402


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for s in started:
        if s.proc.poll() is None:
            s.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def _state(page: Any) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate("() => document.querySelector('#app').polytableState")
    return state


def _phone(browser: Any, server: Server, code: str, seat: int, token: str) -> Any:
    page = _page(browser)
    page.goto(server.base + "/")
    page.evaluate(
        "([code, seat, token]) => localStorage.setItem('polytable.rooms', "
        "JSON.stringify({[code]: {tokens: {[seat]: token}, game: 'toy', seen: 1}}))",
        [code, str(seat), token],
    )
    page.goto(f"{server.base}/r/{code}")
    page.wait_for_function("() => { const s = document.querySelector('#app').polytableState; return s && s.mine; }")
    return page


def _move(page: Any) -> None:
    before = _state(page)["version"]
    page.locator("#moves button").first.click()
    page.locator("#play").click()
    page.wait_for_function(f"() => document.querySelector('#app').polytableState.version > {before}")


@pytest.mark.slow
def test_two_phones_on_two_processes_survive_a_sigkill(
    tmp_path: Path, servers: list[Server], browser: Any, pg_url: str, redis_channel: str
) -> None:
    log = tmp_path / "servers.log"
    a = Server(pg_url, 0.0, log, (REDIS_URL, redis_channel))
    servers.append(a)
    b = Server(pg_url, 0.0, log, (REDIS_URL, redis_channel))
    servers.append(b)
    body = {"game": "toy", "players": 2, "seed": 8, "options": {"rounds": 3}, "seats": [{}, {}]}
    room = httpx.post(a.base + "/api/rooms", json=body).json()
    code = room["code"]
    phones = [_phone(browser, a, code, 0, room["tokens"]["0"]), _phone(browser, b, code, 1, room["tokens"]["1"])]

    def play_round() -> int:
        start = _state(phones[0])["version"]
        for seat, page in enumerate(phones):  # seat 1 moves once its phone has seen seat 0's move
            page.wait_for_function(
                f"() => {{ const s = document.querySelector('#app').polytableState; return s.version >= {start + seat}"
                f" && s.acting.includes({seat}); }}"
            )
            _move(page)
        for page in phones:  # each phone sees the whole round, whichever process it is on
            page.wait_for_function(
                f"() => {{ const s = document.querySelector('#app').polytableState; return s.version >= {start + 3}"
                " || s.over; }"
            )
        return int(_state(phones[1])["moves"])

    acked = play_round()
    b.kill()  # SIGKILL mid-game
    servers.append(Server(pg_url, 0.0, log, (REDIS_URL, redis_channel), port=b.port))  # restarted, same address
    phones[1].wait_for_function(f"() => document.querySelector('#app').polytableState.moves >= {acked}", timeout=30_000)
    while not _state(phones[0])["over"]:
        play_round()
    for page in phones:
        page.wait_for_function("() => document.querySelector('#app').polytableState.over")
        page.locator("#over").wait_for()
    assert _state(phones[0])["moves"] == _state(phones[1])["moves"] > acked
    record = httpx.get(f"{a.base}/api/rooms/{code}/record").json()
    assert len(record["actions"]) == _state(phones[0])["moves"]
    for page in phones:
        page.close()
