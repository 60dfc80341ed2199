"""The storage protocol: what the web server needs from a database, and nothing more."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["RoomRecord", "SeatRecord", "Storage", "StorageConflict", "StorageError"]


class StorageError(RuntimeError):
    """The database refused or failed an operation (the caller must not tell anyone the action happened).

    Its text is for the operator's log (it may quote the driver); players are shown a translated reason.
    """


class StorageConflict(StorageError):
    """Someone else wrote first: a log position is taken, or a seat or log is no longer as expected.

    Another server process on the same database won the race; the loser reloads the room.
    """


@dataclass(frozen=True)
class SeatRecord:
    """One seat of a room: ``kind`` is ``here`` (a person on the creator's device), ``invite`` (a person
    who joins from another device) or ``ai``; ``token_hash`` is the SHA-256 of the seat's secret token
    (empty while an invited seat is open), so a stolen database does not hand out seats."""

    name: str
    kind: str
    ai: str | None = None
    token_hash: str = ""


@dataclass(frozen=True)
class RoomRecord:
    """A room as stored: what is needed to rebuild its match, plus who sits where."""

    code: str
    game: str
    rules_version: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: tuple[SeatRecord, ...]
    mode: str = "play"
    created: float = 0.0
    finished: bool = False
    undone: int = 0
    actions: list[tuple[int, str]] = field(default_factory=list)
    actions_from: int = 0
    """The log position of ``actions[0]``: a reload may read only the entries from there on."""
    clock: str | None = None
    """The room's time control and clocks (JSON, see ``web/_clock.py``); None for a room without one."""
    rematch: str | None = None
    """The code of the rematch room, once someone asked for one."""
    damage: str | None = None
    """Why the stored log cannot be read whole (a hole in it), or None: ``actions`` then stops before it."""


class Storage(Protocol):
    """A durable store. Every method returns only once the change is committed (or raises StorageError)."""

    def create_room(self, room: RoomRecord) -> None:
        """Insert a new room (its code must be new: StorageError otherwise)."""

    def room_exists(self, code: str) -> bool: ...

    def load_room(self, code: str, since: int = 0) -> RoomRecord | None:
        """The room with its action log from position ``since`` on (the whole log by default), or None;
        a log with a hole is read up to it, with ``damage`` saying where (StorageError for a row that
        cannot be read at all)."""

    def list_rooms(self, unfinished_only: bool = False) -> list[str]:
        """Room codes, oldest first."""

    def append_actions(
        self, code: str, start: int, actions: Sequence[tuple[int, str]], finished: bool, clock: str | None = None
    ) -> None:
        """Append actions at log positions ``start``, ``start+1``, ... in one transaction (with the room's
        clocks, if given); a position already taken raises StorageConflict (a log never forks)."""

    def set_rematch(self, code: str, rematch: str) -> None:
        """Point a finished room to its rematch, only if it has none yet (StorageConflict otherwise)."""

    def set_clock(self, code: str, clock: str | None, finished: bool = False) -> None:
        """Store the room's clocks (a clock started or stopped; ``finished``: a seat forfeited)."""

    def truncate_actions(self, code: str, length: int, expected: int | None = None) -> None:
        """Drop log entries from position ``length`` on (undo), counting them in ``undone``; with
        ``expected`` (the log's length as the caller knows it) raise StorageConflict if it differs."""

    def set_seat(self, code: str, seat: int, record: SeatRecord, expected_hash: str | None = None) -> None:
        """Replace one seat (an invited person took it); with ``expected_hash`` only if the seat's token
        hash is still that (StorageConflict otherwise)."""

    def batch(self, ops: Sequence[tuple[str, tuple[Any, ...]]]) -> list[StorageError | None]:
        """Several of the writes above, ``(method name, arguments)``, committed together (group commit);
        one result per write: None, or the StorageError of that write alone."""

    def close(self) -> None: ...
