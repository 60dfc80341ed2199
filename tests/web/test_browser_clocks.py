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
