"""Operations: health and readiness probes, Prometheus metrics and one-JSON-object-a-line logs.

``GET /healthz``  the process answers (liveness: restart it if this fails)
``GET /readyz``   the database and the pub/sub server answer (readiness: send it traffic only then)
``GET /metrics``  Prometheus text: rooms and connections held, socket messages by type and outcome, and
                  the latency of players' actions (commit included) as a histogram

Each app has its own metrics registry, so several apps in one process (the tests) never collide.
"""

from __future__ import annotations

import bisect
import json
import logging
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Gauge, generate_latest
from prometheus_client.metrics_core import CounterMetricFamily, HistogramMetricFamily, Metric
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

if TYPE_CHECKING:
    from ._hub import Hub

__all__ = ["JsonFormatter", "Metrics", "configure_logging", "ops_routes"]


class Metrics:
    """The server's Prometheus metrics (one registry per app).

    The per-message counts and the action latency histogram are plain numbers added to on the event loop
    and turned into Prometheus families only when ``/metrics`` is read: prometheus-client's counters and
    histograms take a lock and walk their buckets on every message, a few microseconds per action that
    nobody reads (see docs/web.md). The text served is the same."""

    BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

    def __init__(self, hub: Hub) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        rooms = Gauge("polytable_rooms", "Rooms held in memory by this process", registry=self.registry)
        rooms.set_function(lambda: len(hub.rooms))
        conns = Gauge("polytable_connections", "Open room sockets on this process", registry=self.registry)
        conns.set_function(lambda: sum(len(r.clients) for r in list(hub.rooms.values())))
        damaged = Gauge(
            "polytable_rooms_damaged",
            "Rooms found unable to continue since start-up (a damaged log; `polytable rooms check` lists them)",
            registry=self.registry,
        )
        damaged.set_function(lambda: len(hub.damaged))
        self.created = time.time()
        self.messages: dict[tuple[str, str], int] = {}
        self.actions = 0
        self.bucket_counts = [0] * (len(self.BUCKETS) + 1)  # the last one: above every bound (+Inf)
        self.seconds = 0.0
        self.registry.register(self)

    def handled(self, kind: str, outcome: str, started: float) -> None:
        """Count one socket message; an action that succeeded also feeds the latency histogram."""
        key = (kind if kind in _KINDS else "other", outcome)
        messages = self.messages
        messages[key] = messages.get(key, 0) + 1
        if kind == "act" and outcome == "ok":
            took = time.perf_counter() - started
            self.actions += 1
            self.seconds += took
            self.bucket_counts[bisect.bisect_left(self.BUCKETS, took)] += 1

    def describe(self) -> list[Metric]:
        return list(self.collect())

    def collect(self) -> Iterator[Metric]:
        """The families, as prometheus-client's own counters and histogram would show them."""
        messages = CounterMetricFamily("polytable_messages", "Room socket messages handled", labels=["type", "outcome"])
        for (kind, outcome), n in sorted(self.messages.items()):
            messages.add_metric([kind, outcome], n, created=self.created)
        yield messages
        actions = CounterMetricFamily("polytable_actions", "Actions played by people and committed")
        actions.add_metric([], self.actions, created=self.created)
        yield actions
        buckets: list[tuple[str, float]] = []
        running = 0
        for bound, n in zip((*map(str, self.BUCKETS), "+Inf"), self.bucket_counts, strict=True):
            running += n
            buckets.append((bound, running))
        histogram = HistogramMetricFamily(
            "polytable_action_seconds", "Time from receiving a player's action to its commit and broadcast"
        )
        histogram.add_metric([], buckets, self.seconds)
        yield histogram


_KINDS = frozenset({"hello", "sync", "act", "undo", "preview", "deal", "undeal"})


def ops_routes(hub: Hub, metrics: Metrics) -> list[BaseRoute]:
    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True})

    async def readyz(request: Request) -> Response:
        checks: dict[str, bool] = {}
        try:
            ping = getattr(hub.storage, "ping", None)
            if ping is not None:
                await hub.store.read(ping)
            checks["database"] = True
        except Exception:
            logging.getLogger("polytable.web").warning("readiness: the database does not answer", exc_info=True)
            checks["database"] = False
        checks["pubsub"] = await hub.broadcaster.ready()
        ok = all(checks.values())
        return JSONResponse({"ok": ok, **checks}, status_code=200 if ok else 503)

    async def prometheus(request: Request) -> Response:
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    return [Route("/healthz", healthz), Route("/readyz", readyz), Route("/metrics", prometheus)]


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message (and the traceback, if any)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def configure_logging(fmt: str = "text", level: int = logging.INFO) -> None:
    """Send the server's logs to standard error, as text lines or (``json``) one JSON object a line."""
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        formatter: logging.Formatter = JsonFormatter()
        formatter.converter = time.gmtime
    else:
        formatter = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("alembic").setLevel(logging.WARNING)  # "Context impl ..." on every start says nothing
