"""Load test of the web server: N rooms played at once by scripted clients over real WebSockets.

``python benchmarks/web_load.py --rooms 50 --rooms 200 [--game foldris] [--seconds 20] [--ai]``

A fresh server process (``polytable serve``) is started on 127.0.0.1 with its own SQLite file; each room
is created over HTTP with every seat held by one scripted client (hot-seat) that connects over a
WebSocket and, whenever one of its seats must act, sends the first legal action listed for it with the
version it saw; when its game ends it opens the next room, so every room slot is busy for the whole run.
The scripted clients run in Node (the ``ws`` package, installed from npm into the scratch folder
``--peer-dir`` by the benchmark itself, like the peer): a Python client cost about 0.5 ms of CPU per
action, as much as the server, and on a 2-core machine the load generator took the server's CPU.
The latency of an action is the time from sending it to receiving the state with the new version (so it
includes the database commit, which happens before anyone is told). With ``--ai``
every room is AI-vs-AI instead (the server's AI seats, no client actions) and only throughput is
measured. Each run is bounded by ``--seconds`` and stops by itself; only loopback is ever contacted.
Figures are printed as JSON, never asserted.

``--peer`` also runs the same load against boardgame.io, the open-source peer: the benchmark installs it
from npm into a scratch folder (``--peer-dir``, outside the repository; nothing of it is committed), serves
a minimal two-player game (one move a turn) from its stock server (socket.io, in-memory storage) and drives
it from node with boardgame.io's own client, one client per seat, sending a move whenever its seat is to
act; the latency is from the move to the state with the next state id. It runs in two shapes, each printed
with its ratio: first the same shape as polytable's load (each match made through boardgame.io's lobby: a
create, then a join per seat, both at once, for the seats' credentials, like a polytable room and its seat
tokens; it ends after as many moves as polytable's finished rooms took in this run, and the slot makes the
next one; the seats' clients switch to it on their open sockets, boardgame.io's cheapest way to a new
match), then one endless match a room (the shape of earlier figures: no match made, no connection opened
after the start).
``--workers N --pubsub redis://...`` (with ``--db postgresql+psycopg://...``) measures polytable's
several-process mode; the load generator then spreads its rooms over the processes. With
``POLYTABLE_LOAD_SOCKETS=seat`` in the environment (``two_processes.py --sockets seat``) each seat has a
WebSocket of its own (a phone each), moving in the same order as the hot-seat client.
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start_server(db: str, workers: int = 1, pubsub: str | None = None) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    cmd = [sys.executable, "-c", "from polytable.cli import main; main()", "serve", "--local", "--port", str(port)]
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
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=httpx.Limits(max_connections=32)) as http:
        results = await asyncio.gather(
            *(_ai_room(http, base, game, players, 1000 + i, stop, out) for i in range(first, first + count)),
            return_exceptions=True,
        )
    out["failures"] = [repr(r)[:300] for r in results if isinstance(r, BaseException)]
    out["cpu"] = time.process_time() - own0
    return out


def _worker(args: tuple[str, int, int, str, int, float, bool]) -> dict[str, Any]:
    return asyncio.run(_drive(*args))


def _node_clients(
    folder: str, base: str, firsts: list[int], shares: list[int], game: str, players: int, seconds: float
) -> list[dict[str, Any]]:
    """The scripted clients: one Node process per share of the rooms (``_POLYTABLE_LOAD``)."""
    loads = [
        subprocess.Popen(
            ["node", "polytable_load.js", base, game, str(players), str(first), str(share), str(seconds)],
            cwd=folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        for first, share in zip(firsts, shares, strict=True)
    ]
    parts = []
    for p in loads:
        part: dict[str, Any] = json.loads(p.communicate(timeout=seconds + 120)[0] or b"{}")
        parts.append({"actions": 0, "games": 0, "errors": 0, "latency": [], "cpu": 0.0, "finished_actions": 0, **part})
        if not part:
            parts[-1]["failures"] = ["a load-generator process printed nothing"]
    return parts


def _run(
    base: str,
    rooms: int,
    game: str,
    players: int,
    seconds: float,
    ai: bool,
    pid: int = 0,
    procs: int = 2,
    folder: str = "",
) -> dict[str, Any]:
    """N rooms spread over ``procs`` load-generator processes (Node clients; AI rooms are watched from
    Python); their latencies are merged."""
    cpu0 = _cpu_seconds(pid) if pid else None
    threads0 = _thread_cpu(pid) if pid else None
    start = time.monotonic()
    stop = time.time() + seconds
    procs = max(1, min(procs, rooms))
    shares = [rooms // procs + (1 if k < rooms % procs else 0) for k in range(procs)]
    firsts = [sum(shares[:k]) for k in range(procs)]
    if ai:
        jobs = [(base, firsts[k], shares[k], game, players, stop, ai) for k in range(procs)]
        with multiprocessing.get_context("spawn").Pool(procs) as pool:
            parts = pool.map(_worker, jobs)
    else:
        parts = _node_clients(folder, base, firsts, shares, game, players, seconds)
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
        "load_generator": f"{procs} {'Python' if ai else 'Node'} processes",
        "seconds": round(elapsed, 2),
        "actions": actions,
        "actions_per_second": round(actions / elapsed, 1),
        "games_finished": sum(p["games"] for p in parts),
        "errors": sum(p["errors"] for p in parts),
        "room_failures": len(failures),
        "load_generator_cpu_seconds": round(sum(p["cpu"] for p in parts), 2),
    }
    finished = sum(p.get("finished_actions", 0) for p in parts)
    if finished and report["games_finished"]:
        # The peer's same-shape games last this many moves (the clients' actions of a finished room).
        report["actions_per_finished_game"] = round(finished / report["games_finished"], 1)
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


_WS_VERSION = "8.18.3"
_POLYTABLE_LOAD = """
// One load-generator process for polytable: room slots [first, first + count), each playing a room to its
// end and then opening the next one; one WebSocket per room holding every seat (hot-seat), as
// benchmarks/web_load.py describes. Written for Node (like the peer's) so that the load generator's own CPU
// is small next to the server's on a 2-core machine.
const WebSocket = require('ws');
const [base, game, players, first, count, seconds] = process.argv.slice(2);
const stop = Date.now() + Number(seconds) * 1000;
const out = { actions: 0, games: 0, errors: 0, latency: [], failures: [], cpu: 0, finished_actions: 0 };

