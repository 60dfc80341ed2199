"""The server's WebSocket protocol (web/_wsproto.py): RFC 6455 framing, the handshake, closing, pings.

Driven directly with a recording transport (no socket), an echo application on the ASGI side; the real
server runs the same class in every test that starts ``polytable serve``'s stack (``_server.py``)."""

from __future__ import annotations

import asyncio
import functools
import os
import struct
from collections.abc import Callable, Coroutine
from types import SimpleNamespace
from typing import Any

import pytest

from polytable.web._wsproto import RoomSocketProtocol, accept_key

KEY = "dGhlIHNhbXBsZSBub25jZQ=="  # the example of RFC 6455, section 1.3


class Transport:
    """Records what the protocol writes; says whether it was closed or paused."""

    def __init__(self) -> None:
        self.out = bytearray()
        self.closed = False
        self.paused = False

    def write(self, data: bytes) -> None:
        self.out += data

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)


def request(version: bytes = b"13", key: str = KEY, path: bytes = b"/ws/ABCDE?x=1") -> bytes:
    return (
        b"GET " + path + b" HTTP/1.1\r\nhost: localhost\r\nupgrade: websocket\r\nconnection: Upgrade\r\n"
        b"sec-websocket-key: " + key.encode() + b"\r\nsec-websocket-version: " + version + b"\r\n\r\n"
    )


