"""Broadcasters: how a room's change reaches the connections watching it, here and in other processes.

A room calls :meth:`Broadcaster.changed` after every committed change. The local broadcaster tells this
process's connections; the Redis one (:mod:`._pubsub`) also publishes ``(room, version)`` so that every
other ``serve`` process on the same database reloads the room and tells its own connections. Only the
fact of a change travels: each process reads the state from the database, which stays the one truth.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ._rooms import Room

__all__ = ["Broadcaster", "LocalBroadcaster", "Missed", "RemoteChange"]

RemoteChange = Callable[[str, int], None]
"""Called with (room code, version) when another process changed a room."""
Missed = Callable[[], None]
"""Called when changes may have been missed (the pub/sub came back after an outage): reload from the database."""


class Broadcaster(Protocol):
    """What a room needs to announce its changes (given to it, as a transport is to boardgame.io's Master)."""

    def changed(self, room: Room, remote: bool = True) -> None:
        """Tell the room's connections here; with ``remote``, tell the other processes too."""

    async def start(self, on_remote: RemoteChange, on_missed: Missed | None = None) -> None:
        """Begin listening for other processes' changes (``on_missed``: after an outage, when some may
        have been missed)."""

    async def ready(self) -> bool:
        """True when the broadcaster can reach what it needs (for ``/readyz``)."""

    async def close(self) -> None: ...


class LocalBroadcaster:
    """One process: a change goes to the room's own connections (each sends the state once, coalesced)."""

    name = "local"

    def changed(self, room: Room, remote: bool = True) -> None:
        for client in room.clients:
            client.notify_state()

    async def start(self, on_remote: RemoteChange, on_missed: Missed | None = None) -> None:
        return None

    async def ready(self) -> bool:
        return True

    async def close(self) -> None:
        return None
