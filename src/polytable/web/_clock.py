"""Time controls and the server's clocks: none, real-time (minutes a player plus an increment a move) or
turn-based (hours a move, for games played over days), and what happens when a seat's time runs out.

The clock is the server's: it is charged from wall-clock time at every change of who must act, stored with
the room (so a restart loses no second: time that passed while the server was down counts, as it would on
a chess clock left running), and sent to clients as the seconds each seat had at ``since``. Every seat that
must act has its clock running; in a simultaneous round that is several at once.

On timeout the room does what its creator chose: ``ai`` (the default) lets an AI play that seat's move,
and it keeps doing so while the seat has no time; ``forfeit`` ends the game with that seat losing.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import loads_bounded
from ._base import RoomError

__all__ = ["KINDS", "Clock", "TimeControl"]

KINDS = ("none", "realtime", "turn")
ON_TIMEOUT = ("ai", "forfeit")


@dataclass(frozen=True)
class TimeControl:
    """What a room's creator chose: ``kind``, its amounts and what a timeout does."""

    kind: str = "none"
    minutes: float = 0.0
    """Real-time: minutes on each player's clock at the start."""
    increment: float = 0.0
    """Real-time: seconds added to a player's clock after each of their moves."""
    hours: float = 0.0
    """Turn-based: hours a player has for each move."""
    on_timeout: str = "ai"

    @staticmethod
    def parse(raw: object) -> TimeControl:
        """A time control from a room request (None or ``{"kind": "none"}``: no clock). Raises RoomError."""
        if raw is None:
            return TimeControl()
        if not isinstance(raw, dict):
            raise RoomError(
                "the time control must be an object with a kind: none, realtime or turn", reason="bad_time_control"
            )
        kind = raw.get("kind", "none")
        on_timeout = raw.get("on_timeout", "ai")
        if kind not in KINDS:
            raise RoomError(
                f"the clock is none, realtime or turn, not {str(kind)[:20]!r}",
                reason="bad_time_kind",
                params={"kind": str(kind)[:20]},
            )
        if on_timeout not in ON_TIMEOUT:
            raise RoomError(
                f"when time runs out the AI plays (ai) or the seat forfeits (forfeit), not {str(on_timeout)[:20]!r}",
                reason="bad_on_timeout",
                params={"value": str(on_timeout)[:20]},
            )

        def amount(name: str, low: float, high: float) -> float:
            value = raw.get(name, 0)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise RoomError(f"{name} must be a number", reason="bad_time_amount", params={"name": name})
            if not low <= value <= high:
                raise RoomError(
                    f"{name} must be from {low:g} to {high:g}",
                    reason="bad_time_range",
                    params={"name": name, "low": low, "high": high},
                )
            return float(value)

        if kind == "realtime":
            return TimeControl(kind, amount("minutes", 0.1, 600), amount("increment", 0, 600), 0.0, on_timeout)
        if kind == "turn":
            return TimeControl(kind, 0.0, 0.0, amount("hours", 0.01, 24 * 14), on_timeout)
        return TimeControl()

    def describe(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "minutes": self.minutes,
            "increment": self.increment,
            "hours": self.hours,
            "on_timeout": self.on_timeout,
        }


@dataclass
class Clock:
    """The clocks of one room: seconds left per seat as of ``since`` (wall time), and who is running."""

    control: TimeControl
    remaining: list[float]
    since: float
    running: tuple[int, ...] = ()
    forfeited: list[int] = field(default_factory=list)

    @staticmethod
    def start(control: TimeControl, players: int, now: float) -> Clock:
        per_seat = control.minutes * 60 if control.kind == "realtime" else control.hours * 3600
        return Clock(control, [per_seat] * players, now)

    def left(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has at ``now``."""
        spent = now - self.since if seat in self.running else 0.0
        return self.remaining[seat] - spent

    def turn(self, now: float, movers: Sequence[int], acting: Sequence[int]) -> None:
        """Who must act changed at ``now`` (``movers`` just moved): charge the time, add increments, and
        start the clocks of ``acting`` (a turn-based seat starts each move with its full allowance)."""
        for p in self.running:
            self.remaining[p] -= now - self.since
        if self.control.kind == "realtime":
            for p in movers:
                self.remaining[p] += self.control.increment
        elif self.control.kind == "turn":
            for p in acting:
                if p not in self.running or p in movers:
                    self.remaining[p] = self.control.hours * 3600
        self.since = now
        self.running = tuple(acting)

    def expired(self, now: float) -> list[int]:
        """Running seats whose time is up at ``now``."""
        return [p for p in self.running if self.left(p, now) <= 0]

    def deadline(self) -> float | None:
        """When the first running seat runs out (wall time), or None if none runs."""
        if not self.running:
            return None
        return self.since + min(self.remaining[p] for p in self.running)

    def view(self) -> dict[str, Any]:
        """What clients are sent: the seats' seconds at ``since``, who runs, and the rules of the clock."""
        return {
            **self.control.describe(),
            "remaining": [round(r, 3) for r in self.remaining],
            "since": self.since,
            "running": list(self.running),
            "forfeited": list(self.forfeited),
        }

    def to_json(self) -> str:
        return json.dumps(self.view(), separators=(",", ":"), sort_keys=True)

    @staticmethod
    def from_json(text: str | None) -> Clock | None:
        """The stored clock (None for a room without one)."""
        if not text:
            return None
        data = loads_bounded(text)
        control = TimeControl(
            data["kind"], data["minutes"], data["increment"], data["hours"], data.get("on_timeout", "ai")
        )
        if control.kind == "none":
            return None
        return Clock(
            control,
            [float(r) for r in data["remaining"]],
            float(data["since"]),
            tuple(int(p) for p in data["running"]),
            [int(p) for p in data.get("forfeited", [])],
        )
