"""The SQLAlchemy implementation of :class:`~polytable.storage.Storage`: SQLite by default, PostgreSQL
(``postgresql+psycopg://``, psycopg 3) for a site with several server processes.

The tables are in :mod:`._schema` and reach the newest schema through Alembic on opening (:mod:`._migrate`).
SQLite runs in WAL mode with ``synchronous=FULL``: a commit is on disk before the call returns, which is
what lets the server promise that an action it announced survives a SIGKILL or a power cut; PostgreSQL
commits durably by default. A write refused by a key or an expectation raises :class:`StorageConflict`.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import select as select_module
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from sqlalchemy import and_, bindparam, create_engine, delete, event, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from ._migrate import upgrade
from ._protocol import RoomRecord, SeatRecord, StorageConflict, StorageError
from ._schema import actions, rooms, seats

__all__ = ["SqlStorage", "open_storage", "redact_url"]

_rooms, _seats, _actions = rooms, seats, actions


_SECRET_PARAMS = re.compile(r"(?i)([?&;](?:password|passwd|pass|pwd|secret|token|sslpassword)=)([^&;#]*)")
"""Query parameters that carry a secret: SQLAlchemy's drivers and Redis both take ``?password=...``."""


def redact_url(url: str) -> str:
    """A URL (a database's or Redis's) as it may be printed or logged: the password of its user part and
    every query parameter that carries a secret replaced by ``***``."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return "(a URL that cannot be read)"  # not scheme://...: where a password would be is unknown
    query = rest.find("?")
    at = rest.rfind("@", 0, query if query >= 0 else len(rest))  # a password may hold "/" or "@" itself
    if at >= 0:
        user, colon, _ = rest[:at].partition(":")
        rest = f"{user}:***{rest[at:]}" if colon else rest
    return f"{scheme}://" + _SECRET_PARAMS.sub(r"\1***", rest)


def open_storage(url: str | None = None) -> SqlStorage:
    """A storage on a SQLAlchemy URL (default: ``sqlite:///polytable.db`` in the working directory)."""
    return SqlStorage(url or "sqlite:///polytable.db")


class SqlStorage:
    """Rooms and action logs in any database SQLAlchemy speaks. Safe to call from several threads."""

    def __init__(self, url: str) -> None:
        kwargs: dict[str, Any] = {}
        self.url = redact_url(url)
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False}
            if url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
        # No pre-ping (a round trip before every transaction): a connection found dead by its first statement
        # is dropped with the whole pool and the transaction run once more on a new one (see _do).
        try:
            self.engine: Engine = create_engine(url, **kwargs)
        except (SQLAlchemyError, ValueError, ImportError) as exc:
            raise StorageError(f"cannot open the database {self.url}: {_no_url(exc, url)}") from None
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._lock = threading.Lock()  # SQLite has one writer; serialising here avoids 'database is locked'
        self._direct = _PgDirect(self.engine) if _PgDirect.fits(self.engine) else None
        try:
            upgrade(self.engine)
        except SQLAlchemyError as exc:
            raise StorageError(f"cannot bring the tables of {self.url} up to date: {_no_url(exc, url)}") from None

    def ping(self) -> None:
        """Raise StorageError unless the database answers a trivial query (for readiness checks)."""
        self._do(lambda conn: conn.execute(select(1)), write=False)

    # ------------------------------------------------------------------ writes
    def create_room(self, room: RoomRecord) -> None:
        self._do(lambda conn: _create_room(conn, room))

    def append_actions(
        self, code: str, start: int, actions: Sequence[tuple[int, str]], finished: bool, clock: str | None = None
    ) -> None:
        self._do(lambda conn: _append_actions(conn, code, start, actions, finished, clock))

    def set_rematch(self, code: str, rematch: str) -> None:
        self._do(lambda conn: _set_rematch(conn, code, rematch))

    def set_clock(self, code: str, clock: str | None, finished: bool = False) -> None:
        self._do(lambda conn: _set_clock(conn, code, clock, finished))

    def truncate_actions(self, code: str, length: int, expected: int | None = None) -> None:
        self._do(lambda conn: _truncate_actions(conn, code, length, expected))

    def set_seat(self, code: str, seat: int, record: SeatRecord, expected_hash: str | None = None) -> None:
        self._do(lambda conn: _set_seat(conn, code, seat, record, expected_hash))

    def batch(self, ops: Sequence[tuple[str, tuple[Any, ...]]]) -> list[StorageError | None]:
        """Several writes (method name, arguments) in one transaction: one disk sync for all of them.

        If the transaction fails, each write is tried again on its own so that only the faulty one fails.
        On PostgreSQL a batch of appends and new rooms alone (the moves of many rooms and the rooms just
        made, nearly every batch) is one statement on a connection kept for it (see :class:`_PgDirect`).
        """

        def together(conn: Any) -> None:
            i = 0
            while i < len(ops):  # a run of appends (the moves of many rooms) goes in two statements
                j = i
                while j < len(ops) and ops[j][0] == "append_actions":
                    j += 1
                if j > i:
                    _append_many(conn, [args for _, args in ops[i:j]])
                    i = j
                else:
                    _OPS[ops[i][0]](conn, *ops[i][1])
                    i += 1

        try:
            if self._direct is not None and _direct_fits(ops):
                with self._lock:  # the appender's one connection, one statement at a time
                    moved = self._direct.append(
                        [args for name, args in ops if name == "append_actions"],
                        [args[0] for name, args in ops if name == "create_room"],
                    )
                return [
                    _not_at_end(args[0], args[1]) if name == "append_actions" and args[0] not in moved else None
                    for name, args in ops
                ]
            self._do(together)
            return [None] * len(ops)
        except StorageError:
            if len(ops) == 1:
                raise
        out: list[StorageError | None] = []
        for name, args in ops:
            try:
                self._do(functools.partial(_one, name, args))
                out.append(None)
            except StorageError as exc:
                out.append(exc)
        return out

    # ------------------------------------------------------------------ reads
    def room_exists(self, code: str) -> bool:
        query = select(_rooms.c.code).where(_rooms.c.code == code)
        return bool(self._do(lambda conn: conn.execute(query).first() is not None, write=False))

    def load_room(self, code: str, since: int = 0) -> RoomRecord | None:
        def read(conn: Any) -> tuple[Any, tuple[SeatRecord, ...], list[Any]] | None:
            row = conn.execute(select(_rooms).where(_rooms.c.code == code)).mappings().first()
            if row is None:
                return None
            seats = conn.execute(select(_seats).where(_seats.c.room == code).order_by(_seats.c.seat)).mappings()
            seat_records = tuple(
                SeatRecord(name=s["name"], kind=s["kind"], ai=s["ai"], token_hash=s["token_hash"]) for s in seats
            )
            acts = conn.execute(
                select(_actions.c.pos, _actions.c.player, _actions.c.action)
                .where(and_(_actions.c.room == code, _actions.c.pos >= since))
                .order_by(_actions.c.pos)
            ).all()
            return row, seat_records, acts

        if self._direct is not None:
            with self._lock:  # the kept connection, one statement at a time
                found = self._direct.load(code, since)
        else:
            found = self._do(read, write=False)
        if found is None:
            return None
        row, seat_records, acts = found
        actions: list[tuple[int, str]] = []
        damage = None
        for pos, player, action in acts:
            if pos != since + len(actions):
                damage = f"the action log has a hole at position {since + len(actions)}"
                break
            actions.append((int(player), str(action)))
        try:
            options = json.loads(row["options"])
        except ValueError:
            raise StorageError(f"room {code}: its options are not JSON") from None
        return RoomRecord(
            code=row["code"],
            game=row["game"],
            rules_version=row["rules_version"],
            players=int(row["players"]),
            options=options,
            seed=int(row["seed"]),
            seats=seat_records,
            mode=row["mode"],
            created=float(row["created"]),
            finished=bool(row["finished"]),
            undone=int(row["undone"]),
            actions=actions,
            actions_from=since,
            clock=row["clock"],
            rematch=row["rematch"],
            damage=damage,
        )

    def list_rooms(self, unfinished_only: bool = False) -> list[str]:
        query = select(_rooms.c.code).order_by(_rooms.c.created)
        if unfinished_only:
            query = query.where(_rooms.c.finished.is_(False))
        return list(self._do(lambda conn: [str(r[0]) for r in conn.execute(query)], write=False))

    def close(self) -> None:
        if self._direct is not None:
            with self._lock:
                self._direct.close()
        self.engine.dispose()

    # ------------------------------------------------------------------ plumbing
    def _do(self, body: Callable[[Any], Any], write: bool = True) -> Any:
        """``body(connection)`` in one transaction, committed; run once more on a new connection if the first
        one was found dead by a statement (the database restarted since it was opened: nothing of this
        transaction was committed, so it is safe to run again). A failure at the commit is never retried:
        whether it was committed is unknown, and the room decides from what the database holds."""
        try:
            with _Tx(self, write) as conn:
                return body(conn)
        except _Stale:
            with _Tx(self, write) as conn:
                return body(conn)


