"""Load test of the web server: N rooms played at once by scripted clients over real WebSockets.

``python benchmarks/web_load.py --rooms 50 --rooms 200 [--game foldris] [--seconds 20] [--ai]``

A fresh server process (``polytable serve``) is started on 127.0.0.1 with its own SQLite file; each room
is created over HTTP with every seat held by one scripted client (hot-seat) that connects over a
WebSocket and, whenever one of its seats must act, sends the first legal action listed for it with the
version it saw; when its game ends it opens the next room, so every room slot is busy for the whole run.
The latency of an action is the time from sending it to receiving the state with the new version (so it
includes the database commit, which happens before anyone is told). With ``--ai``
every room is AI-vs-AI instead (the server's AI seats, no client actions) and only throughput is
measured. Each run is bounded by ``--seconds`` and stops by itself; only loopback is ever contacted.
Figures are printed as JSON, never asserted.

``--peer`` also runs the same load against boardgame.io, the open-source peer: the benchmark installs it
from npm into a scratch folder (``--peer-dir``, outside the repository; nothing of it is committed), serves
a minimal two-player game (one move a turn) from its stock server (socket.io, in-memory storage) and drives
it from node with boardgame.io's own client, one client per seat, sending a move whenever its seat is to
act; the latency is from the move to the state with the next state id. Both are printed in one run.
``--workers N --pubsub redis://...`` (with ``--db postgresql+psycopg://...``) measures polytable's
several-process mode; the load generator then spreads its rooms over the processes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import signal
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


def _start_server(db: str, workers: int = 1, pubsub: str | None = None) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    cmd = [sys.executable, "-c", "from polytable.cli import main; main()", "serve", "--port", str(port)]
    cmd += ["--db", db, "--ai-delay", "0", "--rooms-per-minute", "100000", "--workers", str(workers)]
    if pubsub:
        cmd += ["--pubsub", pubsub]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                if workers > 1:
                    time.sleep(5.0)  # the first process answers while the others still import: let them finish
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)  # the whole group: --workers processes must not outlive a failed start
    proc.wait()
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


async def _play_rooms(
    http: httpx.AsyncClient, base: str, game: str, players: int, seed: int, stop: float, out: dict[str, Any]
) -> None:
    """One room slot: play a game to its end, then open the next room, until the time is up (so every slot
    stays busy for the whole run, as the peer's endless game does)."""
    n = 0
    while time.time() < stop:
        await _play_room(http, base, game, players, seed + 100_000 * n, stop, out)
        n += 1


async def _play_room(
    http: httpx.AsyncClient, base: str, game: str, players: int, seed: int, stop: float, out: dict[str, Any]
) -> None:
    room = await _create(http, {"game": game, "players": players, "seed": seed})
    ws_url = base.replace("http", "ws") + f"/ws/{room['code']}"
    async with connect(ws_url, max_size=2**22) as ws:
        # Like the room page on a game with a dedicated board (Foldris's), no text rendering is asked for.
        await ws.send(json.dumps({"type": "hello", "tokens": list(room["tokens"].values()), "text": False}))
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


def _thread_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds of a process and its descendants split into their main threads (the event loops) and
    their other threads (the database thread, AI seats), from Linux's per-thread /proc entries."""
    main = other = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    family = _family(pid)
    for p in family:
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{p}/task/{tid}/stat", encoding="ascii") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            cpu = (int(fields[11]) + int(fields[12])) / tick
            if int(tid) == p:
                main += cpu
            else:
                other += cpu
    return main, other


def _family(pid: int) -> set[int]:
    """A process and its descendants."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as fh:
                    parents[int(entry)] = int(fh.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    family, grew = {pid}, True
    while grew:
        more = {p for p, parent in parents.items() if parent in family} - family
        family |= more
        grew = bool(more)
    return family


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process and its descendants (Linux /proc), for server CPU per action."""
    stats: dict[int, tuple[int, float]] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    if pid not in stats:
        return None
    family, grew = {pid}, True
    while grew:
        more = {p for p, (parent, _) in stats.items() if parent in family} - family
        family |= more
        grew = bool(more)
    return sum(stats[p][1] for p in family)


async def _drive(base: str, first: int, count: int, game: str, players: int, stop: float, ai: bool) -> dict[str, Any]:
    """Play rooms ``first .. first + count - 1`` until ``stop`` (one load-generator process, one shared HTTP
    client: building an httpx client per room costs tens of milliseconds each and stalled the start)."""
    out: dict[str, Any] = {"actions": 0, "games": 0, "errors": 0, "latency": [], "failures": []}
    own0 = time.process_time()
    fn = _ai_room if ai else _play_rooms
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
    threads0 = _thread_cpu(pid) if pid else None
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
    threads1 = _thread_cpu(pid) if pid else None
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
    if threads0 is not None and threads1 is not None and actions:
        # Where it goes: the event loops (sockets, rules, state messages) and the other threads (database).
        report["server_cpu_ms_per_action_event_loop"] = round(1000 * (threads1[0] - threads0[0]) / actions, 3)
        report["server_cpu_ms_per_action_other_threads"] = round(1000 * (threads1[1] - threads0[1]) / actions, 3)
    if lat:
        report["latency_ms_p50"] = round(1000 * statistics.median(lat), 2)
        report["latency_ms_p99"] = round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 2)
    if failures:
        report["first_failure"] = failures[0]
    return report


