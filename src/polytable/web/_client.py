"""One WebSocket connection: the seats it holds, its outgoing queue and its throttle."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ._base import RoomError, Sender, Settings
from ._views import dumps

log = logging.getLogger("polytable.web")

if TYPE_CHECKING:
    from ._rooms import Room

__all__ = ["Client"]


class Client:
    """One WebSocket connection: the seats it holds, its outgoing queue and its throttle.

    Outgoing messages go through a bounded queue drained by one writer task, so a slow phone never
    blocks a room; state updates are coalesced (only the latest state is worth sending). The queue is a
    deque and one future the writer waits on when it is empty (an ``asyncio.Queue`` cost a loop lookup and
    a future per message; see docs/web.md).
    """

    MAX_QUEUE = 256
    """Messages waiting for a client that does not read; beyond that it is dropped."""

    def __init__(self, sender: Sender, settings: Settings) -> None:
        self.sender = sender
        self.settings = settings
        self.seats: frozenset[int] = frozenset()
        self.text = True
        """Whether this connection shows the game's text rendering (the generic board does; see _views)."""
        self.room: Room | None = None
        self.queue: deque[str | None] = deque()
        self._waiter: asyncio.Future[None] | None = None  # the writer's, while the queue is empty
        self.state_pending = False
        self.tokens = float(settings.burst)
        self.last = time.monotonic()
        self.refused = 0
        self.closed = False
        self.close_with = (1008, "too slow or too many messages")

    def allow(self) -> bool:
        """Token bucket: True if this message is within the rate; counts refusals in a row."""
        now = time.monotonic()
        self.tokens = min(float(self.settings.burst), self.tokens + (now - self.last) * self.settings.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.refused = 0
            return True
        self.refused += 1
        return False

    def send(self, message: Mapping[str, Any]) -> None:
        self._put(dumps(message))

    def notify_state(self) -> None:
        """Ask the writer to send the room's current state (once, however often this is called)."""
        if not self.state_pending:
            self.state_pending = True
            self._put("")

    def _put(self, item: str) -> None:
        if self.closed:
            return
        if len(self.queue) >= self.MAX_QUEUE:  # a client that does not read: drop it rather than hold memory
            self.closed = True
            self.queue.clear()
            self.queue.append(None)
        else:
            self.queue.append(item)
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def writer(self) -> None:
        """Drain the queue until the connection closes ('' means: the current state)."""
        queue = self.queue
        send = self.sender.send_text
        while True:
            if not queue:
                self._waiter = asyncio.get_running_loop().create_future()
                await self._waiter
                continue
            item = queue.popleft()
            if item is None:
                break
            if item == "":
                self.state_pending = False
                room = self.room
                if room is None:
                    continue
                if room.committing:  # the room holds a change not yet on disk: sent once it is (or is undone)
                    room.waiting.add(self)
                    continue
                try:
                    item = room.state_text(self)
                except Exception:  # a bug must not silence this connection: say so and keep serving it
                    log.exception("the state of room %s could not be built", room.code)
                    exc = RoomError("the server could not show this room's state", "internal", "internal")
                    item = dumps({"type": "error", **exc.payload()})
            try:
                await send(item)
            except Exception:  # the socket went away; the reader notices and cleans up
                break
        if self.closed:
            with contextlib.suppress(Exception):
                await self.sender.close(*self.close_with)

    def stop(self, code: int = 1008, reason: str = "too slow or too many messages") -> None:
        """Close the connection once what is queued has gone, with a close code that says why (the first
        reason given wins)."""
        if not self.closed:
            self.close_with = (code, reason)
        self.closed = True
        self.queue.append(None)
        self._wake()
