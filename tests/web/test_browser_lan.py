"""A phone on the network, as at a table: ``polytable serve`` runs on a test host (see ``_net.py``) listening
on the network, and Chromium at phone size opens the address the banner prints.

Over ``--https`` a phone that only tapped "Proceed" past the certificate warning (Playwright's
``ignore_https_errors``) gets a secure context, so the camera scan, but the service worker is refused: the
page says how to trust the table's certificate. A phone that trusts the table's authority (Chromium told
to accept the certificate's key) gets everything: the service worker caches the offline engine, the app is installable,
the camera scan is offered, a room's invite link carries the network address, and after the visit the
phone plays with the network cut. A room made through the loopback address of the serving computer invites
by the network address too. Over plain http the page says in words what is off and offers the fallbacks
for printed cards.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from polytable.web._offline import PYODIDE_DIR, pyodide_available

from ._browser import (
    CHROMIUM,
    PHONE,
    TIMEOUT,
    launch,
    need,
    offline_foldris,
    scroll_to,
    wait_cached,
)  # skips the module without Chromium
from ._browser import page as _page
from ._browser import shot as _shot
from ._net import LanHost, lan_host, read_terminal_qr
from ._proc import POLYTABLE, free_port

httpx = pytest.importorskip("httpx")

if not pyodide_available():
    if os.environ.get("CI"):
        raise RuntimeError(f"Pyodide is not installed at {PYODIDE_DIR}: CI must run the offline tests")
    pytest.skip(f"Pyodide is not installed at {PYODIDE_DIR} (scripts/npm-assets.sh)", allow_module_level=True)


@dataclass
class Served:
    proc: subprocess.Popen[str]
    banner: str
    phone_url: str
    data: Path


@pytest.fixture(scope="module")
def host() -> Iterator[LanHost]:
    with lan_host() as made:
        if isinstance(made, str):
            pytest.skip(made)
        yield made


def _serve(host: LanHost, tmp: Path, *args: str) -> Iterator[Served]:
    """``polytable serve`` on the test host; its banner read up to the QR code's end."""
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp / "data")}
    cmd = [*host.prefix, *POLYTABLE, "serve", *args]
    cmd += ["--host", host.listen, "--port", str(port), "--db", f"sqlite:///{tmp / 'rooms.db'}", "--ai-delay", "0"]
    log = (tmp / "server.log").open("w")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True, env=env)
    assert proc.stdout is not None
    lines: list[str] = []
    try:
        while not any("Anyone on this network" in line for line in lines):
            line = proc.stdout.readline()
            assert line, f"serve stopped: {''.join(lines)} {(tmp / 'server.log').read_text()}"
            lines.append(line)
        banner = "".join(lines)
        found = re.search(r"Phones open:  (\S+)/", banner)
        assert found, banner
        served = Served(proc, banner, found.group(1), tmp / "data")
        _wait(served)
        yield served
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(10)
        proc.stdout.close()
        log.close()


