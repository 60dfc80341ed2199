"""``polytable serve``: the web app (rooms for phones and desktops) on uvicorn.

One process on SQLite is the default (``make run``). A site runs several processes on PostgreSQL with
``--pubsub redis://...`` so that they share rooms live: either ``--workers N`` (N processes on one port)
or several ``serve`` processes behind one proxy (docs/web.md has the example). Secrets in the URLs are
never printed: the database and Redis URLs are shown with ``***`` for their passwords.
"""

from __future__ import annotations

import os
import socket
from typing import Annotated, Any

import typer

__all__ = ["register"]

ENV_PREFIX = "POLYTABLE_SERVE_"
"""How ``--workers`` hands the options to its processes (each builds its app from them)."""

SERVER_OPTIONS: dict[str, Any] = {
    "ws": "polytable.web._wsproto:RoomSocketProtocol",
    "log_level": "warning",
    "log_config": None,
    "ws_max_size": 65536,
    "ws_ping_interval": 20.0,
}
"""uvicorn's settings of ``serve`` besides the app, host, port and workers (the load benchmarks and the web
tests' server processes start the same server with them): the WebSocket protocol of ``web/_wsproto.py``
(RFC 6455 without extensions, leaner per message than uvicorn's own), bounded messages, pings every 20 s."""


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_cmd(
        host: Annotated[str, typer.Option("--host", help="Address to listen on (0.0.0.0: the whole LAN).")] = (
            "127.0.0.1"
        ),
        port: Annotated[int, typer.Option("--port", min=0, max=65535, help="TCP port.")] = 8000,
        db: Annotated[
            str,
            typer.Option(
                "--db",
                help="SQLAlchemy database URL: SQLite file polytable.db here by default; "
                "postgresql+psycopg://USER:PASSWORD@HOST/DB for several processes.",
            ),
        ] = "sqlite:///polytable.db",
        pubsub: Annotated[
            str | None,
            typer.Option("--pubsub", help="Redis URL (redis://HOST:PORT/N) through which processes share rooms."),
        ] = None,
        workers: Annotated[
            int, typer.Option("--workers", min=1, max=64, help="Server processes on this port (above 1: --pubsub).")
        ] = 1,
        log_format: Annotated[
            str, typer.Option("--log-format", help="Logs on standard error: text, or json (one object a line).")
        ] = "text",
        ai_delay: Annotated[float, typer.Option("--ai-delay", min=0.0, help="Seconds an AI waits before moving.")] = (
            0.6
        ),
        rooms_per_minute: Annotated[
            int, typer.Option("--rooms-per-minute", min=1, help="Rooms one address may create per minute.")
        ] = 60,
    ) -> None:
        """Serve the web app: create rooms, join them by code, link or QR from phones, play to the end."""
        try:
            import uvicorn

            from ..storage import StorageError, redact_url
            from ..web import app_from_env, configure_logging, redact_redis_url
        except ImportError as exc:  # the web extras are not installed
            typer.echo(f"error: the web app needs starlette, uvicorn and sqlalchemy ({exc})", err=True)
            raise typer.Exit(2) from None
        if log_format not in ("text", "json"):
            typer.echo("error: --log-format is text or json", err=True)
            raise typer.Exit(2)
        if pubsub is not None and not pubsub.startswith(("redis://", "rediss://", "unix://")):
            typer.echo("error: --pubsub takes a Redis URL: redis://HOST:PORT/N", err=True)
            raise typer.Exit(2)
        if workers > 1 and pubsub is None:
            typer.echo("error: --workers above 1 needs --pubsub redis://... so the processes share rooms", err=True)
            raise typer.Exit(2)
        if workers > 1 and db.startswith("sqlite"):
            typer.echo("error: --workers above 1 needs a database server (--db postgresql+psycopg://...)", err=True)
            raise typer.Exit(2)
        configure_logging(log_format)
        env = {
            "DB": db,
            "PUBSUB": pubsub or "",
            "AI_DELAY": str(ai_delay),
            "ROOMS_PER_MINUTE": str(rooms_per_minute),
        }
        os.environ.update({ENV_PREFIX + k: v for k, v in env.items()})
        web_app = None
        if workers == 1:
            try:
                web_app = app_from_env()
            except StorageError as exc:
                typer.echo(f"error: {exc}", err=True)
                raise typer.Exit(2) from None
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        where = f"database {redact_url(db)}"
        if pubsub:
            where += f", pub/sub {redact_redis_url(pubsub)}"
        if workers > 1:
            where += f", {workers} processes"
        typer.echo(f"polytable is serving on http://{shown}:{port}/  ({where}; Ctrl+C stops)")
        if host in ("0.0.0.0", "::"):
            lan = _lan_address()
            if lan:
                typer.echo(f"phones on the same network: http://{lan}:{port}/")
        uvicorn.run(
            web_app if web_app is not None else "polytable.web._app:app_from_env",
            factory=web_app is None,
            workers=workers if web_app is None else None,
            host=host,
            port=port,
            **SERVER_OPTIONS,
        )


def _lan_address() -> str | None:
    """This machine's address as its own name resolves (a hint for phones; nothing is sent anywhere)."""
    try:
        addr = socket.gethostbyname(socket.gethostname())
    except OSError:
        return None
    return None if addr.startswith("127.") else addr