class _Stale(StorageError):
    """A statement found the connection dead before anything was committed (see :meth:`SqlStorage._do`)."""


class _Tx:
    """A transaction that turns every database failure into a StorageError and commits on success."""

    def __init__(self, storage: SqlStorage, write: bool) -> None:
        self.storage = storage
        self.write = write
        self.cm: Any = None

    def __enter__(self) -> Any:
        if self.write:
            self.storage._lock.acquire()
        try:
            self.cm = self.storage.engine.begin()
            return self.cm.__enter__()
        except SQLAlchemyError as exc:
            if self.write:
                self.storage._lock.release()
            raise StorageError(f"database error: {exc}") from None

    def __exit__(self, et: Any, ev: Any, tb: Any) -> Literal[False]:
        try:
            self.cm.__exit__(et, ev, tb)
        except IntegrityError as exc:
            raise StorageConflict(f"database conflict: {exc}") from None
        except SQLAlchemyError as exc:
            raise StorageError(f"database error: {exc}") from None
        finally:
            if self.write:
                self.storage._lock.release()
        if isinstance(ev, IntegrityError):
            raise StorageConflict(f"database conflict: {ev}") from None
        if isinstance(ev, DBAPIError) and ev.connection_invalidated:
            raise _Stale(f"database error: {ev}") from None
        if ev is not None and isinstance(ev, SQLAlchemyError):
            raise StorageError(f"database error: {ev}") from None
        return False