async function create(seed) {
  for (let attempt = 0; ; attempt++) {
    try {
      const r = await fetch(`${base}/api/rooms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ game, players: Number(players), seed }),
      });
      if (!r.ok) throw new Error(`HTTP ${r.status}: ${await r.text()}`);
      return await r.json();
    } catch (err) {
      if (attempt) throw err;
    }
  }
}

const perSeat = process.env.POLYTABLE_LOAD_SOCKETS === 'seat';
const ready = (part) => part && part.to_act && part.legal && part.legal.length;

// A room played on one WebSocket holding every seat (the hot-seat client), or with
// POLYTABLE_LOAD_SOCKETS=seat on one WebSocket per seat (each player on a phone of their own), each sending its
// own seat's moves in the hot-seat client's order (only the first seat to act moves: two seats acting at once
// would race). An action counts when the socket that sent it sees the new version.
function playRoom(room) {
  return new Promise((resolve) => {
    const socks = [];
    let closed = false;
    let played = 0;
    const done = () => {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      for (const s of socks) s.terminate();
      resolve();
    };
    const timer = setTimeout(done, Math.max(100, stop - Date.now()));
    const hands = perSeat
      ? Object.entries(room.tokens).map(([seat, token]) => ({
          tokens: [token],
          pick: (msg) => (msg.acting[0] === Number(seat) && ready(msg.mine[seat]) ? Number(seat) : undefined),
        }))
      : [{ tokens: Object.values(room.tokens), pick: (msg) => msg.acting.find((p) => ready(msg.mine[String(p)])) }];
    for (const hand of hands) {
      const ws = new WebSocket(base.replace('http', 'ws') + `/ws/${room.code}`, { maxPayload: 1 << 22 });
      socks.push(ws);
      let msg = {};
      let sentAt = null;
      let sentVersion = -1;
      ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', tokens: hand.tokens, text: false })));
      ws.on('error', (err) => { if (!closed) out.failures.push(String(err).slice(0, 300)); done(); });
      ws.on('close', done);
      ws.on('message', (raw) => {
        const m = JSON.parse(raw);
        if (m.type === 'error') { out.errors += 1; return; }
        if (m.type !== 'state' || closed) return;
        msg = { ...msg, ...m };  // a message may carry only what changed: keep the rest from the last one
        if (sentAt !== null && msg.version > sentVersion) {
          out.latency.push((performance.now() - sentAt) / 1000);
          out.actions += 1;
          played += 1;
          sentAt = null;
        }
        if (msg.over) { out.games += 1; out.finished_actions += played; done(); return; }
        if (sentAt !== null || Date.now() > stop) return;
        const seat = hand.pick(msg);
        if (seat === undefined) return;
        sentVersion = msg.version;
        sentAt = performance.now();
        ws.send(JSON.stringify({ type: 'act', seat, version: msg.version, action: msg.mine[String(seat)].legal[0] }));
      });
    }
  });
}

async function slot(i) {
  for (let n = 0; Date.now() < stop; n++) {
    try {
      const room = await create(1000 + i + 100000 * n);
      await playRoom(room);
    } catch (err) {
      out.failures.push(String(err).slice(0, 300));
      return;
    }
  }
}

const cpu0 = process.cpuUsage();
const slots = [];
for (let i = Number(first); i < Number(first) + Number(count); i++) slots.push(slot(i));
Promise.all(slots).then(() => {
  const cpu = process.cpuUsage(cpu0);
  out.cpu = (cpu.user + cpu.system) / 1e6;
  process.stdout.write(JSON.stringify(out), () => process.exit(0));  // exit once the pipe took it all
});
"""
_BGIO_VERSION = "0.50.2"
_BGIO_GAME = """
// BENCH_LENGTH (environment) > 0: the game ends after that many moves, like a polytable room's game; 0: it
// never ends (the earlier load shape: every room one endless match).
const LENGTH = Number(process.env.BENCH_LENGTH || 0);
const Game = {
  name: 'bench',
  setup: () => ({ moves: 0 }),
  // client: false: the move runs on the server only, so a client sees it when the server has applied it.
  moves: { play: { move: ({ G }) => { G.moves += 1; }, client: false } },
  turn: { minMoves: 1, maxMoves: 1 },
  endIf: ({ G }) => (LENGTH > 0 && G.moves >= LENGTH ? { draw: true } : undefined),
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
// One load-generator process: room slots [first, first + count), one boardgame.io client per seat.
// length 0: every slot is one endless match (matchID m<i>, made by the first connection, no lobby);
// length > 0: the same shape as polytable's load: each slot makes a match through the lobby API (create, then
// join each seat for its credentials), plays it to its end and makes the next.
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Game } = require('./game.js');
const [port, first, count, seconds, length] = process.argv.slice(2).map(Number);
const base = `http://127.0.0.1:${port}`;
const stop = Date.now() + seconds * 1000;
const out = { actions: 0, games: 0, errors: 0, latency: [], failures: [] };

async function post(path, body) {
  const r = await fetch(base + path, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`HTTP ${r.status}: ${await r.text()}`);
  return r.json();
}

// One client per seat for the whole run: a new match is joined on the same socket (updateMatchID and
// updateCredentials, as boardgame.io's own lobby does), the peer's cheapest way to a new match. After a
// switch the finished match's state is still shown until the new one's arrives: it is skipped.
function seat(playerID, matchID, credentials) {
  const c = Client({ game: Game, multiplayer: SocketIO({ server: base }), matchID, playerID, credentials,
                     debug: false });
  const s = { c, sent: null, over: false, fresh: true, onOver: null };
  c.subscribe((state) => {
    if (!state) return;
    if (!s.fresh) {
      if (state.ctx.gameover) return;
      s.fresh = true;
    }
    if (s.sent && state._stateID > s.sent.id) {
      out.latency.push((performance.now() - s.sent.t) / 1000); out.actions += 1; s.sent = null;
    }
    if (state.ctx.gameover) {
      if (!s.over) { s.over = true; if (s.onOver) s.onOver(); }
      return;
    }
    if (Date.now() > stop) return;
    if (!s.sent && state.ctx.currentPlayer === playerID && state.isActive) {
      s.sent = { id: state._stateID, t: performance.now() };
      setImmediate(() => c.moves.play());
    }
  });
  c.start();
  return s;
}

async function slot(i) {
  if (!length) {
    for (const p of ['0', '1']) seat(p, `m${i}`, undefined);
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, stop - Date.now()) + 200));
  }
  let seats = null;
  while (Date.now() < stop) {
    try {
      const { matchID } = await post('/games/bench/create', { numPlayers: 2 });
      const joins = ['0', '1'].map((playerID) =>
        post(`/games/bench/${matchID}/join`, { playerID, playerName: `p${playerID}` }));
      const credentials = (await Promise.all(joins)).map((j) => j.playerCredentials);
      await new Promise((resolve) => {
        let over = 0;
        const timer = setTimeout(resolve, Math.max(0, stop - Date.now()) + 200);
        const onOver = () => { over += 1; if (over === 2) { out.games += 1; clearTimeout(timer); resolve(); } };
        if (seats === null) {
          seats = ['0', '1'].map((p, k) => seat(p, matchID, credentials[k]));
          for (const s of seats) s.onOver = onOver;
          return;
        }
        for (const [k, s] of seats.entries()) {
          Object.assign(s, { sent: null, over: false, fresh: false, onOver });
          s.c.updateMatchID(matchID);
          s.c.updateCredentials(credentials[k]);
        }
      });
    } catch (err) {
      out.failures.push(String(err).slice(0, 300));
      return;
    }
  }
}

const cpu0 = process.cpuUsage();
const slots = [];
for (let i = first; i < first + count; i++) slots.push(slot(i));
Promise.all(slots).then(() => {
  const cpu = process.cpuUsage(cpu0);
  out.cpu = (cpu.user + cpu.system) / 1e6;
  process.stdout.write(JSON.stringify(out), () => process.exit(0));  // exit once the pipe took it all
});
"""


def _npm_install(folder: str) -> None:
    """boardgame.io and ws from npm into a scratch folder (once); the peer's game, server and load scripts
    and polytable's load script beside them."""
    os.makedirs(folder, exist_ok=True)

    def installed(name: str, version: str) -> bool:
        path = os.path.join(folder, "node_modules", name, "package.json")
        if not os.path.exists(path):
            return False
        with open(path, encoding="utf-8") as fh:
            return bool(json.load(fh).get("version") == version)

    if not (installed("boardgame.io", _BGIO_VERSION) and installed("ws", _WS_VERSION)):
        with open(os.path.join(folder, "package.json"), "w", encoding="utf-8") as fh:
            fh.write('{"private": true}')
        subprocess.run(
            [
                "npm",
                "install",
                "--no-audit",
                "--no-fund",
                "--silent",
                f"boardgame.io@{_BGIO_VERSION}",
                f"ws@{_WS_VERSION}",
            ],
            cwd=folder,
            check=True,
        )
    scripts = {
        "game.js": _BGIO_GAME,
        "server.js": _BGIO_SERVER,
        "load.js": _BGIO_LOAD,
        "polytable_load.js": _POLYTABLE_LOAD,
    }
    for name, text in scripts.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as fh:
            fh.write(text)


def _bgio_run(folder: str, rooms: int, seconds: float, procs: int, length: int = 0) -> dict[str, Any]:
    """The same load against boardgame.io's stock server; the same report fields. ``length`` > 0: the same
    shape as polytable's (each match made through the lobby, played to its end after ``length`` moves, then
    the next); 0: one endless match a room."""
    port = _free_port()
    env = {**os.environ, "BENCH_LENGTH": str(length)}
    server = subprocess.Popen(
        ["node", "server.js", str(port)], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
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
                ["node", "load.js", str(port), str(sum(shares[:k])), str(shares[k]), str(seconds), str(length)],
                cwd=folder,
                env=env,
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
        "shape": f"matches of {length} moves made through the lobby" if length else "one endless match a room",
        "rooms": rooms,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "seconds": round(elapsed, 2),
        "actions": actions,
        "actions_per_second": round(actions / elapsed, 1),
        "games_finished": sum(p.get("games", 0) for p in parts),
        "room_failures": sum(len(p.get("failures", [])) for p in parts),
        "load_generator_cpu_seconds": round(sum(p.get("cpu", 0.0) for p in parts), 2),
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
        help="scratch folder the Node load generator (ws) and boardgame.io are installed into from npm",
    )
    args = parser.parse_args()
    _npm_install(args.peer_dir)
    for n in args.rooms or [50, 200]:
        with tempfile.TemporaryDirectory() as tmp:
            db = args.db or f"sqlite:///{os.path.join(tmp, 'load.db')}"
            proc, base = _start_server(db, args.workers, args.pubsub)
            try:
                report = _run(
                    base, n, args.game, args.players, args.seconds, args.ai, proc.pid, args.processes, args.peer_dir
                )
            finally:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        report["server"] = f"polytable ({args.workers} process{'es' if args.workers > 1 else ''})"
        print(json.dumps(report), flush=True)
        if args.peer:
            # The comparison: the same load shape (games of polytable's length, a new match after each);
            # then the earlier shape (one endless match a room) for continuity with earlier figures.
            length = round(report.get("actions_per_finished_game", 0))
            shapes = [length, 0] if length else [0]
            for shape in shapes:
                peer = _bgio_run(args.peer_dir, n, args.seconds, args.processes, shape)
                peer["ratio_polytable_to_peer"] = round(
                    report["actions_per_second"] / max(peer["actions_per_second"], 1e-9), 2
                )
                print(json.dumps(peer), flush=True)


if __name__ == "__main__":
    main()
