"""``polytable serve``: the web app (rooms for phones and desktops) on uvicorn.

One process on SQLite is the default (``make run``). A site runs several processes on PostgreSQL with
``--pubsub redis://...`` so that they share rooms live: either ``--workers N`` (N processes on one port)
or several ``serve`` processes behind one proxy (docs/web.md has the example). Secrets in the URLs are
never printed: the database and Redis URLs are shown with ``***`` for their passwords. Where it listens,
the addresses it prints for phones (with a QR code) and its https are :mod:`._serve_net`'s.
"""

from __future__ import annotations

import os
from pathlib import Path
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
    "proxy_headers": True,
    "forwarded_allow_ips": "",
}
"""uvicorn's settings of ``serve`` besides the app, host, port and workers (the load benchmarks and the web
tests' server processes start the same server with them): the WebSocket protocol of ``web/_wsproto.py``
(RFC 6455 without extensions, leaner per message than uvicorn's own), bounded messages, pings every 20 s,
and ``X-Forwarded-For`` / ``-Proto`` believed from no one (``--forwarded-allow-ips`` names the proxies to
believe; uvicorn's own default trusts 127.0.0.1, which let any local process pose as any client)."""


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_cmd(
        host: Annotated[
            str, typer.Option("--host", help="Address to listen on: 0.0.0.0 lets phones on this network in.")
        ] = "0.0.0.0",
        port: Annotated[int, typer.Option("--port", min=0, max=65535, help="TCP port.")] = 8000,
        local: Annotated[
            bool, typer.Option("--local", help="Listen on 127.0.0.1: only this computer can open the table.")
        ] = False,
        public_url: Annotated[
            str | None,
            typer.Option("--public-url", help="The address players open (a proxy or domain): invite links carry it."),
        ] = None,
        https: Annotated[
            bool, typer.Option("--https", help="Serve https with a certificate this computer makes (and keeps).")
        ] = False,
        tls_cert: Annotated[Path | None, typer.Option("--tls-cert", help="Serve https with this certificate.")] = None,
        tls_key: Annotated[Path | None, typer.Option("--tls-key", help="The private key of --tls-cert.")] = None,
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
        forwarded_allow_ips: Annotated[
            str,
            typer.Option(
                "--forwarded-allow-ips",
                help="Comma-separated addresses of proxies whose X-Forwarded-For names the client (default: none).",
            ),
        ] = "",
    ) -> None:
        """Serve the web app: create rooms, join them by code, link or QR from phones, play to the end."""
        try:
            import uvicorn

            from ..storage import StorageError, redact_url
            from ..web import app_from_env, configure_logging
            from ._serve_net import plan_serving
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
        try:
            plan = plan_serving(
                host, port, local=local, public_url=public_url, https=https, tls_cert=tls_cert, tls_key=tls_key
            )
        except ValueError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        configure_logging(log_format)
        env = {
            **plan.env(),
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
        where = f"database {redact_url(db)}"
        if pubsub:
            where += f", pub/sub {redact_url(pubsub)}"
        if workers > 1:
            where += f", {workers} processes"
        typer.echo(plan.banner(where))
        uvicorn.run(
            web_app if web_app is not None else "polytable.web._app:app_from_env",
            factory=web_app is None,
            workers=workers if web_app is None else None,
            host=plan.host,
            port=port,
            **plan.ssl,
            **{**SERVER_OPTIONS, "forwarded_allow_ips": forwarded_allow_ips},
        )
