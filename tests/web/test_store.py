"""The rooms' database thread: group commit, failures handed back to the waiting writes, reads, closing."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from polytable.storage import StorageError
from polytable.web._store import RoomStore


class _SlowStorage:
    """A storage whose first batch waits until the test lets it go; it records every batch and thread."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.batches: list[list[tuple[str, tuple[Any, ...]]]] = []
        self.threads: set[str] = set()
        self.fail_next: BaseException | None = None

    def batch(self, ops: list[tuple[str, tuple[Any, ...]]]) -> list[StorageError | None]:
        self.threads.add(threading.current_thread().name)
        if not self.batches:
            self.release.wait(5)
        self.batches.append(list(ops))
        if self.fail_next is not None:
            exc, self.fail_next = self.fail_next, None
            raise exc
        return [StorageError("taken") if op == "bad" else None for op, _ in ops]

    def load_room(self, code: str, since: int = 0) -> Any:
        self.threads.add(threading.current_thread().name)
        if code == "boom":
            raise StorageError("unreadable")
        return (code, since)


def test_writes_during_a_commit_go_together_in_the_next_one_and_fail_alone() -> None:
    storage = _SlowStorage()
    store = RoomStore(storage)  # type: ignore[arg-type]

    async def run() -> list[BaseException | None]:
        first = asyncio.ensure_future(store.write("a", 1))
        await asyncio.sleep(0.05)  # the first batch is on the database thread, held
        later = [asyncio.ensure_future(store.write(op, n)) for n, op in enumerate(("b", "bad", "c"))]
        await asyncio.sleep(0.05)
        storage.release.set()
        return await asyncio.gather(first, *later, return_exceptions=True)

    results = asyncio.run(run())
    store.close()
    assert [[op for op, _ in b] for b in storage.batches] == [["a"], ["b", "bad", "c"]]
    assert results[0] is None and results[1] is None and results[3] is None
    assert isinstance(results[2], StorageError)
    assert storage.threads == {"polytable-db"}


def test_a_failed_batch_fails_each_of_its_writes_with_a_storage_error_and_the_store_goes_on() -> None:
    storage = _SlowStorage()
    storage.release.set()
    storage.fail_next = RuntimeError("the disk is gone")
    store = RoomStore(storage)  # type: ignore[arg-type]

    async def run() -> None:
        with pytest.raises(StorageError, match="the disk is gone"):
            await store.write("a", 1)
        await store.write("b", 2)  # the next batch is committed as usual

    asyncio.run(run())
    store.close()
    assert [[op for op, _ in b] for b in storage.batches] == [["a"], ["b"]]


def test_reads_answer_or_raise_on_the_database_thread_and_close_ends_it() -> None:
    storage = _SlowStorage()
    store = RoomStore(storage)  # type: ignore[arg-type]

    async def run() -> Any:
        with pytest.raises(StorageError, match="unreadable"):
            await store.read(storage.load_room, "boom")
        return await store.load("ABCDE", 3)

    assert asyncio.run(run()) == ("ABCDE", 3)
    thread = store._thread
    assert thread is not None and thread.is_alive()
    store.close()
    assert not thread.is_alive()
    assert storage.threads == {"polytable-db"}
