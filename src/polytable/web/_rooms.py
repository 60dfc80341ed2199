"""Rooms: matches with seats, versions, durable logs, AI seats and the connections watching them.

Why this lives apart from the HTTP layer: every rule of the platform (who may act, which version an
action must quote, what each seat is allowed to see, when the database must have committed) is decided
here, once, and the Starlette routes only translate JSON to calls.

* **Authority.** Every action goes through :class:`polytable.match.Match` (so through ``Game.apply``);
  chance is resolved by the server from the state's own generator right after the action that led to it.
* **Rules of the room.** Versions, stale actions, undo, what each seat is shown and the live history are
  decided by :class:`polytable.match.RoomMachine`, the same as on the offline table; this class adds the
  lock, the storage, the connections, the clocks and the AI seats around it.
* **Durability.** The log entries an action produced (the action plus the chance outcomes after it) are
  committed in one transaction *before* any client is told. If the commit fails the room drops them
  and reloads from the database before it answers: the move is acknowledged if the database holds it
  after all (a commit whose answer was lost), else the player is told it did not happen. While the
  database does not answer the room is *paused*: it says so to its players, refuses moves with that
  reason, and keeps trying to reload; a room never takes a move on a state the database may not hold.
* **Privacy.** A client receives, per seat it holds, only that seat's part of the state (the machine's,
  joined into messages in :mod:`._views`); spectators get the ``None`` view. The action log of a game in
  progress is never sent whole (the machine's history policy). The full log is public once the game is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..ai import Bot, make_bot
from ..core import Game, Rng
from ..match import Match, RoomMachine, seat_entry
from ..storage import RoomRecord, SeatRecord, StorageConflict, StorageError
from ._base import RoomError, clean_name, hash_token, new_token
from ._client import Client
from ._clock import Clock
from ._companion import Dealer
from ._records import build_match, default_seat_name, extend_match, step_view
from ._timer import RoomTimer
from ._views import Views

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from ._base import Settings
    from ._bus import Broadcaster
    from ._store import RoomStore

__all__ = ["LostRace", "Room", "build_match", "default_seat_name"]  # the last two from ._records


def _forfeits(timer: RoomTimer) -> Callable[[], list[int]]:
    """The seats a room's clocks say lost on time, asked by its machine whenever it needs them."""
    return lambda: timer.forfeited


log = logging.getLogger("polytable.web")


_pending: set[asyncio.Task[None]] = set()  # catch-up reloads in flight (kept from the garbage collector)


class LostRace(Exception):
    """Another server process committed at the same log position first; the room has been reloaded."""


