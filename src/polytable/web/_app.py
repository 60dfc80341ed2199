"""The Starlette application, assembled: storage, broadcaster, hub, HTTP routes, the room socket.

* HTTP routes: :mod:`._http` (rooms, games, printables, boards), :mod:`._ops` (health and metrics).
* WebSocket ``/ws/{code}``: :mod:`._ws` (one connection handler, a dispatch table of message types).
* Rooms get their storage and broadcaster from the hub (:mod:`._store`, :mod:`._bus`, :mod:`._pubsub`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.routing import Mount, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from ..storage import Storage, open_storage
from ._base import Settings
from ._bus import Broadcaster
from ._http import STATIC, HttpApi
from ._hub import Hub
from ._ws import serve_socket

__all__ = ["create_app"]

log = logging.getLogger("polytable.web")


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

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
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

    async def ws_endpoint(websocket: WebSocket) -> None:
        await serve_socket(websocket, hub)

    routes = [
        *HttpApi(hub).routes(),
        WebSocketRoute("/ws/{code}", ws_endpoint),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app
