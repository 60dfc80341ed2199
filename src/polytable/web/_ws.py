"""The WebSocket protocol of a room page: one :class:`Connection` per socket, one handler per message type.

client -> server: ``hello {tokens, text}``, ``text {on}``, ``act {seat, version, action}``, ``undo {seat, version}``,
``preview {seat, action, ask}`` (what a move would score, see :mod:`._preview`), ``hint {seat, ask}`` (the
move the greedy player would make, where no other person plays), ``sync``, ``deal`` / ``undeal {version}``
(companion rooms; ``deal`` may carry a printed ``card``);
server -> client: ``welcome``, ``state``, ``preview``, ``hint``, ``error``.

Every message is checked for size, rate and shape here; :data:`HANDLERS` maps its ``type`` to the
method that serves it, so a new message type is one method and one line. A :class:`RoomError` becomes an
``error`` message (a stale or unsaved action also resends the state); any other failure is logged for the
operator and the player gets a translated ``internal`` error, never the exception's text.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.types import Receive, Scope, Send

from ..core import JsonLimitError, loads_bounded
from ..match import action_text, ask_of, error_reply, seat_number, version_of
from ..storage import StorageError
from . import _companion
from ._base import RoomError
from ._client import Client
from ._hub import Hub
from ._ops import Metrics
from ._preview import hint, preview
from ._rooms import Room

__all__ = ["HANDLERS", "AsgiSocket", "Connection", "error_message", "serve_asgi", "serve_socket"]

log = logging.getLogger("polytable.web")


def error_message(code: str, message: str, reason: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """A WebSocket error: ``code`` (what the client does), ``reason`` + ``params`` (what it says, from its
    translation files as ``error.<reason>``) and the English ``message`` as the fallback."""
    return {"type": "error", "code": code, "reason": reason, "params": params or {}, "message": message}


class AsgiSocket:
    """The game socket on the server's own ASGI ``receive`` and ``send``, below Starlette's WebSocket class.

    Why: a room's socket carries one small message each way per move, and Starlette's WebSocket class and
    its middleware add state checks and two wrapper coroutines to every one of them (docs/web.md, issue 19).
    This class does only what a room needs: accept, receive text, send text, close."""

    __slots__ = ("_receive", "_send")

    def __init__(self, receive: Receive, send: Send) -> None:
        self._receive = receive
        self._send = send

    async def accept(self) -> bool:
        """Complete the handshake; False if the client left before it."""
        if (await self._receive())["type"] != "websocket.connect":
            return False
        await self._send({"type": "websocket.accept"})
        return True

    async def receive_text(self) -> str | bytes | None:
        """The next message (text, or bytes for a binary one), or None once the socket is closed."""
        message = await self._receive()
        if message["type"] == "websocket.receive":
            text = message.get("text")
            return text if isinstance(text, str) else bytes(message.get("bytes") or b"")
        return None

    async def send_text(self, data: str) -> None:
        await self._send({"type": "websocket.send", "text": data})

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self._send({"type": "websocket.close", "code": code, "reason": reason or ""})


async def serve_asgi(scope: Scope, receive: Receive, send: Send, hub: Hub, metrics: Metrics | None = None) -> None:
    """The ASGI app of ``/ws/CODE`` (the application routes such scopes here before Starlette's router)."""
    socket = AsgiSocket(receive, send)
    if not await socket.accept():
        return
    await serve_socket(socket, str(scope["path"]).rsplit("/", 1)[-1], hub, metrics)


async def serve_socket(socket: AsgiSocket, code: str, hub: Hub, metrics: Metrics | None = None) -> None:
    """Serve a room page's accepted socket until it closes."""
    try:
        room = await hub.get(code)
    except StorageError as exc:
        log.warning("room %s could not be loaded: %s", code[:16], exc)
        room = None
    if room is None:
        with contextlib.suppress(Exception):  # the client may be gone already
            await socket.send_text(json.dumps(error_message("missing", "no such room", "no_room", {"code": code[:16]})))
            await socket.close(4404)
        return
    if room.unsaid >= hub.settings.max_spectators:
        with contextlib.suppress(Exception):  # sockets yet to say hello: as many as spectators, no more
            await socket.send_text(json.dumps(error_message("full", "too many connections", "spectators_full")))
            await socket.close(1013, "too many connections; try again later")
        return
    conn = Connection(socket, hub, room, metrics)
    room.unsaid += 1
    writer = asyncio.get_running_loop().create_task(conn.client.writer())
    try:
        await conn.run()
    finally:
        if not conn.hello:
            room.unsaid -= 1
        room.detach(conn.client)
        conn.client.stop()
        hub.release(room)
        with contextlib.suppress(BaseException):
            await writer


class Connection:
    """One socket on one room: reads messages, checks them and hands each to its handler."""

    def __init__(self, websocket: AsgiSocket, hub: Hub, room: Room, metrics: Metrics | None = None) -> None:
        self.websocket = websocket
        self.metrics = metrics
        self.hub = hub
        self.room = room
        self.settings = hub.settings
        self.client = Client(websocket, hub.settings)
        self.hello = False

    async def run(self) -> None:
        client = self.client
        receive = self.websocket.receive_text
        deadline = time.monotonic() + self.settings.hello_timeout
        while True:
            try:
                if self.hello:
                    text = await receive()
                else:  # a socket that never says hello is closed, not kept (it counts against the room's caps)
                    text = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                client.send(error_message("bad", "no hello in time; connect again", "hello_timeout"))
                client.stop(1008, "no hello in time")
                return
            except (RuntimeError, OSError):  # the server's side of the socket is gone
                return
            if text is None or client.closed:
                return
            if isinstance(text, bytes):
                client.send(error_message("bad", "only text messages are accepted", "binary"))
                client.stop(1003, "binary messages are not accepted")
                return
            if not client.allow():
                if client.refused > 3 * self.settings.burst:
                    client.stop()
                    return
                if client.refused == 1:
                    client.send(error_message("throttled", "too many messages; slow down", "throttled"))
                continue
            msg = self._parse(text)
            if msg is not None:
                await self.dispatch(msg)

    def _parse(self, text: str) -> dict[str, Any] | None:
        """The message as a JSON object with a type, or None after telling the client what is wrong."""
        limit = self.settings.max_message
        if len(text) > limit:
            self.client.send(
                error_message("bad", f"message too large (at most {limit} characters)", "too_large", {"max": limit})
            )
            return None
        try:
            msg = loads_bounded(text)
        except JsonLimitError as exc:
            self.client.send(error_message("bad", str(exc), exc.reason, exc.params))
            return None
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            self.client.send(error_message("bad", "messages must be JSON objects with a type", "no_type"))
            return None
        return msg

    async def dispatch(self, msg: dict[str, Any]) -> None:
        kind: str = msg["type"]
        handler = HANDLERS.get(kind)
        started = time.perf_counter()
        outcome = "ok"
        try:
            if handler is None:
                raise RoomError(
                    f"unknown message type {kind[:20]!r}", reason="unknown_type", params={"type": kind[:20]}
                )
            if not self.hello and kind != "hello":
                raise RoomError("say hello first", reason="no_hello")
            await handler(self, msg)
        except RoomError as exc:
            outcome = exc.code
            self.client.send(error_reply(exc))
            if exc.code in ("stale", "storage"):
                self.client.notify_state()
        except Exception:  # a bug must not end the connection silently; the room itself is unchanged
            outcome = "internal"
            log.exception("message %r failed in room %s", kind[:20], self.room.code)
            self.client.send(
                error_message("internal", "the server failed on this message; the board is reloaded", "internal")
            )
            self.client.notify_state()
        if self.metrics is not None:
            self.metrics.handled(kind, outcome, started)

    # ------------------------------------------------------------------ handlers
    async def on_hello(self, msg: dict[str, Any]) -> None:
        if self.hello:
            raise RoomError("hello was already said on this connection", reason="hello_twice")
        tokens = msg.get("tokens", [])
        if (
            not isinstance(tokens, list)
            or len(tokens) > 16
            or not all(isinstance(t, str) and len(t) <= 128 for t in tokens)
        ):
            raise RoomError("tokens must be a list of at most 16 short strings", reason="bad_tokens")
        text = msg.get("text", True)
        if not isinstance(text, bool):
            raise RoomError("text is true or false", reason="bad_text")
        room = self.room
        seats, problems = room.seats_for(tokens)
        room.unsaid -= 1  # from here on it counts as what it is (a spectator or a seat holder), if it fits
        try:
            room.check_room_for(seats)
            self.client.send({"type": "welcome", "code": room.code, "seats": sorted(seats)})
            for p in problems:
                self.client.send(error_message("forbidden", p, "bad_token"))
            self.client.text = text
            room.attach(self.client, seats)
        except BaseException:
            room.unsaid += 1
            raise
        self.hello = True

    async def on_text(self, msg: dict[str, Any]) -> None:
        """Whether this page shows the game's text rendering from now on (the state is sent again)."""
        on = msg.get("on")
        if not isinstance(on, bool):
            raise RoomError("text is true or false", reason="bad_text")
        if on != self.client.text:
            self.client.text = on
            self.client.notify_state()

    async def on_sync(self, msg: dict[str, Any]) -> None:
        self.client.notify_state()

    async def on_act(self, msg: dict[str, Any]) -> None:
        seat, version = self._seat_and_version(msg)
        await self.room.act(seat, version, action_text(msg.get("action")))

    async def on_undo(self, msg: dict[str, Any]) -> None:
        seat, version = self._seat_and_version(msg)
        await self.room.undo(seat, version)

    async def on_preview(self, msg: dict[str, Any]) -> None:
        seat = msg.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.client.seats:
            raise RoomError("a preview is asked for a seat you hold", "forbidden", "preview_seat")
        out = preview(self.room, seat, action_text(msg.get("action")))
        self.client.send({"type": "preview", "seat": seat, "ask": ask_of(msg), **out})

    async def on_hint(self, msg: dict[str, Any]) -> None:
        seat = msg.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise RoomError("say which seat the hint is for (a number)", reason="seat_number")
        out = await hint(self.room, self.client.seats, seat)
        self.client.send({"type": "hint", "seat": seat, "ask": ask_of(msg), **out})

    async def on_deal(self, msg: dict[str, Any]) -> None:
        card = msg.get("card")  # a printed card's number or QR text: the deal follows a physical deck
        if card is not None and (not isinstance(card, str) or not card.strip() or len(card) > 200):
            raise RoomError("a card is its number or the text of its QR code", reason="bad_card_text")
        await _companion.deal(self.room, version_of(msg, "dealing carries the version it was asked on"), card=card)

    async def on_undeal(self, msg: dict[str, Any]) -> None:
        await _companion.deal(self.room, version_of(msg, "dealing carries the version it was asked on"), undo=True)

    def _seat_and_version(self, msg: dict[str, Any]) -> tuple[int, int]:
        seat = seat_number(msg, self.client.seats)
        return seat, version_of(msg)


HANDLERS: dict[str, Callable[[Connection, dict[str, Any]], Awaitable[None]]] = {
    "hello": Connection.on_hello,
    "sync": Connection.on_sync,
    "text": Connection.on_text,
    "act": Connection.on_act,
    "undo": Connection.on_undo,
    "preview": Connection.on_preview,
    "hint": Connection.on_hint,
    "deal": Connection.on_deal,
    "undeal": Connection.on_undeal,
}
"""Message type -> handler: the whole client-to-server protocol in one table."""
