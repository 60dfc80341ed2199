"""The HTTP half of the web app: JSON routes for rooms, games, printables and boards, and the pages.

Routes hold no rules: they validate the shape and size of what arrives (every JSON body through
:func:`._limits.loads_bounded`), call :mod:`._hub` / :mod:`._rooms`, and turn :class:`RoomError` into a
JSON error: a ``reason`` (+ ``params``) the client shows from its translation files, and the English
sentence as the fallback (see :mod:`._i18n`). A storage failure is logged in full for the operator; the
player gets a translated reason and no driver text.

    ``GET /api/games``                       games, options, player ranges, AIs and board modules (the one
                                             game list of the client: home page, rules pages, boards)
    ``POST /api/rooms``                      create a room; returns its code, link and the tokens of the
                                             seats played on this device
    ``GET /api/rooms/{code}``                the room's public summary
    ``POST /api/rooms/{code}/join``          take an open invited seat: ``{"seat": n, "name": "..."}``
    ``GET /api/rooms/{code}/qr.svg``         a QR code of the room's link
    ``GET /api/rooms/{code}/step/{n}``       a finished game at position n (replay)
    ``GET /api/rooms/{code}/record``         a finished game's record (``polytable replay`` reads it)
    ``GET /print/{name}.pdf``                a printable (templates, sheets, cards) as ``polytable print``
    ``GET /api/boards/{game}``               static tables of a dedicated board (piece orientations, patterns)
    ``GET /print/room/{code}.pdf``           the sheet of a companion room's own variant and template
    ``GET /offline/rules.whl``               the offline engine's rules (see :mod:`._offline`)
    ``POST /api/cards/read``                 the card code in a picture of a printed QR card (body: the image)
    ``GET /tls/ca.crt``                      the table's own certificate authority (``serve --https``)
    ``/api/...`` (anything else)             a JSON 404 that names the address, or a 405 naming its methods

Links handed out (a room's link and QR code, a QR card's page) carry an address the invited phone can
open: ``--public-url``, else the network address in place of a loopback one (see :mod:`._address`).

A game's own routes and pages (a puzzle, a designer) come from its web extras (:mod:`.extras`), mounted
after these; nothing here names a game.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import tempfile
import time
from collections import deque
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..core import JsonLimitError, PolytableError, all_games, loads_bounded
from ..match import catalogue_facts, engine_reason
from ..storage import StorageError
from . import _companion
from ._address import invite_base
from ._base import RoomError, ai_names
from ._hub import Hub
from ._offline import rules_wheel
from ._rooms import Room
from .extras import board_data, extra_routes

__all__ = [
    "MAX_BODY",
    "STATIC",
    "HttpApi",
    "app_page",
    "board_module",
    "engine_response",
    "error_response",
    "json_body",
    "no_api",
    "not_found",
    "room_error_response",
]

log = logging.getLogger("polytable.web")
STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024
"""Largest HTTP request body accepted (a room request with options; template files stay on the server)."""


BOARDS = STATIC / "boards"


def board_module(game_id: str) -> str | None:
    """The client's dedicated board of a game: ``static/boards/<game id>.js`` when that file exists, else None.

    Found by name so a game needs no entry in any list: a game without one plays on the generic board, and
    its board is one file. The rules never name their client (games/ holds no web code).
    """
    if game_id in ("generic", "index") or not game_id.replace("-", "").isalnum():
        return None
    return game_id if (BOARDS / f"{game_id}.js").is_file() else None


class HttpApi:
    """The HTTP routes of one hub (one method per route; :meth:`routes` lists them)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.limiter = _IpLimiter(hub.settings.rooms_per_minute)

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/", app_page),
            Route("/r/{code}", app_page),
            Route("/rules", app_page),
            Route("/rules/{game}", app_page),
            Route("/local", app_page),
            Route("/local/{id}", app_page),
            Route("/learn/{game}", app_page),
            Route("/learn/{game}/{code}", app_page),
            Route("/offline/rules.whl", self.offline_rules),
            Route("/manifest.webmanifest", self.manifest),
            Route("/sw.js", self.service_worker),
            Route("/tls/ca.crt", self.ca_certificate),
            Route("/api/games", self.games),
            Route("/api/rooms", self.create_room, methods=["POST"]),
            Route("/api/rooms/{code}", self.room_info),
            Route("/api/rooms/{code}/join", self.join, methods=["POST"]),
            Route("/api/rooms/{code}/rematch", self.rematch, methods=["POST"]),
            Route("/api/my-rooms", self.my_rooms, methods=["POST"]),
            Route("/api/rooms/{code}/qr.svg", self.qr),
            Route("/api/rooms/{code}/step/{n}", self.step),
            Route("/api/rooms/{code}/record", self.record),
            Route("/print/{name}.pdf", self.printable),
            Route("/print/room/{code}.pdf", self.room_printable),
            Route("/api/cards/read", self.read_card, methods=["POST"]),
            Route("/api/boards/{game}", self.boards),
            *extra_routes(self.hub),
            Route("/api/{rest:path}", no_api, methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
        ]

    def _base(self, request: Request) -> str:
        """The address this request's links carry: one the invited phone can open (see :mod:`._address`)."""
        settings = self.hub.settings
        return invite_base(str(request.base_url), request.url.hostname, settings.public_url, settings.network_url)

    def _link(self, request: Request, code: str) -> str:
        return f"{self._base(request)}/r/{code}"

    async def ca_certificate(self, request: Request) -> Response:
        # The table's own authority (serve --https), for a phone to trust: then offline play and install work.
        ca = self.hub.settings.tls_ca
        if not ca or not Path(ca).is_file():
            return error_response("this server has no certificate of its own to trust", 404, "no_table_ca")
        return FileResponse(
            ca,
            media_type="application/x-x509-ca-cert",
            filename="polytable-table-ca.crt",
            content_disposition_type="inline",
        )

    async def manifest(self, request: Request) -> Response:
        return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")

    async def service_worker(self, request: Request) -> Response:
        # Served from the root so its scope is the whole app; never cached by the browser itself.
        return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers=_NO_CACHE)

    async def offline_rules(self, request: Request) -> Response:
        # The offline engine's rules: a wheel of the very modules this server runs (see _offline.py).
        data = rules_wheel()
        tag = '"' + hashlib.sha256(data).hexdigest()[:32] + '"'
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers={"ETag": tag})
        return Response(data, media_type="application/zip", headers={"ETag": tag, "Cache-Control": "no-cache"})

    async def games(self, request: Request) -> Response:
        out = []
        for game in all_games():
            if not game.spec.listed:
                continue
            d = game.spec.describe()
            d["ai"] = list(ai_names(game.spec.id))
            d.update(catalogue_facts(game))
            d["board"] = board_module(game.spec.id)
            out.append(d)
        return JSONResponse(out)

    async def create_room(self, request: Request) -> Response:
        if not self.limiter.allow(_ip(request)):
            return error_response("too many rooms created from here; wait a minute", 429, "too_many_rooms")
        body = await json_body(request)
        if isinstance(body, Response):
            return body
        try:
            room, tokens = await self.hub.create(body)
        except RoomError as exc:
            return room_error_response(exc, 400 if exc.code != "storage" else 503)
        except StorageError as exc:
            log.error("a new room could not be saved: %s", exc)
            return error_response("the room could not be saved; try again in a moment", 503, "room_unsaved")
        return JSONResponse(
            {
                "code": room.code,
                "link": self._link(request, room.code),
                "tokens": {str(p): t for p, t in tokens.items()},
                "room": room.summary(),
            },
            status_code=201,
        )

    async def room_info(self, request: Request) -> Response:
        room = await self._room(request)
        if isinstance(room, Response):
            return room
        out = room.summary()
        out["link"] = self._link(request, room.code)
        return JSONResponse(out)

    async def join(self, request: Request) -> Response:
        room = await self._room(request)
        if isinstance(room, Response):
            return room
        body = await json_body(request)
        if isinstance(body, Response):
            return body
        seat = body.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            return error_response("say which seat to take (a number)", 400, "seat_number")
        try:
            token = await room.take_seat(seat, body.get("name"))  # type: ignore[arg-type]
        except RoomError as exc:
            return room_error_response(exc, 409 if exc.code == "forbidden" else 400)
        return JSONResponse({"seat": seat, "token": token})

    async def rematch(self, request: Request) -> Response:
        room = await self._room(request)
        if isinstance(room, Response):
            return room
        body = await json_body(request)
        if isinstance(body, Response):
            return body
        seats, _ = room.seats_for(_tokens(body.get("tokens")))
        try:
            code = await self.hub.rematch(room, seats)
        except RoomError as exc:
            return room_error_response(exc, 409 if exc.code == "forbidden" else 400)
        except StorageError as exc:
            log.error("room %s: the rematch could not be saved: %s", room.code, exc)
            return error_response("the room could not be saved; try again in a moment", 503, "room_unsaved")
        return JSONResponse({"code": code, "link": self._link(request, code)})

    async def my_rooms(self, request: Request) -> Response:
        """This device's rooms (``{"rooms": {code: [tokens]}}``, at most 20): for each, whether it is over,
        whether one of its seats must act and how much time those seats have left. Tokens travel in the
        body, never in a URL, so no access log ever holds one."""
        body = await json_body(request)
        if isinstance(body, Response):
            return body
        rooms = body.get("rooms")
        if not isinstance(rooms, dict) or len(rooms) > MAX_MY_ROOMS:
            return error_response(
                f"send at most {MAX_MY_ROOMS} rooms as code: [tokens]", 400, "my_rooms", {"max": MAX_MY_ROOMS}
            )
        out = []
        for code, tokens in rooms.items():
            try:
                room = await self.hub.get(str(code))
            except StorageError as exc:
                log.error("room %s could not be loaded: %s", str(code)[:16], exc)
                continue
            if room is None:
                out.append({"code": str(code)[:16], "missing": True})
                continue
            seats, _ = room.seats_for(_tokens(tokens))
            out.append(_card(room, seats))
        return JSONResponse({"rooms": out})

    async def qr(self, request: Request) -> Response:
        room = await self._room(request)
        if isinstance(room, Response):
            return room
        return Response(_qr_svg(self._link(request, room.code)), media_type="image/svg+xml", headers=_CACHE)

    async def step(self, request: Request) -> Response:
        room = await self._room(request)
        if isinstance(room, Response):
            return room
        if room.mode == "companion":
            return _no_record()
        try:
            text = str(request.path_params["n"])
            n = int(text) if text.isdigit() and len(text) < 10 else -1  # not a position: said by step itself
            return JSONResponse(room.step(n))
        except RoomError as exc:
            return room_error_response(exc, 409 if exc.code == "forbidden" else 400)

    async def record(self, request: Request) -> Response:
        room = await self._room(request)
        if isinstance(room, Response):
            return room
        if room.mode == "companion":
            return _no_record()
        if not room.is_over():
            return error_response("the record is available once the game is over", 409, "record_not_over")
        return JSONResponse(room.match.record())

    async def printable(self, request: Request) -> Response:
        from ..printables import printables

        name = str(request.path_params["name"])
        table = printables()
        if name not in table:
            return error_response(
                f"nothing to print named {name[:40]!r} (printables: {', '.join(sorted(table))})",
                404,
                "no_printable",
                {"name": name[:40], "known": ", ".join(sorted(table))},
            )
        paper = request.query_params.get("paper", "a4")
        if paper not in ("a4", "letter"):
            return error_response("paper is a4 or letter", 400, "paper")
        opts = {k: v[:40] for k, v in request.query_params.items() if k in ("players", "variant", "count", "qr")}
        if opts.get("qr"):  # QR cards open this server's card page
            opts["base_url"] = self._base(request)
        opts["files"] = "no"  # a printable that reads files when a value names one never does for a request
        try:
            data = await asyncio.get_running_loop().run_in_executor(
                self.hub.ai_pool, _print_pdf, table[name], paper, opts
            )
        except PolytableError as exc:
            return engine_response(exc)
        return Response(data, media_type="application/pdf", headers=_CACHE)

    async def room_printable(self, request: Request) -> Response:
        room = await self._room(request)
        if isinstance(room, Response):
            return room
        paper = request.query_params.get("paper", "a4")
        if paper not in ("a4", "letter"):
            return error_response("paper is a4 or letter", 400, "paper")
        try:
            data = await asyncio.get_running_loop().run_in_executor(self.hub.ai_pool, _companion.sheet_pdf, room, paper)
        except (PolytableError, ValueError) as exc:
            return engine_response(exc)
        return Response(data, media_type="application/pdf")

    async def read_card(self, request: Request) -> Response:
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > _companion.MAX_PICTURE:
                kib = _companion.MAX_PICTURE // 1024
                return error_response(f"the picture is too large (at most {kib} KiB)", 413, "too_big", {"kib": kib})
            chunks.append(chunk)
        data = b"".join(chunks)
        try:
            code = await asyncio.get_running_loop().run_in_executor(
                self.hub.ai_pool, _companion.read_card_picture, data
            )
        except ValueError as exc:
            return engine_response(exc)
        return JSONResponse({"code": code})

    async def boards(self, request: Request) -> Response:
        game_id = str(request.path_params["game"])[:40]
        if game_id not in {g.spec.id for g in all_games()}:
            known = ", ".join(sorted(g.spec.id for g in all_games() if g.spec.listed))
            return error_response(
                f"there is no game {game_id!r} (games: {known})", 404, "unknown_game", {"game": game_id}
            )
        data = await asyncio.get_running_loop().run_in_executor(self.hub.ai_pool, board_data, game_id)
        if data is None:
            return error_response("this game's board needs no tables", 404, "no_tables")
        return JSONResponse(data, headers=_CACHE)

    async def _room(self, request: Request) -> Room | Response:
        code = str(request.path_params["code"])
        try:
            room = await self.hub.get(code)
        except StorageError as exc:
            log.error("room %s could not be loaded: %s", code[:16], exc)
            return error_response("the database is not answering; try again in a moment", 503, "database")
        if room is None:
            return error_response(f"there is no room {code[:16]!r}", 404, "no_room", {"code": code[:16]})
        return room


