"""What players see when a fault hits (Playwright, two phones, English and Dutch): while the database is
down the room says "the table is paused" in each phone's language, and while the socket is gone
"reconnecting"; both messages go away by themselves when the service is back, and the game goes on.
The test starts its own PostgreSQL cluster as the chaos suite does (the machine's own is never touched)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ._browser import launch  # skips the module without Chromium
from ._browser import page as _page

httpx = pytest.importorskip("httpx")

from ._proc import Server  # noqa: E402

pytestmark = pytest.mark.slow
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
I18N = Path(__file__).resolve().parents[2] / "src" / "polytable" / "web" / "static" / "i18n"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture
def site() -> Iterator[Any]:
    import chaos

    try:
        chaos._tool("initdb")
        chaos._tool("pg_ctl")
    except RuntimeError:
        pytest.skip("initdb/pg_ctl are not installed: the test starts its own PostgreSQL")
    with tempfile.TemporaryDirectory(prefix="polytable-faults-") as tmp:
        os.chmod(tmp, 0o777)  # the cluster may run as another user (initdb refuses root)
        s = chaos.Site(Path(tmp))
        try:
            s.start_pg()
            yield s
        finally:
            s.close()


def _text(lang: str, key: str) -> str:
    return str(json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))[key])


def _phone(browser: Any, server: Server, code: str, seat: int, token: str, locale: str) -> Any:
    page = _page(browser, locale=locale)
    page.goto(server.base + "/")
    page.evaluate(
        "([code, seat, token]) => localStorage.setItem('polytable.rooms', "
        "JSON.stringify({[code]: {tokens: {[seat]: token}, game: 'toy', seen: 1}}))",
        [code, str(seat), token],
    )
    page.goto(f"{server.base}/r/{code}")
    page.wait_for_function("() => { const s = document.querySelector('#app').polytableState; return s && s.mine; }")
    return page


def _status_is(page: Any, text: str, timeout: int = 20_000) -> None:
    page.wait_for_function("(t) => document.querySelector('#status').textContent === t", arg=text, timeout=timeout)


def _status_is_not(page: Any, text: str, timeout: int = 20_000) -> None:
    page.wait_for_function("(t) => document.querySelector('#status').textContent !== t", arg=text, timeout=timeout)


def test_paused_and_reconnecting_are_said_in_each_language_and_go_away(tmp_path: Path, browser: Any, site: Any) -> None:
    log = tmp_path / "server.log"
    server = Server(site.db, 0.0, log)
    try:
        body = {"game": "toy", "players": 2, "seed": 8, "options": {"rounds": 3}, "seats": [{}, {}]}
        room = httpx.post(server.base + "/api/rooms", json=body).json()
        code, tokens = room["code"], room["tokens"]
        phones = {
            "en": _phone(browser, server, code, 0, tokens["0"], "en-GB"),
            "nl": _phone(browser, server, code, 1, tokens["1"], "nl-NL"),
        }
        version = phones["en"].evaluate("() => document.querySelector('#app').polytableState.version")

        # The database stops; a move finds it gone: every phone says the table is paused, in its language.
        site.stop_pg("fast")
        phones["en"].locator("#moves button").first.click()
        phones["en"].locator("#play").click()
        for lang, page in phones.items():
            _status_is(page, _text(lang, "room.paused"))
        site.start_pg()
        for lang, page in phones.items():  # the room reloads by itself: the message goes
            _status_is_not(page, _text(lang, "room.paused"))

        # The server goes away: every phone says it is reconnecting, and stops saying so once it is back.
        server.kill()
        for lang, page in phones.items():
            _status_is(page, _text(lang, "room.lost"))
        server = Server(site.db, 0.0, log, port=server.port)
        for lang, page in phones.items():
            _status_is_not(page, _text(lang, "room.lost"), timeout=30_000)

        # And the game goes on from where the database holds it.
        en = phones["en"]
        now = en.evaluate("() => document.querySelector('#app').polytableState.version")
        assert now >= version
        en.wait_for_function("() => document.querySelector('#app').polytableState.acting.includes(0)")
        en.locator("#moves button").first.click()
        en.locator("#play").click()
        for page in phones.values():
            page.wait_for_function(f"() => document.querySelector('#app').polytableState.version > {now}")
        for page in phones.values():
            assert not page.errors
            page.close()
    finally:
        server.kill()
