"""Two builds of the server measured against each other under the same load: one process with Redis and
``serve --workers 2``, each configuration for every build back to back, the builds' order rotated every round.

``python benchmarks/two_processes_builds.py --builds main=<a checkout>/src,new=src [--rounds 6] [--seconds 15]``

Why: single runs of ``two_processes.py`` minutes apart on a shared machine differ by more than most changes
save (the load moves the CPU per action by a quarter within an hour), so a change is measured by running
the builds within seconds of each other on one scratch PostgreSQL and Redis (``chaos.Site``, as
``two_processes.py`` starts them). A build is a ``src`` folder put first on the server processes'
``PYTHONPATH`` (with its compiled extensions in place); the load generator and the accounting are this
checkout's. Each run prints the server CPU per action (the whole process family, ``web_load._cpu_seconds``),
PostgreSQL transactions and Redis publishes per action, the clients' latency and the load average, as JSON
lines; then per build the medians and the ratio of ``--workers 2`` to one process, and for every build
after the first its CPU per action against the first build's, round by round, with a 95% interval of
the mean of those per-round ratios (Student's t).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import chaos  # the scratch PostgreSQL and Redis
import two_processes  # emptying the database between runs
import web_load  # the server start, the Node clients and the CPU accounting

CONFIGS = (("1 process + Redis", 1), ("--workers 2", 2))
_T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26}
"""Student's t at 97.5% by degrees of freedom (about 2.0 beyond)."""


def _interval(values: list[float]) -> str:
    """The mean and the half-width of its 95% interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:.3f}"
    half = _T95.get(len(values) - 1, 2.0) * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:.3f} ± {half:.3f}"


def _counters(site: chaos.Site) -> tuple[int, int]:
    """PostgreSQL's committed transactions and Redis's PUBLISH calls so far."""
    import redis
    from sqlalchemy import create_engine, text

    engine = create_engine(site.db)
    try:
        with engine.connect() as conn:
            commits = conn.execute(
                text("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")
            ).scalar()
    finally:
        engine.dispose()
    client = redis.Redis.from_url(site.pubsub)
    try:
        publishes = client.info("commandstats").get("cmdstat_publish", {}).get("calls", 0)
    finally:
        client.close()
    return int(commits or 0), int(publishes)


def _one(site: chaos.Site, src: str, workers: int, args: argparse.Namespace) -> dict[str, Any]:
    two_processes._empty(site)
    commits0, publishes0 = _counters(site)
    os.environ["PYTHONPATH"] = src  # inherited by the server processes only: this process has its imports
    proc, base = web_load._start_server(site.db, workers, site.pubsub)
    try:
        report: dict[str, Any] = web_load._run(
            base, args.rooms, args.game, 2, args.seconds, False, proc.pid, args.processes, args.peer_dir
        )
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    commits1, publishes1 = _counters(site)
    actions = max(1, int(report.get("actions", 0)))
    report["pg_transactions_per_action"] = round((commits1 - commits0) / actions, 4)
    report["publishes_per_action"] = round((publishes1 - publishes0) / actions, 4)
    report["load_average_1min"] = round(os.getloadavg()[0], 2)
    return report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--builds", required=True, help="name=src folder, comma-separated; the first is the baseline")
    args = two_processes.load_args(ap, rounds=6)
    builds = [tuple(part.split("=", 1)) for part in args.builds.split(",")]
    if any(len(b) != 2 for b in builds):
        ap.error("--builds takes name=folder pairs")
    cpu: dict[tuple[str, str], dict[int, float]] = {}
    with two_processes.scratch_site("polytable-builds-") as site:
        for r in range(args.rounds):
            order = builds[r % len(builds) :] + builds[: r % len(builds)]
            for config, workers in CONFIGS:
                for name, src in order:
                    report = _one(site, src, workers, args)
                    report.update(round=r, build=name, server=config)
                    print(json.dumps(report), flush=True)
                    if report.get("actions") and report.get("server_cpu_seconds"):
                        per_action = 1000 * report["server_cpu_seconds"] / report["actions"]
                        cpu.setdefault((name, config), {})[r] = per_action
    summary: dict[str, Any] = {}
    (one, _), (two, _) = CONFIGS
    for name, _ in builds:
        ones, twos = cpu.get((name, one), {}), cpu.get((name, two), {})
        if ones and twos:
            summary[name] = {
                "median_ms_per_action": {
                    one: round(statistics.median(ones.values()), 3),
                    two: round(statistics.median(twos.values()), 3),
                },
                "ratio_of_medians": round(statistics.median(twos.values()) / statistics.median(ones.values()), 3),
                "ratio_per_round": _interval([twos[r] / ones[r] for r in twos if r in ones]),
            }
    base = builds[0][0]
    for name, _ in builds[1:]:
        for config, _ in CONFIGS:
            mine, theirs = cpu.get((name, config), {}), cpu.get((base, config), {})
            ratios = [mine[r] / theirs[r] for r in mine if r in theirs]
            if ratios:
                summary.setdefault(name, {})[f"against {base}, {config}"] = (
                    f"{_interval(ratios)} (lower in {sum(x < 1 for x in ratios)} of {len(ratios)} rounds)"
                )
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