async def no_api(request: Request) -> Response:
    """Any other ``/api/...`` address: a JSON error that names it, or the methods its address takes."""
    path = request.url.path
    allowed = sorted(
        {
            method
            for route in request.app.router.routes
            if isinstance(route, Route) and route.endpoint not in (no_api, not_found) and route.path_regex.match(path)
            for method in route.methods or ()
        }
        - {"HEAD"}
    )
    if allowed:
        return error_response(
            f"{path[:80]} takes {' or '.join(allowed)}, not {request.method}",
            405,
            "bad_method",
            {"path": path[:80], "allowed": " or ".join(allowed), "method": request.method},
        )
    return error_response(f"there is no API address {path[:80]}", 404, "no_api", {"path": path[:80]})


async def app_page(request: Request) -> Response:
    """The app shell (``index.html``): every page of the client is drawn by its scripts from the address.

    An address that names nothing (a malformed room code, a game that does not exist) is answered with
    status 404 and the same shell, whose scripts show the not-found page in the player's language."""
    found = _names_something(request.path_params)
    return FileResponse(STATIC / "index.html", status_code=200 if found else 404, headers=_NO_CACHE | _SECURITY)


async def not_found(request: Request) -> Response:
    """Any other address (outside ``/api/``, which :func:`no_api` answers): the app shell's not-found page,
    with status 404."""
    return FileResponse(STATIC / "index.html", status_code=404, headers=_NO_CACHE | _SECURITY)