_PLACEHOLDER = {"qmark": "?", "format": "%s", "pyformat": "%s"}
"""The positional placeholder of each DBAPI parameter style the appends are written in (sqlite3: qmark;
psycopg: pyformat)."""


def _create_room(conn: Any, room: RoomRecord) -> None:
    # Plain inserts with parameters (all seats, all opening log entries in one statement each): building a
    # statement with .values() per row cost more CPU than the database's own work; with a known parameter
    # style the SQL is written here and the rows go as tuples (see _append_many).
    created = room.created or time.time()
    values = {
        "code": room.code,
        "game": room.game,
        "rules_version": room.rules_version,
        "players": room.players,
        "options": json.dumps(room.options, sort_keys=True),
        "seed": str(room.seed),
        "mode": room.mode,
        "created": created,
        "finished": room.finished,
        "undone": room.undone,
        "updated": created,
        "clock": room.clock,
        "length": len(room.actions),
    }
    seat_rows = [{"room": room.code, "seat": i, **_seat_values(s)} for i, s in enumerate(room.seats)]
    action_rows = [{"room": room.code, "pos": i, "player": p, "action": a} for i, (p, a) in enumerate(room.actions)]
    mark = _PLACEHOLDER.get(conn.dialect.paramstyle)
    if mark is None:
        conn.execute(insert(_rooms), values)
        if seat_rows:
            conn.execute(insert(_seats), seat_rows)
        if action_rows:
            conn.execute(insert(_actions), action_rows)
        return
    for table, rows in ((_rooms, [values]), (_seats, seat_rows), (_actions, action_rows)):
        if rows:
            names = list(rows[0])
            conn.exec_driver_sql(
                f"INSERT INTO {table.name} ({', '.join(names)}) VALUES ({', '.join([mark] * len(names))})",
                [tuple(row[n] for n in names) for row in rows],
            )


def _append_actions(
    conn: Any, code: str, start: int, actions: Sequence[tuple[int, str]], finished: bool, clock: str | None = None
) -> None:
    values: dict[str, Any] = {"finished": finished, "updated": time.time(), "length": start + len(actions)}
    if clock is not None:
        values["clock"] = clock
    moved = conn.execute(update(_rooms).where(and_(_rooms.c.code == code, _rooms.c.length == start)).values(**values))
    if moved.rowcount != 1:
        raise StorageConflict(f"room {code}: the log is not {start} entries long; an append there would fork or gap it")
    if actions:
        rows = [{"room": code, "pos": start + i, "player": p, "action": a} for i, (p, a) in enumerate(actions)]
        conn.execute(insert(_actions), rows)


