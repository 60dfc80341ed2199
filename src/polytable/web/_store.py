"""The rooms' way to the database: reads and group-committed writes on one database thread.

Why apart from the hub: a :class:`~polytable.web.Room` is given this object (and a broadcaster) when it
is made, as boardgame.io's Master is given its storage and transport, so a room never reaches up into
the server that holds it and can be tested with any storage.

The database thread is one plain thread fed by a queue and answering through the event loop's
``call_soon_threadsafe``: a round trip through it costs about half of a ``run_in_executor`` one (no
concurrent future wrapped in an asyncio one), and a group commit needs no task of its own (see
docs/web.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from ..storage import RoomRecord, Storage, StorageError

__all__ = ["RoomStore"]

log = logging.getLogger("polytable.web")

_Job = tuple[Callable[..., Any], tuple[Any, ...], Callable[[Any, BaseException | None], None]]


class RoomStore:
    """A :class:`~polytable.storage.Storage` seen from the event loop: never blocks it."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._pending: list[tuple[str, tuple[Any, ...], asyncio.Future[None]]] = []
        self._committing = False  # a group commit is on the database thread

    # ------------------------------------------------------------------ the database thread
    def _submit(
        self, fn: Callable[..., Any], args: tuple[Any, ...], done: Callable[[Any, BaseException | None], None]
    ) -> None:
        """Run ``fn(*args)`` on the database thread; ``done(result, error)`` is then called on the event loop."""
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._serve, name="polytable-db", daemon=True)
            self._thread.start()
        loop = asyncio.get_running_loop()

        def answer(result: Any, error: BaseException | None) -> None:
            with contextlib.suppress(RuntimeError):  # the loop was closed meanwhile: nobody waits any more
                loop.call_soon_threadsafe(done, result, error)

        self._jobs.put((fn, args, answer))

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            fn, args, answer = job
            try:
                result = fn(*args)
            except BaseException as exc:  # handed to the caller on the event loop
                answer(None, exc)
            else:
                answer(result, None)

    # ------------------------------------------------------------------ reads
    async def read(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a storage read on the database thread."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        def done(result: Any, error: BaseException | None) -> None:
            if fut.done():
                return
            if error is None:
                fut.set_result(result)
            else:
                fut.set_exception(error)

        self._submit(fn, args, done)
        return await fut

    async def load(self, code: str, since: int = 0) -> RoomRecord | None:
        """The room as stored now (the database is the truth after a failed or lost write), its log from
        position ``since`` on."""
        record: RoomRecord | None = await self.read(self.storage.load_room, code, since)
        return record

    # ------------------------------------------------------------------ writes
    async def write(self, op: str, *args: Any) -> None:
        """Commit one write (a Storage method name and its arguments); returns once it is on disk.

        Group commit: writes that arrive while a transaction is being committed wait and then go to the
        disk together in the next one, so a busy server pays one sync for many rooms' moves instead of
        one each. With none in flight, the batch leaves once the loop has run what it has ready, not at
        the first write: the moves of every socket read in the same wake-up go in one commit (sent at
        once, the first went alone and the rest waited a whole commit for the next one).
        Raises StorageError if this write failed (the others are unaffected).
        """
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._pending.append((op, args, fut))
        if not self._committing:
            self._committing = True  # the batch leaves at the end of this turn of the loop (see above)
            loop.call_soon(self._commit_pending)
        await fut

    def _commit_pending(self) -> None:
        """Send the waiting writes to the database thread as one batch (none is in flight)."""
        batch, self._pending = self._pending, []
        self._committing = True

        def done(results: Any, error: BaseException | None) -> None:
            if error is not None:
                failure = error if isinstance(error, StorageError) else StorageError(str(error))
                results = [failure] * len(batch)
            try:
                for (_, _, fut), res in zip(batch, results, strict=True):
                    if fut.done():
                        continue
                    if res is None:
                        fut.set_result(None)
                    else:
                        fut.set_exception(res)
            finally:
                self._committing = False
                if self._pending:
                    self._commit_pending()

        self._submit(self.storage.batch, ([(op, a) for op, a, _ in batch],), done)

    def close(self) -> None:
        thread = self._thread
        if thread is not None and thread.is_alive():
            self._jobs.put(None)
            thread.join()
        self._thread = None
