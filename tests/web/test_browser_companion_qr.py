"""A printed QR deck drives a companion room in a real browser: a photo of a card, Chromium's fake camera
fed with a printed card, the card page a phone camera opens, and the player counts each variant allows.

Screenshots (phone size) go to ``artifacts/`` like the other browser tests.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ._browser import CHROMIUM, PHONE, TIMEOUT, launch, serve  # skips the module without Chromium
from ._browser import need as _need
from ._browser import page as _page
from ._browser import shot as _shot

httpx = pytest.importorskip("httpx")
pdfium = pytest.importorskip("pypdfium2")

from polytable.games.formfinity import Card, card_code, parse_card  # noqa: E402
from polytable.printables import printables  # noqa: E402

from ._proc import Server  # noqa: E402

CARD = parse_card("##/#.x2:TR:r")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("qr"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def printed_card(card: Card, tmp: Path, base: str) -> Any:
    """A printed QR card as a picture: a one-card deck printed by the printable itself, rendered, cropped."""
    path = tmp / "deck.pdf"
    deck = json.dumps({"cards": [card.notation()]})
    printables()["formfinity-cards"](str(path), "a4", {"count": "1", "qr": "1", "base_url": base, "deck": deck})
    image = pdfium.PdfDocument(str(path))[0].render(scale=1.5).to_pil().convert("RGB")
    w, h = image.size
    return image.crop((20, 40, w // 3 + 20, h // 4 + 60))


def _companion(server: Server, **body: Any) -> str:
    r = httpx.post(server.base + "/api/rooms", json={"game": "formfinity", "mode": "companion", "players": 2, **body})
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def test_a_photo_of_a_printed_card_is_the_drawn_card(server: Server, browser: Any, tmp_path: Path) -> None:
    _need("formfinity")
    code = _companion(server, options={"variant": "2"})
    photo = tmp_path / "card.png"
    printed_card(CARD, tmp_path, server.base).save(photo)
    pg = _page(browser)
    pg.goto(f"{server.base}/r/{code}")
    pg.locator("#scan-panel").wait_for()
    assert pg.locator("#companion-turn").inner_text().startswith("Player 1 draws first")
    pg.set_input_files("#card-photo", str(photo))
    pg.locator("#companion-text").wait_for()
    text = pg.locator("#companion-text").inner_text()
    assert "2 elements" in text and "arrows do not apply" in text and "may rotate" in text
    assert "Player 1's turn (blue)" in pg.locator("#companion-turn").inner_text()
    assert pg.locator("#deal").count() == 0  # a physical deck: the app deals no more
    # The next card typed by its number; the turn passes on.
    pg.fill("#card-number", str(parse_card("#x1:-:f").id))
    pg.locator("#use-number").click()
    pg.locator("#companion-turn").filter(has_text="Player 2's turn (orange)").wait_for()
    assert pg.locator("#companion-round").inner_text() == "Round 1"  # a round: one card for each player
    assert "1 element" in pg.locator("#companion-text").inner_text()
    _shot(pg, "companion-qr")
    assert pg.errors == []


def _y4m(image: Any, path: Path, frames: int = 4) -> None:
    """The picture as a short Y4M video (4:2:0), what Chromium's fake camera plays in a loop."""
    w, h = 640, 480
    canvas = image.copy()
    canvas.thumbnail((w - 40, h - 40))
    from PIL import Image

    frame = Image.new("RGB", (w, h), (235, 235, 235))
    frame.paste(canvas, ((w - canvas.width) // 2, (h - canvas.height) // 2))
    y, cb, cr = frame.convert("YCbCr").split()
    half = (w // 2, h // 2)
    body = y.tobytes() + cb.resize(half).tobytes() + cr.resize(half).tobytes()
    with open(path, "wb") as fh:
        fh.write(f"YUV4MPEG2 W{w} H{h} F5:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(frames):
            fh.write(b"FRAME\n" + body)


def test_the_camera_reads_a_printed_card(server: Server, browser: Any, tmp_path: Path) -> None:
    _need("formfinity")
    code = _companion(server)
    video = tmp_path / "card.y4m"
    _y4m(printed_card(CARD, tmp_path, server.base), video)
    args = ["--no-sandbox", "--disable-gpu", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={video}"]  # fmt: skip
    try:  # a second Chromium from the module's Playwright, with the fake camera
        b = browser.browser_type.launch(executable_path=CHROMIUM, args=args)
    except Exception as exc:
        pytest.skip(f"Chromium does not start with a fake camera: {exc}")
    try:
        ctx = b.new_context(**PHONE, locale="en-GB", permissions=["camera"])
        pg = ctx.new_page()
        pg.set_default_timeout(TIMEOUT)
        pg.goto(f"{server.base}/r/{code}")
        pg.locator("#scan").click()
        pg.locator("#companion-text").wait_for(timeout=30_000)
        text = pg.locator("#companion-text").inner_text()
        assert "2 elements" in text and "enter from top or right" in text
        assert pg.locator("#scan-video").is_hidden()  # the camera stops once a card is read
    finally:
        b.close()
    room = httpx.get(f"{server.base}/api/rooms/{code}").json()
    assert room["version"] >= 1


def test_a_phone_camera_opens_the_card_page_and_draws_it_in_a_room(server: Server, browser: Any) -> None:
    _need("formfinity")
    code = _companion(server, options={"variant": "4"})
    pg = _page(browser, locale="nl-NL")
    pg.goto(f"{server.base}/r/{code}")  # the room is now one of this phone's rooms
    pg.locator("#scan-panel").wait_for()
    pg.goto(f"{server.base}/c/{card_code(CARD)}")
    pg.locator("#card-page").wait_for()
    assert "2 elementen" in pg.locator("#card-text").inner_text()
    _shot(pg, "card-page-nl")
    pg.locator("button.draw-in").first.click()
    pg.wait_for_url(re.compile(rf"/r/{code}$"))
    pg.locator("#companion-text").wait_for()
    assert "pijlen gelden niet" in pg.locator("#companion-text").inner_text()
    assert pg.errors == []
    pg.goto(f"{server.base}/c/zz!")
    pg.goto(f"{server.base}/c/ZZZZZZZZ")
    assert pg.locator("[role=alert]").inner_text()


def test_the_home_form_offers_two_players_for_variants_3_and_4(server: Server, browser: Any) -> None:
    _need("formfinity")
    pg = _page(browser)
    pg.goto(server.base + "/")
    pg.select_option("#game", "formfinity")
    counts = lambda: pg.locator("#players option").all_inner_texts()  # noqa: E731
    assert counts() == ["2", "3", "4"]
    pg.locator("details summary").first.click()
    pg.select_option("select[name=variant]", "3")
    assert counts() == ["2"]
    pg.select_option("select[name=variant]", "2")
    assert counts() == ["2", "3", "4"]
    pg.select_option("#mode", "companion")
    pg.select_option("select[name=variant]", "4")
    pg.locator("#create-room").click()
    pg.wait_for_url(re.compile(r"/r/[A-Z0-9]{5}$"))
    href = pg.locator("a.print-link").first.get_attribute("href")
    assert href and href.startswith("/print/room/")
    assert httpx.get(server.base + href).content.startswith(b"%PDF")
    assert pg.errors == []


def test_the_card_page_opens_without_the_server_once_the_app_is_cached(server: Server, browser: Any) -> None:
    _need("formfinity")
    pg = _page(browser)
    pg.goto(server.base + "/")
    pg.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.ready.then(() => true)")
    pg.wait_for_function("caches.keys().then((k) => k.some((n) => n.startsWith('polytable-shell')))")
    pg.reload()
    pg.wait_for_function("navigator.serviceWorker.controller !== null")
    pg.context.set_offline(True)
    try:
        pg.goto(f"{server.base}/c/{card_code(CARD)}")
        pg.locator("#card-page").wait_for()
        assert "enter from top or right" in pg.locator("#card-text").inner_text()
    finally:
        pg.context.set_offline(False)
    assert pg.errors == []
    # Without the service worker the same page cannot open offline: the cache is what carried it.
    bare = browser.new_context(**PHONE, service_workers="block")
    bare.set_offline(True)
    with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED"):
        bare.new_page().goto(f"{server.base}/c/{card_code(CARD)}")
    bare.close()
