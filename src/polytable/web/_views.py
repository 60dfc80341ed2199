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
import weakref
from typing import TYPE_CHECKING, Any, cast

import orjson

from ..core import CHANCE, SIMULTANEOUS
from ..match import undo_part

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
        # A weak reference: a room and its views make no reference cycle, so a room the hub lets go (a
        # finished game nobody watches) is freed at once with its whole history, not by the collector.
        self.room: Room = cast("Room", weakref.proxy(room))
        self._parts: dict[int | None, str] = {}
        self._values: dict[int | None, dict[str, Any]] = {}
        self._renders: dict[int | None, str] = {}
        self._head: str | None = None
        self._messages: dict[tuple[frozenset[int], bool], str] = {}
        self._legal: dict[int, tuple[int, int, Any, list[str], int]] = {}  # seat -> (undone, log length,
        # last log entry, legal, count) when the list was made: kept across versions, see _legal_actions
        self._acting: tuple[int, ...] | None = None  # the seats that must act, once per change
        self._shown: tuple[Any, int, int, Any, list[dict[str, Any]]] | None = None  # the live history as of a
        # log length: (log, undone, length, last entry, at most 30 newest shown entries), see history

    def changed(self, state: bool = True) -> None:
        """Forget the messages; with ``state`` (the game, its seats or its clocks changed) the seats' parts
        too. A connection coming or going changes only the room summary (``state=False``)."""
        self._messages.clear()
        self._head = None
        if state:
            self._acting = None
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
            acting = seat in self.acting()
            legal: list[str] = []
            count = 0
            if acting:
                legal, count = self._legal_actions(seat)
            part["to_act"] = acting
            part["legal"] = legal
            part["legal_count"] = count
            part.update(undo_part(room.match, seat, room.seats[seat].kind != "ai", room.ai_seats()))
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
        legal = actions.notation(limit)
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

    def acting(self) -> tuple[int, ...]:
        """The room's seats that must act (asked by every part and the head: found once per change)."""
        if self._acting is None:
            self._acting = self.room.acting()
        return self._acting

    def history(self) -> list[dict[str, Any]]:
        """The log entries people may see now (all of them once the game is over).

        While the game goes on only the last 30 shown entries are sent; they are kept with the log length
        they were found at and brought up to date from the entries added since (the whole log was scanned
        on every change, and in a game whose choices and cards are all hidden nothing is shown until the
        end). A log that is not the same up to that length (an undo, a reload) is scanned again."""
        room = self.room
        log = room.match.log
        if room.is_over():
            return [self._entry(i) for i in range(len(log))]
        length = len(log)
        kept = self._shown
        if (
            kept is not None
            and kept[0] is log
            and kept[1] == room.undone
            and kept[2] <= length
            and (kept[2] == 0 or log[kept[2] - 1] is kept[3])
        ):
            shown = kept[4]
            for i in range(kept[2], length):
                if self._shows(i):
                    shown.append(self._entry(i))
            if len(shown) > 30:
                del shown[:-30]
        else:
            shown = []
            for i in range(length - 1, -1, -1):  # newest first, until 30 are shown
                if len(shown) == 30:
                    break
                if self._shows(i):
                    shown.append(self._entry(i))
            shown.reverse()
        self._shown = (log, room.undone, length, log[-1] if log else None, shown)
        return list(shown)

    def _entry(self, i: int) -> dict[str, Any]:
        """Log entry ``i`` as the history shows it: its number, who, the notation and the words."""
        match = self.room.match
        entry = match.log[i]
        return {"n": i + 1, "player": entry.player, "action": entry.action, "said": match.narration(i)}

    def _shows(self, i: int) -> bool:
        """Whether log entry ``i`` is in the live history (not a simultaneous choice, not a hidden card)."""
        room = self.room
        return not room.simultaneous[i] and not (
            room.match.log[i].player == CHANCE and room.game.spec.hidden_information
        )

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
                "acting": list(self.acting()),
                "over": over,
                "result": room.result(),
                "clock": room.timer.view(),
                "now": time.time(),
                "history": self.history(),
                "moves": len(room.match.log),
                "error": failed,
                "error_reason": room.failed_reason[0] if failed else None,
                "error_params": room.failed_reason[1] if failed else None,
                "paused": room.paused,
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
