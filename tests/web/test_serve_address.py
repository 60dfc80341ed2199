"""Addresses a phone can open: ``serve``'s banner (local address, network address, a terminal QR code of it,
https when TLS), invite links that never carry a loopback address when the server listens on the network,
``--public-url``, and the options' errors. In-process: no server is started here."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient
from typer.testing import CliRunner

from polytable.cli import app as cli_app
from polytable.cli._serve_net import ServePlan, plan_serving, terminal_qr
from polytable.web import Settings, create_app
from polytable.web._address import invite_base, is_loopback_host, network_address, url_of

from ._net import read_terminal_qr

BODY = {"game": "toy", "players": 2, "seed": 7, "options": {"rounds": 2}}


def test_the_banner_prints_the_local_and_network_address_and_a_qr_code_of_the_latter() -> None:
    plan = ServePlan(host="0.0.0.0", local_url="http://127.0.0.1:8000", phone_url="http://192.0.2.2:8000")
    plan.network_url = "http://192.0.2.2:8000"
    text = plan.banner("database sqlite:///polytable.db", colour=False)
    first = text.splitlines()[0]
    assert "http://127.0.0.1:8000/" in first and "sqlite:///polytable.db" in first
    assert "Phones open:  http://192.0.2.2:8000/" in text
    assert read_terminal_qr(text) == "http://192.0.2.2:8000/"


def test_the_banner_on_the_network_says_who_can_open_it_and_what_http_lacks() -> None:
    plan = plan_serving("0.0.0.0", 8123)
    if not plan.network_url:
        pytest.skip("this machine has no network address")
    text = plan.banner("db", colour=False)
    flat = " ".join(text.split())  # notes are wrapped to the terminal
    assert plan.local_url == "http://127.0.0.1:8123" and plan.phone_url == plan.network_url
    assert not is_loopback_host(plan.network_url.split("//")[1].rsplit(":", 1)[0])
    assert "Anyone on this network can open the table; --local keeps it on this computer." in flat
    assert "offline play, installing the app and the in-app card scan need https" in flat
    assert read_terminal_qr(text) == plan.network_url + "/"


def test_https_the_banner_shows_https_addresses_and_what_a_phone_must_accept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("polytable.cli._serve_net.network_address", lambda host: "192.168.1.20")
    plan = plan_serving("0.0.0.0", 8443, https=True)
    text = plan.banner("db", colour=False)
    flat = " ".join(text.split())
    assert text.startswith("polytable is serving on https://127.0.0.1:8443/")
    assert "Phones open:  https://192.168.1.20:8443/" in text
    assert read_terminal_qr(text) == "https://192.168.1.20:8443/"
    assert "tap Advanced, then Proceed" in flat and "https://192.168.1.20:8443/tls/ca.crt" in flat
    assert "SHA-256 fingerprint" in flat
    assert plan.ssl["ssl_certfile"].startswith(str(tmp_path)) and plan.ca_file.startswith(str(tmp_path))
    assert "card scan need https" not in flat


def test_the_colour_qr_paints_both_module_colours_on_every_cell() -> None:
    text = terminal_qr("https://192.168.1.20:8443/", colour=True)
    plain = terminal_qr("https://192.168.1.20:8443/", colour=False)
    assert "\x1b[30;107m" in text and "\x1b[97;40m" in text and text.count("\n") == plain.count("\n")
    assert all(line.endswith("\x1b[0m") for line in text.splitlines())


def test_local_keeps_the_table_on_this_computer() -> None:
    plan = plan_serving("0.0.0.0", 8000, local=True)
    text = plan.banner("db", colour=False)
    assert plan.host == "127.0.0.1" and plan.phone_url is None and plan.network_url == ""
    assert "Only this computer can open it (--local)" in " ".join(text.split()) and "█" not in text


def test_a_public_url_is_what_phones_open(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("polytable.cli._serve_net.network_address", lambda host: "192.168.1.20")
    plan = plan_serving("0.0.0.0", 8000, public_url="https://games.example.org/")
    assert plan.public_url == "https://games.example.org" and plan.phone_url == "https://games.example.org"
    assert plan.env()["PUBLIC_URL"] == "https://games.example.org"
    assert read_terminal_qr(plan.banner("db", colour=False)) == "https://games.example.org/"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--local", "--host", "192.168.1.20"], "--local listens on 127.0.0.1 only"),
        (["--public-url", "games.example.org"], "--public-url takes the address players open"),
        (["--tls-cert", "cert.pem"], "--tls-cert and --tls-key go together"),
        (["--https", "--tls-cert", "a.pem", "--tls-key", "b.pem"], "--https makes the table's own certificate"),
        (["--tls-cert", "missing.pem", "--tls-key", "missing.pem"], "no such file: missing.pem"),
    ],
)
def test_serve_refuses_options_that_cannot_work_and_says_why(args: list[str], message: str) -> None:
    done = CliRunner().invoke(cli_app, ["serve", "--db", "sqlite://", "--port", "1", *args])
    assert done.exit_code == 2, done.output
    assert message in done.output


def test_network_address_of_a_listening_address() -> None:
    assert network_address("127.0.0.1") is None
    assert network_address("localhost") is None
    assert network_address("192.168.1.20") == "192.168.1.20"
    found = network_address("0.0.0.0")
    assert found is None or not ipaddress.ip_address(found).is_loopback
    assert url_of("https", "fd00::2", 8443) == "https://[fd00::2]:8443"
    assert [is_loopback_host(h) for h in ("127.0.0.1", "[::1]", "localhost", "a.localhost", "192.0.2.2")] == [
        True,
        True,
        True,
        True,
        False,
    ]


def test_invite_base_prefers_the_public_url_then_replaces_only_a_loopback_address() -> None:
    net = "https://192.168.1.20:8443"
    assert invite_base("http://127.0.0.1:8000/", "127.0.0.1", "", net) == net
    assert invite_base("http://localhost:8000/", "localhost", "", net) == net
    assert invite_base("http://box.local:8000/", "box.local", "", net) == "http://box.local:8000"
    assert invite_base("http://127.0.0.1:8000/", "127.0.0.1", "", "") == "http://127.0.0.1:8000"
    assert invite_base("http://127.0.0.1:8000/", "127.0.0.1", "https://games.example.org", net) == (
        "https://games.example.org"
    )


def _client(**settings: Any) -> TestClient:
    app = create_app("sqlite://", Settings(ai_delay=0.0, rooms_per_minute=1000, **settings))
    return TestClient(app, base_url="http://127.0.0.1:8000")


def test_a_room_created_through_loopback_invites_by_the_network_address() -> None:
    plan = plan_serving("0.0.0.0", 8000)  # what `polytable serve` works out when it listens on the network
    network_url = plan.network_url or "http://192.168.1.20:8000"  # a machine with no network: as if it had one
    with _client(network_url=network_url) as client:
        room = client.post("/api/rooms", json=BODY).json()
        assert room["link"] == f"{network_url}/r/{room['code']}"
        assert not is_loopback_host(room["link"].split("//")[1].rsplit(":", 1)[0])
        assert client.get(f"/api/rooms/{room['code']}").json()["link"] == room["link"]
        assert client.get(f"/api/rooms/{room['code']}/qr.svg").status_code == 200
        # a phone that came through the network address invites by it (the Host it used)
        lan = client.get(f"/api/rooms/{room['code']}", headers={"host": "box.local:8000"}).json()
        assert lan["link"] == f"http://box.local:8000/r/{room['code']}"


def test_a_public_url_is_in_every_invite_link() -> None:
    with _client(public_url="https://games.example.org", network_url="http://192.168.1.20:8000") as client:
        room = client.post("/api/rooms", json=BODY).json()
        assert room["link"] == f"https://games.example.org/r/{room['code']}"
        lan = client.get(f"/api/rooms/{room['code']}", headers={"host": "192.168.1.20:8000"}).json()
        assert lan["link"] == room["link"]


def test_the_table_certificate_is_served_only_when_it_has_one(tmp_path: Path) -> None:
    with _client() as client:
        r = client.get("/tls/ca.crt")
        assert r.status_code == 404 and r.json()["reason"] == "no_table_ca"
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    with _client(tls_ca=str(ca)) as client:
        r = client.get("/tls/ca.crt")
        assert r.status_code == 200 and r.headers["content-type"] == "application/x-x509-ca-cert"
        assert r.text.startswith("-----BEGIN CERTIFICATE-----")