class Room:
    """One match with its seats, its connections and its lock (one change at a time).

    It is given what it needs from outside: ``store`` (reads and commits), ``broadcaster`` (who hears of
    a change), the server's ``settings`` and the ``ai_pool`` its AI seats think on.
    """

    def __init__(
        self,
        record: RoomRecord,
        match: Match,
        store: RoomStore,
        broadcaster: Broadcaster,
        settings: Settings,
        ai_pool: Executor,
    ) -> None:
        self.store = store
        self.broadcaster = broadcaster
        self.settings = settings
        self.ai_pool = ai_pool
        self.code = record.code
        self.mode = record.mode
        self.seats: list[SeatRecord] = list(record.seats)
        self.game: Game[Any, Any] = match.game
        self.timer = RoomTimer(self, Clock.from_json(record.clock), record.seed)
        self.machine = RoomMachine(
            match,
            [p for p, seat in enumerate(self.seats) if seat.kind == "ai"],
            mode=self.mode,
            undone=record.undone,
            dealt=[a for _, a in record.actions] if self.mode == "companion" else None,
            legal_limit=settings.legal_limit,
            forfeits=_forfeits(self.timer),
        )
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.bots: dict[int, Bot] = {}
        self.rngs: dict[int, Rng] = {}
        self.ai_task: asyncio.Task[None] | None = None
        self.views = Views(self)
        self._seats_key: tuple[object, ...] = ()  # what the seats' summary was made from (see summary)
        self._seats_summary: list[dict[str, Any]] = []
        self.behind = False
        """Another process changed the room and nobody here watched it: reload before it is used."""
        self.committing = 0  # changes being committed: the state in memory is not yet on disk
        self.waiting: set[Client] = set()  # connections to send the state once the commit has ended
        self.unsaid = 0  # sockets open on the room that have not said hello yet (counted as spectators)
        self.last_used = time.monotonic()
        self.paused = False
        """The database did not answer the last reload: moves are refused until one succeeds."""
        self._recovering: asyncio.Task[None] | None = None
        self.rematch = record.rematch
        for p, seat in enumerate(self.seats):
            if seat.kind == "ai" and seat.ai:
                self.bots[p] = make_bot(seat.ai, self.game.spec.id)
                self.rngs[p] = self.machine.ai_rng(p)

    # ------------------------------------------------------------------ reading (the machine decides)
    @property
    def match(self) -> Match:
        return self.machine.match

    @property
    def dealer(self) -> Dealer | None:
        return self.machine.dealer

    @property
    def undone(self) -> int:
        return self.machine.undone

    @property
    def failed(self) -> str | None:
        return self.machine.failed

    @property
    def version(self) -> int:
        return self.machine.version

    def ai_seats(self) -> frozenset[int]:
        """The seats the server plays (an undo takes their replies back with the move they answered)."""
        return self.machine.ai

    def is_over(self) -> bool:
        """The game ended, or a seat forfeited on time."""
        return self.machine.is_over()

    def acting(self) -> tuple[int, ...]:
        """The seats that must act now (none once the game is over)."""
        return self.machine.acting()

    def result(self) -> dict[str, Any] | None:
        """The end of the game: the game's own result, or on a forfeit the others win with the scores so far."""
        return self.machine.result()

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for p, seat in enumerate(self.seats):
            if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                return p
        return None

    def connected(self) -> list[int]:
        counts = [0] * len(self.seats)
        for c in self.clients:
            for p in c.seats:
                counts[p] += 1
        return counts

    def summary(self) -> dict[str, Any]:
        """What anyone with the code may know about the room (no tokens, no state).

        The seats' list is remade only when a seat or a connection changed (not on every move)."""
        counts = self.connected()
        key = (tuple(self.seats), tuple(counts))
        if key != self._seats_key:
            self._seats_key = key
            self._seats_summary = [
                seat_entry(
                    p,
                    s.name,
                    # The name was made by the server (no one typed it): the client shows it in its language.
                    s.name == default_seat_name(p, s.ai if s.kind == "ai" else None),
                    s.kind,
                    s.ai,
                    s.kind == "invite" and not s.token_hash,
                    counts[p] > 0 or s.kind == "ai",
                )
                for p, s in enumerate(self.seats)
            ]
        clock = self.timer.clock
        return self.machine.summary(
            self.code,
            list(self._seats_summary),
            time_control=clock.control.describe() if clock else {"kind": "none"},
            rematch=self.rematch,
        )

    def state_message(self, client: Client) -> dict[str, Any]:
        """The state message a connection is sent, as a dict (the socket sends :meth:`state_text`)."""
        return self.views.message(client.seats, client.text)

    def fail(self, message: str, reason: str, params: dict[str, object] | None = None) -> None:
        """Stop the room with a message for everyone (English) and its reason for the translations."""
        self.machine.fail(message, reason, params)

    # ------------------------------------------------------------------ acting
    async def act(self, seat: int, version: int, text: str) -> None:
        """Apply ``text`` for ``seat`` made on ``version``; commit; tell everyone. Raises RoomError.

        If another server process wrote first (the database's unique key refused this commit), the room is
        reloaded silently and the move is played again on the new state if it is still legal there.
        """
        self.refuse_if_paused()
        async with self.lock:
            await self.ensure_loaded()
            self.machine.check_playable(seat)
            self.machine.check_version(seat, version)
            try:
                await self._play(seat, text)
            except LostRace:
                await self._replay_after_race(seat, text)
        self.kick_ai()

    async def _replay_after_race(self, seat: int, text: str) -> None:
        conflict = RoomError(
            "another move was made first and yours no longer fits; the board is updated", "stale", "move_conflict"
        )
        if self.failed or self.is_over() or seat not in self.match.acting_players():
            raise conflict
        try:
            await self._play(seat, text)
        except LostRace:
            raise conflict from None
        except RoomError as exc:
            if exc.code == "illegal":
                raise conflict from None
            raise

    async def undo(self, seat: int, version: int) -> None:
        self.refuse_if_paused()
        async with self.lock:
            await self.ensure_loaded()
            self.machine.check_playable(seat, undo=True)
            undone = self.undone
            before, length = self.machine.undo(seat, version)
            self.committing += 1
            try:
                await self.store.write("truncate_actions", self.code, length, before)
            except StorageConflict:
                self._committed()
                await self._rebuild(remote=False)
                raise RoomError(
                    "another move was made first; nothing was taken back", "stale", "undo_conflict"
                ) from None
            except StorageError as exc:
                log.error("room %s: an undo could not be saved: %s", self.code, exc)
                self._committed()
                await self._reload_until_answered()
                if len(self.match.log) == length and self.undone >= undone + before - length:
                    self.kick_ai()  # the database holds the undo after all (its answer was lost)
                    return
                raise RoomError("the undo could not be saved; nothing changed", "storage", "undo_unsaved") from None
            self._committed()
            self.machine.count_undone(before - length)  # as the database counts it
            clock = self.timer.changed(())
            if clock is not None:
                try:
                    await self.store.write("set_clock", self.code, clock)
                except StorageError as exc:
                    log.error("room %s: the clock could not be saved after an undo: %s", self.code, exc)
            self.timer.arm()
            self.broadcast()
        self.kick_ai()

    def refuse_if_paused(self) -> None:
        """While the database does not answer, a move is refused at once (it is not made) instead of waiting."""
        if self.paused:
            raise RoomError(
                "the table is paused: the game's storage does not answer; your move was not made, "
                "play it again when the table goes on",
                "storage",
                "storage_paused",
            )

    async def ensure_loaded(self) -> None:
        """Reload first if the room may differ from the database (a reload failed since; lock held)."""
        if self.behind and not self.failed and not await self._rebuild(remote=False):
            self.refuse_if_paused()

    async def _play(self, seat: int, action: object) -> None:
        """Apply one action plus the chance after it, commit them, then broadcast (lock held)."""
        await self._commit(self.machine.play(seat, action))

    async def _commit(self, start: int) -> None:
        match = self.match
        self.machine.count_simultaneous()
        entries = [(e.player, e.action) for e in match.log[start:]]
        clock = self.timer.changed(sorted({p for p, _ in entries if p >= 0}))
        self.committing += 1
        error: StorageError | None = None
        try:
            await self.store.write("append_actions", self.code, start, entries, match.is_over(), clock)
        except BaseException as exc:
            if not isinstance(exc, StorageError):  # cancelled (the server stops): nothing is kept
                self._drop_from(start)
                raise
            error = exc
        if isinstance(error, StorageConflict):
            log.info("room %s: another process wrote position %d first; reloading", self.code, start)
            self._drop_from(start)
            await self._rebuild(remote=False)
            raise LostRace from None
        if error is not None:
            log.error("room %s: a move could not be saved: %s", self.code, error)
            self._drop_from(start)  # never kept in memory unless durable
            await self._reload_until_answered()
            stored = [(e.player, e.action) for e in self.match.log[start : start + len(entries)]]
            if stored != entries or self.failed:
                raise RoomError("the move could not be saved; it did not happen", "storage", "move_unsaved") from None
            log.info("room %s: the move at position %d was saved after all", self.code, start)
            return  # the database holds it (the commit's answer was lost): acknowledged, as reloaded
        self._committed()
        self.timer.arm()
        self.broadcast()

    def _drop_from(self, start: int) -> None:
        """A commit failed: forget the entries from ``start`` on, so memory holds only what may be durable,
        and let the connections waiting for the state have it (without them)."""
        self.machine.rewind(start)
        self._committed()

    async def _reload_until_answered(self) -> None:
        """Reload from the database until it answers (the lock held): the room is paused meanwhile, says
        so to its players and refuses other moves; the move waiting on this learns its fate from the log."""
        delay = 0.05
        while not await self._rebuild():
            await asyncio.sleep(delay * (0.5 + random.random()))  # jitter: rooms do not retry in step
            delay = min(delay * 2, 0.5)

    def _committed(self) -> None:
        """A commit ended (on disk, or failed and reloaded): the connections that asked for the state
        meanwhile get it now, so nobody is ever shown a change before it is on disk."""
        self.committing -= 1
        if not self.committing:
            for client in self.waiting:
                client.notify_state()
            self.waiting.clear()

    async def play_for(self, seat: int, version: int, action: object) -> None:
        """Play ``action`` for ``seat`` if the room is still at ``version`` (a move the server chose, as on a
        timeout). Raises RoomError."""
        async with self.lock:
            if version != self.version:
                raise RoomError("the game moved on", "stale", "stale")
            self.machine.check_playable(seat)
            with contextlib.suppress(LostRace):
                await self._play(seat, action)

    async def reload(self) -> None:
        """Load the room again from the database (the lock held by the caller)."""
        await self._rebuild()

    def _storage_lost(self, exc: StorageError) -> None:
        """A reload failed: the room may differ from the database. It is paused (its players are told),
        reloads before its next move, and tries again in the background until the database answers."""
        self.behind = True
        if not self.paused:
            self.paused = True
            log.warning("room %s is paused: it could not be reloaded: %s", self.code, exc)
            self.broadcast(remote=False)
        if self._recovering is None or self._recovering.done():
            self._recovering = asyncio.get_running_loop().create_task(self._recover())

    async def _recover(self) -> None:
        delay = 0.1
        while self.paused and not self.failed:
            await asyncio.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 1.0)
            async with self.lock:
                if self.paused:
                    await self._rebuild()
        self.kick_ai()

    async def _rebuild(self, remote: bool = True) -> bool:
        """After a failed or lost commit, or another process's change: load the room again from the
        database (the truth) and tell the connections (``remote``: other processes too).

        Only the log entries this process lacks are read (from the last one it has, which must still be
        the same) and played on the state it holds; an undo elsewhere, a companion room or a log that
        disagrees reads the whole log and rebuilds the match."""
        have = len(self.match.log)
        since = max(0, have - 1) if self.dealer is None else 0
        try:
            fresh = await self.store.load(self.code, since)
            if fresh is not None and since and (fresh.undone != self.undone or not self._extend(fresh)):
                fresh = await self.store.load(self.code)
                since = 0
        except StorageError as exc:
            self._storage_lost(exc)
            return False
        self.behind = False
        if self.paused:
            self.paused = False
            log.info("room %s goes on: the database answers again", self.code)
        if fresh is None:
            self.fail("this room has vanished from the database", "vanished")
            self.broadcast(remote=False)
            return True
        if fresh.damage is not None:
            log.error("room %s cannot be continued: %s", self.code, fresh.damage)
            self.fail(
                f"this room cannot be continued: its saved game is damaged after move {len(self.match.log)}",
                "damaged",
                {"moves": len(self.match.log)},
            )
            self.broadcast(remote=False)
            return True
        self.seats = list(fresh.seats)
        match = self.match
        if self.dealer is None and since == 0 and (fresh.undone != self.undone or not self._extend(fresh)):
            match = build_match(fresh)
        self.machine.reset(match, fresh.undone, [a for _, a in fresh.actions] if self.dealer is not None else None)
        self.timer.clock = Clock.from_json(fresh.clock)
        self.rematch = fresh.rematch
        self.timer.arm()
        self.broadcast(remote)
        return True

    def _extend(self, fresh: RoomRecord) -> bool:
        """Play the stored entries this match lacks (see :func:`extend_match`)."""
        return extend_match(self.match, fresh.actions, fresh.actions_from)

    async def resync(self, version: int) -> None:
        """Another process changed this room (to ``version``; a seat taken or a rematch made keep the
        version): reload it, which plays only the entries it lacks."""
        async with self.lock:
            if self.failed:
                return
            await self._rebuild(remote=False)
        if self.bots and any(p in self.bots for p in self.match.acting_players()):
            # The process that made the change runs the AI; this one steps in only if nothing happens.
            seen = self.version
            grace = self.settings.ai_delay + self.settings.standby_ai
            asyncio.get_running_loop().call_later(grace, self._standby_ai, seen)

    def watched(self) -> bool:
        """Whether another process's change must be loaded at once: someone here watches the room, or
        its AI seats or clocks may have to act here. Otherwise it is only marked :attr:`behind`."""
        return bool(self.clients or self.bots or self.timer.clock is not None)

    def _standby_ai(self, seen: int) -> None:
        if self.version == seen:
            self.kick_ai()

    async def start(self) -> None:
        """Resolve the opening chance events (the first card, the first roll) of a new room."""
        async with self.lock:
            start = self.machine.resolve_chance()
            if len(self.match.log) > start:
                with contextlib.suppress(LostRace):  # another process dealt it: that deal is now here
                    await self._commit(start)
            await self.timer.start()
        self.kick_ai()

    def state_text(self, client: Client) -> str:
        """The state message as JSON text, shared by every connection holding the same seats."""
        return self.views.text(client.seats, client.text)

    def broadcast(self, remote: bool = True, state: bool = True) -> None:
        """Drop the cached messages and announce the change (``remote``: to other processes too; not
        ``state``: only the connections changed, so the seats' parts are kept)."""
        self.views.changed(state)
        self.broadcaster.changed(self, remote)

    # ------------------------------------------------------------------ AI seats
    def kick_ai(self) -> None:
        """Start the AI loop if an AI seat must act and none is thinking already."""
        if self.ai_task is not None and not self.ai_task.done():
            return
        if not self.bots or self.mode != "play" or self.failed or self.is_over():
            return
        if not any(p in self.bots for p in self.match.acting_players()):
            return
        self.ai_task = asyncio.get_running_loop().create_task(self._ai_loop())

    async def _ai_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while not self.is_over() and not self.failed:
            movers = [p for p in self.match.acting_players() if p in self.bots]
            if not movers:
                return
            if self.settings.ai_delay > 0:
                await asyncio.sleep(self.settings.ai_delay)
            p = movers[0]
            version, state = self.version, self.match.state
            bot, rng = self.bots[p], self.rngs[p]
            try:
                action = await loop.run_in_executor(self.ai_pool, bot.choose, self.game, state, p, rng)
            except Exception as exc:  # a bot bug must not kill the room: say so and stop the AI
                log.exception("AI %s failed in room %s", bot.name, self.code)
                self.fail(f"the AI of seat {p + 1} failed ({exc}); the room is stopped", "ai_failed", {"seat": p + 1})
                self.broadcast()
                return
            retry = False
            async with self.lock:
                if self.version != version:
                    continue  # someone else acted meanwhile: think again on the new state
                try:
                    await self._play(p, action)
                except LostRace:
                    continue  # another process moved first: think again on the reloaded state
                except RoomError as exc:
                    if exc.code == "storage":  # not saved (the room reloaded meanwhile): think again shortly
                        retry = True
                    else:
                        self.fail(
                            f"the AI of seat {p + 1} chose an illegal action ({exc}); the room is stopped",
                            "ai_illegal",
                            {"seat": p + 1},
                        )
                        self.broadcast()
                        return
            if retry:
                await asyncio.sleep(1.0)

    # ------------------------------------------------------------------ seats
    async def take_seat(self, seat: int, name: str) -> str:
        """Give an open invited seat to a person; returns the seat's secret token."""
        async with self.lock:
            if not 0 <= seat < len(self.seats):
                raise RoomError(f"there is no seat {seat + 1} in this room", "bad", "no_seat", {"seat": seat + 1})
            current = self.seats[seat]
            if current.kind != "invite":
                raise RoomError(f"seat {seat + 1} is not open to join", "forbidden", "seat_closed", {"seat": seat + 1})
            if current.token_hash:
                raise RoomError(f"seat {seat + 1} is already taken", "forbidden", "seat_taken", {"seat": seat + 1})
            token = new_token()
            record = replace(current, name=clean_name(name, current.name), token_hash=hash_token(token))
            try:
                await self.store.write("set_seat", self.code, seat, record, current.token_hash)
            except StorageConflict:
                await self._rebuild(remote=False)
                raise RoomError(
                    f"seat {seat + 1} is already taken", "forbidden", "seat_taken", {"seat": seat + 1}
                ) from None
            except StorageError as exc:
                log.error("room %s: a seat could not be saved: %s", self.code, exc)
                raise RoomError("the seat could not be saved; try again", "storage", "seat_unsaved") from None
            self.seats[seat] = record
            self.broadcast()
            return token

    def seats_for(self, tokens: list[str]) -> tuple[frozenset[int], list[str]]:
        """The seats these tokens hold, and complaints about tokens that fit no seat."""
        seats = set()
        bad = []
        for t in tokens:
            p = self.seat_for_token(t)
            if p is None:
                bad.append("a seat token does not belong to this room (a wrong or old link?)")
            else:
                seats.add(p)
        return frozenset(seats), bad

    def check_room_for(self, seats: frozenset[int]) -> None:
        """Refuse a connection when its kind is full: spectators and seat holders are counted apart, so
        watchers can never take a player's place."""
        watching = sum(1 for c in self.clients if not c.seats)
        if not seats and watching + self.unsaid >= self.settings.max_spectators:
            raise RoomError("this room has as many spectators as it can take", "full", "spectators_full")
        if seats and len(self.clients) - watching >= self.settings.max_clients_per_room:
            raise RoomError("this room has too many connections", "full", "full")

    def attach(self, client: Client, seats: frozenset[int]) -> None:
        """Add a connection holding these seats (already checked with :meth:`seats_for`)."""
        self.check_room_for(seats)
        client.seats = seats
        client.room = self
        self.clients.add(client)
        self.last_used = time.monotonic()
        self.broadcast(remote=False, state=False)
        if self.behind:  # changed elsewhere since this connection found the room: catch up now
            task = asyncio.get_running_loop().create_task(self.resync(self.version))
            _pending.add(task)
            task.add_done_callback(_pending.discard)

    def detach(self, client: Client) -> None:
        if client in self.clients:
            self.clients.discard(client)
            self.broadcast(remote=False, state=False)

    # ------------------------------------------------------------------ finished games
    def step(self, version: int) -> dict[str, Any]:
        """A finished game at log position ``version`` (0 = the start), as a spectator sees it."""
        if not self.is_over():
            raise RoomError("the game is still being played; step through it when it is over", "forbidden", "not_over")
        return step_view(self.match, version)
