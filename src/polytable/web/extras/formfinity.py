"""FORMFINITY's web extras: "your game, your rules" (the template designer), its QR card pages and sheets.

    ``GET /designer``                        the template designer page (``static/designer.js``)
    ``GET /c/{code}``                        a QR card's page (the app shell reads the card from the address)
    ``GET  /api/formfinity/designer``        the designer's figures: what a variant may ask for, where it starts
    ``POST /api/formfinity/validate``        check a variant file from the designer
    ``POST /api/formfinity/print``           print a variant file's template (PDF)
    ``POST /api/formfinity/balance``         start a balance check of a variant (AI games; progress below)
    ``GET  /api/formfinity/balance/{job}``   its progress, then its metrics and figures (SVG)
    ``GET  /api/formfinity/balance/{job}/report.json``  the finished report's data (a download)
    ``GET  /api/formfinity/balance/{job}/report.html``  the finished report's page

The designer writes a variant file (the TOML format of docs/games/formfinity.md, with the template as a
multi-line string); the server checks it exactly as a game would use it, by creating a game from it
through the engine (``variant=custom``), so a design that validates here plays in a room and prints.
A companion room's sheet is the template of its own configuration (variant, custom file, players).
"""

from __future__ import annotations

import asyncio
import tempfile
import threading
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...core import Config, PolytableError
from ...games.formfinity import GAME, parse_variant_file, variant_limits
from ...match import engine_reason
from .._http import app_page, engine_response, error_response, json_body
from . import Extras

if TYPE_CHECKING:
    from .._hub import Hub

__all__ = [
    "EXTRAS",
    "MAX_GAMES",
    "MAX_VARIANT",
    "BalanceJobs",
    "DesignError",
    "designer_data",
    "print_variant",
    "room_sheet",
    "validate_variant",
]

MAX_VARIANT = 16_000
"""Largest variant file accepted (a 40 x 40 template is about 3,300 characters)."""
MAX_GAMES = 300
"""Most AI games one balance check plays per configuration (and on each rung of its skill ladder)."""
DEFAULT_GAMES = 100
BALANCE_AI = "greedy"
_KEEP = 8
START_SIDES = (10, 8)
"""The designer's first template (width, height): small enough to fill by hand on a phone."""
MIN_SIDE = 4
"""The designer's smallest side: a smaller template holds too few elements to be a game."""
START_LINES = (4, 2)
"""The designer's first lines goal (length, target), which suits its first template."""


def designer_data() -> dict[str, Any]:
    """The designer's figures (GET /api/formfinity/designer): what a variant file may ask for
    (:func:`variant_limits`, the rules' own bounds), where a new design starts, and how many AI games a
    balance check may play; the page takes every number from here."""
    data = variant_limits()
    data["side"] = {"min": MIN_SIDE, "max": data["side"]["max"], "width": START_SIDES[0], "height": START_SIDES[1]}
    data["length"]["start"], data["target"]["start"] = START_LINES
    data["balance_games"] = {"min": 1, "max": MAX_GAMES, "start": DEFAULT_GAMES}
    return data


