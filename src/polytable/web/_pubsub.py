"""Room changes between server processes through Redis pub/sub (``polytable serve --pubsub redis://...``).

Each process publishes ``{"o": origin, "r": [[code, version], ...]}`` on one channel after committed
changes (the rooms changed since its last message, so a busy process sends one message per round trip, not
one per move); the others reload those rooms from the database if they hold them and tell their own
connections.
Nothing else travels: the database stays the only truth and its unique key the only arbiter between two
writers (see :class:`~polytable.web.Room`), so a lost or late message delays a screen, never corrupts a game.
If Redis goes away the listener reconnects with backoff; meanwhile each process still serves its own
connections and a stale room is reloaded at its next write. When Redis is back, each process reloads the
rooms it holds from the database (the changes it may have missed) and publishes again the changes it
could not announce, so every client converges without waiting for the next move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
from typing import TYPE_CHECKING, Any

from ..core import loads_bounded
from ..storage import redact_url
from ._bus import LocalBroadcaster, Missed, RemoteChange

if TYPE_CHECKING:
    from ._rooms import Room

__all__ = ["RedisBroadcaster"]

log = logging.getLogger("polytable.web")

_MAX_RETRY = 1.0
"""Longest wait between attempts to reach Redis: every room moves again within about a second of its return
(a longer backoff kept rooms waiting seconds after Redis was back; see the chaos suite in docs/web.md)."""
_PER_MESSAGE = 500
"""Room changes per pub/sub message at most (a few kilobytes)."""


class RedisBroadcaster(LocalBroadcaster):
    """Local delivery plus a Redis channel shared by every process serving the same database."""

    name = "redis"

    def __init__(self, url: str, channel: str = "polytable:rooms") -> None:
        self.url = url
        self.channel = channel
        self.origin = secrets.token_hex(8)
        self._own = b'{"o":"' + self.origin.encode() + b'"'  # how this process's messages begin (see _send)
        self.redis: Any = None
        self._listener: asyncio.Task[None] | None = None
        self._outbox: dict[str, int] = {}  # room code -> its latest version not yet published
        self._sender: asyncio.Task[None] | None = None
        self.published = 0
        self.received = 0

    async def start(self, on_remote: RemoteChange, on_missed: Missed | None = None) -> None:
        from redis.asyncio import Redis

        self.redis = Redis.from_url(self.url)
        ready = asyncio.get_running_loop().create_future()
        self._listener = asyncio.get_running_loop().create_task(self._listen(on_remote, on_missed, ready))
        await asyncio.wait([ready], timeout=2.0)  # subscribed before the first change is made

    async def _listen(self, on_remote: RemoteChange, on_missed: Missed | None, ready: asyncio.Future[None]) -> None:
        delay = 0.2
        lost = False  # a failure since the last subscription: changes may have gone unheard meanwhile
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                if not ready.done():
                    ready.set_result(None)
                delay = 0.2
                if lost:
                    lost = False
                    log.info("pub/sub at %s is back; reloading the rooms held here", redact_url(self.url))
                    if self._outbox and (self._sender is None or self._sender.done()):
                        self._sender = asyncio.get_running_loop().create_task(self._send())
                    if on_missed is not None:
                        on_missed()
                async for msg in pubsub.listen():
                    self._deliver(msg, on_remote)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                lost = True
                log.warning("pub/sub at %s failed (%s); retrying in %.1f s", redact_url(self.url), exc, delay)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(delay * (0.5 + random.random() / 2))  # jitter: processes do not retry in step
            delay = min(delay * 2, _MAX_RETRY)

    def _deliver(self, msg: Any, on_remote: RemoteChange) -> None:
        if not isinstance(msg, dict) or msg.get("type") != "message":
            return
        raw: Any = msg.get("data")
        if isinstance(raw, bytes) and raw.startswith(self._own):  # Redis hands a process its own messages too
            return
        try:
            data = loads_bounded(raw)
            origin = data.get("o")
            if "r" in data:
                changes = [(str(code), int(version)) for code, version in data["r"]]
            else:  # one change a message, as processes of earlier versions send them
                changes = [(str(data["c"]), int(data["v"]))]
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("a pub/sub message was not understood and is ignored")
            return
        if origin == self.origin:
            return
        self.received += 1
        for code, version in changes:
            on_remote(code, version)

    def changed(self, room: Room, remote: bool = True) -> None:
        super().changed(room, remote)
        if remote and self.redis is not None:
            self._outbox[room.code] = room.version  # the latest change of each room is what counts
            if self._sender is None or self._sender.done():
                self._sender = asyncio.get_running_loop().create_task(self._send())

    async def _send(self) -> None:
        """Publish the outbox: the rooms changed since the last message go together in one message, so a
        busy process sends one message per round trip to Redis rather than one per move (and the others
        parse one). A message that fails is kept (newer changes of the same rooms win) and sent again
        with backoff until Redis answers."""
        delay = 0.2
        while self._outbox:
            batch, self._outbox = self._outbox, {}
            changes = list(batch.items())
            try:
                for i in range(0, len(changes), _PER_MESSAGE):
                    payload = {"o": self.origin, "r": changes[i : i + _PER_MESSAGE]}
                    await self.redis.publish(self.channel, json.dumps(payload, separators=(",", ":")))
                    self.published += 1
            except Exception as exc:
                for code, version in changes:
                    self._outbox.setdefault(code, version)
                log.warning("room changes could not be published to %s: %s", redact_url(self.url), exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, _MAX_RETRY)
                continue
            delay = 0.2

    async def ready(self) -> bool:
        if self.redis is None:
            return False
        try:
            return bool(await self.redis.ping())
        except Exception:
            return False

    async def close(self) -> None:
        if self._sender is not None and not self._sender.done():  # the last changes go out if Redis answers
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(self._sender), timeout=2.0)
        for task in (self._listener, self._sender):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()
