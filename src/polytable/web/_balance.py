"""The designer's balance check: a few hundred AI games of a FORMFINITY variant on the server, with progress.

The same metrics and figures as ``polytable analyse`` (:mod:`polytable.analysis`), for the variant file
being designed, at its smallest player count with the ``greedy`` AI in every seat. Bounded: at most
:data:`MAX_GAMES` games a check and one check running at a time on a server (a second gets ``busy``); the
finished ones are kept briefly so the page can fetch the result.
"""

from __future__ import annotations

import tempfile
import threading
import uuid
from pathlib import Path
from typing import Any

from ..core import PolytableError
from ..match import engine_reason
from ._designer import DesignError, _check_text

__all__ = ["DEFAULT_GAMES", "MAX_GAMES", "BalanceJobs"]

MAX_GAMES = 300
DEFAULT_GAMES = 100
AI = "greedy"
_KEEP = 8


class BalanceJobs:
    """Balance checks in a background thread; ``start`` and ``status`` are what the routes call."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: dict[str, dict[str, Any]] = {}
        self._running: str | None = None

    def start(self, text: object, games: object) -> dict[str, Any]:
        """Check the input and start; ``{"job", "total"}``. DesignError (with a reason) for bad input or busy."""
        from ..analysis import Job
        from ..games.formfinity import parse_variant_file

        body = _check_text(text)
        if games is None:
            games = DEFAULT_GAMES
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
            message = f"games must be a whole number from 1 to {MAX_GAMES}"
            raise DesignError(message, "balance_games", {"max": MAX_GAMES})
        try:
            rules = parse_variant_file(body)
            job = Job.make("formfinity", rules.min_players, [AI], {"variant": "custom", "variant_file": body})
        except (ValueError, PolytableError) as exc:
            shown = engine_reason(exc)
            raise DesignError(str(exc), shown["reason"], shown["params"]) from None
        with self._lock:
            if self._running is not None:
                raise DesignError("a balance check is already running on this server; try again soon", "balance_busy")
            key = uuid.uuid4().hex[:12]
            self._running = key
            self._jobs[key] = {"state": "running", "done": 0, "total": games}
            while len(self._jobs) > _KEEP:
                self._jobs.pop(next(iter(self._jobs)))
        threading.Thread(target=self._run, args=(key, job, games), daemon=True).start()
        return {"job": key, "total": games}

    def _run(self, key: str, job: Any, games: int) -> None:
        from ..analysis import run_games, summarise
        from ..analysis._plots import draw_all

        entry = self._jobs[key]

        def tick(k: int) -> None:
            entry["done"] += k

        try:
            records = run_games(job, games, seed=0, on_done=tick)
            summary = summarise(records, job.players)
            with tempfile.TemporaryDirectory() as tmp:
                files = draw_all([("variant", summary)], Path(tmp))
                figures = {name: (Path(tmp) / f["svg"]).read_text(encoding="utf-8") for name, f in files.items()}
            entry["result"] = {
                "players": job.players,
                "ai": AI,
                "metrics": summary["metrics"],
                "seats": summary["seats"],
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
        return None if entry is None else dict(entry)
