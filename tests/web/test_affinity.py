"""Room affinity of ``serve --workers N`` (web/_affinity.py): a room's socket reaching a worker that does not
own the room is handed to the owner, which serves it with the request untouched; when the owner is gone the
receiving worker serves it itself. Two workers in one process here, each with its own protocol, so which one
served a connection is seen directly."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, cast

import pytest

from polytable.web._affinity import Worker, _UvAffinityLoop, new_event_loop, owner_of, room_of_request
from polytable.web._base import new_code

LOOPS = ["asyncio", pytest.param("uvloop", marks=pytest.mark.skipif(_UvAffinityLoop is None, reason="no uvloop"))]


def _run(kind: str, main: Coroutine[Any, Any, None]) -> None:
    """On asyncio's loop, or on the workers' own (uvloop's, accepting through the worker)."""
    factory = new_event_loop if kind == "uvloop" else asyncio.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(main)


def _code_of(owner: int, workers: int = 2) -> str:
    while True:
        code = new_code()
        if owner_of(code, workers) == owner:
            return code


class _Echo(asyncio.Protocol):
    """Answers the first bytes it is given, prefixed with the name of the worker that served it."""

    def __init__(self, name: str, served: list[str]) -> None:
        self.name, self.served = name, served

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass of asyncio's
        self.served.append(self.name)

    def data_received(self, data: bytes) -> None:
        self.transport.write(self.name.encode() + b":" + data)
        self.transport.close()


def _listener() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    return sock


async def _ask(port: int, request: bytes, delay: float = 0.0) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    if delay:
        await asyncio.sleep(delay)  # connected, nothing sent yet: the worker waits for the request line
    writer.write(request)
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    return answer


def _ws(code: str) -> bytes:
    return f"GET /ws/{code} HTTP/1.1\r\nHost: table\r\nUpgrade: websocket\r\n\r\n".encode()


def test_room_of_request() -> None:
    assert room_of_request(b"GET /ws/ABCDE HTTP/1.1\r\nHost: x\r\n") == "ABCDE"
    assert room_of_request(b"GET /ws/abcde?x=1 HTTP/1.1\r\n") == "ABCDE"
    assert room_of_request(b"GET /ws/ABCDE HTTP/1.1") is None  # the line is not complete yet
    assert room_of_request(b"GET /api/rooms/ABCDE HTTP/1.1\r\n") is None
    assert room_of_request(b"POST /ws/ABCDE HTTP/1.1\r\n") is None
    assert room_of_request(b"GET /ws/AB0DE HTTP/1.1\r\n") is None  # not a code's letter
    assert room_of_request(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03") is None  # a TLS hello


def test_codes_are_drawn_for_their_worker(tmp_path: Path) -> None:
    workers = [Worker(tmp_path, 3) for _ in range(3)]
    for w in workers:
        assert w.claim()
    assert sorted(w.index for w in workers if w.index is not None) == [0, 1, 2]
    extra = Worker(tmp_path, 3)
    assert not extra.claim() and extra.index is None  # every index held
    for w in workers:
        assert all(w.owns(w.new_code()) for _ in range(50))
    assert len(extra.new_code()) == 5
    for w in workers:
        w.close()
    extra.close()


@pytest.mark.parametrize("loop", LOOPS)
def test_a_room_socket_reaching_another_worker_is_served_by_the_owner(tmp_path: Path, loop: str) -> None:
    async def run() -> None:
        ev = asyncio.get_running_loop()
        served: list[str] = []
        shared, other = _listener(), _listener()
        w0, w1 = Worker(tmp_path, 2), Worker(tmp_path, 2)
        assert w0.claim() and w1.claim() and (w0.index, w1.index) == (0, 1)
        # Worker 0 accepts every connection of the shared port; worker 1 listens elsewhere, so a connection
        # it serves was handed to it.
        a0 = w0.serve(ev, lambda: _Echo("w0", served), shared)
        a1 = w1.serve(ev, lambda: _Echo("w1", served), other)
        port = shared.getsockname()[1]
        try:
            theirs, ours = _code_of(1), _code_of(0)
            # The owner gets the request whole: peeking read nothing.
            assert await _ask(port, _ws(theirs)) == b"w1:" + _ws(theirs)
            assert await _ask(port, _ws(ours)) == b"w0:" + _ws(ours)
            assert await _ask(port, b"GET /api/games HTTP/1.1\r\n\r\n") == b"w0:GET /api/games HTTP/1.1\r\n\r\n"
            # A client that connects and only then sends its request line: waited for, then routed.
            assert await _ask(port, _ws(theirs), delay=0.2) == b"w1:" + _ws(theirs)
            assert served == ["w1", "w0", "w0", "w1"]
            assert w0.counts == {"handed": 2, "received": 0, "kept": 0}
            assert w1.counts == {"handed": 0, "received": 2, "kept": 0}

            # The owner is killed: its inbox's file is left behind, nobody reads it. The worker the socket
            # reached serves it itself.
            assert a1._inbox is not None
            ev.remove_reader(a1._inbox.fileno())
            a1._inbox.close()
            assert await _ask(port, _ws(theirs)) == b"w0:" + _ws(theirs)
            assert w0.counts == {"handed": 2, "received": 0, "kept": 1}
            # Stopped (its lock released, as at a process's exit): the same, and its replacement takes the
            # freed index and the owner's sockets again.
            a1._inbox = None
            a1.close()
            assert await _ask(port, _ws(theirs)) == b"w0:" + _ws(theirs)
            w1b = Worker(tmp_path, 2)
            a1b = w1b.serve(ev, lambda: _Echo("w1b", served), other)
            assert w1b.index == 1
            assert await _ask(port, _ws(theirs)) == b"w1b:" + _ws(theirs)
            assert w0.counts == {"handed": 3, "received": 0, "kept": 2}
            a1b.close()
        finally:
            a0.close()
            a1.close()
            shared.close()
            other.close()

    _run(loop, run())


@pytest.mark.parametrize("loop", LOOPS)
def test_a_connection_that_speaks_late_is_served_where_it_arrived(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loop: str
) -> None:
    from polytable.web import _affinity

    monkeypatch.setattr(_affinity, "PEEK_WAIT", 0.1)

    async def run() -> None:
        ev = asyncio.get_running_loop()
        served: list[str] = []
        shared = _listener()
        w0 = Worker(tmp_path, 2)
        a0 = w0.serve(ev, lambda: _Echo("w0", served), shared)
        try:
            code = _code_of(1)  # worker 1's, which is not even running: the wait ends first
            assert await _ask(shared.getsockname()[1], _ws(code), delay=0.4) == b"w0:" + _ws(code)
            assert served == ["w0"] and w0.counts == {"handed": 0, "received": 0, "kept": 0}
        finally:
            a0.close()
            shared.close()

    _run(loop, run())


def test_a_room_is_given_to_a_clearly_less_busy_worker(tmp_path: Path) -> None:
    """Rooms made through one worker (every creation on one kept-alive connection) still spread: a worker
    draws codes it owns unless a live worker plays clearly fewer room sockets."""
    w0, w1 = Worker(tmp_path, 2), Worker(tmp_path, 2)
    assert w0.claim() and w1.claim()
    sockets = {0: 30, 1: 30}
    w0.load, w1.load = (lambda: sockets[0]), (lambda: sockets[1])
    w0.publish()
    w1.publish()
    assert all(w0.owns(w0.new_code()) for _ in range(3))  # as busy: its own (each counted two sockets more)
    assert not w0.owns(w0.new_code())  # until it would be clearly the busier
    w0.publish()
    sockets[1] = 5
    w1.publish()
    given = [owner_of(w0.new_code(), 2) for _ in range(20)]
    assert given[:10] == [1] * 10  # the other, until the rooms given it (two sockets each) even them out
    assert 0 in given[10:]
    w0.publish()
    w1.close()  # its count is not refreshed any more: after 3 s it no longer counts
    from polytable.web import _affinity

    board = w0._open_board()
    assert board is not None
    count, _ = _affinity._SLOT.unpack_from(board, _affinity._SLOT.size)
    _affinity._SLOT.pack_into(board, _affinity._SLOT.size, count, 0.0)  # counted long ago
    assert all(w0.owns(w0.new_code()) for _ in range(5))
    w0.close()