_BGIO_VERSION = "0.50.2"
_BGIO_GAME = """
const Game = {
  name: 'bench',
  setup: () => ({ moves: 0 }),
  // client: false: the move runs on the server only, so a client sees it when the server has applied it.
  moves: { play: { move: ({ G }) => { G.moves += 1; }, client: false } },
  turn: { minMoves: 1, maxMoves: 1 },
};
module.exports = { Game };
"""
_BGIO_SERVER = """
const { Server } = require('boardgame.io/server');
const { Game } = require('./game.js');
const server = Server({ games: [Game] });
server.run(Number(process.argv[2]), () => console.log('ready'));
"""
_BGIO_LOAD = """
// One load-generator process: rooms [first, first + count), one boardgame.io client per seat.
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Game } = require('./game.js');
const [port, first, count, seconds] = process.argv.slice(2).map(Number);
const stop = Date.now() + seconds * 1000;
const out = { actions: 0, errors: 0, latency: [] };
const clients = [];
for (let i = first; i < first + count; i++) {
  for (const playerID of ['0', '1']) {
    const c = Client({ game: Game, multiplayer: SocketIO({ server: `http://127.0.0.1:${port}` }),
                       matchID: `m${i}`, playerID, debug: false });
    let sent = null;
    c.subscribe((state) => {
      if (!state || Date.now() > stop) return;
      if (sent && state._stateID > sent.id) {
        out.latency.push((performance.now() - sent.t) / 1000); out.actions += 1; sent = null;
      }
      if (!sent && state.ctx.currentPlayer === playerID && state.isActive) {
        sent = { id: state._stateID, t: performance.now() };
        setImmediate(() => c.moves.play());
      }
    });
    c.start();
    clients.push(c);
  }
}
setTimeout(() => {
  for (const c of clients) c.stop();
  process.stdout.write(JSON.stringify(out), () => process.exit(0));  // exit once the pipe took it all
}, Math.max(0, stop - Date.now()) + 200);
"""


def _bgio_install(folder: str) -> None:
    """boardgame.io from npm into a scratch folder (once); the game, server and load scripts beside it."""
    os.makedirs(folder, exist_ok=True)
    marker = os.path.join(folder, "node_modules", "boardgame.io", "package.json")
    if not os.path.exists(marker):
        with open(os.path.join(folder, "package.json"), "w", encoding="utf-8") as fh:
            fh.write('{"private": true}')
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--silent", f"boardgame.io@{_BGIO_VERSION}"],
            cwd=folder,
            check=True,
        )
    for name, text in (("game.js", _BGIO_GAME), ("server.js", _BGIO_SERVER), ("load.js", _BGIO_LOAD)):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as fh:
            fh.write(text)


def _bgio_run(folder: str, rooms: int, seconds: float, procs: int) -> dict[str, Any]:
    """The same load against boardgame.io's stock server; the same report fields."""
    port = _free_port()
    server = subprocess.Popen(
        ["node", "server.js", str(port)], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    try:
        assert server.stdout is not None
        server.stdout.readline()  # 'ready'
        cpu0 = _cpu_seconds(server.pid)
        start = time.monotonic()
        procs = max(1, min(procs, rooms))
        shares = [rooms // procs + (1 if k < rooms % procs else 0) for k in range(procs)]
        loads = [
            subprocess.Popen(
                ["node", "load.js", str(port), str(sum(shares[:k])), str(shares[k]), str(seconds)],
                cwd=folder,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
            for k in range(procs)
        ]
        parts = [json.loads(p.communicate(timeout=seconds + 60)[0] or b"{}") for p in loads]
        elapsed = time.monotonic() - start
        cpu1 = _cpu_seconds(server.pid)
    finally:
        server.kill()
        server.wait()
    actions = sum(p.get("actions", 0) for p in parts)
    lat = sorted(x for p in parts for x in p.get("latency", []))
    report: dict[str, Any] = {
        "server": f"boardgame.io {_BGIO_VERSION} (socket.io, in-memory storage)",
        "rooms": rooms,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "seconds": round(elapsed, 2),
        "actions": actions,
        "actions_per_second": round(actions / elapsed, 1),
    }
    if cpu0 is not None and cpu1 is not None and actions:
        report["server_cpu_ms_per_action"] = round(1000 * (cpu1 - cpu0) / actions, 2)
    if lat:
        report["latency_ms_p50"] = round(1000 * statistics.median(lat), 2)
        report["latency_ms_p99"] = round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 2)
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
    parser.add_argument("--workers", type=int, default=1, help="polytable server processes (needs --pubsub)")
    parser.add_argument("--pubsub", default=None, help="Redis URL for several processes")
    parser.add_argument("--peer", action="store_true", help="also run the same load against boardgame.io")
    parser.add_argument(
        "--peer-dir",
        default=os.path.join(tempfile.gettempdir(), "polytable-bench-boardgameio"),
        help="scratch folder boardgame.io is installed into from npm",
    )
    args = parser.parse_args()
    if args.peer:
        _bgio_install(args.peer_dir)
    for n in args.rooms or [50, 200]:
        with tempfile.TemporaryDirectory() as tmp:
            db = args.db or f"sqlite:///{os.path.join(tmp, 'load.db')}"
            proc, base = _start_server(db, args.workers, args.pubsub)
            try:
                report = _run(base, n, args.game, args.players, args.seconds, args.ai, proc.pid, args.processes)
            finally:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        report["server"] = f"polytable ({args.workers} process{'es' if args.workers > 1 else ''})"
        print(json.dumps(report), flush=True)
        if args.peer:
            print(json.dumps(_bgio_run(args.peer_dir, n, args.seconds, args.processes)), flush=True)


if __name__ == "__main__":
    main()
