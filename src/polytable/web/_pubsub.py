"""Room changes between server processes through Redis pub/sub (``polytable serve --pubsub redis://...``).

Each process publishes ``{"c": code, "v": version, "o": origin}`` on one channel after every committed
change; the others reload that room from the database if they hold it and tell their own connections.
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
import secrets
from typing import TYPE_CHECKING, Any

from ._bus import LocalBroadcaster, Missed, RemoteChange

if TYPE_CHECKING:
    from ._rooms import Room

__all__ = ["RedisBroadcaster", "redact_redis_url"]

log = logging.getLogger("polytable.web")


def redact_redis_url(url: str) -> str:
    """The Redis URL as it may be logged: any password replaced by ``***``."""
    head, sep, tail = url.rpartition("@")
    if not sep:
        return url
    scheme, _, creds = head.partition("://")
    user = creds.split(":", 1)[0] if ":" in creds else ""
    return f"{scheme}://{user}:***@{tail}"


class RedisBroadcaster(LocalBroadcaster):
    """Local delivery plus a Redis channel shared by every process serving the same database."""

    name = "redis"

    def __init__(self, url: str, channel: str = "polytable:rooms") -> None:
        self.url = url
        self.channel = channel
        self.origin = secrets.token_hex(8)
        self.redis: Any = None
        self._listener: asyncio.Task[None] | None = None
        self._sends: set[asyncio.Task[Any]] = set()
        self._unsent: dict[str, str] = {}  # room code -> its latest change that could not be published
        self._retry: asyncio.Task[None] | None = None
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
                    log.info("pub/sub at %s is back; reloading the rooms held here", redact_redis_url(self.url))
                    await self._flush()
                    if on_missed is not None:
                        on_missed()
                async for msg in pubsub.listen():
                    self._deliver(msg, on_remote)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                lost = True
                log.warning("pub/sub at %s failed (%s); retrying in %.1f s", redact_redis_url(self.url), exc, delay)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    def _deliver(self, msg: Any, on_remote: RemoteChange) -> None:
        if not isinstance(msg, dict) or msg.get("type") != "message":
            return
        try:
            data = json.loads(msg["data"])
            code, version, origin = str(data["c"]), int(data["v"]), data.get("o")
        except (ValueError, KeyError, TypeError):
            log.warning("a pub/sub message was not understood and is ignored")
            return
        if origin == self.origin:
            return
        self.received += 1
        on_remote(code, version)

    def changed(self, room: Room, remote: bool = True) -> None:
        super().changed(room, remote)
        if remote and self.redis is not None:
            payload = json.dumps({"c": room.code, "v": room.version, "o": self.origin}, separators=(",", ":"))
            task = asyncio.get_running_loop().create_task(self._publish(room.code, payload))
            self._sends.add(task)
            task.add_done_callback(self._sends.discard)

    async def _publish(self, code: str, payload: str, flush: bool = True) -> bool:
        try:
            await self.redis.publish(self.channel, payload)
        except Exception as exc:  # kept, and published again once Redis answers (see _flush)
            self._unsent[code] = payload
            log.warning("a room change could not be published to %s: %s", redact_redis_url(self.url), exc)
            if self._retry is None or self._retry.done():
                self._retry = asyncio.get_running_loop().create_task(self._retry_unsent())
            return False
        self.published += 1
        if self._unsent.get(code) is not None and self._unsent[code] != payload:
            del self._unsent[code]  # a later change of the room went out: the older one is not needed
        if flush and self._unsent:
            await self._flush()
        return True

    async def _retry_unsent(self) -> None:
        """Publish the unsent changes again, with backoff, until none is left."""
        delay = 0.2
        while self._unsent:
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
            await self._flush()

    async def _flush(self) -> None:
        """Publish again the changes that could not be published (the latest of each room)."""
        for code, payload in list(self._unsent.items()):
            if self._unsent.get(code) == payload:
                del self._unsent[code]
                if not await self._publish(code, payload, flush=False):
                    return

    async def ready(self) -> bool:
        if self.redis is None:
            return False
        try:
            return bool(await self.redis.ping())
        except Exception:
            return False

    async def close(self) -> None:
        for task in (self._listener, self._retry):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        for task in list(self._sends):
            with contextlib.suppress(BaseException):
                await task
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()
