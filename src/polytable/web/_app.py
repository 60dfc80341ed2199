"""The Starlette application, assembled: storage, broadcaster, hub, HTTP routes, the room socket.

* HTTP routes: :mod:`._http` (rooms, games, printables, boards), each game's own routes and pages from
  its web extras (:mod:`.extras`, mounted by ``_http``), :mod:`._ops` (``/healthz``, ``/readyz``,
  ``/metrics``).
* WebSocket ``/ws/{code}``: :mod:`._ws` (one connection handler, a dispatch table of message types).
* Rooms get their storage and broadcaster from the hub (:mod:`._store`, :mod:`._bus`, :mod:`._pubsub`).
"""

from __future__ import annotations

import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from starlette.applications import Starlette
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from ..core import all_games
from ..storage import Storage, open_storage
from ._base import Settings, ai_names
from ._bus import Broadcaster
from ._http import STATIC, HttpApi, not_found
from ._hub import Hub
from ._ops import Metrics, ops_routes
from ._ws import serve_asgi

__all__ = ["app_from_env", "create_app"]

log = logging.getLogger("polytable.web")

_ROOM_SOCKET = "/ws/"


class _App(Starlette):
    """Starlette, with the room sockets (``/ws/CODE``) served on the raw ASGI calls before its router.

    Starlette's middleware and WebSocket class wrap every message of a socket; a room's socket needs none of
    it (see :class:`._ws.AsgiSocket`). Every other request, and any other socket path, goes through Starlette.
    """

    room_socket: Callable[[Scope, Receive, Send], Awaitable[None]] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and self.room_socket is not None:
            path: str = scope["path"][len(scope.get("root_path", "")) :]
            if path.startswith(_ROOM_SOCKET) and path.count("/") == 2 and len(path) > len(_ROOM_SOCKET):
                await self.room_socket(scope, receive, send)
                return
        await super().__call__(scope, receive, send)


def create_app(
    storage: Storage | str | None = None,
    settings: Settings | None = None,
    resume: bool = True,
    broadcaster: Broadcaster | None = None,
) -> Starlette:
    """The web app on a storage (an object, a SQLAlchemy URL, or None for ``sqlite:///polytable.db``).

    With ``resume`` every unfinished room is loaded at start-up and its AI seats carry on playing.
    ``broadcaster`` carries room changes to other processes (default: this process only).
    """
    store: Storage = open_storage(storage) if storage is None or isinstance(storage, str) else storage
    hub = Hub(store, settings, broadcaster)
    metrics = Metrics(hub)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # Every game imported before the first request (each --workers process imports its own), and the
        # AIs each offers: looked up at the first room made, they would slow that request down.
        for game in all_games():
            ai_names(game.spec.id)
        await hub.start()
        if resume:
            n = await hub.resume_all()
            if n:
                log.info("resumed %d unfinished rooms", n)
        try:
            yield
        finally:
            await hub.broadcaster.close()
            hub.close()
            store.close()

    async def room_socket(scope: Scope, receive: Receive, send: Send) -> None:
        await serve_asgi(scope, receive, send, hub, metrics)

    routes = [
        *HttpApi(hub).routes(),
        *ops_routes(hub, metrics),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
        Route("/{path:path}", not_found, methods=["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"]),
    ]
    app = _App(routes=routes, lifespan=lifespan)
    app.room_socket = room_socket
    app.state.hub = hub
    app.state.metrics = metrics
    return app


GC_THRESHOLD = (50_000, 50, 100)
"""The collector's thresholds in a serving process (Python's default is 700, 10, 10)."""


def tune_gc() -> None:
    """Collect garbage less often in a serving process, and never scan what was loaded before serving.

    A state message allocates thousands of short-lived objects (views, legal moves, JSON pieces), so with
    the default thresholds the cyclic collector ran every few actions and walked every module, game table
    and room held. Raising the youngest generation's threshold and freezing the start-up heap lowers both the
    CPU per action and the tail latency (measured in docs/web.md). Memory is still freed at once by
    reference counting; only cycles wait longer."""
    gc.set_threshold(*GC_THRESHOLD)
    gc.freeze()


def app_from_env() -> Starlette:
    """The app ``polytable serve`` describes in ``POLYTABLE_SERVE_*`` variables (each ``--workers``
    process builds its own from them); the process's collector is tuned for serving (:func:`tune_gc`)."""
    import os

    from ._pubsub import RedisBroadcaster

    env = os.environ
    pubsub = env.get("POLYTABLE_SERVE_PUBSUB") or None
    settings = Settings(
        ai_delay=float(env.get("POLYTABLE_SERVE_AI_DELAY", "0.6")),
        rooms_per_minute=int(env.get("POLYTABLE_SERVE_ROOMS_PER_MINUTE", "60")),
        public_url=env.get("POLYTABLE_SERVE_PUBLIC_URL", ""),
        network_url=env.get("POLYTABLE_SERVE_NETWORK_URL", ""),
        tls_ca=env.get("POLYTABLE_SERVE_TLS_CA", ""),
    )
    app = create_app(
        env.get("POLYTABLE_SERVE_DB", "sqlite:///polytable.db"),
        settings,
        broadcaster=RedisBroadcaster(pubsub) if pubsub else None,
    )
    tune_gc()
    return app
