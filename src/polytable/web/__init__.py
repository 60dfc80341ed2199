"""The web platform: rooms on phones and desktops, served by one Starlette app (``polytable serve``).

The server is authoritative: every action goes through :class:`polytable.match.Match`, is committed to
the database before anyone hears of it, and each seat receives only its own view. The browser client
(``static/``) is plain ES modules and SVG, served as files: no build step, no CDN.
"""

from ._app import app_from_env, create_app
from ._base import RoomError, Settings
from ._hub import Hub
from ._ops import configure_logging
from ._records import Health, health
from ._rooms import Room

__all__ = [
    "Health",
    "Hub",
    "Room",
    "RoomError",
    "Settings",
    "app_from_env",
    "configure_logging",
    "create_app",
    "health",
]
