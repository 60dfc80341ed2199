"""Load test of the web server: N rooms played at once by scripted clients over real WebSockets.

``python benchmarks/web_load.py --rooms 50 --rooms 200 [--game foldris] [--seconds 20] [--ai]``

A fresh server process (``polytable serve``) is started on 127.0.0.1 with its own SQLite file; each room
is created over HTTP with every seat held by one scripted client (hot-seat) that connects over a
WebSocket and, whenever one of its seats must act, sends the first legal action listed for it with the
version it saw. The latency of an action is the time from sending it to receiving the state with the
new version (so it includes the database commit, which happens before anyone is told). With ``--ai``
every room is AI-vs-AI instead (the server's AI seats, no client actions) and only throughput is
measured. Each run is bounded by ``--seconds`` and stops by itself; only loopback is ever contacted.
Figures are printed as JSON, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start_server(db: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    cmd = [sys.executable, "-c", "from polytable.cli import main; main()", "serve", "--port", str(port)]
    cmd += ["--db", db, "--ai-delay", "0", "--rooms-per-minute", "100000"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


async def _create(http: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    """Create a room; one retry when a pooled keep-alive connection was closed by the server meanwhile."""
    for attempt in range(2):
        try:
            r = await http.post("/api/rooms", json=body)
            r.raise_for_status()
            data: dict[str, Any] = r.json()
            return data
        except httpx.TransportError:
            if attempt:
                raise
    raise AssertionError("unreachable")


async def _play_room(
    http: httpx.AsyncClient, base: str, game: str, players: int, seed: int, stop: float, out: dict[str, Any]
) -> None:
    room = await _create(http, {"game": game, "players": players, "seed": seed})
    ws_url = base.replace("http", "ws") + f"/ws/{room['code']}"
    async with connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "tokens": list(room["tokens"].values())}))
        msg: dict[str, Any] = {}
        sent_at: float | None = None
        sent_version = -1
        while time.time() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.time()))
            except TimeoutError:
                break
            m = json.loads(raw)
            if m["type"] == "error":
                out["errors"] += 1
                continue
            if m["type"] != "state":
                continue
            msg = m
            if sent_at is not None and msg["version"] > sent_version:
                out["latency"].append(time.perf_counter() - sent_at)
                out["actions"] += 1
                sent_at = None
            if msg["over"]:
                out["games"] += 1
                break
            if sent_at is not None:
                continue
            for p in msg["acting"]:
                part = msg["mine"].get(str(p))
                if part and part["to_act"] and part["legal"]:
                    sent_version = msg["version"]
                    sent_at = time.perf_counter()
                    await ws.send(
                        json.dumps({"type": "act", "seat": p, "version": msg["version"], "action": part["legal"][0]})
                    )
                    break


async def _ai_room(
    http: httpx.AsyncClient, base: str, game: str, players: int, seed: int, stop: float, out: dict[str, Any]
) -> None:
    seats = [{"kind": "ai", "ai": "random"} for _ in range(players)]
    code = (await _create(http, {"game": game, "players": players, "seed": seed, "seats": seats}))["code"]
    while time.time() < stop:
        info = (await http.get(f"/api/rooms/{code}")).json()
        if info["over"]:
            out["games"] += 1
            break
        await asyncio.sleep(0.5)
    info = (await http.get(f"/api/rooms/{code}")).json()
    out["actions"] += info["version"]


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux /proc), to report server CPU per action."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


async def _drive(base: str, first: int, count: int, game: str, players: int, stop: float, ai: bool) -> dict[str, Any]:
    """Play rooms ``first .. first + count - 1`` until ``stop`` (one load-generator process, one shared HTTP
    client: building an httpx client per room costs tens of milliseconds each and stalled the start)."""
    out: dict[str, Any] = {"actions": 0, "games": 0, "errors": 0, "latency": [], "failures": []}
    own0 = time.process_time()
    fn = _ai_room if ai else _play_room
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=httpx.Limits(max_connections=32)) as http:
        results = await asyncio.gather(
            *(fn(http, base, game, players, 1000 + i, stop, out) for i in range(first, first + count)),
            return_exceptions=True,
        )
    out["failures"] = [repr(r)[:300] for r in results if isinstance(r, BaseException)]
    out["cpu"] = time.process_time() - own0
    return out


def _worker(args: tuple[str, int, int, str, int, float, bool]) -> dict[str, Any]:
    return asyncio.run(_drive(*args))


def _run(
    base: str, rooms: int, game: str, players: int, seconds: float, ai: bool, pid: int = 0, procs: int = 2
) -> dict[str, Any]:
    """N rooms spread over ``procs`` load-generator processes (one Python process cannot drive 200
    WebSocket clients fast enough to load the server); their latencies are merged."""
    cpu0 = _cpu_seconds(pid) if pid else None
    start = time.monotonic()
    stop = time.time() + seconds
    procs = max(1, min(procs, rooms))
    shares = [rooms // procs + (1 if k < rooms % procs else 0) for k in range(procs)]
    firsts = [sum(shares[:k]) for k in range(procs)]
    jobs = [(base, firsts[k], shares[k], game, players, stop, ai) for k in range(procs)]
    with multiprocessing.get_context("spawn").Pool(procs) as pool:
        parts = pool.map(_worker, jobs)
    elapsed = time.monotonic() - start
    cpu1 = _cpu_seconds(pid) if pid else None
    actions = sum(p["actions"] for p in parts)
    failures = [f for p in parts for f in p["failures"]]
    lat = sorted(x for p in parts for x in p["latency"])
    report: dict[str, Any] = {
        "rooms": rooms,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "mode": "ai-vs-ai" if ai else "scripted clients",
        "game": game,
        "players": players,
        "load_generator_processes": procs,
        "seconds": round(elapsed, 2),
        "actions": actions,
        "actions_per_second": round(actions / elapsed, 1),
        "games_finished": sum(p["games"] for p in parts),
        "errors": sum(p["errors"] for p in parts),
        "room_failures": len(failures),
        "load_generator_cpu_seconds": round(sum(p["cpu"] for p in parts), 2),
    }
    if cpu0 is not None and cpu1 is not None and actions:
        report["server_cpu_seconds"] = round(cpu1 - cpu0, 2)
        report["server_cpu_ms_per_action"] = round(1000 * (cpu1 - cpu0) / actions, 2)
    if lat:
        report["latency_ms_p50"] = round(1000 * statistics.median(lat), 2)
        report["latency_ms_p99"] = round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 2)
    if failures:
        report["first_failure"] = failures[0]
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, action="append", help="rooms at once (repeatable; default 50 and 200)")
    parser.add_argument("--game", default="foldris")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20.0, help="time budget of each run")
    parser.add_argument("--ai", action="store_true", help="AI-vs-AI rooms instead of scripted clients")
    parser.add_argument("--processes", type=int, default=2, help="load-generator processes")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    reports = []
    for n in args.rooms or [50, 200]:
        with tempfile.TemporaryDirectory() as tmp:
            db = args.db or f"sqlite:///{os.path.join(tmp, 'load.db')}"
            proc, base = _start_server(db)
            try:
                reports.append(_run(base, n, args.game, args.players, args.seconds, args.ai, proc.pid, args.processes))
            finally:
                proc.kill()
                proc.wait()
        print(json.dumps(reports[-1]), flush=True)


if __name__ == "__main__":
    main()