_TOUCH = {
    False: update(_rooms)
    .where(and_(_rooms.c.code == bindparam("b_code"), _rooms.c.length == bindparam("b_start")))
    .values(finished=bindparam("b_finished"), updated=bindparam("b_updated"), length=bindparam("b_length")),
    True: update(_rooms)
    .where(and_(_rooms.c.code == bindparam("b_code"), _rooms.c.length == bindparam("b_start")))
    .values(
        finished=bindparam("b_finished"),
        updated=bindparam("b_updated"),
        length=bindparam("b_length"),
        clock=bindparam("b_clock"),
    ),
}
"""The room row's update after an append, without and with the clocks (one statement for many rooms): it
moves the log's length on only from the position the append starts at."""


def _append_many(conn: Any, ops: Sequence[tuple[Any, ...]]) -> None:
    """Several rooms' :func:`_append_actions` in one transaction as one update per shape and one multi-row
    insert (executed for many rows at once), instead of two round trips to the database per room. The
    updates move each room's log length on only from its append's start: if fewer rows than rooms moved,
    one append would gap or fork its log and the whole transaction is refused (the batch then tries each
    write alone, see :meth:`SqlStorage.batch`).

    The statements are plain SQL with positional parameters (``exec_driver_sql``): SQLAlchemy's compiled
    insert turned every row's parameters into a dict and back, a large share of the database thread's CPU
    (which holds the interpreter's lock meanwhile; the figures: docs/benchmarks/design-figures.md)."""
    mark = _PLACEHOLDER.get(conn.dialect.paramstyle)
    rows: list[tuple[Any, ...]] = []
    touch: dict[bool, list[tuple[Any, ...]]] = {False: [], True: []}
    now = time.time()
    for args in ops:
        code, start, actions, finished, clock = (*args, None)[:5]
        rows += [(code, start + i, p, a) for i, (p, a) in enumerate(actions)]
        if clock is not None:
            touch[True].append((finished, now, start + len(actions), clock, code, start))
        else:
            touch[False].append((finished, now, start + len(actions), code, start))
    moved = 0
    if mark is None:  # a driver with another parameter style: the statements built by SQLAlchemy
        moved = _append_many_compiled(conn, rows, touch)
    else:
        set_clock = {False: "", True: f", clock = {mark}"}
        for with_clock, params in touch.items():
            if params:
                moved += _rowcount(
                    conn,
                    f"UPDATE {_rooms.name} SET finished = {mark}, updated = {mark}, length = {mark}"
                    f"{set_clock[with_clock]} WHERE code = {mark} AND length = {mark}",
                    params,
                )
        if rows:
            conn.exec_driver_sql(
                f"INSERT INTO {_actions.name} (room, pos, player, action) VALUES ({mark}, {mark}, {mark}, {mark})",
                rows,
            )
    if moved != len(ops):
        raise StorageConflict(f"{len(ops) - moved} of {len(ops)} appends do not start at their log's end")


def _rowcount(conn: Any, sql: str, params: list[tuple[Any, ...]]) -> int:
    """Rows an update changed, summed over its parameter sets (one statement per set when the driver does
    not sum an executemany's counts)."""
    if len(params) == 1 or conn.dialect.supports_sane_multi_rowcount:
        result = conn.exec_driver_sql(sql, params if len(params) > 1 else params[0])
        return int(result.rowcount)
    return sum(int(conn.exec_driver_sql(sql, p).rowcount) for p in params)


def _direct_fits(ops: Sequence[tuple[str, tuple[Any, ...]]]) -> bool:
    """Every write an append or a new room, each of another room (one statement can then make every new
    room and move every room's log)."""
    if not all(name in ("append_actions", "create_room") for name, _ in ops):
        return False
    codes = {args[0].code if name == "create_room" else args[0] for name, args in ops}
    return len(codes) == len(ops)


def _not_at_end(code: str, start: int) -> StorageConflict:
    return StorageConflict(f"room {code}: the log is not {start} entries long; an append there would fork or gap it")


