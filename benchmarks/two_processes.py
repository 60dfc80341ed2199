"""What a second server process costs: server CPU per action of ``serve --workers 2`` on PostgreSQL and
Redis against one process on the same load, in the same run.

``python benchmarks/two_processes.py [--rooms 50] [--seconds 15] [--rounds 2] [--game foldris]``

Why this figure: throughput on a 2-core machine shared with other work measures the share of a core the
server got, not the server; CPU time per acknowledged action does not depend on that share, so the ratio of
two configurations run one after the other under the same load says what the second process costs (the
target: at most 1.15x). It starts its own PostgreSQL cluster and redis-server in a scratch folder (as
``benchmarks/chaos.py`` does; the machine's own are never used), then alternates, ``--rounds`` times: one
process on PostgreSQL (no pub/sub, what a one-process site runs), one process with the pub/sub too, and two
processes (``--workers 2``) on both, each on an empty database, driven by ``benchmarks/web_load.py``'s Node
clients. Prints each run and the ratios of the medians, as JSON lines.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import chaos  # the scratch PostgreSQL and Redis
import web_load  # the server start, the Node clients and the CPU accounting

CONFIGS = (("1 process, PostgreSQL", 1, False), ("1 process, PostgreSQL + Redis", 1, True), ("2 processes", 2, True))


def _empty(site: chaos.Site) -> None:
    """Drop the rooms of the last run (a server loads every unfinished room at start-up)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(site.db)
    with engine.begin() as conn:
        if conn.execute(text("SELECT to_regclass('pt_rooms')")).scalar() is not None:  # none before the first run
            for table in ("pt_actions", "pt_seats", "pt_rooms"):
                conn.execute(text(f"DELETE FROM {table}"))
    engine.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rooms", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--game", default="foldris")
    ap.add_argument("--processes", type=int, default=2, help="load-generator processes")
    ap.add_argument("--peer-dir", default=os.path.join(tempfile.gettempdir(), "polytable-bench-boardgameio"))
    args = ap.parse_args()
    web_load._npm_install(args.peer_dir)
    per_config: dict[str, list[float]] = {name: [] for name, _, _ in CONFIGS}
    with tempfile.TemporaryDirectory(prefix="polytable-two-") as tmp:
        folder = Path(tmp)
        os.chmod(folder, 0o777)
        site = chaos.Site(folder)
        try:
            site.start_pg()
            site.start_redis()
            for _ in range(args.rounds):
                for name, workers, pubsub in CONFIGS:
                    _empty(site)
                    proc, base = web_load._start_server(site.db, workers, site.pubsub if pubsub else None)
                    try:
                        report: dict[str, Any] = web_load._run(
                            base, args.rooms, args.game, 2, args.seconds, False, proc.pid, args.processes, args.peer_dir
                        )
                    finally:
                        os.killpg(proc.pid, signal.SIGKILL)
                        proc.wait()
                    report["server"] = name
                    print(json.dumps(report), flush=True)
                    if "server_cpu_ms_per_action" in report:
                        per_config[name].append(report["server_cpu_ms_per_action"])
        finally:
            site.close()
    medians = {name: statistics.median(v) for name, v in per_config.items() if v}
    two = medians.get("2 processes")
    summary: dict[str, Any] = {"median_server_cpu_ms_per_action": medians}
    for name, _, _ in CONFIGS[:2]:
        if two and medians.get(name):
            summary[f"ratio_2_processes_to_{name}"] = round(two / medians[name], 2)
    summary["load_average_1min"] = round(os.getloadavg()[0], 2)
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