def _names_something(params: dict[str, Any]) -> bool:
    code = params.get("code")
    if code is not None and not (1 <= len(code) <= 16 and code.isascii() and code.isalnum()):
        return False
    game = params.get("game")
    return game is None or any(g.spec.id == game and g.spec.listed for g in all_games())


_NO_CACHE = {"Cache-Control": "no-cache"}
_CACHE = {"Cache-Control": "public, max-age=3600"}
_SECURITY = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def error_response(message: str, status: int, reason: str, params: dict[str, Any] | None = None) -> Response:
    """An HTTP error: ``error`` (English) plus ``reason`` and ``params`` for the client's translations."""
    return JSONResponse({"error": message, "reason": reason, "params": params or {}}, status_code=status)


def engine_response(exc: Exception) -> Response:
    """A 400 for an engine error: its code travels as the reason ``engine.<code>`` with its params."""
    shown = engine_reason(exc)
    return error_response(str(exc), 400, shown["reason"], shown["params"])


def room_error_response(exc: RoomError, status: int) -> Response:
    return error_response(str(exc), status, exc.reason, exc.params)


async def json_body(request: Request) -> dict[str, Any] | Response:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        return error_response(
            f"the request is too large (at most {MAX_BODY // 1024} KiB)", 413, "too_big", {"kib": MAX_BODY // 1024}
        )
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return error_response(
                f"the request is too large (at most {MAX_BODY // 1024} KiB)", 413, "too_big", {"kib": MAX_BODY // 1024}
            )
    try:
        data = loads_bounded(body or b"{}")
    except JsonLimitError as exc:
        if exc.reason == "not_json":
            return error_response("the request must be JSON", 400, "not_json")
        return error_response(str(exc), 400, exc.reason, exc.params)
    if not isinstance(data, dict):
        return error_response("the request must be a JSON object", 400, "not_object")
    return data


MAX_MY_ROOMS = 20


def _tokens(raw: object) -> list[str]:
    """Seat tokens from a request: at most 16 short strings (anything else is ignored)."""
    if not isinstance(raw, list):
        return []
    return [t for t in raw if isinstance(t, str) and len(t) <= 128][:16]


def _card(room: Room, seats: frozenset[int]) -> dict[str, Any]:
    """One line of a device's room list: the game, over or not, and what this device's seats must do."""
    acting = room.acting()
    clock = room.timer.clock
    now = time.time()
    mine = sorted(seats)
    return {
        "code": room.code,
        "game": room.game.spec.id,
        "name": room.game.spec.name,
        "over": room.is_over(),
        "seats": mine,
        "your_turn": any(p in acting for p in mine),
        "acting": list(acting),
        "left": {str(p): round(clock.left(p, now), 1) for p in mine} if clock is not None else None,
        "rematch": room.rematch,
    }


def _no_record() -> Response:
    return error_response(
        "a companion room only deals cards: it has no game record to step through or download", 409, "companion_record"
    )


def _print_pdf(fn: Any, paper: str, options: dict[str, str]) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "out.pdf"
        fn(str(path), paper, options)
        return path.read_bytes()


def _ip(request: Request) -> str:
    return request.client.host if request.client else "?"


def _qr_svg(text: str) -> bytes:
    import qrcode  # type: ignore[import-untyped,unused-ignore]
    import qrcode.image.svg  # type: ignore[import-untyped,unused-ignore]

    img = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    out = io.BytesIO()
    img.save(out)
    return out.getvalue()


class _IpLimiter:
    """Room creation per address: at most ``limit`` per ``window`` seconds (keeps a flood off the disk).

    Each address keeps the times of its creations in the window, oldest first, so a request drops the
    expired ones from the front instead of filtering the whole list (a high limit made that list long)."""

    def __init__(self, limit: int = 60, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self.seen: dict[str, deque[float]] = {}

    def allow(self, ip: str) -> bool:
        now = time.monotonic()
        if len(self.seen) > 10_000:
            self.seen.clear()
        times = self.seen.get(ip)
        if times is None:
            times = self.seen[ip] = deque()
        while times and now - times[0] >= self.window:
            times.popleft()
        if len(times) >= self.limit:
            return False
        times.append(now)
        return True
