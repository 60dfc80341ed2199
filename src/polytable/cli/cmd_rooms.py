"""``polytable rooms check`` / ``polytable rooms repair ROOM``: find the web rooms whose stored log cannot be
played to its end, and cut one back to its last consistent position.

Why a command: a damaged room (a hole in its log, an entry the rules refuse) stops only itself in a running
server (its players are told it cannot be continued); the operator lists such rooms here and repairs one
while the servers run: the repair is one transaction, and the room's next load plays what is left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from ..storage import SqlStorage

__all__ = ["register"]

DB_HELP = "SQLAlchemy database URL of the server (as given to polytable serve --db)."


def register(app: typer.Typer) -> None:
    rooms = typer.Typer(help="Check and repair the rooms stored by the web server.", no_args_is_help=True)
    app.add_typer(rooms, name="rooms")

    @rooms.command("check")
    def check_cmd(
        db: Annotated[str, typer.Option("--db", help=DB_HELP)] = "sqlite:///polytable.db",
        everything: Annotated[bool, typer.Option("--all", help="Finished rooms too (by default: unfinished).")] = False,
    ) -> None:
        """List the rooms that cannot be continued and why (exit status 1 if there is one)."""
        storage = _open(db)
        try:
            codes = storage.list_rooms(unfinished_only=not everything)
            damaged = 0
            for code in codes:
                line = _check_one(storage, code)
                if line is not None:
                    damaged += 1
                    typer.echo(line)
        finally:
            storage.close()
        typer.echo(f"{len(codes)} rooms checked, {damaged} cannot be continued")
        if damaged:
            raise typer.Exit(1)

    @rooms.command("repair")
    def repair_cmd(
        room: Annotated[str, typer.Argument(metavar="ROOM", help="The room's code.")],
        db: Annotated[str, typer.Option("--db", help=DB_HELP)] = "sqlite:///polytable.db",
    ) -> None:
        """Cut a room's log back to its last consistent position, so it can be continued from there."""
        from ..storage import StorageError
        from ..web import health

        storage = _open(db)
        code = room.strip().upper()
        try:
            record = storage.load_room(code)
            if record is None:
                _fail(f"there is no room {code}")
            found = health(record)
            if not found.damaged:
                typer.echo(f"room {code} is whole ({found.stored} log entries replay); nothing to do")
                return
            if found.match is None:
                _fail(f"room {code} cannot be repaired: {found.problem}")
            storage.truncate_actions(code, found.consistent)
        except StorageError as exc:
            _fail(str(exc))
        finally:
            storage.close()
        typer.echo(f"room {code} was cut back to {found.consistent} log entries ({found.problem}); it can be continued")


def _open(db: str) -> SqlStorage:
    try:
        from ..storage import StorageError, open_storage
    except ImportError as exc:  # the web extras are not installed
        _fail(f"checking rooms needs sqlalchemy ({exc})")
    try:
        return open_storage(db)
    except StorageError as exc:
        _fail(str(exc))


def _check_one(storage: SqlStorage, code: str) -> str | None:
    from ..storage import StorageError
    from ..web import health

    try:
        record = storage.load_room(code)
    except StorageError as exc:
        return f"{code}: cannot be read: {exc}"
    if record is None:
        return None
    found = health(record)
    if not found.damaged:
        return None
    return f"{code} ({record.game}): {found.consistent} of {found.stored} log entries replay; {found.problem}"


def _fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)
