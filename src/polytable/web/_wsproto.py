"""The server's WebSocket protocol under uvicorn: RFC 6455 for the room sockets, as little work as a frame needs.

Why our own: a room socket carries one small text message each way per move, and uvicorn's protocols
(on the ``websockets`` or ``wsproto`` libraries) spent more of the event loop on each of them than building
the state message's shared fields: a general frame parser driven through generators, a frame object and a
list of output chunks per message, an ``asyncio.Queue`` and a pause and resume of reading per message
received. This class keeps the same ASGI interface (uvicorn hands it the upgrade request exactly as it
does its own, ``polytable serve`` names it in its ``ws`` setting) and does only what RFC 6455 asks of a
server without extensions:

* the opening handshake (``GET``, ``Upgrade: websocket``, ``Connection: Upgrade``, version 13, a 16-byte
  key; anything else is answered 400); no extension and no subprotocol is ever agreed;
* frames from the client must be masked and have no reserved bit set; control frames are at most 125
  bytes and never fragmented; a message (fragments included) larger than ``ws_max_size`` closes the socket
  with 1009, a text message that is not UTF-8 with 1007, any other breach with 1002;
* pings are answered, a ping is sent every ``ws_ping_interval`` seconds and a missing pong closes the
  socket after ``ws_ping_timeout``; a close frame is answered and the connection closed;
* writes wait while the transport's buffer is over its high-water mark (a client that does not read
  holds no more than that), and reading pauses while more than a few messages wait for the application.

Measured against uvicorn's ``websockets-sansio`` protocol in docs/web.md. It is built on uvicorn's protocol
interface (the ``config`` and ``server_state`` uvicorn hands a WebSocket protocol), so ``pyproject.toml``
asks for the uvicorn it was written and tested against (``tests/web/test_wsproto.py`` and every test's
server process run it).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
import os
import struct
from collections import deque
from typing import Any, cast
from urllib.parse import unquote

from uvicorn.protocols.utils import ClientDisconnected, get_local_addr, get_remote_addr, is_ssl

try:  # the C helper websockets builds where it can; its pure-Python twin otherwise
    from websockets.speedups import apply_mask as _apply_mask
except ImportError:  # pragma: no cover - a websockets built without its C part
    from websockets.utils import apply_mask as _apply_mask

__all__ = ["RoomSocketProtocol", "accept_key"]

log = logging.getLogger("polytable.web")

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_TEXT, _BINARY, _CONTINUATION, _CLOSE, _PING, _PONG = 1, 2, 0, 8, 9, 10
_WIRE_CODES = frozenset({1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014})
"""Close codes a peer may send (RFC 6455, section 7.4; 1005, 1006 and 1015 are never on the wire)."""
_PAUSE_AT = 16
"""Messages waiting for the application beyond which reading from the socket pauses."""
_CLOSE_TIMEOUT = 10.0
"""Seconds to wait for the client's answer to a close frame before closing the connection."""


def accept_key(key: str) -> str:
    """``Sec-WebSocket-Accept`` for a client's ``Sec-WebSocket-Key`` (RFC 6455, section 4.2.2)."""
    return base64.b64encode(hashlib.sha1(key.encode("ascii") + _GUID).digest()).decode("ascii")


def _frame(opcode: int, payload: bytes) -> bytes:
    """One unmasked final frame (a server never masks)."""
    n = len(payload)
    if n < 126:
        return bytes((0x80 | opcode, n)) + payload
    if n < 65536:
        return struct.pack("!BBH", 0x80 | opcode, 126, n) + payload
    return struct.pack("!BBQ", 0x80 | opcode, 127, n) + payload


def _close_payload(code: int, reason: str = "") -> bytes:
    return struct.pack("!H", code) + reason.encode("utf-8")[:123]


