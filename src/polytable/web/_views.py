"""State messages: what each connection of a room is sent, built once per change and shared by sockets.

Why apart from the room: building these messages was about half of the server's work per action (profile
in docs/web.md), so each piece is made once per room version and reused by every socket that needs it:

* a seat's part (its view, its legal actions formatted as notation, its flags) once per seat, as JSON text;
* the game's text rendering of a seat only for connections that show it (the generic board asks for it;
  dedicated boards draw from the view and ask only when a player opens the text view);
* the fields every connection shares (room summary, history, clocks) once per change;
* each distinct message (which seats a connection holds, with the text or not) joined from those pieces
  once, then sent as the same string to every socket holding the same seats.

Privacy is unchanged: a connection's message holds only the parts of the seats it holds (spectators get
the ``None`` view), as :class:`~polytable.web.Room` describes.
"""

from __future__ import annotations

import json
import time
from itertools import islice
from typing import TYPE_CHECKING, Any

import orjson

from ..core import CHANCE, SIMULTANEOUS

if TYPE_CHECKING:
    from ._rooms import Room

__all__ = ["Views", "dumps"]

_fallback = json.JSONEncoder(separators=(",", ":")).encode


def dumps(value: Any) -> str:
    """Compact JSON text (the one encoder of the room messages).

    orjson, about eight times faster than the standard library here (encoding was a sixth of building a
    state message); a value it refuses (an integer beyond 64 bits) falls back to ``json``, so a game's view
    encodes as it always did. Keys that are not text are written as text, as ``json`` does (orjson's option
    for them is a third slower, so it is only used for a value that has such keys)."""
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
        self.room = room
        self._parts: dict[int | None, str] = {}
        self._values: dict[int | None, dict[str, Any]] = {}
        self._renders: dict[int | None, str] = {}
        self._head: str | None = None
        self._messages: dict[tuple[frozenset[int], bool], str] = {}
        self._legal: dict[int, tuple[int, int, Any, list[str], int]] = {}  # seat -> (undone, log length,
        # last log entry, legal, count) when the list was made: kept across versions, see _legal_actions

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
        if hit is not None:
            return hit
        room = self.room
        game, state = room.game, room.match.state
        part: dict[str, Any] = {"view": game.view(state, seat)}
        if seat is not None:
            acting = seat in room.acting()
            legal: list[str] = []
            count = 0
            if acting:
                legal, count = self._legal_actions(seat)
            part["to_act"] = acting
            part["legal"] = legal
            part["legal_count"] = count
            part["can_undo"] = room.seats[seat].kind != "ai" and room.match.can_undo(seat)
        self._values[seat] = part
        return part

    def _legal_actions(self, seat: int) -> tuple[list[str], int]:
        """The seat's legal actions as notation (at most ``legal_limit``) and how many there are.

        In a simultaneous round another seat's hidden choice does not change a seat's situation (the rule
        by which the room still accepts an action quoted before such choices, see ``Room._check_version``),
        so the list made before them is reused rather than formatted again; anything else in between (a
        chance event, a resolved round, the seat's own action, an undo or a reload) makes a new one."""
        room = self.room
        match = room.match
        log, length = match.log, len(match.log)
        hit = self._legal.get(seat)
        if hit is not None and hit[0] == room.undone and hit[1] <= length and match.current_player() == SIMULTANEOUS:
            made, last = hit[1], hit[2]
            if (made == 0 or log[made - 1] is last) and all(
                room.simultaneous[i] and log[i].player not in (CHANCE, seat) for i in range(made, length)
            ):
                return hit[3], hit[4]
        game, state = room.game, match.state
        limit = room.settings.legal_limit
        actions = game.legal_actions(state, seat)
        legal = [game.format_action(a, state) for a in islice(iter(actions), limit)]
        count = len(legal) if len(legal) < limit else actions.count()
        self._legal[seat] = (room.undone, length, log[-1] if log else None, legal, count)
        return legal, count

    def _part_text(self, seat: int | None, text: bool) -> str:
        body = self._parts.get(seat)
        if body is None:
            body = self._parts[seat] = dumps(self.part(seat))
        if not text:
            return body
        render = self._renders.get(seat)
        if render is None:
            room = self.room
            render = self._renders[seat] = dumps(room.game.render(room.match.state, seat, color=False))
        return f'{body[:-1]},"render":{render}}}'  # a part is a non-empty object: its closing brace

    def history(self) -> list[dict[str, Any]]:
        """The log entries people may see now (all of them once the game is over)."""
        room = self.room
        over = room.is_over()
        hide_chance = room.game.spec.hidden_information
        log, simultaneous = room.match.log, room.simultaneous
        if over:
            return [{"n": i + 1, "player": e.player, "action": e.action} for i, e in enumerate(log)]
        out: list[dict[str, Any]] = []
        for i in range(len(log) - 1, -1, -1):  # newest first: only the last 30 shown entries are sent
            entry = log[i]
            if simultaneous[i] or (entry.player == CHANCE and hide_chance):
                continue
            out.append({"n": i + 1, "player": entry.player, "action": entry.action})
            if len(out) == 30:
                break
        out.reverse()
        return out

    def _head_text(self) -> str:
        """The fields every connection gets, as the inside of a JSON object."""
        if self._head is None:
            room = self.room
            over = room.is_over()
            failed = room.failed
            head: dict[str, Any] = {
                "type": "state",
                "version": room.version,
                "room": room.summary(),
                "current": room.match.current_player(),
                "acting": list(room.acting()),
                "over": over,
                "result": room.result(),
                "clock": room.timer.view(),
                "now": time.time(),
                "history": self.history(),
                "moves": len(room.match.log),
                "error": failed,
                "error_reason": room.failed_reason[0] if failed else None,
                "error_params": room.failed_reason[1] if failed else None,
            }
            if room.dealer is not None:
                head["companion"] = room.dealer.message()
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
