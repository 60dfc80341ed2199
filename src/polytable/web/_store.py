"""The rooms' way to the database: reads and group-committed writes on one database thread.

Why apart from the hub: a :class:`~polytable.web.Room` is given this object (and a broadcaster) when it
is made, as boardgame.io's Master is given its storage and transport, so a room never reaches up into
the server that holds it and can be tested with any storage.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..storage import RoomRecord, Storage, StorageError

__all__ = ["RoomStore"]

log = logging.getLogger("polytable.web")


class RoomStore:
    """A :class:`~polytable.storage.Storage` seen from the event loop: never blocks it."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="polytable-db")
        self._pending: list[tuple[str, tuple[Any, ...], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def read(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a storage read on the database thread."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    async def load(self, code: str, since: int = 0) -> RoomRecord | None:
        """The room as stored now (the database is the truth after a failed or lost write), its log from
        position ``since`` on."""
        record: RoomRecord | None = await self.read(self.storage.load_room, code, since)
        return record

    async def write(self, op: str, *args: Any) -> None:
        """Commit one write (a Storage method name and its arguments); returns once it is on disk.

        Group commit: writes that arrive while a transaction is being committed wait and then go to the
        disk together in the next one, so a busy server pays one sync for many rooms' moves instead of
        one each. Raises StorageError if this write failed (the others are unaffected).
        """
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((op, args, fut))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_loop())
        await fut

    async def _write_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                results = await loop.run_in_executor(self.pool, self.storage.batch, [(op, a) for op, a, _ in batch])
            except Exception as exc:
                results = [exc if isinstance(exc, StorageError) else StorageError(str(exc))] * len(batch)
            for (_, _, fut), res in zip(batch, results, strict=True):
                if fut.done():
                    continue
                if res is None:
                    fut.set_result(None)
                else:
                    fut.set_exception(res)

    def close(self) -> None:
        self.pool.shutdown(wait=True)
