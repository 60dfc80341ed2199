"""The hub: every room of one server, their creation and loading, group commit and worker pools."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from ..core import ConfigError, PolytableError, StateFormatError, get_game
from ..match import Match
from ..storage import RoomRecord, SeatRecord, Storage, StorageConflict, StorageError
from ._base import (
    CODE_ALPHABET,
    SEAT_KINDS,
    RoomError,
    Settings,
    ai_names,
    clean_name,
    engine_error,
    hash_token,
    new_code,
    new_token,
)
from ._bus import Broadcaster, LocalBroadcaster
from ._clock import Clock, TimeControl
from ._companion import supports
from ._records import health
from ._rooms import Room, build_match, default_seat_name
from ._store import RoomStore

__all__ = ["Hub"]

log = logging.getLogger("polytable.web")

MAX_OPTIONS = 64
"""Most options a room request may name (every game has far fewer; unknown ones are refused by the game)."""


class Hub:
    """All rooms of one server: creation, loading (lazily, from storage), and the worker pools.

    The hub owns the :class:`RoomStore` and the :class:`Broadcaster` and hands both to every room it
    makes; with a pub/sub broadcaster it also reloads the rooms other processes changed.
    """

    def __init__(
        self, storage: Storage, settings: Settings | None = None, broadcaster: Broadcaster | None = None
    ) -> None:
        self.storage = storage
        self.store = RoomStore(storage)
        self.broadcaster: Broadcaster = broadcaster or LocalBroadcaster()
        self.settings = settings or Settings()
        self.rooms: dict[str, Room] = {}
        self.ai_pool = ThreadPoolExecutor(self.settings.ai_threads, thread_name_prefix="polytable-ai")
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._missed: set[str] = set()  # rooms another process changed while they were being loaded here
        self._tasks: set[asyncio.Task[None]] = set()
        self.damaged: dict[str, str] = {}
        """Rooms found unable to continue since start-up (code -> why), for the operator's metric."""

    def _room(self, record: RoomRecord, match: Match) -> Room:
        return Room(record, match, self.store, self.broadcaster, self.settings, self.ai_pool)

    async def run_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a storage read on the one database thread (never on the event loop)."""
        return await self.store.read(fn, *args)

    async def write(self, op: str, *args: Any) -> None:
        """Commit one write through the group-commit store (see :meth:`RoomStore.write`)."""
        await self.store.write(op, *args)

    async def start(self) -> None:
        """Start listening for other processes' changes (a no-op with the local broadcaster)."""
        await self.broadcaster.start(self.remote_change, self.resync_all)

    def remote_change(self, code: str, version: int) -> None:
        """Another process changed room ``code`` to ``version``: reload it here if it is loaded and watched
        (connections, AI seats or clocks here). A room nobody here watches or uses is let go (it is read
        fresh from the database if someone asks for it: a room made through this process and played
        through another is not held here for nothing); one in use without watchers is only marked to be
        reloaded when it is next used. Either way a change costs nothing where nobody looks."""
        room = self.rooms.get(code)
        if room is None:
            if code in self._loading:  # being read now, perhaps from before this change: read it again after
                self._missed.add(code)
            return  # not loaded here: it is read fresh from the database when someone asks for it
        if not room.watched():
            if self._unused(room):
                del self.rooms[code]
            else:
                room.behind = True
            return
        task = asyncio.get_running_loop().create_task(room.resync(version))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def resync_all(self) -> None:
        """Room changes may have been missed (the pub/sub was unreachable): every loaded room is brought up
        to the database, at once where it is watched, on its next use otherwise."""
        for room in list(self.rooms.values()):
            self.remote_change(room.code, room.version)

    def close(self) -> None:
        for room in self.rooms.values():
            if room.ai_task is not None:
                room.ai_task.cancel()
            room.timer.cancel()
        self.ai_pool.shutdown(wait=False, cancel_futures=True)
        self.store.close()

    async def resume_all(self) -> int:
        """Load every unfinished room (after a restart) and let its AI seats go on; returns how many. Each room
        is announced to the other processes as the database holds it: a move this process committed just
        before it died may never have been published, and a process still showing the room without it would
        wait for a move that was already made (its players stuck on a turn that is over)."""
        codes = await self.run_db(self.storage.list_rooms, True)
        n = 0
        for code in codes:
            try:
                room = await self.get(code)
            except StorageError as exc:  # one unreadable room is that room's problem: the others start
                log.error("room %s cannot be loaded: %s", code, exc)
                self.damaged[code] = str(exc)
                continue
            if room is not None:
                room.kick_ai()
                self.broadcaster.changed(room)
                n += 1
        return n

    async def get(self, code: str) -> Room | None:
        """The room with this code, loaded from storage if needed; None if there is none."""
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            room.last_used = time.monotonic()
            if room.behind:
                await room.resync(room.version)
            return room
        if not code or len(code) > 16 or any(ch not in CODE_ALPHABET for ch in code):
            return None
        pending = self._loading.get(code)
        if pending is not None:
            return await pending
        fut: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = fut
        try:
            self._missed.discard(code)
            room = await self._load(code)
            if room is not None and code in self._missed:  # changed elsewhere while it was read: catch up
                self._missed.discard(code)
                await room.resync(room.version)
            fut.set_result(room)
            return room
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # mark retrieved: a waiter re-raises it
            raise
        finally:
            del self._loading[code]

    async def _load(self, code: str) -> Room | None:
        record = await self.run_db(self.storage.load_room, code)
        if record is None:
            return None
        room = None
        if record.damage is None:
            try:
                if record.mode == "companion":
                    room = self._room(record, Match(record.game, record.options, record.players, record.seed))
                else:
                    room = self._room(record, build_match(record))
            except PolytableError:
                room = None  # a rules version changed under a stored game, or the log does not replay
        if room is None:
            room = self._damaged(record)
        self._evict()
        self.rooms[code] = room
        if room.mode == "play" and not room.failed:
            await room.start()  # a crash between creating a room and dealing its first card: deal it now
        return room

    def _damaged(self, record: RoomRecord) -> Room:
        """A room whose stored log cannot be played to its end: held at its last consistent position and
        stopped, with the reason for its players, a log line and a count for the operator (the metric
        ``polytable_rooms_damaged``); every other room carries on. ``polytable rooms repair`` cuts it back."""
        found = health(record)
        log.error(
            "room %s cannot be continued: %s (%d of %d log entries replay; `polytable rooms repair %s` cuts it back)",
            record.code,
            found.problem,
            found.consistent,
            found.stored,
            record.code,
        )
        self.damaged[record.code] = str(found.problem)
        if found.match is None:
            raise StorageError(f"room {record.code} cannot be continued: {found.problem}")
        room = self._room(replace(record, actions=record.actions[: found.consistent]), found.match)
        room.fail(
            f"this room cannot be continued: its saved game is damaged after move {found.consistent}",
            "damaged",
            {"moves": found.consistent},
        )
        return room

    def release(self, room: Room) -> None:
        """A connection left ``room``: a finished game nobody watches any more is let go (it is read again
        from the database if someone asks for it), so its history does not stay in memory, where the
        collector would walk it (finished rooms were kept up to ``max_rooms``, and their states were most of
        the heap the collector's pauses scanned under load, see docs/web.md)."""
        if self.rooms.get(room.code) is room and room.is_over() and self._unused(room):
            del self.rooms[room.code]

    @staticmethod
    def _unused(room: Room) -> bool:
        """Nothing here holds the room: no connection (nor a socket yet to say hello), no change being
        made or committed, no AI thinking."""
        return (
            not room.clients
            and not room.unsaid
            and not room.committing
            and not room.lock.locked()
            and (room.ai_task is None or room.ai_task.done())
        )

    def _evict(self) -> None:
        if len(self.rooms) < self.settings.max_rooms:
            return
        idle = sorted(
            (r for r in self.rooms.values() if not r.clients and (r.ai_task is None or r.ai_task.done())),
            key=lambda r: (not r.is_over(), r.last_used),
        )
        for r in idle[: max(1, len(idle) // 10)]:
            del self.rooms[r.code]

    async def create(self, request: Mapping[str, Any]) -> tuple[Room, dict[int, str]]:
        """Create a room from a client's request; returns it and the tokens of its ``here`` seats."""
        game_id = request.get("game")
        if not isinstance(game_id, str):
            raise RoomError("say which game to play: a game id from /api/games", reason="no_game")
        try:
            game = get_game(game_id)
        except ConfigError as exc:
            raise RoomError(str(exc), reason="unknown_game", params={"game": game_id[:40]}) from None
        spec = game.spec
        mode = request.get("mode", "play")
        if mode not in ("play", "companion"):
            raise RoomError("the mode is play or companion", reason="bad_mode")
        if mode == "companion" and not supports(spec.id):
            raise RoomError(
                f"{spec.name} has no companion mode (it deals no cards)",
                reason="no_companion",
                params={"game": spec.id},
            )
        players = request.get("players", spec.default_players)
        if isinstance(players, bool) or not isinstance(players, int):
            raise RoomError("the number of players must be a whole number", reason="bad_players")
        if not spec.min_players <= players <= spec.max_players:  # before any seat is made: a request's cost is
            raise RoomError(  # bounded by the game, not by what it asks for
                f"{spec.name} is for {spec.min_players} to {spec.max_players} players",
                reason="player_count",
                params={"min": spec.min_players, "max": spec.max_players},
            )
        options = request.get("options") or {}
        if not isinstance(options, dict):
            raise RoomError("options must be an object of name: value", reason="bad_options")
        if len(options) > MAX_OPTIONS:
            raise RoomError(
                f"give at most {MAX_OPTIONS} options", reason="too_many_options", params={"max": MAX_OPTIONS}
            )
        seed = request.get("seed")
        if seed is None:
            seed = secrets.randbits(48)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise RoomError("the seed must be a whole number from 0 to 2^63 - 1", reason="bad_seed")
        control = TimeControl.parse(request.get("time_control"))
        if control.kind != "none" and mode != "play":
            raise RoomError("a companion room has no clocks: it only deals cards", reason="companion_clock")
        raw_seats = request.get("seats")
        if raw_seats is None:
            raw_seats = [{"kind": "here"} for _ in range(players)]
        if not isinstance(raw_seats, list):
            raise RoomError(
                f"seats must be a list of {players} seat objects", reason="seats_list", params={"n": players}
            )
        if len(raw_seats) != players:
            raise RoomError(f"give exactly {players} seats", reason="seat_count", params={"n": players})
        seats: list[SeatRecord] = []
        tokens: dict[int, str] = {}
        ais = ai_names(spec.id)
        for p, raw in enumerate(raw_seats):
            if not isinstance(raw, dict):
                raise RoomError(f"seat {p + 1} must be an object", reason="seat_object", params={"seat": p + 1})
            kind = raw.get("kind", "here")
            if kind not in SEAT_KINDS:
                raise RoomError(
                    f"seat {p + 1}: the kind is here, invite or ai, not {str(kind)[:20]!r}",
                    reason="seat_kind",
                    params={"seat": p + 1, "kind": str(kind)[:20]},
                )
            ai = None
            if kind == "ai":
                ai = raw.get("ai") or ("greedy" if "greedy" in ais else ais[0])
                if ai not in ais:
                    raise RoomError(
                        f"seat {p + 1}: no AI named {str(ai)[:30]!r} (AIs: {', '.join(ais)})",
                        reason="no_ai",
                        params={"seat": p + 1, "ai": str(ai)[:30], "ais": ", ".join(ais)},
                    )
            fallback = default_seat_name(p, str(ai) if ai else None)
            name = clean_name(raw.get("name"), fallback)
            token_hash = ""
            if kind == "here":
                token = new_token()
                tokens[p] = token
                token_hash = hash_token(token)
            seats.append(SeatRecord(name=name, kind=kind, ai=ai, token_hash=token_hash))
        try:
            match = Match(game, options, players, seed)
        except (ConfigError, StateFormatError) as exc:
            raise engine_error(exc) from None
        record = RoomRecord(
            code="",
            game=spec.id,
            rules_version=spec.rules_version,
            players=players,
            options={k: v for k, v in match.config.entries},
            seed=seed,
            seats=tuple(seats),
            mode=mode,
            created=time.time(),
            clock=Clock.start(control, players, time.time()).to_json() if control.kind != "none" else None,
        )
        return await self._insert(record, match), tokens

    async def _insert(self, record: RoomRecord, match: Match) -> Room:
        """Store a new room under a fresh code, hold it and start it.

        A room to play is stored already dealt: its opening chance events (the first card, the first roll)
        are resolved first and written with the room, and its clocks already run for the first seats to act,
        so a new room costs one commit instead of two (three with clocks)."""
        if record.mode == "play":
            match.resolve_chance()
            record = replace(record, actions=[(e.player, e.action) for e in match.log], finished=match.is_over())
            clock = Clock.from_json(record.clock)
            if clock is not None and not match.is_over():
                clock.turn(time.time(), (), match.acting_players())
                record = replace(record, clock=clock.to_json())
        for _ in range(20):
            code = new_code()
            if code in self.rooms:
                continue
            stored = replace(record, code=code)
            try:
                await self.write("create_room", stored)
            except StorageError:
                if await self.run_db(self.storage.room_exists, code):
                    continue
                raise
            break
        else:
            raise RoomError("no free room code was found; try again", "storage", "no_code")
        room = self._room(stored, match)
        self._evict()
        self.rooms[code] = room
        if record.mode == "play":
            await room.start()
        return room

    async def rematch(self, room: Room, seats: frozenset[int]) -> str:
        """The code of the finished room's rematch (made now if nobody asked yet): the same game, options,
        seats and time control on a new deal; each seat keeps its token, so every device keeps its seats."""
        if not room.is_over() or room.mode != "play":
            raise RoomError("a rematch is offered once the game is over", "forbidden", "rematch_not_over")
        if not seats:
            raise RoomError("only the players of a room can ask for its rematch", "forbidden", "rematch_not_seated")
        async with room.lock:
            if room.rematch:
                return room.rematch
            control = room.timer.clock.control if room.timer.clock else TimeControl()
            seed = secrets.randbits(48)
            match = Match(room.game, dict(room.match.config.entries), room.match.players, seed)
            record = RoomRecord(
                code="",
                game=room.game.spec.id,
                rules_version=room.game.spec.rules_version,
                players=room.match.players,
                options=dict(room.match.config.entries),
                seed=seed,
                seats=tuple(room.seats),
                created=time.time(),
                clock=Clock.start(control, room.match.players, time.time()).to_json()
                if control.kind != "none"
                else None,
            )
            fresh = await self._insert(record, match)
            try:
                await self.write("set_rematch", room.code, fresh.code)
            except StorageConflict:  # another process made one first: everybody goes to that one
                await room.reload()
                return room.rematch or fresh.code
            room.rematch = fresh.code
            room.broadcast()
            return fresh.code
