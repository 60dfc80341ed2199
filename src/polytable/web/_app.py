"""The Starlette application: JSON over HTTP for rooms, one WebSocket per open room page, static files.

Routes hold no rules: they validate the shape and size of what arrives, call :mod:`._rooms`, and turn
:class:`RoomError` into a JSON error: a ``reason`` (+ ``params``) the client shows from its translation
files, and the English sentence as the fallback (see :mod:`._i18n`).

HTTP
    ``GET /api/games``                       games, options, player ranges and AIs (for the home page)
    ``POST /api/rooms``                      create a room; returns its code, link and the tokens of the
                                             seats played on this device
    ``GET /api/rooms/{code}``                the room's public summary
    ``POST /api/rooms/{code}/join``          take an open invited seat: ``{"seat": n, "name": "..."}``
    ``GET /api/rooms/{code}/qr.svg``         a QR code of the room's link
    ``GET /api/rooms/{code}/step/{n}``       a finished game at position n (replay)
    ``GET /api/rooms/{code}/record``         a finished game's record (``polytable replay`` reads it)
    ``GET /print/{name}.pdf``                a printable (templates, sheets, cards) as ``polytable print``
    ``GET /print/room/{code}.pdf``           the sheet of a companion room's own variant and template
    ``GET /c/{code}``                        a FORMFINITY QR card's page (the app shell reads the card)
    ``POST /api/cards/read``                 the card code in a picture of a printed QR card (body: the image)
    ``GET /api/boards/{game}``               static tables of a dedicated board (piece orientations, patterns)
    ``GET /api/puzzle/quadefy?pattern=P``    the Quadefy bonus puzzle solver's answer for a pattern
    ``POST /api/puzzle/quadefy/check``       the engine's verdict on a bonus puzzle built by hand
    ``POST /api/formfinity/validate``        check a FORMFINITY variant file from the template designer
    ``POST /api/formfinity/print``           print a variant file's template (PDF)
WebSocket ``/ws/{code}``
    client -> server: ``hello {tokens}``, ``act {seat, version, action}``, ``undo {seat, version}``,
    ``preview {seat, action}`` (what a move would score, see :mod:`._preview`), ``sync``, ``deal`` /
    ``undeal`` (companion rooms; ``deal`` may carry a printed ``card``);
    server -> client: ``welcome``, ``state``, ``preview``, ``error``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import logging
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..ai import bot_names
from ..core import PolytableError, all_games
from ..storage import Storage, StorageError, open_storage
from . import _companion
from ._base import HIDDEN_GAMES, RoomError, Settings
from ._client import Client
from ._designer import DesignError, print_variant, validate_variant
from ._hub import Hub
from ._offline import rules_wheel
from ._preview import board_data, preview, puzzle_answer, puzzle_check
from ._rooms import Room

__all__ = ["create_app"]

log = logging.getLogger("polytable.web")
STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024
"""Largest HTTP request body accepted (a room request with options; template files stay on the server)."""


def create_app(
    storage: Storage | str | None = None, settings: Settings | None = None, resume: bool = True
) -> Starlette:
    """The web app on a storage (an object, a SQLAlchemy URL, or None for ``sqlite:///polytable.db``).

    With ``resume`` every unfinished room is loaded at start-up and its AI seats carry on playing.
    """
    store: Storage = open_storage(storage) if storage is None or isinstance(storage, str) else storage
    hub = Hub(store, settings)
    limiter = _IpLimiter(hub.settings.rooms_per_minute)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if resume:
            n = await hub.resume_all()
            if n:
                log.info("resumed %d unfinished rooms", n)
        try:
            yield
        finally:
            hub.close()
            store.close()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=_NO_CACHE | _SECURITY)

    async def offline_rules(request: Request) -> Response:
        # The offline engine's rules: a wheel of the very modules this server runs (see _offline.py).
        data = rules_wheel()
        tag = '"' + hashlib.sha256(data).hexdigest()[:32] + '"'
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers={"ETag": tag})
        return Response(data, media_type="application/zip", headers={"ETag": tag, "Cache-Control": "no-cache"})

    async def manifest(request: Request) -> Response:
        return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")

    async def service_worker(request: Request) -> Response:
        # Served from the root so its scope is the whole app; never cached by the browser itself.
        return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers=_NO_CACHE)

    async def games(request: Request) -> Response:
        out = []
        for game in all_games():
            if game.spec.id in HIDDEN_GAMES:
                continue
            d = game.spec.describe()
            d["ai"] = bot_names(game.spec.id)
            d["companion"] = _companion.supports(game.spec.id)
            d["player_counts"] = _companion.player_counts(game)
            out.append(d)
        return JSONResponse(out)

    async def create_room(request: Request) -> Response:
        if not limiter.allow(_ip(request)):
            return _error("too many rooms created from here; wait a minute", 429, "too_many_rooms")
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        try:
            room, tokens = await hub.create(body)
        except RoomError as exc:
            return _room_error(exc, 400 if exc.code != "storage" else 503)
        except StorageError as exc:
            return _error(f"the room could not be saved: {exc}", 503, "room_unsaved")
        return JSONResponse(
            {
                "code": room.code,
                "link": _link(request, room.code),
                "tokens": {str(p): t for p, t in tokens.items()},
                "room": room.summary(),
            },
            status_code=201,
        )

    async def room_info(request: Request) -> Response:
        room = await _room(request)
        if isinstance(room, Response):
            return room
        out = room.summary()
        out["link"] = _link(request, room.code)
        return JSONResponse(out)

    async def join(request: Request) -> Response:
        room = await _room(request)
        if isinstance(room, Response):
            return room
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        seat = body.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            return _error("say which seat to take (a number)", 400, "seat_number")
        try:
            token = await room.take_seat(seat, body.get("name"))  # type: ignore[arg-type]
        except RoomError as exc:
            return _room_error(exc, 409 if exc.code == "forbidden" else 400)
        return JSONResponse({"seat": seat, "token": token})

    async def qr(request: Request) -> Response:
        room = await _room(request)
        if isinstance(room, Response):
            return room
        return Response(_qr_svg(_link(request, room.code)), media_type="image/svg+xml", headers=_CACHE)

    async def step(request: Request) -> Response:
        room = await _room(request)
        if isinstance(room, Response):
            return room
        try:
            n = int(request.path_params["n"])
            return JSONResponse(room.step(n))
        except RoomError as exc:
            return _room_error(exc, 409 if exc.code == "forbidden" else 400)

    async def record(request: Request) -> Response:
        room = await _room(request)
        if isinstance(room, Response):
            return room
        if not room.is_over():
            return _error("the record is available once the game is over", 409, "record_not_over")
        return JSONResponse(room.match.record())

    async def printable(request: Request) -> Response:
        from ..printables import printables

        name = str(request.path_params["name"])
        table = printables()
        if name not in table:
            return _error(
                f"nothing to print named {name[:40]!r} (printables: {', '.join(sorted(table))})",
                404,
                "no_printable",
                {"name": name[:40], "known": ", ".join(sorted(table))},
            )
        paper = request.query_params.get("paper", "a4")
        if paper not in ("a4", "letter"):
            return _error("paper is a4 or letter", 400, "paper")
        opts = {k: v[:40] for k, v in request.query_params.items() if k in ("players", "variant", "count", "qr")}
        if opts.get("qr"):  # QR cards open this server's card page
            opts["base_url"] = str(request.base_url)
        if opts.get("variant", "1") not in ("1", "2", "3", "4", "blank"):
            # The printables read a file when a value names one: never let a request name a server path.
            return _error(
                "variant is 1, 2, 3, 4 or blank here; print your own variant from the designer", 400, "print_variant"
            )
        try:
            data = await asyncio.get_running_loop().run_in_executor(hub.ai_pool, _print_pdf, table[name], paper, opts)
        except PolytableError as exc:
            return _error(str(exc), 400, "engine")
        return Response(data, media_type="application/pdf", headers=_CACHE)

    async def room_printable(request: Request) -> Response:
        room = await _room(request)
        if isinstance(room, Response):
            return room
        paper = request.query_params.get("paper", "a4")
        if paper not in ("a4", "letter"):
            return _error("paper is a4 or letter", 400, "paper")
        try:
            data = await asyncio.get_running_loop().run_in_executor(hub.ai_pool, _companion.sheet_pdf, room, paper)
        except PolytableError as exc:
            return _error(str(exc), 400, "engine")
        return Response(data, media_type="application/pdf")

    async def read_card(request: Request) -> Response:
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > _companion.MAX_PICTURE:
                kib = _companion.MAX_PICTURE // 1024
                return _error(f"the picture is too large (at most {kib} KiB)", 413, "too_big", {"kib": kib})
            chunks.append(chunk)
        data = b"".join(chunks)
        try:
            code = await asyncio.get_running_loop().run_in_executor(hub.ai_pool, _companion.read_card_picture, data)
        except ValueError as exc:
            return _error(str(exc), 400, "engine")
        return JSONResponse({"code": code})

    async def boards(request: Request) -> Response:
        game_id = str(request.path_params["game"])[:40]
        data = await asyncio.get_running_loop().run_in_executor(hub.ai_pool, board_data, game_id)
        if data is None:
            return _error("this game's board needs no tables", 404, "no_tables")
        return JSONResponse(data, headers=_CACHE)

    async def design_validate(request: Request) -> Response:
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        out = await asyncio.get_running_loop().run_in_executor(hub.ai_pool, validate_variant, body.get("variant_file"))
        return JSONResponse(out)

    async def design_print(request: Request) -> Response:
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        paper = body.get("paper", "a4")
        if paper not in ("a4", "letter"):
            return _error("paper is a4 or letter", 400, "paper")
        try:
            data = await asyncio.get_running_loop().run_in_executor(
                hub.ai_pool, print_variant, body.get("variant_file"), paper
            )
        except DesignError as exc:
            return _error(str(exc), 400, exc.reason, exc.params)
        except (ValueError, PolytableError) as exc:
            return _error(str(exc), 400, "engine")
        return Response(data, media_type="application/pdf")

    async def quadefy_puzzle(request: Request) -> Response:
        pattern = request.query_params.get("pattern", "")
        if not pattern or len(pattern) > 1000:
            return _error("give a pattern: a name or 64 cells of X and . (at most 1000 characters)", 400, "no_pattern")
        try:
            answer = await asyncio.get_running_loop().run_in_executor(hub.ai_pool, puzzle_answer, pattern)
        except PolytableError as exc:
            return _error(str(exc), 400, "engine")
        return JSONResponse(answer)

    async def quadefy_puzzle_check(request: Request) -> Response:
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        try:
            verdict = puzzle_check(body.get("pattern"), body.get("blocks"))
        except (ValueError, PolytableError) as exc:
            return _error(str(exc), 400, "engine")
        return JSONResponse(verdict)

    async def _room(request: Request) -> Room | Response:
        code = str(request.path_params["code"])
        try:
            room = await hub.get(code)
        except StorageError as exc:
            return _error(f"the database failed: {exc}", 503, "database")
        if room is None:
            return _error(f"there is no room {code[:16]!r}", 404, "no_room", {"code": code[:16]})
        return room

    async def ws_endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        client = Client(websocket, hub.settings)
        code = str(websocket.path_params["code"])
        try:
            room = await hub.get(code)
        except StorageError:
            room = None
        if room is None:
            await websocket.send_text(json.dumps(_err("missing", "no such room", "no_room", {"code": code[:16]})))
            await websocket.close(4404)
            return
        writer = asyncio.get_running_loop().create_task(client.writer())
        try:
            await _serve(websocket, client, room)
        finally:
            room.detach(client)
            client.stop()
            with contextlib.suppress(BaseException):
                await writer

    async def _serve(websocket: WebSocket, client: Client, room: Room) -> None:
        hello = False
        while True:
            try:
                text = await websocket.receive_text()
            except (WebSocketDisconnect, RuntimeError, KeyError):
                return
            if client.closed:
                return
            if not client.allow():
                if client.refused > 3 * hub.settings.burst:
                    client.stop()
                    return
                if client.refused == 1:
                    client.send(_err("throttled", "too many messages; slow down", "throttled"))
                continue
            if len(text) > hub.settings.max_message:
                client.send(
                    _err(
                        "bad",
                        f"message too large (at most {hub.settings.max_message} characters)",
                        "too_large",
                        {"max": hub.settings.max_message},
                    )
                )
                continue
            try:
                msg = json.loads(text)
            except ValueError:
                client.send(_err("bad", "messages must be JSON objects", "not_json"))
                continue
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                client.send(_err("bad", "messages must be JSON objects with a type", "no_type"))
                continue
            kind = msg["type"]
            try:
                if kind == "hello":
                    if hello:
                        raise RoomError("hello was already said on this connection", reason="hello_twice")
                    tokens = msg.get("tokens", [])
                    if (
                        not isinstance(tokens, list)
                        or len(tokens) > 16
                        or not all(isinstance(t, str) and len(t) <= 128 for t in tokens)
                    ):
                        raise RoomError("tokens must be a list of at most 16 short strings", reason="bad_tokens")
                    seats, problems = room.seats_for(tokens)
                    if len(room.clients) >= hub.settings.max_clients_per_room:
                        raise RoomError("this room has too many connections", "full", "full")
                    client.send({"type": "welcome", "code": room.code, "seats": sorted(seats)})
                    for p in problems:
                        client.send(_err("forbidden", p, "bad_token"))
                    room.attach(client, seats)
                    hello = True
                    continue
                if not hello:
                    raise RoomError("say hello first", reason="no_hello")
                if kind == "sync":
                    client.notify_state()
                elif kind in ("act", "undo"):
                    seat, version = msg.get("seat"), msg.get("version")
                    if isinstance(seat, bool) or not isinstance(seat, int):
                        raise RoomError("say which seat acts (a number)", reason="seat_number")
                    if isinstance(version, bool) or not isinstance(version, int):
                        raise RoomError(
                            "every action carries the version of the game it was made on", reason="no_version"
                        )
                    if seat not in client.seats:
                        raise RoomError(
                            f"you do not hold seat {seat + 1}; you cannot act for it",
                            "forbidden",
                            "not_your_seat",
                            {"seat": seat + 1},
                        )
                    if kind == "undo":
                        await room.undo(seat, version)
                    else:
                        action = msg.get("action")
                        if not isinstance(action, str) or not action.strip() or len(action) > 1000:
                            raise RoomError("the action must be text in the game's notation (at most 1000 characters)")
                        await room.act(seat, version, action)
                elif kind == "preview":
                    seat, action = msg.get("seat"), msg.get("action")
                    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in client.seats:
                        raise RoomError("a preview is asked for a seat you hold", "forbidden", "preview_seat")
                    if not isinstance(action, str) or not action.strip() or len(action) > 1000:
                        raise RoomError("the action must be text in the game's notation (at most 1000 characters)")
                    out = preview(room, seat, action)
                    ask = msg.get("ask")
                    ask = ask if isinstance(ask, int) and not isinstance(ask, bool) else None
                    client.send({"type": "preview", "seat": seat, "ask": ask, **out})
                elif kind in ("deal", "undeal"):
                    version = msg.get("version")
                    if isinstance(version, bool) or not isinstance(version, int):
                        raise RoomError("dealing carries the version it was asked on", reason="no_version")
                    card = msg.get("card")
                    if card is not None and (not isinstance(card, str) or not card.strip() or len(card) > 200):
                        raise RoomError("a card is its number or the text of its QR code", reason="bad_card_text")
                    await _companion.deal(room, version, undo=kind == "undeal", card=card)
                else:
                    raise RoomError(
                        f"unknown message type {kind[:20]!r}", reason="unknown_type", params={"type": kind[:20]}
                    )
            except RoomError as exc:
                client.send({"type": "error", **exc.payload()})
                if exc.code in ("stale", "storage"):
                    client.notify_state()
            except Exception:  # a bug must not end the connection silently; the room itself is unchanged
                log.exception("message %r failed in room %s", kind, room.code)
                client.send(_err("internal", "the server failed on this message; the board is reloaded", "internal"))
                client.notify_state()

    routes = [
        Route("/", index),
        Route("/r/{code}", index),
        Route("/c/{code}", index),
        Route("/rules", index),
        Route("/rules/{game}", index),
        Route("/designer", index),
        Route("/local", index),
        Route("/learn/{game}", index),
        Route("/local/{id}", index),
        Route("/offline/rules.whl", offline_rules),
        Route("/manifest.webmanifest", manifest),
        Route("/sw.js", service_worker),
        Route("/api/games", games),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}", room_info),
        Route("/api/rooms/{code}/join", join, methods=["POST"]),
        Route("/api/rooms/{code}/qr.svg", qr),
        Route("/api/rooms/{code}/step/{n:int}", step),
        Route("/api/rooms/{code}/record", record),
        Route("/print/{name}.pdf", printable),
        Route("/print/room/{code}.pdf", room_printable),
        Route("/api/cards/read", read_card, methods=["POST"]),
        Route("/api/boards/{game}", boards),
        Route("/api/puzzle/quadefy", quadefy_puzzle),
        Route("/api/puzzle/quadefy/check", quadefy_puzzle_check, methods=["POST"]),
        Route("/api/formfinity/validate", design_validate, methods=["POST"]),
        Route("/api/formfinity/print", design_print, methods=["POST"]),
        WebSocketRoute("/ws/{code}", ws_endpoint),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app


_NO_CACHE = {"Cache-Control": "no-cache"}
_CACHE = {"Cache-Control": "public, max-age=3600"}
_SECURITY = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _err(code: str, message: str, reason: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """A WebSocket error: ``code`` (what the client does), ``reason`` + ``params`` (what it says, from its
    translation files as ``error.<reason>``) and the English ``message`` as the fallback."""
    return {"type": "error", "code": code, "reason": reason, "params": params or {}, "message": message}


def _error(message: str, status: int, reason: str, params: dict[str, Any] | None = None) -> Response:
    """An HTTP error: ``error`` (English) plus ``reason`` and ``params`` for the client's translations."""
    return JSONResponse({"error": message, "reason": reason, "params": params or {}}, status_code=status)


def _room_error(exc: RoomError, status: int) -> Response:
    return _error(str(exc), status, exc.reason, exc.params)


async def _json_body(request: Request) -> dict[str, Any] | Response:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        return _error(
            f"the request is too large (at most {MAX_BODY // 1024} KiB)", 413, "too_big", {"kib": MAX_BODY // 1024}
        )
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return _error(
                f"the request is too large (at most {MAX_BODY // 1024} KiB)", 413, "too_big", {"kib": MAX_BODY // 1024}
            )
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        return _error("the request must be JSON", 400, "not_json")
    if not isinstance(data, dict):
        return _error("the request must be a JSON object", 400, "not_object")
    return data


def _print_pdf(fn: Any, paper: str, options: dict[str, str]) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "out.pdf"
        fn(str(path), paper, options)
        return path.read_bytes()


def _link(request: Request, code: str) -> str:
    return f"{str(request.base_url).rstrip('/')}/r/{code}"


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
    """Room creation per address: at most ``limit`` per ``window`` seconds (keeps a flood off the disk)."""

    def __init__(self, limit: int = 60, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self.seen: dict[str, list[float]] = {}

    def allow(self, ip: str) -> bool:
        now = time.monotonic()
        if len(self.seen) > 10_000:
            self.seen.clear()
        times = [t for t in self.seen.get(ip, []) if now - t < self.window]
        if len(times) >= self.limit:
            self.seen[ip] = times
            return False
        times.append(now)
        self.seen[ip] = times
        return True
