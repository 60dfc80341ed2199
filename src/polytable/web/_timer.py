"""A room's clock at work: charged whenever who must act changes, a timer armed for the first running
seat's deadline, and on timeout the seat's AI move or the seat's forfeit (see :mod:`._clock`).

Every process that holds the room arms the same timer from the same stored clock; the database's key
decides which timeout move counts, as for any move (the others reload).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from ..ai import Bot, make_bot
from ..core import PolytableError, Rng
from ..storage import StorageError
from ._base import RoomError, ai_names
from ._clock import Clock

if TYPE_CHECKING:
    from ._rooms import Room

__all__ = ["RoomTimer"]

log = logging.getLogger("polytable.web")


class RoomTimer:
    """The clock of one room and the timer that acts when a running seat's time is up."""

    def __init__(self, room: Room, clock: Clock | None, seed: int) -> None:
        # No reference cycle (see Views): an armed timer keeps its room alive through its callback instead.
        self.room: Room = cast("Room", weakref.proxy(room))
        self._room = weakref.ref(room)
        self.clock = clock
        self.seed = seed
        self.handle: asyncio.TimerHandle | None = None
        self.task: asyncio.Task[None] | None = None
        self.bots: dict[int, Bot] = {}

    @property
    def forfeited(self) -> list[int]:
        return self.clock.forfeited if self.clock is not None else []

    def changed(self, movers: Sequence[int]) -> str | None:
        """Who must act may have changed (``movers`` just moved): charge the clock; its JSON to store."""
        if self.clock is None:
            return None
        self.clock.turn(time.time(), movers, self.room.acting())
        return self.clock.to_json()

    def view(self) -> dict[str, Any] | None:
        return None if self.clock is None else self.clock.view()

    async def start(self) -> None:
        """Start the clocks of the first seats to act (a new room) and arm the timer (also after a restart)."""
        clock = self.clock
        if clock is not None and not self.room.is_over() and clock.running != self.room.acting():
            text = self.changed(())
            try:
                await self.room.store.write("set_clock", self.room.code, text)
            except StorageError as exc:
                log.error("room %s: the clock could not be saved: %s", self.room.code, exc)
        self.arm()

    def arm(self) -> None:
        """(Re)arm the timer for the first running seat's deadline."""
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        room = self._room()
        if room is None or self.clock is None or room.is_over() or room.failed:
            return
        deadline = self.clock.deadline()
        if deadline is None:
            return
        delay = max(0.0, deadline - time.time()) + 0.01
        self.handle = asyncio.get_running_loop().call_later(delay, self._fire, room)

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
        if self.task is not None:
            self.task.cancel()

    def _fire(self, room: Room) -> None:
        self.handle = None
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._timeout(room))

    async def _timeout(self, room: Room) -> None:
        """:meth:`on_timeout`, the room held until it has run (the timer holds it only weakly)."""
        await self.on_timeout()

    async def on_timeout(self) -> None:
        """A running seat's time is up: its AI plays (``ai``) or it forfeits (``forfeit``)."""
        room = self.room
        async with room.lock:
            clock = self.clock
            if clock is None or room.is_over() or room.failed:
                return
            late = clock.expired(time.time())
            if not late:
                self.arm()
                return
            if clock.control.on_timeout == "forfeit":
                clock.turn(time.time(), (), ())
                clock.forfeited = sorted(set(clock.forfeited) | set(late))
                try:
                    await room.store.write("set_clock", room.code, clock.to_json(), True)
                except StorageError as exc:
                    log.error("room %s: a forfeit could not be saved: %s", room.code, exc)
                    await room.reload()
                    return
                room.broadcast()
                return
            seat, version, state = late[0], room.version, room.match.state
        try:
            bot = self._bot(seat)
            rng = Rng(self.seed, 5000 + seat + 17 * len(room.match.log))
            action = await asyncio.get_running_loop().run_in_executor(
                room.ai_pool, bot.choose, room.game, state, seat, rng
            )
        except PolytableError as exc:
            log.error("room %s: the timeout move of seat %d failed: %s", room.code, seat + 1, exc)
            return
        try:
            await room.play_for(seat, version, action)
        except RoomError as exc:
            log.info("room %s: the timeout move of seat %d was not played: %s", room.code, seat + 1, exc)
        self.arm()
        room.kick_ai()

    def _bot(self, seat: int) -> Bot:
        bot = self.bots.get(seat)
        if bot is None:
            names = ai_names(self.room.game.spec.id)
            bot = make_bot("greedy" if "greedy" in names else names[0], self.room.game.spec.id)
            self.bots[seat] = bot
        return bot