class RoomSocketProtocol(asyncio.Protocol):
    """One WebSocket connection, from the upgrade request uvicorn hands over to the closing handshake."""

    def __init__(
        self,
        config: Any,
        server_state: Any,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        if not config.loaded:
            config.load()
        self.config = config
        self.app = config.loaded_app
        self.loop = _loop or asyncio.get_event_loop()
        self.app_state = app_state
        self.connections: set[Any] = server_state.connections
        self.tasks: set[asyncio.Task[None]] = server_state.tasks
        self.default_headers: list[tuple[bytes, bytes]] = server_state.default_headers
        self.max_size: int = config.ws_max_size
        self.ping_interval: float | None = config.ws_ping_interval
        self.ping_timeout: float | None = config.ws_ping_timeout
        self.transport: asyncio.Transport | None = None
        self.scope: dict[str, Any] = {}
        self.opened = False  # the upgrade request was read (and answered, or handed to the application)
        self.key = ""
        self.buffer = b""
        self.fragments: list[bytes] | None = None  # a fragmented message being received
        self.fragment_opcode = _TEXT
        self.fragment_size = 0
        self.events: deque[dict[str, Any]] = deque()
        self.waiter: asyncio.Future[None] | None = None  # the application's receive, while nothing waits
        self.read_paused = False
        self.writable = True
        self.drain: asyncio.Future[None] | None = None  # a send waiting for the transport to drain
        self.accepted = False  # the 101 response was sent
        self.responded = False  # some response to the upgrade request was sent (101 or a refusal)
        self.close_sent = False
        self.disconnected = False  # the application was told the socket is gone
        self.lost = False  # the TCP connection is gone
        self.ping_payload: bytes | None = None
        self.timer: asyncio.TimerHandle | None = None  # the next ping, the pong's deadline or the close's

    # ------------------------------------------------------------------ asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports only quack like one
        self.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self.connections.discard(self)
        self._cancel_timer()
        self._disconnect(1006 if not self.close_sent else 1000)
        self.writable = True
        if self.drain is not None and not self.drain.done():
            self.drain.set_result(None)

    def pause_writing(self) -> None:
        self.writable = False

    def resume_writing(self) -> None:
        self.writable = True
        if self.drain is not None and not self.drain.done():
            self.drain.set_result(None)

    def data_received(self, data: bytes) -> None:
        if not self.opened:
            self.opened = True
            self._handshake(data)
            return
        if not self.accepted:  # nothing may come before the 101 response (or after a refusal)
            return
        buf = self.buffer + data if self.buffer else data
        pos, end = 0, len(buf)
        while end - pos >= 2:
            b0, b1 = buf[pos], buf[pos + 1]
            opcode, n, at = b0 & 0x0F, b1 & 0x7F, pos + 2
            if n == 126:
                if end - at < 2:
                    break
                n, at = int.from_bytes(buf[at : at + 2], "big"), at + 2
            elif n == 127:
                if end - at < 8:
                    break
                n, at = int.from_bytes(buf[at : at + 8], "big"), at + 8
            if b0 & 0x70 or not b1 & 0x80:  # a reserved bit (no extension was agreed) or an unmasked frame
                self._fail(1002, "protocol error")
                return
            if opcode >= 8 and (n > 125 or not b0 & 0x80):
                self._fail(1002, "bad control frame")
                return
            if n > self.max_size or (opcode == _CONTINUATION and self.fragment_size + n > self.max_size):
                self._fail(1009, "message too big")
                return
            if end - at < 4 + n:
                break
            payload = _apply_mask(buf[at + 4 : at + 4 + n], buf[at : at + 4]) if n else b""
            pos = at + 4 + n
            if not self._frame_received(opcode, bool(b0 & 0x80), payload):
                return
        self.buffer = buf[pos:] if pos < end else b""

    # ------------------------------------------------------------------ frames
    def _frame_received(self, opcode: int, fin: bool, payload: bytes) -> bool:
        """Handle one frame; False when the connection is being closed."""
        if opcode in (_TEXT, _BINARY):
            if self.fragments is not None:
                return self._fail(1002, "a new message inside a fragmented one")
            if fin:
                return self._message(opcode, payload)
            self.fragments, self.fragment_opcode, self.fragment_size = [payload], opcode, len(payload)
            return True
        if opcode == _CONTINUATION:
            if self.fragments is None:
                return self._fail(1002, "a continuation without a message")
            self.fragments.append(payload)
            self.fragment_size += len(payload)
            if not fin:
                return True
            data, self.fragments, self.fragment_size = b"".join(self.fragments), None, 0
            return self._message(self.fragment_opcode, data)
        if opcode == _PING:
            self._write(_frame(_PONG, payload))
            return True
        if opcode == _PONG:
            if self.ping_payload is not None and payload == self.ping_payload and not self.close_sent:
                self.ping_payload = None
                self._schedule_ping()
            return True
        if opcode == _CLOSE:
            code, reason = 1005, ""
            if len(payload) == 1:
                return self._fail(1002, "bad close frame")
            if len(payload) >= 2:
                code = int.from_bytes(payload[:2], "big")
                if not (code in _WIRE_CODES or 3000 <= code < 5000):
                    return self._fail(1002, "bad close code")
                try:
                    reason = payload[2:].decode("utf-8")
                except UnicodeDecodeError:
                    return self._fail(1007, "close reason is not UTF-8")
            if not self.close_sent:  # the client closes: answer, tell the application, hang up
                self.close_sent = True
                self._write(_frame(_CLOSE, payload[:2]))
                self._disconnect(code, reason)
            self._hang_up()
            return False
        return self._fail(1002, "unknown opcode")

    def _message(self, opcode: int, data: bytes) -> bool:
        if self.close_sent:  # the application closed the socket: what still arrives is dropped
            return True
        if opcode == _TEXT:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                return self._fail(1007, "text is not UTF-8")
            self._push({"type": "websocket.receive", "text": text})
        else:
            self._push({"type": "websocket.receive", "bytes": data})
        if len(self.events) > _PAUSE_AT and not self.read_paused and self.transport is not None:
            self.read_paused = True
            self.transport.pause_reading()
        return True

    def _fail(self, code: int, reason: str) -> bool:
        """Close the connection for a breach of the protocol (the application hears ``code``)."""
        if not self.close_sent:
            self.close_sent = True
            self._write(_frame(_CLOSE, _close_payload(code, reason)))
        self._disconnect(code, reason)
        self._hang_up()
        return False

    def _hang_up(self) -> None:
        self._cancel_timer()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def _write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    # ------------------------------------------------------------------ the application's side
    def _push(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        waiter = self.waiter
        if waiter is not None:
            self.waiter = None
            if not waiter.done():
                waiter.set_result(None)

    def _disconnect(self, code: int, reason: str = "") -> None:
        if not self.disconnected:
            self.disconnected = True
            self._push({"type": "websocket.disconnect", "code": code, "reason": reason})

    async def receive(self) -> dict[str, Any]:
        while not self.events:
            if self.disconnected:  # told once already: a later call gets the same answer, never waits
                return {"type": "websocket.disconnect", "code": 1006, "reason": ""}
            self.waiter = self.loop.create_future()
            await self.waiter
        event = self.events.popleft()
        if self.read_paused and len(self.events) < _PAUSE_AT // 2 and self.transport is not None:
            self.read_paused = False
            self.transport.resume_reading()
        return event

    async def send(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if not self.writable and not self.lost:
            if self.drain is None or self.drain.done():
                self.drain = self.loop.create_future()
            await self.drain
        if self.lost:
            raise ClientDisconnected()
        if kind == "websocket.send":
            if not self.accepted or self.close_sent:
                raise ClientDisconnected() if self.close_sent else RuntimeError("send before accept")
            text = message.get("text")
            if text is not None:
                self._write(_frame(_TEXT, text.encode("utf-8")))
            else:
                self._write(_frame(_BINARY, bytes(message.get("bytes") or b"")))
        elif kind == "websocket.accept":
            if self.responded:
                raise RuntimeError("the socket was already accepted or refused")
            self._accept(message)
        elif kind == "websocket.close":
            if not self.responded:  # refused before the handshake ended: 403
                self.responded = self.close_sent = True
                self._respond(b"403 Forbidden", b"")
                self._disconnect(1006)
                self._hang_up()
            elif not self.close_sent:
                self.close_sent = True
                self._write(
                    _frame(_CLOSE, _close_payload(int(message.get("code") or 1000), message.get("reason") or ""))
                )
                self._disconnect(int(message.get("code") or 1000))
                self._cancel_timer()
                self.timer = self.loop.call_later(_CLOSE_TIMEOUT, self._hang_up)
        else:
            raise RuntimeError(f"unexpected ASGI message {kind!r} on a WebSocket")

    # ------------------------------------------------------------------ handshake
    def _handshake(self, data: bytes) -> None:
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        parts = lines[0].split(b" ")
        headers: list[tuple[bytes, bytes]] = []
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers.append((name.strip().lower(), value.strip()))
        found = dict(headers)
        key = found.get(b"sec-websocket-key", b"")
        try:
            valid_key = len(base64.b64decode(key, validate=True)) == 16
        except ValueError:
            valid_key = False
        if (
            len(parts) != 3
            or parts[0] != b"GET"
            or b"websocket" not in found.get(b"upgrade", b"").lower()
            or b"upgrade" not in [t.strip() for t in found.get(b"connection", b"").lower().split(b",")]
            or found.get(b"sec-websocket-version") != b"13"
            or not valid_key
            or rest
        ):
            self.responded = self.close_sent = self.disconnected = True
            self._respond(b"400 Bad Request", b"Failed to open a WebSocket connection: invalid request.\n")
            self._hang_up()
            return
        self.key = key.decode("ascii")
        raw_path, _, query = parts[1].partition(b"?")
        root = self.config.root_path
        transport = self.transport
        assert transport is not None
        subprotocols: list[str] = []
        for name, value in headers:
            if name == b"sec-websocket-protocol":
                subprotocols += [t.strip() for t in value.decode("latin-1").split(",") if t.strip()]
        self.scope = {
            "type": "websocket",
            "asgi": {"version": self.config.asgi_version, "spec_version": "2.4"},
            "http_version": "1.1",
            "scheme": "wss" if is_ssl(transport) else "ws",
            "server": get_local_addr(transport),
            "client": get_remote_addr(transport),
            "root_path": root,
            "path": root + unquote(raw_path.decode("ascii")),
            "raw_path": root.encode("ascii") + raw_path,
            "query_string": query,
            "headers": headers,
            "subprotocols": subprotocols,
            "state": self.app_state.copy(),
            "extensions": {},
        }
        self._push({"type": "websocket.connect"})
        task = self.loop.create_task(self._run_asgi())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _accept(self, message: dict[str, Any]) -> None:
        self.responded = self.accepted = True
        lines = [
            b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n",
            b"Sec-WebSocket-Accept: " + accept_key(self.key).encode("ascii") + b"\r\n",
        ]
        for name, value in [*self.default_headers, *message.get("headers", [])]:
            lines.append(name + b": " + value + b"\r\n")
        if message.get("subprotocol"):
            lines.append(b"Sec-WebSocket-Protocol: " + str(message["subprotocol"]).encode("latin-1") + b"\r\n")
        lines.append(b"\r\n")
        self._write(b"".join(lines))
        self._schedule_ping()

    def _respond(self, status: bytes, body: bytes) -> None:
        lines = [b"HTTP/1.1 " + status + b"\r\n"]
        lines += [name + b": " + value + b"\r\n" for name, value in self.default_headers]
        lines.append(b"Content-Type: text/plain; charset=utf-8\r\nConnection: close\r\n")
        lines.append(b"Content-Length: " + str(len(body)).encode("ascii") + b"\r\n\r\n" + body)
        self._write(b"".join(lines))

    async def _run_asgi(self) -> None:
        try:
            await self.app(self.scope, self.receive, self.send)
        except ClientDisconnected:
            pass
        except BaseException:
            log.exception("a WebSocket application failed")
            if not self.responded:
                self.responded = True
                self._respond(b"500 Internal Server Error", b"Internal Server Error\n")
        if not self.responded:
            log.error("the WebSocket application returned without accepting or refusing the socket")
            self.responded = True
            self._respond(b"500 Internal Server Error", b"Internal Server Error\n")
        if not self.close_sent:  # the application ended without closing: close cleanly
            self.close_sent = True
            if self.accepted:
                self._write(_frame(_CLOSE, _close_payload(1000)))
            self._disconnect(1000)
            self._hang_up()

    # ------------------------------------------------------------------ keepalive and shutdown
    def _schedule_ping(self) -> None:
        if self.close_sent or self.lost:  # the timer is the close's now (or there is none)
            return
        self._cancel_timer()
        if self.ping_interval:
            self.timer = self.loop.call_later(self.ping_interval, self._ping)

    def _ping(self) -> None:
        self.timer = None
        if self.close_sent or self.lost:
            return
        self.ping_payload = os.urandom(4)
        self._write(_frame(_PING, self.ping_payload))
        if self.ping_timeout:
            self.timer = self.loop.call_later(self.ping_timeout, self._fail, 1011, "keepalive ping timeout")
        else:
            self._schedule_ping()

    def _cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def shutdown(self) -> None:
        """The server stops: close with 1012 (service restart), as uvicorn's own protocols do."""
        if self.accepted and not self.close_sent:
            self.close_sent = True
            self._write(_frame(_CLOSE, _close_payload(1012)))
            self._disconnect(1012)
        elif not self.responded:
            self.responded = self.close_sent = True
            self._respond(b"500 Internal Server Error", b"")
            self._disconnect(1006)
        self._hang_up()
