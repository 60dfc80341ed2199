"""Room affinity for ``serve --workers N``: each room is played in one process.

With several processes on one port the kernel hands each new connection to any of them, so the sockets of
one room were spread over all: every process committed that room's moves through its own group-commit
pipeline (more, emptier commits) and heard of every move through the pub/sub. Here each room has an owner:

* Each worker claims an index ``0 .. N-1`` by locking a file in a runtime folder the supervisor
  (``serve``) made for this run (``POLYTABLE_SERVE_RUNTIME``); a worker that dies frees its lock with it,
  and its replacement takes the free index. A room's owner is its code's CRC-32 modulo N
  (:func:`owner_of`). A worker making a room draws a code it owns itself, unless another worker plays
  clearly fewer room sockets (each publishes its count every second in a shared file of the folder): then
  one that worker owns, so the rooms stay spread over the processes even where their creations are not (a
  client or proxy sending every request over one kept-alive connection reaches one worker only).
* The worker's event loop (uvicorn's ``loop`` setting, :func:`new_event_loop`) accepts the connections of
  the shared listening socket itself. It peeks at the request line (``MSG_PEEK``: nothing is read, so
  uvicorn later sees the request whole); a room's socket (``GET /ws/CODE``) that arrived at another worker
  than its owner is handed to the owner over a Unix datagram socket (``SCM_RIGHTS``), and the owner feeds it
  to its own uvicorn protocol (``loop.connect_accepted_socket``). Every other connection is served where it
  arrived, as uvicorn would.

Affinity is an optimisation only: when the owner is gone (killed, restarting, not yet listening), its queue
is full, the request line is not there yet or is not a room's socket, or TLS is on (nothing to peek), the
receiving worker serves the connection itself exactly as before, and the pub/sub keeps rooms shared between
the processes. Measured in docs/benchmarks/2026-12-05-workers-affinity.md.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import fcntl
import logging
import mmap
import os
import socket
import struct
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ._base import CODE_ALPHABET, new_code

__all__ = ["RUNTIME_ENV", "WORKERS_ENV", "Worker", "current", "new_event_loop", "owner_of", "room_of_request"]

log = logging.getLogger("polytable.web")

RUNTIME_ENV = "POLYTABLE_SERVE_RUNTIME"
"""The folder of this run's worker locks and hand-over sockets (made by ``serve --workers N``)."""
WORKERS_ENV = "POLYTABLE_SERVE_WORKERS"
"""How many workers share the port (N)."""

PEEK_BYTES = 512
"""How much of a new connection's first bytes is looked at: a room socket's request line is far shorter."""
PEEK_WAIT = 1.0
"""Seconds a new connection may take to send its request line before it is served where it arrived."""
PUBLISH_EVERY = 1.0
"""Seconds between two counts of a worker's room sockets on the load board."""
_SLOT = struct.Struct("qd")  # room sockets, and when they were counted (the system's monotonic clock)

_current: Worker | None = None


def current() -> Worker | None:
    """This process's worker (None outside ``serve --workers N``)."""
    return _current


def owner_of(code: str, workers: int) -> int:
    """The index of the worker that plays room ``code`` (the same in every process)."""
    return zlib.crc32(code.encode("ascii", "replace")) % workers


def room_of_request(head: bytes) -> str | None:
    """The room code of a room socket's request line (``GET /ws/CODE HTTP/1.1``), or None for anything
    else, including a line not complete yet."""
    line, sep, _ = head.partition(b"\r\n")
    if not sep:
        return None
    parts = line.split(b" ")
    if len(parts) != 3 or parts[0] != b"GET" or not parts[1].startswith(b"/ws/"):
        return None
    raw = parts[1][4:].split(b"?", 1)[0]
    try:
        code = raw.decode("ascii").upper()
    except UnicodeDecodeError:
        return None
    if not code or len(code) > 16 or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