def _wait(served: Served) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(served.phone_url + "/api/games", verify=False, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline and served.proc.poll() is None, "the server did not answer"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def tls(host: LanHost, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from _serve(host, tmp_path_factory.mktemp("lan-https"), "--https")


@pytest.fixture(scope="module")
def plain(host: LanHost, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from _serve(host, tmp_path_factory.mktemp("lan-http"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def _companion(base: str) -> str:
    body = {"game": "formfinity", "mode": "companion", "players": 2}
    r = httpx.post(base + "/api/rooms", json=body, verify=False, timeout=10)
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


@pytest.mark.slow
def test_the_banner_prints_the_network_address_over_https_and_loopback_rooms_invite_by_it(
    host: LanHost, tls: Served
) -> None:
    assert tls.phone_url.startswith(f"https://{host.addr.strip('[]')}:")
    assert tls.banner.startswith("polytable is serving on https://127.0.0.1:")
    assert read_terminal_qr(tls.banner) == tls.phone_url + "/"
    if not host.prefix:
        pytest.skip("no test host: this machine's own loopback address is not the server's")
    # A room created on the serving computer through its loopback address invites by the network address.
    port = tls.phone_url.rsplit(":", 1)[1]
    ca = tls.data / "polytable" / "tls" / "ca.pem"
    code = (
        "import httpx, ssl, sys; ctx = ssl.create_default_context(cafile=sys.argv[2]);"
        "r = httpx.post(f'https://127.0.0.1:{sys.argv[1]}/api/rooms', verify=ctx,"
        " json={'game': 'forma', 'players': 2, 'seats': [{'kind': 'here'}, {'kind': 'invite'}]});"
        "print(r.json()['link'])"
    )
    done = subprocess.run([*host.prefix, sys.executable, "-c", code, port, str(ca)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(re.escape(tls.phone_url) + r"/r/[A-Z0-9]{5}", done.stdout.strip()), done.stdout


def _trusting(browser: Any, cert: Path, profile: Path) -> Any:
    """A phone-sized Chromium profile that accepts the table's certificate as valid, as a phone does once it
    trusts the table's authority (Playwright's ``ignore_https_errors`` is a tapped "Proceed": the service
    worker is still refused). Chromium is told the server certificate's key: its list of trusted keys is
    matched against the certificates the server sends, and the server sends its own, not the authority's.
    A profile on disk, not a private window: a private window cannot install an app."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    key = x509.load_pem_x509_certificate(cert.read_bytes()).public_key()
    spki = key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    pin = base64.b64encode(hashlib.sha256(spki).digest()).decode()
    args = ["--no-sandbox", "--disable-gpu", f"--ignore-certificate-errors-spki-list={pin}"]
    try:
        return browser.browser_type.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=args, locale="en-GB", **PHONE
        )
    except Exception as exc:
        pytest.skip(f"Chromium does not start trusting the table's certificate: {exc}")


@pytest.mark.slow
def test_a_phone_that_only_tapped_proceed_is_told_to_trust_the_certificate(tls: Served, browser: Any) -> None:
    need("formfinity")
    page = _page(browser, ignore_https_errors=True)
    page.goto(tls.phone_url + "/")
    assert page.evaluate("window.isSecureContext")
    note = page.locator("#secure-note")
    note.wait_for()  # the service worker's registration was refused: an untrusted certificate
    assert "until this device trusts the table's certificate" in note.inner_text()
    note.locator("summary").click()
    page.locator("#get-ca").wait_for()
    text = " ".join(note.inner_text().split())
    assert "Android" in text and "iPhone" in text and "reload this page" in text
    _shot(page, "lan-https-trust")
    got = page.evaluate("fetch('/tls/ca.crt').then((r) => r.text())")
    assert got == (tls.data / "polytable" / "tls" / "ca.pem").read_text()
    page.goto(f"{tls.phone_url}/r/{_companion(tls.phone_url)}")
    page.locator("#scan").wait_for()  # the camera needs https only, not a trusted certificate
    assert page.errors == []


@pytest.mark.slow
def test_a_phone_that_trusts_the_table_installs_scans_and_plays_offline_after(
    tls: Served, browser: Any, tmp_path: Path
) -> None:
    need("foldris")
    need("formfinity")
    trusting = _trusting(browser, tls.data / "polytable" / "tls" / "server.pem", tmp_path / "profile")
    try:
        page = trusting.new_page()
        page.set_default_timeout(TIMEOUT)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(tls.phone_url + "/")
        page.reload()  # the second load is controlled by the service worker
        wait_cached(page)
        assert page.locator("#secure-note").is_hidden()
        cdp = page.context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []

        page.select_option("#game", "foldris")
        page.select_option("#players", "2")
        page.fill("[name=name-0]", "Ann")
        page.select_option("[name=kind-1]", "invite")
        page.locator("#create-room").click()
        page.wait_for_url(re.compile(r"/r/[A-Z0-9]{5}$"))
        page.locator("#fd-sheet").wait_for()  # the board (its notation is folded away until asked for)
        code = page.url.rsplit("/", 1)[1]
        page.locator("#room-link").filter(has_text=f"{tls.phone_url}/r/{code}").wait_for()
        scroll_to(page, "#share")  # the invite: the network address and its QR code
        _shot(page, "lan-https-room")

        page.goto(f"{tls.phone_url}/r/{_companion(tls.phone_url)}")
        page.locator("#scan").wait_for()  # the in-app camera scan is offered
        assert page.locator("#scan-https").count() == 0

        offline_foldris(page, tls.phone_url)
        if page.locator("#pass-ok").is_visible():
            page.locator("#pass-ok").click()
        page.locator("#fd-sheet").wait_for()
        _shot(page, "lan-offline")
        assert errors == []
    finally:
        trusting.close()


@pytest.mark.slow
def test_a_phone_on_plain_http_is_told_what_is_off_and_what_works(plain: Served, browser: Any) -> None:
    need("formfinity")
    page = _page(browser)
    page.goto(plain.phone_url + "/")
    assert not page.evaluate("window.isSecureContext")
    note = page.locator("#secure-note")
    note.wait_for()
    assert "Offline play, installing the app and scanning cards with the camera are off" in note.inner_text()
    note.locator("summary").click()
    text = " ".join(note.inner_text().split())
    assert "polytable serve --https" in text and "type a card's number" in text and "own camera app" in text
    _shot(page, "lan-http-notice")
    assert page.evaluate("navigator.serviceWorker === undefined || navigator.serviceWorker.controller === null")

    page.goto(f"{plain.phone_url}/r/{_companion(plain.phone_url)}")
    page.locator("#scan-https").wait_for()  # no in-app camera here: the fallbacks are offered instead
    assert page.locator("#scan").count() == 0 and page.locator("#card-number").is_visible()
    assert page.errors == []
