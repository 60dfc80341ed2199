"""A Redis outage between server processes: each process reaches Redis through a loopback TCP proxy the test
can cut (connections dropped, new ones refused) and restore. Changes made while a process could not hear,
or could not announce, reach every client once Redis answers again, read from the database. Skipped where
PostgreSQL or Redis does not run (failed instead with POLYTABLE_REQUIRE_SERVICES=1, as in CI)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from polytable.web import Settings, create_app
from polytable.web._pubsub import RedisBroadcaster

from .conftest import hello, make_room, state


class Proxy:
    """A TCP forwarder from a free loopback port to ``127.0.0.1:target`` that can be cut and restored."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.lock = threading.Lock()
        self.conns: list[socket.socket] = []
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.server.getsockname()[1]
        self._serve()

    def _serve(self) -> None:
        threading.Thread(target=self._accept, args=(self.server,), daemon=True).start()

    def _accept(self, server: socket.socket) -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self.lock:
                self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """Redis is unreachable: open connections are dropped and new ones refused."""
        with contextlib.suppress(OSError):
            self.server.shutdown(socket.SHUT_RDWR)
        self.server.close()
        with self.lock:
            conns, self.conns = self.conns, []
        for s in conns:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def restore(self) -> None:
        """Redis answers again, at the same address."""
        self.server = socket.create_server(("127.0.0.1", self.port))
        self._serve()


@pytest.fixture
def proxies(redis_channel: str) -> Iterator[tuple[Proxy, Proxy]]:
    pair = (Proxy(6379), Proxy(6379))
    yield pair
    for p in pair:
        p.cut()


def _app(url: str, channel: str, port: int) -> TestClient:
    broadcaster = RedisBroadcaster(f"redis://127.0.0.1:{port}/0", channel)
    return TestClient(create_app(url, Settings(ai_delay=0.0, rooms_per_minute=1000), broadcaster=broadcaster))


def test_changes_made_during_a_redis_outage_reach_every_client_when_it_returns(
    pg_url: str, redis_channel: str, proxies: tuple[Proxy, Proxy]
) -> None:
    pa, pb = proxies
    with _app(pg_url, redis_channel, pa.port) as a, _app(pg_url, redis_channel, pb.port) as b:
        room = make_room(a)
        code, t0, t1 = room["code"], room["tokens"]["0"], room["tokens"]["1"]
        with a.websocket_connect(f"/ws/{code}") as wa, b.websocket_connect(f"/ws/{code}") as wb:
            hello(wa, t0)
            hello(wb, t1)
            v = state(wa)["version"]
            state(wb, lambda m: m["version"] == v)

            # b cannot hear: a's move is published while b's subscription is down, so b never receives it.
            pb.cut()
            wa.send_json({"type": "act", "seat": 0, "version": v, "action": "1"})
            v1 = state(wa, lambda m: m["version"] > v)["version"]
            time.sleep(0.5)
            assert b.app.state.hub.rooms[code].version == v  # type: ignore[attr-defined]  # b missed it
            pb.restore()
            started = time.monotonic()
            state(wb, lambda m: m["version"] == v1)  # b reloaded its rooms from the database
            assert time.monotonic() - started < 10

            # The round goes on normally, then a cannot announce: its change is published once Redis is back.
            wb.send_json({"type": "act", "seat": 1, "version": v1, "action": "2"})
            v2 = state(wb, lambda m: m["version"] > v1)["version"]
            state(wa, lambda m: m["version"] == v2)
            pa.cut()
            wa.send_json({"type": "act", "seat": 0, "version": v2, "action": "3"})
            v3 = state(wa, lambda m: m["version"] > v2)["version"]
            time.sleep(0.5)
            pa.restore()
            seen = state(wb, lambda m: m["version"] == v3)
            assert seen["mine"]["1"]["view"] is not None
        record_a = a.get(f"/api/rooms/{code}/record").json()
        record_b = b.get(f"/api/rooms/{code}/record").json()
    assert record_a == record_b