def frame(opcode: int, payload: bytes, fin: bool = True, mask: bool = True, rsv: int = 0) -> bytes:
    head = bytes([(0x80 if fin else 0) | rsv | opcode])
    n = len(payload)
    bit = 0x80 if mask else 0
    if n < 126:
        head += bytes([bit | n])
    elif n < 65536:
        head += bytes([bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", n)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def frames(data: bytes) -> list[tuple[int, bytes]]:
    """The server's frames in ``data`` (unmasked, final)."""
    out = []
    while data:
        assert data[0] & 0x80 and not data[1] & 0x80  # final, unmasked
        n, at = data[1] & 0x7F, 2
        if n == 126:
            n, at = struct.unpack("!H", data[2:4])[0], 4
        elif n == 127:
            n, at = struct.unpack("!Q", data[2:10])[0], 10
        out.append((data[0] & 0x0F, data[at : at + n]))
        data = data[at + n :]
    return out


class Server:
    """A protocol on a recording transport, with an application that echoes text and records events."""

    def __init__(self, max_size: int = 65536, accept: bool = True) -> None:
        self.events: list[dict[str, Any]] = []
        self.scope: dict[str, Any] = {}
        self.accept = accept

        async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
            self.scope = scope
            assert (await receive())["type"] == "websocket.connect"
            if not self.accept:
                await send({"type": "websocket.close"})
                return
            await send({"type": "websocket.accept"})
            while True:
                event = await receive()
                self.events.append(event)
                if event["type"] == "websocket.disconnect":
                    return
                if event.get("text") == "close please":
                    await send({"type": "websocket.close", "code": 4000, "reason": "bye"})
                elif "text" in event:
                    await send({"type": "websocket.send", "text": "echo " + event["text"]})

        config = SimpleNamespace(
            loaded=True,
            loaded_app=app,
            root_path="",
            asgi_version="3.0",
            ws_max_size=max_size,
            ws_ping_interval=20.0,
            ws_ping_timeout=20.0,
        )
        state = SimpleNamespace(connections=set(), tasks=set(), default_headers=[(b"server", b"test")])
        self.protocol = RoomSocketProtocol(config, state, {}, _loop=asyncio.get_running_loop())
        self.transport = Transport()
        self.protocol.connection_made(self.transport)  # type: ignore[arg-type]

    async def feed(self, data: bytes) -> None:
        self.protocol.data_received(data)
        for _ in range(5):
            await asyncio.sleep(0)

    def take(self) -> bytes:
        out = bytes(self.transport.out)
        self.transport.out.clear()
        return out

    async def open(self) -> None:
        await self.feed(request())
        head = self.take()
        assert head.startswith(b"HTTP/1.1 101 ")
        assert b"Sec-WebSocket-Accept: " + accept_key(KEY).encode() in head


def run(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """A test written as a coroutine, run on its own event loop (the suite has no async plugin)."""

    @functools.wraps(test)
    def sync(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return sync


def test_accept_key_is_the_rfc_example() -> None:
    assert accept_key(KEY) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="


@run
async def test_handshake_scope_and_echo() -> None:
    s = Server()
    await s.open()
    assert s.scope["path"] == "/ws/ABCDE" and s.scope["query_string"] == b"x=1"
    assert s.scope["client"] == ("127.0.0.1", 5000) and s.scope["type"] == "websocket"
    await s.feed(frame(1, "héllo".encode()))
    assert frames(s.take()) == [(1, "echo héllo".encode())]
    long = "x" * 70_000
    s.protocol.max_size = 1 << 20
    await s.feed(frame(1, long.encode()))
    assert frames(s.take()) == [(1, ("echo " + long).encode())]


@run
async def test_bad_handshakes_are_refused() -> None:
    for data in (request(version=b"12"), request(key="short"), request().replace(b"upgrade: websocket", b"x: y")):
        s = Server()
        await s.feed(data)
        assert s.take().startswith(b"HTTP/1.1 400 ") and s.transport.closed
        assert s.scope == {}  # the application never heard of it


@run
async def test_refused_by_the_application_is_403() -> None:
    s = Server(accept=False)
    await s.feed(request())
    assert s.take().startswith(b"HTTP/1.1 403 ") and s.transport.closed


@run
async def test_split_frames_fragments_and_pings() -> None:
    s = Server()
    await s.open()
    data = frame(1, b"one") + frame(1, b"two")
    for i in range(len(data)):  # one byte at a time: every partial header and payload
        await s.feed(data[i : i + 1])
    assert frames(s.take()) == [(1, b"echo one"), (1, b"echo two")]
    await s.feed(frame(1, b"fra", fin=False) + frame(9, b"ping!") + frame(0, b"gm", fin=False))
    assert frames(s.take()) == [(10, b"ping!")]
    await s.feed(frame(0, b"ent"))
    assert frames(s.take()) == [(1, b"echo fragment")]


BREACHES = [
    "unmasked",
    "reserved bit",
    "long ping",
    "fragmented ping",
    "lone continuation",
    "message in a message",
    "unknown opcode",
    "bad UTF-8",
    "too big",
    "too big in fragments",
    "bad close code",
]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (frame(1, b"hi", mask=False), 1002),
        (frame(1, b"hi", rsv=0x40), 1002),
        (frame(9, b"x" * 126), 1002),
        (frame(9, b"x", fin=False), 1002),
        (frame(0, b"x"), 1002),
        (frame(1, b"a", fin=False) + frame(1, b"b"), 1002),
        (frame(3, b"x"), 1002),
        (frame(1, b"\xff\xfe"), 1007),
        (frame(1, b"x" * 2000), 1009),
        (frame(1, b"x" * 600, fin=False) + frame(0, b"x" * 600), 1009),
        (frame(8, struct.pack("!H", 1006)), 1002),
    ],
    ids=BREACHES,
)
@run
async def test_breaches_close_the_socket(data: bytes, code: int) -> None:
    s = Server(max_size=1000)
    await s.open()
    await s.feed(data)
    sent = frames(s.take())
    assert sent and sent[-1][0] == 8 and struct.unpack("!H", sent[-1][1][:2])[0] == code
    assert s.transport.closed
    assert s.events[-1]["type"] == "websocket.disconnect" and s.events[-1]["code"] == code


@run
async def test_client_close_is_answered() -> None:
    s = Server()
    await s.open()
    await s.feed(frame(8, struct.pack("!H", 1001) + b"going"))
    assert frames(s.take()) == [(8, struct.pack("!H", 1001))]
    assert s.transport.closed
    assert s.events[-1] == {"type": "websocket.disconnect", "code": 1001, "reason": "going"}


@run
async def test_application_close_waits_for_the_answer() -> None:
    s = Server()
    await s.open()
    await s.feed(frame(1, b"close please"))
    assert frames(s.take()) == [(8, struct.pack("!H", 4000) + b"bye")]
    assert s.events[-1]["type"] == "websocket.disconnect"
    assert not s.transport.closed  # the client's answer is awaited
    await s.feed(frame(1, b"late") + frame(8, struct.pack("!H", 4000)))
    assert s.take() == b"" and s.transport.closed  # nothing more is sent; the answer ends it


@run
async def test_lost_connection_and_send_after_it() -> None:
    s = Server()
    await s.open()
    s.protocol.connection_lost(None)
    await s.feed(b"")
    assert s.events[-1]["type"] == "websocket.disconnect"
    with pytest.raises(OSError):
        await s.protocol.send({"type": "websocket.send", "text": "x"})
    assert await s.protocol.receive() == {"type": "websocket.disconnect", "code": 1006, "reason": ""}


@run
async def test_ping_timeout_and_pong() -> None:
    s = Server()
    await s.open()
    p = s.protocol
    p._ping()
    ping = frames(s.take())
    assert ping[0][0] == 9 and len(ping[0][1]) == 4
    await s.feed(frame(10, ping[0][1]))  # the answer: the next ping is scheduled, no timeout
    assert p.ping_payload is None and p.timer is not None
    p._ping()
    s.take()
    assert p.timer is not None
    p.timer._run()  # type: ignore[attr-defined]  # the pong's deadline passes
    sent = frames(s.take())
    assert sent[-1][0] == 8 and struct.unpack("!H", sent[-1][1][:2])[0] == 1011 and s.transport.closed


@run
async def test_shutdown_closes_with_1012() -> None:
    s = Server()
    await s.open()
    s.protocol.shutdown()
    sent = frames(s.take())
    assert sent == [(8, struct.pack("!H", 1012))] and s.transport.closed
