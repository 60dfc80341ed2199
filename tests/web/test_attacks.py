"""The web front's holes, one test per attack: each request's cost bounded before any work, the client's
address believed only from named proxies, no password printed, undecodable or over-deep text refused with
a reason, silent sockets closed and counted, close codes that say what happened."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from polytable.cli import app as cli_app
from polytable.cli.cmd_web import SERVER_OPTIONS
from polytable.core import ConfigError
from polytable.games.formfinity import parse_deck
from polytable.storage import redact_url
from polytable.web import Settings, create_app
from polytable.web import _hub as hub_module

from .conftest import error, hello, make_room, until


def test_a_room_for_100000_players_is_refused_before_any_seat_is_made(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[int] = []
    real = hub_module.new_token
    monkeypatch.setattr(hub_module, "new_token", lambda: made.append(1) or real())
    r = client.post("/api/rooms", json={"game": "forma", "players": 100_000})
    assert r.status_code == 400 and r.json()["reason"] == "player_count"
    assert r.json()["params"] == {"min": 2, "max": 4} and made == []
    r = client.post("/api/rooms", json={"game": "forma", "options": {f"o{i}": i for i in range(1000)}})
    assert r.status_code == 400 and r.json()["reason"] == "too_many_options" and made == []


def _created(client: TestClient, forwarded: str) -> int:
    body = {"game": "toy", "players": 2, "options": {"rounds": 2}}
    return client.post("/api/rooms", json=body, headers={"X-Forwarded-For": forwarded}).status_code


def test_the_room_rate_limit_is_keyed_on_the_real_client_not_on_a_forwarded_header() -> None:
    app = create_app("sqlite://", Settings(ai_delay=0.0, rooms_per_minute=3))
    served = ProxyHeadersMiddleware(app, trusted_hosts=SERVER_OPTIONS["forwarded_allow_ips"])  # serve's default
    with TestClient(served) as client:  # type: ignore[arg-type]
        codes = [_created(client, f"10.0.0.{i}") for i in range(5)]
    assert codes == [201, 201, 201, 429, 429]  # a new X-Forwarded-For each time changes nothing
    app = create_app("sqlite://", Settings(ai_delay=0.0, rooms_per_minute=3))
    proxied = ProxyHeadersMiddleware(app, trusted_hosts="testclient")  # --forwarded-allow-ips names the proxy
    with TestClient(proxied) as client:  # type: ignore[arg-type]
        codes = [_created(client, f"10.0.0.{i}") for i in range(5)]
    assert codes == [201] * 5  # behind a named proxy each client has its own limit


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql+psycopg://pt:hunter2@db/pt", "postgresql+psycopg://pt:***@db/pt"),
        (
            "postgresql+psycopg://pt@db/pt?password=hunter2&sslmode=require",
            "postgresql+psycopg://pt@db/pt?password=***&sslmode=require",
        ),
        ("postgresql+psycopg://pt:a/b@c@db/pt", "postgresql+psycopg://pt:***@db/pt"),
        ("redis://:hunter2@cache:6379/0", "redis://:***@cache:6379/0"),
        ("redis://cache:6379/0?password=hunter2", "redis://cache:6379/0?password=***"),
        (
            "rediss://u:hunter2@cache/1?ssl_cert_reqs=none&PassWord=hunter2",
            "rediss://u:***@cache/1?ssl_cert_reqs=none&PassWord=***",
        ),
        ("sqlite:///polytable.db", "sqlite:///polytable.db"),
    ],
)
def test_every_password_in_a_url_is_masked(url: str, shown: str) -> None:
    assert redact_url(url) == shown


def test_a_lone_surrogate_is_a_400_with_a_reason_not_a_500(client: TestClient) -> None:
    r = client.post("/api/rooms", content=b'{"game": "\\ud800"}', headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["reason"] == "not_unicode"
    r = client.post("/api/rooms", content=b'{"game": "\\ud83d\\ude00"}', headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["reason"] == "unknown_game"  # a valid pair is text
    room = make_room(client)
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        ws.send_text('{"type": "hello", "tokens": ["\\udfff"]}')
        assert error(ws)["reason"] == "not_unicode"


def test_replay_and_deck_files_refuse_over_deep_json_in_one_line(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    out = CliRunner().invoke(cli_app, ["replay", str(deep)])
    assert (out.exit_code == 2 and out.exception is None) or isinstance(out.exception, SystemExit)
    assert "nested too deep" in out.output and "Traceback" not in out.output
    assert out.output.count("error:") == 1  # one message (the console may wrap it), no traceback
    with pytest.raises(ConfigError, match="nested too deep"):
        parse_deck('{"cards": ' + "[" * 50_000 + "]" * 50_000 + "}")


def test_a_socket_that_never_says_hello_is_closed_and_counted_meanwhile() -> None:
    app = create_app("sqlite://", Settings(ai_delay=0.0, rooms_per_minute=1000, hello_timeout=0.5, max_spectators=2))
    with TestClient(app) as client:
        room = make_room(client)
        url = f"/ws/{room['code']}"
        with client.websocket_connect(url) as silent, client.websocket_connect(url) as quiet:
            with client.websocket_connect(url) as third:  # two silent sockets fill the spectators' places
                refused = error(third)
                assert refused["reason"] == "spectators_full"
                with pytest.raises(WebSocketDisconnect) as closed:
                    third.receive_json()
                assert closed.value.code == 1013
            for ws in (silent, quiet):
                assert error(ws)["reason"] == "hello_timeout"
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 1008
        with client.websocket_connect(url) as ws:  # their places are free again
            assert hello(ws)["seats"] == []


def test_a_binary_frame_closes_the_socket_with_1003(client: TestClient) -> None:
    room = make_room(client)
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"])
        ws.send_bytes(b"\x00\x01")
        assert until(ws, lambda m: m["type"] == "error" and m["reason"] == "binary")
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_json()
        assert closed.value.code == 1003
