"""State messages: what each connection of a room is sent, built once per change and shared by sockets.

Why apart from the room: building these messages was the largest part of the server's work per action
(profiles in docs/benchmarks/web-load-log.md), so each piece is made once per room version and reused by
every socket that needs it:

* a seat's part (its view, its legal actions formatted as notation, its flags) once per seat, as JSON text;
* the game's text rendering of a seat only for connections that show it (the generic board asks for it;
  dedicated boards draw from the view and ask only when a player opens the text view);
* the fields every connection shares (room summary, history, clocks) once per change;
* each distinct message (which seats a connection holds, with the text or not) joined from those pieces
  once, then sent as the same string to every socket holding the same seats.

What the pieces hold is decided by the room's :class:`~polytable.match.RoomMachine` (the offline table's
too); this module only caches and joins them. A connection's message holds only the parts of the seats it
holds (spectators get the ``None`` view).
"""

from __future__ import annotations

import json
import time
import weakref
from typing import TYPE_CHECKING, Any, cast

import orjson

if TYPE_CHECKING:
    from ._rooms import Room

__all__ = ["Views", "dumps"]

_fallback = json.JSONEncoder(separators=(",", ":")).encode


def dumps(value: Any) -> str:
    """Compact JSON text (the one encoder of the room messages).

    orjson, several times faster than the standard library on these messages (docs/benchmarks/web-load-log.md);
    a value it refuses (an integer beyond 64 bits) falls back to ``json``, so a game's view encodes as it
    always did. Keys that are not text are written as text, as ``json`` does (orjson's option for them is
    slower, so it is only used for a value that has such keys)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        pass
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return _fallback(value)


class Views:
    """The pieces of one room's state messages, valid until :meth:`changed` is called."""

    def __init__(self, room: Room) -> None:
        # A weak reference: a room and its views make no reference cycle, so a room the hub lets go (a
        # finished game nobody watches) is freed at once with its whole history, not by the collector.
        self.room: Room = cast("Room", weakref.proxy(room))
        self._parts: dict[int | None, str] = {}
        self._values: dict[int | None, dict[str, Any]] = {}
        self._renders: dict[int | None, str] = {}
        self._head: str | None = None
        self._messages: dict[tuple[frozenset[int], bool], str] = {}

    def changed(self, state: bool = True) -> None:
        """Forget the messages; with ``state`` (the game, its seats or its clocks changed) the seats' parts
        too. A connection coming or going changes only the room summary (``state=False``)."""
        self._messages.clear()
        self._head = None
        if state:
            self._parts.clear()
            self._values.clear()
            self._renders.clear()

    # ------------------------------------------------------------------ pieces
    def part(self, seat: int | None) -> dict[str, Any]:
        """A seat's part of the state (``None``: the spectators'), without the text rendering."""
        hit = self._values.get(seat)
        if hit is None:
            hit = self._values[seat] = self.room.machine.part(seat)
        return hit

    def _part_text(self, seat: int | None, text: bool) -> str:
        body = self._parts.get(seat)
        if body is None:
            body = self._parts[seat] = dumps(self.part(seat))
        if not text:
            return body
        render = self._renders.get(seat)
        if render is None:
            render = self._renders[seat] = dumps(self.room.machine.render(seat))
        return f'{body[:-1]},"render":{render}}}'  # a part is a non-empty object: its closing brace

    def _head_text(self) -> str:
        """The fields every connection gets, as the inside of a JSON object: the machine's, with the room's
        summary, its clocks and the server's time."""
        if self._head is None:
            room = self.room
            head = {
                **room.machine.head(),
                "room": room.summary(),
                "clock": room.timer.view(),
                "now": time.time(),
                "paused": room.paused,
            }
            self._head = dumps(head)[1:-1]
        return self._head

    # ------------------------------------------------------------------ messages
    def text(self, seats: frozenset[int], text: bool) -> str:
        """The state message, as JSON text, for a connection holding ``seats`` (with the text rendering
        of each part when ``text``); one string shared by every such connection until the next change."""
        key = (seats, text)
        hit = self._messages.get(key)
        if hit is not None:
            return hit
        spectator = "null" if seats else self._part_text(None, text)
        mine = ""  # companion rooms have no seats' parts: the cards are in the head
        if self.room.dealer is None:
            mine = ",".join(f'"{p}":{self._part_text(p, text)}' for p in sorted(seats))
        message = f'{{{self._head_text()},"spectator":{spectator},"mine":{{{mine}}}}}'
        self._messages[key] = message
        return message

    def message(self, seats: frozenset[int], text: bool = True) -> dict[str, Any]:
        """The same message as a dict (for tests and in-process callers)."""
        value: dict[str, Any] = json.loads(self.text(seats, text))
        return value