_PG_MOVE = """
v AS (
    SELECT v->>0 AS code, (v->>1)::int AS start, (v->>2)::int AS length, (v->>3)::bool AS finished,
           v->>4 AS clock
    FROM jsonb_array_elements(%(moves)s::jsonb) AS v
), moved AS (
    UPDATE pt_rooms AS r
    SET finished = v.finished, updated = %(now)s, length = v.length, clock = coalesce(v.clock, r.clock)
    FROM v WHERE r.code = v.code AND r.length = v.start
    RETURNING r.code
), added AS (
    INSERT INTO pt_actions (room, pos, player, action)
    SELECT a->>0, (a->>1)::int, (a->>2)::int, a->>3
    FROM jsonb_array_elements(%(entries)s::jsonb) AS a
    JOIN moved ON moved.code = a->>0
)
SELECT code FROM moved
"""

_PG_APPEND = "WITH" + _PG_MOVE
"""Many rooms' appends as one statement, so one transaction with one round trip: each room's log length
moves on only from its append's start (else that room is left alone and its append refused), and only the
entries of the rooms that moved are inserted; the primary key still refuses a fork. The rooms and their
entries go as two JSON texts (``[[code, start, length, finished, clock], ...]`` and ``[[room, position,
player, action], ...]``): json.dumps makes them in C, where psycopg dumped nine arrays element by element in
Python, about a third of the database thread's CPU for a batch (docs/benchmarks/2026-12-05-two-processes-commits.md)."""

_PG_NEW_ROOMS = (
    """
WITH new_rooms AS (
    INSERT INTO pt_rooms (code, game, rules_version, players, options, seed, mode, created, finished, undone,
                          updated, clock, length)
    SELECT n->>0, n->>1, n->>2, (n->>3)::int, n->>4, n->>5, n->>6, (n->>7)::float8, (n->>8)::bool,
           (n->>9)::int, (n->>7)::float8, n->>10, (n->>11)::int
    FROM jsonb_array_elements(%(new_rooms)s::jsonb) AS n
), new_seats AS (
    INSERT INTO pt_seats (room, seat, name, kind, ai, token_hash)
    SELECT s->>0, (s->>1)::int, s->>2, s->>3, s->>4, s->>5 FROM jsonb_array_elements(%(new_seats)s::jsonb) AS s
), new_actions AS (
    INSERT INTO pt_actions (room, pos, player, action)
    SELECT o->>0, (o->>1)::int, (o->>2)::int, o->>3 FROM jsonb_array_elements(%(new_entries)s::jsonb) AS o
),"""
    + _PG_MOVE
)
"""The same statement with new rooms made first (their row, seats and opening log entries, as JSON texts
too; a code already taken fails the whole statement, and the batch's writes are then tried one by one)."""

_ROOM_COLUMNS = (
    "code",
    "game",
    "rules_version",
    "players",
    "options",
    "seed",
    "mode",
    "created",
    "finished",
    "undone",
    "clock",
    "rematch",
)
_PG_LOAD = f"""
SELECT {", ".join(_ROOM_COLUMNS)},
    ARRAY(SELECT name FROM pt_seats WHERE room = r.code ORDER BY seat),
    ARRAY(SELECT kind FROM pt_seats WHERE room = r.code ORDER BY seat),
    ARRAY(SELECT ai FROM pt_seats WHERE room = r.code ORDER BY seat),
    ARRAY(SELECT token_hash FROM pt_seats WHERE room = r.code ORDER BY seat),
    ARRAY(SELECT pos FROM pt_actions WHERE room = r.code AND pos >= %(since)s ORDER BY pos),
    ARRAY(SELECT player FROM pt_actions WHERE room = r.code AND pos >= %(since)s ORDER BY pos),
    ARRAY(SELECT action FROM pt_actions WHERE room = r.code AND pos >= %(since)s ORDER BY pos)
FROM pt_rooms AS r WHERE code = %(code)s
"""
"""A room as :meth:`SqlStorage.load_room` reads it, in one statement: the row, then its seats' and its log's
columns as arrays."""


