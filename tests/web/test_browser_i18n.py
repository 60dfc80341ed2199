"""The Dutch interface shows server-made text in Dutch: game names, summaries and options on the new-room
form, default seat names, the server's own errors and the engine's messages by their codes (Playwright with
Debian's Chromium; skipped with a reason when either is missing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from polytable.web import _i18n

from ._browser import launch, serve  # skips the module without Chromium
from ._browser import need as _need
from ._browser import page as _page
from ._browser import shot as _shot

httpx = pytest.importorskip("httpx")

from ._proc import Server  # noqa: E402

NL = _i18n.load("nl")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("i18n"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def test_dutch_ui_translates_specs_errors_engine_messages_and_seat_names(server: Server, browser: Any) -> None:
    _need("forma")
    page = _page(browser, "nl-NL")
    page.goto(server.base + "/")
    page.select_option("#game", "forma")
    assert page.locator("#summary").inner_text() == NL["game.forma.summary"]
    assert page.locator("label[for=opt-obstacles]").text_content() == "Hindernissen"  # in the closed options
    assert page.locator("#game option[value=forma]").inner_text() == "Forma"
    assert page.locator("select[name=ai-1] option[value=greedy]").text_content() == "Gretig"
    _shot(page, "new-room-nl")

    # The client shows an engine error by its code with its params (a coded param translated in turn), as
    # the server-side twin does; a code without a Dutch text and an error without a code stay in English.
    from polytable.core import IllegalActionError, joined, phrase, word
    from polytable.match import engine_reason

    errors = [
        IllegalActionError("it is Player 2's turn, not Player 1's", "turn", {"turn": 2, "player": 1}),
        IllegalActionError(
            "F5 r0 @ a1 would stick out over the edge of the board", "forma.would_stick_out", {"at": "F5 r0 @ a1"}
        ),
        IllegalActionError(
            "L r3 @ a1.1 is not allowed: it would overlap blocks already placed",
            "quadefy.not_allowed",
            {"move": "L r3 @ a1.1", "why": phrase("quadefy.overlap", "it would overlap blocks already placed")},
        ),
        IllegalActionError(
            "with this card the element enters from the top or left and slides until it stops; "
            "it cannot come to rest at c5",
            "formfinity.slides_elsewhere",
            {"where": joined(["top", "left"], "or"), "cell_name": "c5"},
        ),
        IllegalActionError("no heap 4 in this nim game", "nim.no_heap", {"heap": 4}),
        IllegalActionError("nothing slides in from the top", "nim.slide", {"side": word("top")}),
        IllegalActionError("a message without a code"),
    ]
    payloads = [{"message": str(e), **engine_reason(e)} for e in errors]
    got = page.evaluate(
        "async (ps) => { const m = await import('/static/i18n.js'); return ps.map(m.tError); }", payloads
    )
    assert got == [_i18n.translate_error(p["reason"], p["params"], p["message"], NL) for p in payloads]
    assert got[1] == "F5 r0 @ a1 zou over de rand van het spelbord uitsteken"
    assert got[3].startswith("met deze kaart komt het element binnen van boven of links")
    assert got[4:] == ["no heap 4 in this nim game", "nothing slides in from the top", "a message without a code"]
    said = page.evaluate(
        "async () => (await import('/static/i18n.js')).tError({reason: 'seat_taken', params: {seat: 2}, message: 'x'})"
    )
    assert said == "Plaats 2 is al bezet."

    # A room: the unnamed seat is "Speler 1", an illegal move typed as notation is refused in Dutch.
    r = httpx.post(
        server.base + "/api/rooms",
        json={"game": "forma", "players": 2, "options": {"obstacles": 0}, "seats": [{}, {"kind": "invite"}]},
    ).json()
    page.evaluate(
        "([c, t]) => localStorage.setItem('polytable.rooms', JSON.stringify({[c]: {tokens: t, seen: 1}}))",
        [r["code"], r["tokens"]],
    )
    page.goto(f"{server.base}/r/{r['code']}")
    page.locator("#seats").filter(has_text="1. Speler 1").wait_for()
    page.locator("#seats").filter(has_text="2. Speler 2").wait_for()
    page.evaluate("() => document.getElementById('app').polytableState.version")
    # Sending a move for the seat this browser does not hold: the server's reason, shown in Dutch.
    page.evaluate(
        """() => new Promise((resolve) => {
            const ws = new WebSocket(`ws://${location.host}/ws/${location.pathname.split('/').pop()}`);
            ws.onopen = () => ws.send(JSON.stringify({type: 'hello', tokens: []}));
            ws.onmessage = (e) => { const m = JSON.parse(e.data);
              if (m.type === 'state') ws.send(JSON.stringify({type: 'act', seat: 1, version: m.version, action: 'x'}));
              if (m.type === 'error') { window.lastError = m; ws.close(); resolve(); } };
        })"""
    )
    shown = page.evaluate("async () => (await import('/static/i18n.js')).tError(window.lastError)")
    assert shown == "Plaats 2 is niet van jou; je kunt er niet voor spelen."
    _shot(page, "room-nl")
    assert page.errors == []
