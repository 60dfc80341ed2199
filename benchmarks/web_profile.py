"""Where the server's event loop spends its CPU under the load of ``web_load.py``, function by function.

``python benchmarks/web_profile.py --rooms 200 --seconds 15``

The server (``polytable.web.app_from_env``, as ``polytable serve`` builds it, on a fresh SQLite file) runs
in this process on uvicorn and uvloop, and ``web_load.py``'s Node clients play it over real WebSockets on
127.0.0.1 (installed into ``--peer-dir`` like there). Selected functions of the server and
uvicorn are wrapped to add up the event loop thread's CPU time (``time.thread_time``) spent in them, and
the collector's pauses are timed (wall and CPU); printed per acknowledged action. A sampling profiler sees
wall time, which on a shared machine is mostly other processes' turn; these are CPU clocks (the socket send
is a coroutine: its time would include other tasks' only when a socket's buffer is full and it waits).
Nested entries are indented. Each run is bounded by ``--seconds`` and stops by itself.
"""

from __future__ import annotations

import argparse
import functools
import gc
import inspect
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import web_load  # the benchmark's Node clients and scratch folder

from polytable.cli.cmd_web import SERVER_OPTIONS

_spent: dict[str, float] = {}
_calls: dict[str, int] = {}


def _wrap(owner: Any, name: str, label: str) -> None:
    """Add the loop thread's CPU time spent in ``owner.name`` to ``label``."""
    fn: Callable[..., Any] = getattr(owner, name)
    if inspect.iscoroutinefunction(fn):

        async def timed_async(*args: Any, **kwargs: Any) -> Any:
            t = time.thread_time()
            try:
                return await fn(*args, **kwargs)
            finally:
                _spent[label] = _spent.get(label, 0.0) + time.thread_time() - t
                _calls[label] = _calls.get(label, 0) + 1

        setattr(owner, name, functools.wraps(fn)(timed_async))
        return

    def timed(*args: Any, **kwargs: Any) -> Any:
        t = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            _spent[label] = _spent.get(label, 0.0) + time.thread_time() - t
            _calls[label] = _calls.get(label, 0) + 1

    setattr(owner, name, functools.wraps(fn)(timed))


def _instrument() -> None:
    import uvicorn.protocols.http.httptools_impl as http

    from polytable.match import Match
    from polytable.web import _ops, _rooms, _views, _wsproto
    from polytable.web import _ws as pws

    _wrap(_views.Views, "text", "state message (Views.text)")
    _wrap(_views.Views, "_legal_actions", "  its legal moves in notation")
    _wrap(_views.Views, "_head_text", "  its shared fields (summary, history, clocks)")
    _wrap(pws.AsgiSocket, "send_text", "socket send (the frame and the write)")
    _wrap(_wsproto.RoomSocketProtocol, "data_received", "socket frames received")
    _wrap(http.HttpToolsProtocol, "data_received", "HTTP requests (room creation)")
    _wrap(Match, "play", "action applied (parse, rules)")
    _wrap(Match, "resolve_chance", "chance after it")
    _wrap(_rooms.Room, "broadcast", "change announced (caches dropped, writers woken)")
    _wrap(pws.Connection, "_parse", "message parsed (bounded JSON)")
    _wrap(_ops.Metrics, "handled", "metrics")


def _by_cpu(pause: tuple[int, float, float, int]) -> float:
    return -pause[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--processes", type=int, default=2, help="load-generator processes")
    parser.add_argument(
        "--peer-dir",
        default=os.path.join(tempfile.gettempdir(), "polytable-bench-boardgameio"),
        help="scratch folder the Node load generator (ws) is installed into from npm",
    )
    args = parser.parse_args()
    web_load._npm_install(args.peer_dir)
    folder = tempfile.mkdtemp()
    os.environ.update(
        {
            "POLYTABLE_SERVE_DB": f"sqlite:///{os.path.join(folder, 'load.db')}",
            "POLYTABLE_SERVE_AI_DELAY": "0",
            "POLYTABLE_SERVE_ROOMS_PER_MINUTE": "100000",
        }
    )
    import uvicorn
    import uvloop

    from polytable.web import app_from_env

    _instrument()
    app = app_from_env()
    port = web_load._free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        **SERVER_OPTIONS,
    )
    server = uvicorn.Server(config)
    pauses: list[tuple[int, float, float, int]] = []
    started: list[float] = [0.0, 0.0]

    def collector(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = [time.perf_counter(), time.thread_time()]
        elif threading.current_thread() is threading.main_thread():
            wall, cpu = time.perf_counter() - started[0], time.thread_time() - started[1]
            pauses.append((info["generation"], wall, cpu, info["collected"]))

    report: dict[str, Any] = {}

    def drive() -> None:
        while not server.started:
            time.sleep(0.05)
        _spent.clear()
        _calls.clear()
        gc.callbacks.append(collector)
        procs = max(1, min(args.processes, args.rooms))
        shares = [args.rooms // procs + (1 if k < args.rooms % procs else 0) for k in range(procs)]
        firsts = [sum(shares[:k]) for k in range(procs)]
        base = f"http://127.0.0.1:{port}"
        cpu0, t0 = time.process_time(), time.monotonic()
        parts = web_load._node_clients(args.peer_dir, base, firsts, shares, "foldris", 2, args.seconds)
        cpu1, t1 = time.process_time(), time.monotonic()
        gc.callbacks.remove(collector)
        actions = sum(p["actions"] for p in parts)
        lat = sorted(x for p in parts for x in p["latency"])
        report.update(
            rooms=args.rooms,
            actions_per_second=round(actions / (t1 - t0), 1),
            server_cpu_ms_per_action=round(1000 * (cpu1 - cpu0) / max(1, actions), 3),
            latency_ms_p50=round(1000 * lat[len(lat) // 2], 1) if lat else None,
            latency_ms_p99=round(1000 * lat[int(0.99 * len(lat))], 1) if lat else None,
            load_average_1min=round(os.getloadavg()[0], 2),
            loop_cpu_us_per_action={
                k: round(1e6 * v / max(1, actions), 1) for k, v in sorted(_spent.items(), key=lambda kv: -kv[1])
            },
            collector={
                "collections": len(pauses),
                "cpu_us_per_action": round(1e6 * sum(p[2] for p in pauses) / max(1, actions), 1),
                "longest_ms (generation, wall, cpu, collected)": [
                    (g, round(1e3 * w, 1), round(1e3 * c, 1), n)
                    for g, w, c, n in sorted(pauses, key=lambda p: -p[2])[:5]
                ],
            },
        )
        server.should_exit = True

    threading.Thread(target=drive, daemon=True).start()
    uvloop.run(server.serve())
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