class _PgDirect:
    """The hot path on PostgreSQL, group-committed appends (with the rooms made since the last batch) and
    room reads, through a psycopg connection kept open for them (autocommit, prepared statements, one
    statement and one round trip each).

    Why: a batch through SQLAlchemy (a pool checkout, a Connection, BEGIN, an update and an executemany
    of the rows, COMMIT: four round trips) and a room's read (BEGIN, three selects, ROLLBACK) cost the
    database thread several times this path's CPU, and a second server process pays them more often (half
    the moves per group commit, and the rooms made by the other process read in; docs/web.md, "Several
    processes"; the figures: docs/benchmarks/web-load-log.md). Used under the storage's write lock only.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.conn: Any = None

    @staticmethod
    def fits(engine: Engine) -> bool:
        return engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg"

    def append(self, ops: Sequence[tuple[Any, ...]], new: Sequence[RoomRecord] = ()) -> set[str]:
        """The appends (``append_actions``' arguments, one per room) in one transaction, after making the
        ``new`` rooms in it; returns the rooms whose log moved (the others did not start at their log's
        end). Raises StorageConflict if a new room's code is taken (nothing of the statement is then
        committed), StorageError if the statement failed otherwise (whether it was committed is then
        unknown, as for any failed commit)."""
        moves: list[tuple[Any, ...]] = []
        entries: list[tuple[Any, ...]] = []
        for args in ops:
            code, start, actions, finished, clock = (*args, None)[:5]
            moves.append((code, start, start + len(actions), bool(finished), clock))
            entries.extend((code, start + i, player, action) for i, (player, action) in enumerate(actions))
        params: dict[str, Any] = {"moves": _json(moves), "entries": _json(entries), "now": time.time()}
        if new:
            params.update(_new_rooms(new))
        conn = self._connection()
        try:
            rows = conn.execute(_PG_NEW_ROOMS if new else _PG_APPEND, params, prepare=True).fetchall()
        except Exception as exc:  # psycopg's errors: the connection is dropped unless it is still usable
            if conn.broken or conn.closed:
                self.close()
            elif getattr(exc, "sqlstate", None) == _UNIQUE_VIOLATION:
                raise StorageConflict(f"database conflict: {exc}") from None
            raise StorageError(f"database error: {exc}") from None
        return {str(row[0]) for row in rows}

    def load(self, code: str, since: int) -> tuple[dict[str, Any], tuple[SeatRecord, ...], list[Any]] | None:
        """The room row, its seats and its log from ``since`` on, read by one statement (one snapshot).
        A read changes nothing, so one that failed on a connection is tried once more on a new one."""
        for attempt in range(2):
            conn = self._connection()
            try:
                row = conn.execute(_PG_LOAD, {"code": code, "since": since}, prepare=True).fetchone()
                break
            except Exception as exc:  # psycopg's errors
                if conn.broken or conn.closed:
                    self.close()
                    if not attempt:
                        continue
                raise StorageError(f"database error: {exc}") from None
        if row is None:
            return None
        names, kinds, ais, hashes, positions, players, actions = row[len(_ROOM_COLUMNS) :]
        seats = tuple(
            SeatRecord(name=n, kind=k, ai=a, token_hash=h) for n, k, a, h in zip(names, kinds, ais, hashes, strict=True)
        )
        return dict(zip(_ROOM_COLUMNS, row, strict=False)), seats, list(zip(positions, players, actions, strict=True))

    def _connection(self) -> Any:
        """The kept connection; a new one if it is closed or the server ended it while it was idle (an idle
        connection with something to read has been told it is over, as on a database restart): nothing was
        sent on it, so the batch is not lost."""
        conn = self.conn
        if conn is not None and (conn.closed or conn.broken or _readable(conn.fileno())):
            self.close()
            conn = None
        if conn is None:
            try:  # a new connection, not one from the pool (which may hold connections a restart ended)
                cargs, cparams = self.engine.dialect.create_connect_args(self.engine.url)
                conn = self.engine.dialect.connect(*cargs, **cparams)
                conn.autocommit = True
            except Exception as exc:
                raise StorageError(f"database error: {exc}") from None
            self.conn = conn
        return conn

    def close(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.close()
            self.conn = None


_UNIQUE_VIOLATION = "23505"
"""PostgreSQL's error code for a key already taken (a new room's code)."""


def _new_rooms(rooms: Sequence[RoomRecord]) -> dict[str, str]:
    """The parameters of :data:`_PG_NEW_ROOMS`' new rooms, as JSON texts of rows (the values
    :func:`_create_room` writes)."""
    made: list[tuple[Any, ...]] = []
    seated: list[tuple[Any, ...]] = []
    dealt: list[tuple[Any, ...]] = []
    for room in rooms:
        made.append(
            (
                room.code,
                room.game,
                room.rules_version,
                room.players,
                json.dumps(room.options, sort_keys=True),
                str(room.seed),
                room.mode,
                room.created or time.time(),
                room.finished,
                room.undone,
                room.clock,
                len(room.actions),
            )
        )
        seated.extend((room.code, i, *_seat_values(seat).values()) for i, seat in enumerate(room.seats))
        dealt.extend((room.code, i, player, action) for i, (player, action) in enumerate(room.actions))
    return {"new_rooms": _json(made), "new_seats": _json(seated), "new_entries": _json(dealt)}


def _json(rows: list[tuple[Any, ...]]) -> str:
    """Rows as one JSON text for ``jsonb_array_elements`` (a float keeps every digit: json writes the
    shortest text that reads back to the same value)."""
    return json.dumps(rows, separators=(",", ":"), allow_nan=False)


def _readable(fd: int) -> bool:
    try:
        return bool(select_module.select([fd], [], [], 0)[0])
    except (OSError, ValueError):
        return True


def _append_many_compiled(conn: Any, rows: list[tuple[Any, ...]], touch: dict[bool, list[tuple[Any, ...]]]) -> int:
    moved = 0
    for f, u, n, c, s in touch[False]:
        moved += conn.execute(
            _TOUCH[False], {"b_finished": f, "b_updated": u, "b_length": n, "b_code": c, "b_start": s}
        ).rowcount
    for f, u, n, k, c, s in touch[True]:
        moved += conn.execute(
            _TOUCH[True], {"b_finished": f, "b_updated": u, "b_length": n, "b_clock": k, "b_code": c, "b_start": s}
        ).rowcount
    if rows:
        conn.execute(insert(_actions), [{"room": r, "pos": n, "player": p, "action": a} for r, n, p, a in rows])
    return moved


def _set_rematch(conn: Any, code: str, rematch: str) -> None:
    result = conn.execute(
        update(_rooms).where(and_(_rooms.c.code == code, _rooms.c.rematch.is_(None))).values(rematch=rematch)
    )
    if result.rowcount != 1:
        raise StorageConflict(f"room {code} has a rematch already")


def _set_clock(conn: Any, code: str, clock: str | None, finished: bool = False) -> None:
    values: dict[str, Any] = {"clock": clock, "updated": time.time()}
    if finished:
        values["finished"] = True
    conn.execute(update(_rooms).where(_rooms.c.code == code).values(**values))


def _truncate_actions(conn: Any, code: str, length: int, expected: int | None = None) -> None:
    result = conn.execute(delete(_actions).where(and_(_actions.c.room == code, _actions.c.pos >= length)))
    if expected is not None and result.rowcount != expected - length:
        raise StorageConflict(f"room {code}: the log is not {expected} entries long any more")
    conn.execute(
        update(_rooms)
        .where(_rooms.c.code == code)
        .values(finished=False, undone=_rooms.c.undone + max(0, result.rowcount), updated=time.time(), length=length)
    )


def _set_seat(conn: Any, code: str, seat: int, record: SeatRecord, expected_hash: str | None = None) -> None:
    where = and_(_seats.c.room == code, _seats.c.seat == seat)
    if expected_hash is not None:
        where = and_(where, _seats.c.token_hash == expected_hash)
    result = conn.execute(update(_seats).where(where).values(**_seat_values(record)))
    if result.rowcount != 1:
        if expected_hash is not None:
            raise StorageConflict(f"room {code}: seat {seat + 1} was changed by someone else")
        raise StorageError(f"room {code} has no seat {seat + 1}")
    conn.execute(update(_rooms).where(_rooms.c.code == code).values(updated=time.time()))


def _one(name: str, args: tuple[Any, ...], conn: Any) -> None:
    _OPS[name](conn, *args)


_OPS: dict[str, Any] = {
    "create_room": _create_room,
    "append_actions": _append_actions,
    "truncate_actions": _truncate_actions,
    "set_seat": _set_seat,
    "set_clock": _set_clock,
    "set_rematch": _set_rematch,
}


def _seat_values(seat: SeatRecord) -> dict[str, Any]:
    return {"name": seat.name, "kind": seat.kind, "ai": seat.ai, "token_hash": seat.token_hash}


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    with contextlib.suppress(Exception):  # in-memory databases have no WAL; that is fine
        cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _no_url(exc: BaseException, url: str) -> str:
    """An exception's text with the raw URL (which may hold a password) replaced by its redacted form."""
    text = str(exc)
    return text.replace(url, redact_url(url)) if url else text
