"""What a second server process costs: server CPU per action of ``serve --workers 2`` on PostgreSQL and
Redis against one process on the same load, in the same run.

``python benchmarks/two_processes.py [--rooms 50] [--seconds 15] [--rounds 2] [--game foldris] [--sockets seat]``

Why this figure: throughput on a 2-core machine shared with other work measures the share of a core the
server got, not the server; CPU time per acknowledged action does not depend on that share, so the ratio of
two configurations run one after the other under the same load says what the second process costs (the
target: at most 1.15x). It starts its own PostgreSQL cluster and redis-server in a scratch folder (as
``benchmarks/chaos.py`` does; the machine's own are never used), then alternates, ``--rounds`` times: one
process on PostgreSQL (no pub/sub, what a one-process site runs), one process with the pub/sub too, and two
processes (``--workers 2``) on both, each on an empty database, driven by ``benchmarks/web_load.py``'s Node
clients; and, as a reference, two one-process servers on the same PostgreSQL and Redis with half the rooms
each (every room made and played on one of them, as a proxy routing by room code would have it). That
reference separates running two server processes side by side at all (the reference against one process)
from what ``--workers 2`` adds (``--workers 2`` against the reference: its rooms crossing between the
processes, and uvicorn's multi-process mode). Prints each run and the ratios of the medians, as JSON lines.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import chaos  # the scratch PostgreSQL and Redis
import web_load  # the server start, the Node clients and the CPU accounting

PAIR = "2 processes, each room on one"
"""The reference: two one-process servers on the same PostgreSQL and Redis, each given half the rooms (its
room creations and sockets), as a proxy routing by room code would; with ``--workers 2`` a room is made
on either process and played on either, so half of them are read in by the other, under uvicorn's
multi-process mode. What separates this one from one process is running two of them."""

CONFIGS = (
    ("1 process, PostgreSQL", 1, False),
    ("1 process, PostgreSQL + Redis", 1, True),
    ("2 processes", 2, True),
    (PAIR, 2, True),
)


def _empty(site: chaos.Site) -> None:
    """Drop the rooms of the last run (a server loads every unfinished room at start-up)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(site.db)
    with engine.begin() as conn:
        if conn.execute(text("SELECT to_regclass('pt_rooms')")).scalar() is not None:  # none before the first run
            for table in ("pt_actions", "pt_seats", "pt_rooms"):
                conn.execute(text(f"DELETE FROM {table}"))
    engine.dispose()


def _pair(site: chaos.Site, args: argparse.Namespace) -> dict[str, Any]:
    """Two one-process servers at once, each driven by its own load generator with half the rooms; their
    CPU and actions are added up (each server's CPU over its own run, the two runs side by side)."""
    servers = [web_load._start_server(site.db, 1, site.pubsub) for _ in range(2)]
    halves = [args.rooms // 2, args.rooms - args.rooms // 2]
    reports: list[dict[str, Any]] = [{}, {}]

    def run(i: int) -> None:
        proc, base = servers[i]
        reports[i] = web_load._run(
            base, halves[i], args.game, 2, args.seconds, False, proc.pid, max(1, args.processes // 2), args.peer_dir
        )

    try:
        threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        for proc, _ in servers:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    actions = sum(r.get("actions", 0) for r in reports)
    out: dict[str, Any] = {
        "rooms": args.rooms,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "seconds": max(r.get("seconds", 0.0) for r in reports),
        "actions": actions,
        "actions_per_second": round(sum(r.get("actions_per_second", 0.0) for r in reports), 1),
        "errors": sum(r.get("errors", 0) for r in reports),
        "room_failures": sum(r.get("room_failures", 0) for r in reports),
    }
    failures = [r["first_failure"] for r in reports if "first_failure" in r]
    if failures:
        out["first_failure"] = failures[0]
    if actions:
        for key in (
            "server_cpu_ms_per_action",
            "server_cpu_ms_per_action_event_loop",
            "server_cpu_ms_per_action_other_threads",
        ):
            total = sum(r.get(key, 0.0) * r.get("actions", 0) for r in reports)
            out[key] = round(total / actions, 3)
    return out


def load_args(ap: argparse.ArgumentParser, rounds: int) -> argparse.Namespace:
    """The load's options shared with ``two_processes_builds.py``, parsed; the Node clients made ready."""
    ap.add_argument("--rooms", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--rounds", type=int, default=rounds)
    ap.add_argument("--game", default="foldris")
    ap.add_argument("--processes", type=int, default=2, help="load-generator processes")
    ap.add_argument("--peer-dir", default=os.path.join(tempfile.gettempdir(), "polytable-bench-boardgameio"))
    ap.add_argument(
        "--sockets",
        choices=("room", "seat"),
        default="room",
        help="one WebSocket per room holding every seat (hot-seat, the default), or one per seat (a phone each)",
    )
    args = ap.parse_args()
    os.environ["POLYTABLE_LOAD_SOCKETS"] = args.sockets  # read by the Node clients
    web_load._npm_install(args.peer_dir)
    return args


@contextlib.contextmanager
def scratch_site(prefix: str) -> Iterator[chaos.Site]:
    """A scratch PostgreSQL and Redis of their own (never the machine's), stopped and removed at the end."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        folder = Path(tmp)
        os.chmod(folder, 0o777)
        site = chaos.Site(folder)
        try:
            site.start_pg()
            site.start_redis()
            yield site
        finally:
            site.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    args = load_args(ap, rounds=2)
    per_config: dict[str, list[float]] = {name: [] for name, _, _ in CONFIGS}
    report: dict[str, Any]
    with scratch_site("polytable-two-") as site:
        for _ in range(args.rounds):
            for name, workers, pubsub in CONFIGS:
                _empty(site)
                if name == PAIR:
                    report = _pair(site, args)
                    report["server"] = name
                    print(json.dumps(report), flush=True)
                    per_config[name].append(report["server_cpu_ms_per_action"])
                    continue
                proc, base = web_load._start_server(site.db, workers, site.pubsub if pubsub else None)
                try:
                    report = web_load._run(
                        base, args.rooms, args.game, 2, args.seconds, False, proc.pid, args.processes, args.peer_dir
                    )
                finally:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
                report["server"] = name
                print(json.dumps(report), flush=True)
                if "server_cpu_ms_per_action" in report:
                    per_config[name].append(report["server_cpu_ms_per_action"])
    medians = {name: statistics.median(v) for name, v in per_config.items() if v}
    summary: dict[str, Any] = {"median_server_cpu_ms_per_action": medians}
    for two in ("2 processes", PAIR):
        for name, _, _ in CONFIGS[:2]:
            if medians.get(two) and medians.get(name):
                summary[f"ratio_{two}_to_{name}"] = round(medians[two] / medians[name], 2)
    if medians.get("2 processes") and medians.get(PAIR):
        summary[f"ratio_2_processes_to_{PAIR}"] = round(medians["2 processes"] / medians[PAIR], 2)
    summary["load_average_1min"] = round(os.getloadavg()[0], 2)
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