class DesignError(ValueError):
    """A variant file the designer cannot even hand to the engine; ``reason`` names it for the translations."""

    def __init__(self, message: str, reason: str, params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: dict[str, object] = params or {}


def check_variant_text(text: object) -> str:
    """The variant file's text if it is one the engine can be asked about; DesignError otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise DesignError("send the variant file as text", "variant_text")
    if len(text) > MAX_VARIANT:
        raise DesignError(
            f"the variant file is too long (at most {MAX_VARIANT} characters)", "variant_long", {"max": MAX_VARIANT}
        )
    if "[goal]" not in text:
        raise DesignError(
            "a variant file needs a [goal] table with a type: lines, areas, connection or numbers", "variant_goal"
        )
    return text


def validate_variant(text: object) -> dict[str, Any]:
    """``{"ok": True, "name", "goal", "players": [min, max], "width", "height"}`` or ``{"ok": False,
    "message", "reason", "params"}``: a game is created from the file for its smallest player count."""
    try:
        body = check_variant_text(text)
        rules = parse_variant_file(body)
        state = GAME.new_game({"variant": "custom", "variant_file": body}, seed=0, players=rules.min_players)
        view = GAME.view(state, 0)
    except DesignError as exc:
        return {"ok": False, "message": str(exc), "reason": exc.reason, "params": exc.params}
    except (ValueError, PolytableError) as exc:
        return {"ok": False, "message": str(exc), **engine_reason(exc)}
    return {
        "ok": True,
        "name": rules.name,
        "goal": rules.goal,
        "players": [rules.min_players, rules.max_players],
        "width": view.get("width"),
        "height": view.get("height"),
    }


def print_variant(text: object, paper: str) -> bytes:
    """The printable template of a variant file as PDF bytes (the printable of ``polytable print``)."""
    body = check_variant_text(text)
    from ...printables import printables

    fn = printables()[GAME.spec.id]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "out.pdf"
        fn(str(path), paper, {"variant": body})
        return path.read_bytes()


def room_sheet(out_path: str, paper: str, config: Config) -> None:
    """A companion room's sheet: the template of its variant as that configuration plays it."""
    from ...printables.formfinity import print_config_template

    print_config_template(out_path, paper, config)


class BalanceJobs:
    """The designer's balance checks: the report of ``polytable analyse`` for the design being made.

    One grid across FORMFINITY's variants for the designer's own template: the design itself (its own
    goal) and each of the four rulebook variants played on its template (a variant the template cannot
    carry, such as areas on a template without areas, is left out and said why), ``greedy`` in every seat
    at the smallest player count, and the skill ladder ``random < greedy`` in the design. Bounded: at
    most :data:`MAX_GAMES` games per configuration and one check running at a time (a second gets
    ``balance_busy``); the finished ones are kept briefly so the page can fetch the report and its JSON.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: dict[str, dict[str, Any]] = {}
        self._running: str | None = None

    @staticmethod
    def configurations(body: str) -> tuple[list[tuple[str, Any]], list[dict[str, Any]]]:
        """(label, job) of the grid for a design, and the variants left out ``{"variant", "message"}``."""
        from ...analysis import Job

        rules = parse_variant_file(body)
        jobs: list[tuple[str, Any]] = []
        skipped: list[dict[str, Any]] = []
        try:
            options: dict[str, object] = {"variant": "custom", "variant_file": body}
            own = Job.make(GAME.spec.id, rules.min_players, [BALANCE_AI], options)
            GAME.new_game(options, seed=0, players=rules.min_players)
            jobs.append((f"{rules.name} ({rules.goal})", own))
        except (ValueError, PolytableError) as exc:
            shown = engine_reason(exc)
            raise DesignError(str(exc), shown["reason"], shown["params"]) from None
        for variant in ("1", "2", "3", "4"):
            try:
                job = Job.make(GAME.spec.id, 2, [BALANCE_AI], {"variant": variant, "template": rules.template})
                GAME.new_game(dict(job.options), seed=0, players=2)  # the template must carry the variant
            except (ValueError, PolytableError) as exc:
                skipped.append({"variant": variant, "message": str(exc), **engine_reason(exc)})
                continue
            jobs.append((f"variant {variant}", job))
        return jobs, skipped

    def start(self, text: object, games: object) -> dict[str, Any]:
        """Check the input and start; ``{"job", "total"}``. DesignError (with a reason) for bad input or busy."""
        from ...analysis import Plan

        body = check_variant_text(text)
        if games is None:
            games = DEFAULT_GAMES
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
            message = f"games must be a whole number from 1 to {MAX_GAMES}"
            raise DesignError(message, "balance_games", {"max": MAX_GAMES})
        jobs, skipped = self.configurations(body)
        plan = Plan(GAME.spec.id, games=games, ladder=["random", BALANCE_AI], title="Balance of your design")
        total = games * (len(jobs) + 1)
        with self._lock:
            if self._running is not None:
                raise DesignError("a balance check is already running on this server; try again soon", "balance_busy")
            key = uuid.uuid4().hex[:12]
            self._running = key
            self._jobs[key] = {"state": "running", "done": 0, "total": total}
            while len(self._jobs) > _KEEP:
                self._jobs.pop(next(iter(self._jobs)))
        threading.Thread(target=self._run, args=(key, plan, jobs, skipped), daemon=True).start()
        return {"job": key, "total": total}

    def _run(self, key: str, plan: Any, jobs: list[tuple[str, Any]], skipped: list[dict[str, Any]]) -> None:
        from ...analysis import analyse, write_report

        entry = self._jobs[key]

        def tick(done: int, total: int) -> None:
            entry["done"], entry["total"] = done, total

        try:
            data = analyse(plan, configs=jobs, on_progress=tick)
            data["left_out"] = skipped
            with tempfile.TemporaryDirectory() as tmp:
                write_report(Path(tmp), data)
                entry["html"] = (Path(tmp) / "report.html").read_text(encoding="utf-8")
                files = [p for p in Path(tmp).glob("*.svg")]
                figures = {p.stem: p.read_text(encoding="utf-8") for p in sorted(files)}
            entry["report"] = data
            entry["result"] = {
                "ai": BALANCE_AI,
                "configurations": [
                    {
                        "label": c["label"],
                        "players": c["config"]["players"],
                        "metrics": c["summary"]["metrics"],
                        "seats": c["summary"]["seats"],
                    }
                    for c in data["configurations"]
                ],
                "ladder": data["ladder"],
                "left_out": skipped,
                "figures": figures,
            }
            entry["state"] = "done"
        except Exception as exc:  # a failed check reports why instead of hanging the page
            entry["state"] = "failed"
            entry["message"] = str(exc)
        finally:
            with self._lock:
                self._running = None

    def status(self, key: str) -> dict[str, Any] | None:
        """``{"state", "done", "total"[, "result" | "message"]}``, or None for an unknown job."""
        entry = self._jobs.get(key)
        if entry is None:
            return None
        return {k: v for k, v in entry.items() if k not in ("report", "html")}

    def report(self, key: str) -> tuple[dict[str, Any], str] | None:
        """A finished check's report data and page, or None."""
        entry = self._jobs.get(key)
        if entry is None or entry["state"] != "done":
            return None
        return entry["report"], entry["html"]


def routes(hub: Hub) -> Sequence[BaseRoute]:
    """The designer's page and routes and the card pages; one balance queue per app."""
    balance = BalanceJobs()
    loop = asyncio.get_running_loop

    async def designer(request: Request) -> Response:
        return JSONResponse(designer_data())

    async def validate(request: Request) -> Response:
        body = await json_body(request)
        if isinstance(body, Response):
            return body
        out = await loop().run_in_executor(hub.ai_pool, validate_variant, body.get("variant_file"))
        return JSONResponse(out)

    async def print_pdf(request: Request) -> Response:
        body = await json_body(request)
        if isinstance(body, Response):
            return body
        paper = body.get("paper", "a4")
        if paper not in ("a4", "letter"):
            return error_response("paper is a4 or letter", 400, "paper")
        try:
            data = await loop().run_in_executor(hub.ai_pool, print_variant, body.get("variant_file"), paper)
        except DesignError as exc:
            return error_response(str(exc), 400, exc.reason, exc.params)
        except (ValueError, PolytableError) as exc:
            return engine_response(exc)
        return Response(data, media_type="application/pdf")

    async def balance_start(request: Request) -> Response:
        body = await json_body(request)
        if isinstance(body, Response):
            return body
        try:
            started = balance.start(body.get("variant_file"), body.get("games"))
        except DesignError as exc:
            return error_response(str(exc), 409 if exc.reason == "balance_busy" else 400, exc.reason, exc.params)
        return JSONResponse(started)

    async def balance_status(request: Request) -> Response:
        out = balance.status(request.path_params["job"])
        if out is None:
            return error_response("no such balance check (it may have expired)", 404, "balance_unknown")
        return JSONResponse(out)

    def _report(request: Request) -> tuple[dict[str, Any], str] | Response:
        found = balance.report(request.path_params["job"])
        if found is None:
            return error_response("no such finished balance check (it may have expired)", 404, "balance_unknown")
        return found

    async def balance_json(request: Request) -> Response:
        found = _report(request)
        if isinstance(found, Response):
            return found
        headers = {"Content-Disposition": 'attachment; filename="balance-report.json"'}
        return JSONResponse(found[0], headers=headers)

    async def balance_html(request: Request) -> Response:
        found = _report(request)
        if isinstance(found, Response):
            return found
        return Response(found[1], media_type="text/html; charset=utf-8")

    return [
        Route("/designer", app_page),
        Route("/c/{code}", app_page),
        Route("/api/formfinity/designer", designer),
        Route("/api/formfinity/validate", validate, methods=["POST"]),
        Route("/api/formfinity/print", print_pdf, methods=["POST"]),
        Route("/api/formfinity/balance", balance_start, methods=["POST"]),
        Route("/api/formfinity/balance/{job}", balance_status),
        Route("/api/formfinity/balance/{job}/report.json", balance_json),
        Route("/api/formfinity/balance/{job}/report.html", balance_html),
    ]


EXTRAS = Extras(GAME.spec.id, routes=routes, room_sheet=room_sheet)
