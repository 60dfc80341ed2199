"""What the web platform's modules share: limits, errors, seat tokens and the cleaning of names."""

from __future__ import annotations

import functools
import hashlib
import logging
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Protocol

from ..ai import bot_names
from ..match import RoomError, engine_error

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "SEAT_KINDS",
    "RoomError",
    "Sender",
    "Settings",
    "ai_names",
    "clean_name",
    "engine_error",
    "hash_token",
    "new_token",
]

log = logging.getLogger("polytable.web")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Room codes avoid look-alikes (0/O, 1/I/L) so they can be read aloud across a table."""
CODE_LENGTH = 5
SEAT_KINDS = ("here", "invite", "ai")


@dataclass(frozen=True)
class Settings:
    """Limits and timings of one server (tests and benchmarks shorten the AI delay)."""

    ai_delay: float = 0.6
    """Seconds an AI waits before acting, so people can follow its moves (0 in benchmarks)."""
    legal_limit: int = 2000
    """At most this many legal actions are listed per seat; the rest are typed as notation."""
    max_message: int = 8192
    """Largest WebSocket message accepted, in characters."""
    rate: float = 15.0
    """Messages per second a connection may send on average ..."""
    burst: int = 40
    """... and in one burst; beyond that messages are refused, and a sustained flood closes the socket."""
    max_rooms: int = 10_000
    """Rooms kept in memory at once (finished rooms are dropped first and reloaded when asked for)."""
    max_clients_per_room: int = 64
    """Connections holding seats one room accepts (a player may have several tabs open) ..."""
    max_spectators: int = 64
    """... and spectators, counted apart: watchers never take a player's place."""
    standby_ai: float = 3.0
    """Seconds (after the AI delay) a process waits before playing an AI seat another process should play."""
    rooms_per_minute: int = 60
    """Rooms one address may create per minute."""
    hello_timeout: float = 5.0
    """Seconds a new socket has to say hello; then it is closed. Until it does it counts against the room's
    spectators, so sockets that never speak cannot pile up."""
    ai_threads: int = 2
    public_url: str = ""
    """The address players open behind a proxy or a domain (``--public-url``): every invite link carries it."""
    network_url: str = ""
    """This machine's address on its network when the server listens there: it replaces a loopback address
    in invite links, so a room made on the serving computer invites phones by an address they can open."""
    tls_ca: str = ""
    """The table's own certificate authority (``serve --https``), served at ``/tls/ca.crt`` for phones."""


@functools.cache
def ai_names(game_id: str) -> tuple[str, ...]:
    """The AIs a game offers (those a table may seat as they are), looked up once per process:
    ``bot_names`` scans the installed plugins' entry points on every call, a large share of a room
    creation's CPU (docs/benchmarks/design-figures.md)."""
    return tuple(bot_names(game_id, offered=True))


class Sender(Protocol):
    """What a room needs from a connection: send text and close (a Starlette WebSocket is one)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_code() -> str:
    """A random room code: one draw below ``len(CODE_ALPHABET) ** CODE_LENGTH`` written in that alphabet, so
    every code is equally likely (one system call, where a choice per character made five)."""
    n = secrets.randbelow(len(CODE_ALPHABET) ** CODE_LENGTH)
    chars = []
    for _ in range(CODE_LENGTH):
        n, i = divmod(n, len(CODE_ALPHABET))
        chars.append(CODE_ALPHABET[i])
    return "".join(chars)


def clean_name(raw: object, fallback: str) -> str:
    """A player name as shown to others: printable, single-spaced, 1-24 characters.

    Control and format characters (which could hide or reorder text) are removed; HTML is *not* stripped
    here because the client always inserts names as text, never as markup.
    """
    if raw is None or raw == "":
        return fallback
    if not isinstance(raw, str):
        raise RoomError("a name must be text", reason="name_text")
    text = "".join(ch for ch in raw if unicodedata.category(ch)[0] not in ("C",))
    text = " ".join(text.split())
    if not text:
        return fallback
    if len(text) > 24:
        raise RoomError(
            f"the name {text[:24]!r}... is too long (at most 24 characters)", reason="name_long", params={"max": 24}
        )
    return text