class Worker:
    """One process of ``serve --workers N``: its index (once claimed), the hand-over sockets and counts."""

    def __init__(self, folder: Path, workers: int) -> None:
        self.folder = folder
        self.workers = workers
        self.index: int | None = None
        self._lock: int | None = None
        self._out = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._out.setblocking(False)
        self.load: Callable[[], int] = lambda: 0
        """This worker's room sockets (the app sets it to its hub's count)."""
        self._board: mmap.mmap | None = None
        self._given = [0] * workers  # rooms this worker gave each owner since it last read the board
        self.counts = {"handed": 0, "received": 0, "kept": 0}
        """Room sockets handed to their owner, received from another worker, and kept here although another
        worker owns them (the owner was gone or refused); for ``/metrics``."""

    @classmethod
    def from_env(cls) -> Worker | None:
        """This process's worker if ``serve --workers N`` started it (None otherwise), with an index claimed
        if one is free; it becomes :func:`current`."""
        global _current
        folder, workers = os.environ.get(RUNTIME_ENV, ""), os.environ.get(WORKERS_ENV, "")
        if not folder or not workers.isdigit() or int(workers) < 2 or not os.path.isdir(folder):
            return None
        worker = cls(Path(folder), int(workers))
        worker.claim()
        _current = worker
        return worker

    def claim(self) -> bool:
        """Take the first free index (its lock file); False if every index is held."""
        if self.index is not None:
            return True
        for i in range(self.workers):
            try:
                fd = os.open(self.folder / f"worker-{i}.lock", os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                return False
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            self.index, self._lock = i, fd
            return True
        return False

    def owns(self, code: str) -> bool:
        return self.index is not None and owner_of(code, self.workers) == self.index

    def new_code(self) -> str:
        """A fresh room code for a room made here: one this worker owns, or one of a worker playing clearly
        fewer room sockets (:meth:`pick_owner`); any code while this worker has no index."""
        if self.index is None:
            return new_code()
        owner = self.pick_owner()
        self._given[owner] += 1
        for _ in range(16 * self.workers):
            code = new_code()
            if owner_of(code, self.workers) == owner:
                return code
        return new_code()

    def pick_owner(self) -> int:
        """This worker, unless a live worker (counted within the last 3 s) plays fewer room sockets by more
        than a tenth of this one's and 4 (rooms given it meanwhile counted as two sockets each)."""
        own = self.index if self.index is not None else 0
        board = self._open_board()
        if board is None:
            return own
        now = time.monotonic()
        loads: dict[int, int] = {}
        for i in range(self.workers):
            count, when = _SLOT.unpack_from(board, i * _SLOT.size)
            if i == own or now - when < 3 * PUBLISH_EVERY:
                loads[i] = count + 2 * self._given[i]
        least = min(loads, key=lambda i: (loads[i], i != own))
        return least if loads[least] + max(4, loads[own] // 10) < loads[own] else own

    def publish(self) -> None:
        """Put this worker's count of room sockets on the board (every :data:`PUBLISH_EVERY` seconds)."""
        board = self._open_board()
        if board is not None and self.index is not None:
            _SLOT.pack_into(board, self.index * _SLOT.size, self.load(), time.monotonic())
            self._given = [0] * self.workers

    def _open_board(self) -> mmap.mmap | None:
        """The load board: a slot per worker in a file of the runtime folder, mapped shared."""
        if self._board is None:
            size = self.workers * _SLOT.size
            try:
                fd = os.open(self.folder / "load", os.O_RDWR | os.O_CREAT, 0o600)
                try:
                    if os.fstat(fd).st_size < size:
                        os.ftruncate(fd, size)
                    self._board = mmap.mmap(fd, size)
                finally:
                    os.close(fd)
            except (OSError, ValueError):
                return None
        return self._board

    def inbox(self, index: int) -> str:
        return str(self.folder / f"worker-{index}.sock")

    def hand_over(self, conn: socket.socket, owner: int) -> bool:
        """Send an accepted connection to worker ``owner``; False (and nothing sent) if it cannot take it."""
        try:
            # sendmsg itself: socket.send_fds ignores the address before Python 3.12
            fds = array.array("i", [conn.fileno()])
            self._out.sendmsg([b"c"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)], 0, self.inbox(owner))
        except OSError:  # gone (refused, no such file), busy (its queue is full), or anything else
            return False
        return True

    def serve(
        self,
        loop: asyncio.AbstractEventLoop,
        factory: Callable[[], asyncio.Protocol],
        listener: socket.socket,
        backlog: int = 100,
    ) -> Acceptor:
        """Accept ``listener``'s connections (bound, perhaps not listening yet) for ``factory``'s protocol."""
        return Acceptor(self, loop, factory, listener, backlog)

    def close(self) -> None:
        """Stop handing over, and free the index (as the process's exit would) for a replacement."""
        self._out.close()
        if self._board is not None:
            self._board.close()
            self._board = None
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None


class Acceptor:
    """What ``create_server`` returns in a worker: it accepts the listening socket's connections, routes
    them by room, and takes in the ones other workers hand over (``close`` and ``wait_closed`` as
    asyncio's servers have)."""

    def __init__(
        self,
        worker: Worker,
        loop: asyncio.AbstractEventLoop,
        factory: Callable[[], asyncio.Protocol],
        listener: socket.socket,
        backlog: int = 100,
    ) -> None:
        self.worker = worker
        self.loop = loop
        self.factory = factory
        self.listener = listener
        self.sockets = [listener]
        self._inbox: socket.socket | None = None
        self._waiting: dict[int, tuple[socket.socket, asyncio.TimerHandle]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._retry: asyncio.TimerHandle | None = None
        self._publish: asyncio.TimerHandle | None = None
        self._closed = False
        listener.listen(backlog)  # as the loop's own create_server does (uvicorn only binds it)
        listener.setblocking(False)
        loop.add_reader(listener.fileno(), self._accept)
        self._open_inbox()

    # -- taking connections handed over by the other workers

    def _open_inbox(self) -> None:
        """Listen for handed-over connections once this worker has an index (retried until it has one: a
        worker started while all indexes were held, as when one is replaced, gets the next one freed)."""
        self._retry = None
        if self._closed:
            return
        if not self.worker.claim():
            self._retry = self.loop.call_later(1.0, self._open_inbox)
            return
        path = self.worker.inbox(self.worker.index or 0)
        inbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)  # the last holder's, dead: this worker holds the index's lock now
            inbox.bind(path)
            inbox.setblocking(False)
        except OSError as exc:  # a path too long, a folder gone: connections are served where they arrive
            inbox.close()
            log.warning("worker %s cannot take connections from the others: %s", self.worker.index, exc)
            return
        self._inbox = inbox
        self.loop.add_reader(inbox.fileno(), self._receive)
        self._count()

    def _count(self) -> None:
        self.worker.publish()
        self._publish = self.loop.call_later(PUBLISH_EVERY, self._count)

    def _receive(self) -> None:
        inbox = self._inbox
        if inbox is None:
            return
        for _ in range(64):
            try:
                _, fds, _, _ = socket.recv_fds(inbox, 16, 8)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                log.warning("taking a connection from another worker failed: %s", exc)
                return
            for fd in fds:
                try:
                    conn = socket.socket(fileno=fd)
                    conn.setblocking(False)
                except OSError:
                    os.close(fd)
                    continue
                self.worker.counts["received"] += 1
                self._serve_here(conn)

    # -- accepting, peeking and routing

    def _accept(self) -> None:
        for _ in range(32):
            try:
                conn, _ = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:  # out of file descriptors, say: pause rather than spin
                log.warning("accepting a connection failed: %s", exc)
                self.loop.remove_reader(self.listener.fileno())
                self.loop.call_later(0.1, self._resume_accepting)
                return
            conn.setblocking(False)
            self._peek(conn, last=False)

    def _resume_accepting(self) -> None:
        if not self._closed:
            self.loop.add_reader(self.listener.fileno(), self._accept)

    def _peek(self, conn: socket.socket, last: bool) -> None:
        try:
            head = conn.recv(PEEK_BYTES, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            if not last:  # nothing sent yet: wait for the request line, a little
                fd = conn.fileno()
                self._waiting[fd] = (conn, self.loop.call_later(PEEK_WAIT, self._ready, fd))
                self.loop.add_reader(fd, self._ready, fd)
                return
            head = b""
        except OSError:
            head = b""  # reset already: uvicorn sees it as it would have
        self._route(conn, head)

    def _ready(self, fd: int) -> None:
        entry = self._waiting.pop(fd, None)
        if entry is None:
            return
        conn, timer = entry
        timer.cancel()
        self.loop.remove_reader(fd)
        self._peek(conn, last=True)

    def _route(self, conn: socket.socket, head: bytes) -> None:
        worker = self.worker
        code = room_of_request(head)
        if code is not None:
            owner = owner_of(code, worker.workers)
            if owner != worker.index:
                if worker.hand_over(conn, owner):
                    worker.counts["handed"] += 1
                    conn.close()  # the owner holds it now
                    return
                worker.counts["kept"] += 1
        self._serve_here(conn)

    def _serve_here(self, conn: socket.socket) -> None:
        """Give the connection to this process's uvicorn protocol, as its own server would have."""
        task = self.loop.create_task(self._connect(conn))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _connect(self, conn: socket.socket) -> None:
        try:
            await self.loop.connect_accepted_socket(self.factory, conn)
        except Exception as exc:  # the client went away meanwhile, or the process is out of descriptors
            log.debug("a connection could not be served: %s", exc)
            conn.close()

    # -- as asyncio's Server

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for timer in (self._retry, self._publish):
            if timer is not None:
                timer.cancel()
        with contextlib.suppress(OSError, ValueError):
            self.loop.remove_reader(self.listener.fileno())
        for fd, (conn, timer) in list(self._waiting.items()):
            timer.cancel()
            self.loop.remove_reader(fd)
            conn.close()
        self._waiting.clear()
        if self._inbox is not None:
            self.loop.remove_reader(self._inbox.fileno())
            self._inbox.close()
            self._inbox = None
            with contextlib.suppress(OSError):
                os.unlink(self.worker.inbox(self.worker.index or 0))
        self.worker.close()

    async def wait_closed(self) -> None:
        return None

    def is_serving(self) -> bool:
        return not self._closed


class _AffinityLoop:
    """An event loop whose ``create_server`` on a listening socket passed in (uvicorn's worker, plain TCP)
    accepts through this process's :class:`Worker`; anything else is the loop's own."""

    async def create_server(self, protocol_factory: Callable[[], asyncio.Protocol], *args: Any, **kwargs: Any) -> Any:
        worker = current()
        sock = kwargs.get("sock")
        if (
            worker is not None
            and not args
            and isinstance(sock, socket.socket)
            and kwargs.get("ssl") is None
            and sock.family in (socket.AF_INET, socket.AF_INET6)
            and sock.type == socket.SOCK_STREAM
        ):
            return worker.serve(self, protocol_factory, sock, kwargs.get("backlog") or 100)  # type: ignore[arg-type]
        return await super().create_server(protocol_factory, *args, **kwargs)  # type: ignore[misc]


class _AsyncioAffinityLoop(_AffinityLoop, asyncio.SelectorEventLoop):  # type: ignore[misc]
    pass


_UvAffinityLoop: type[asyncio.AbstractEventLoop] | None
try:
    import uvloop

    class _UvLoop(_AffinityLoop, uvloop.Loop):  # type: ignore[misc]
        pass

    _UvAffinityLoop = _UvLoop
except ImportError:  # pragma: no cover - uvloop comes with uvicorn[standard]
    _UvAffinityLoop = None


def new_event_loop() -> asyncio.AbstractEventLoop:
    """The event loop of a ``serve --workers N`` process (uvicorn's ``loop`` setting): uvloop where it is
    installed (what uvicorn's ``auto`` picks), asyncio's otherwise, accepting through :class:`Worker`."""
    return _UvAffinityLoop() if _UvAffinityLoop is not None else _AsyncioAffinityLoop()
