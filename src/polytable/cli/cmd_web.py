"""``polytable serve``: the web app (rooms for phones and desktops) on uvicorn."""

from __future__ import annotations

import socket
from typing import Annotated

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_cmd(
        host: Annotated[str, typer.Option("--host", help="Address to listen on (0.0.0.0: the whole LAN).")] = (
            "127.0.0.1"
        ),
        port: Annotated[int, typer.Option("--port", min=0, max=65535, help="TCP port.")] = 8000,
        db: Annotated[
            str, typer.Option("--db", help="SQLAlchemy database URL (default: SQLite file polytable.db here).")
        ] = "sqlite:///polytable.db",
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
            from ..web import Settings, create_app
        except ImportError as exc:  # the web extras are not installed
            typer.echo(f"error: the web app needs starlette, uvicorn and sqlalchemy ({exc})", err=True)
            raise typer.Exit(2) from None
        try:
            web_app = create_app(db, Settings(ai_delay=ai_delay, rooms_per_minute=rooms_per_minute))
        except StorageError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        typer.echo(f"polytable is serving on http://{shown}:{port}/  (database {redact_url(db)}; Ctrl+C stops)")
        if host in ("0.0.0.0", "::"):
            lan = _lan_address()
            if lan:
                typer.echo(f"phones on the same network: http://{lan}:{port}/")
        uvicorn.run(
            web_app,
            host=host,
            port=port,
            log_level="warning",
            ws_max_size=65536,
            ws_ping_interval=20.0,
            ws_per_message_deflate=False,
        )


def _lan_address() -> str | None:
    """This machine's address as its own name resolves (a hint for phones; nothing is sent anywhere)."""
    try:
        addr = socket.gethostbyname(socket.gethostname())
    except OSError:
        return None
    return None if addr.startswith("127.") else addr
