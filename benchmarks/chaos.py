"""Chaos suite: faults in the middle of play on a site of two server processes, one PostgreSQL, one Redis.

``python benchmarks/chaos.py [--rooms-per-game 2] [--outage 3] [--json]``

It starts everything it uses in a scratch folder and never touches the machine's own services: its own
PostgreSQL cluster (``initdb`` / ``pg_ctl`` from the machine, a free port, trust on loopback only), its own
``redis-server`` (a free port, no persistence), and two ``polytable serve`` processes on them. For each
fault it opens fresh rooms of all five games, each with one seat's client on each process (so every move
crosses from one process to the other through the database and Redis), lets them play, injects the
fault, and watches:

``kill9``      SIGKILL of one server process, restarted on the same port after the outage
``redis``      SIGKILL of redis-server, restarted on the same port after the outage
``pg_fast``    ``pg_ctl stop -m fast`` (sessions ended cleanly), started again after the outage
``pg_crash``   ``pg_ctl stop -m immediate`` (a crash: recovery from the WAL on start), started again

Per fault it prints the moves acknowledged (the log entries the players were shown: a move is shown only
once it is committed), the moves lost (shown to a player but not in the database's log afterwards at that
position, or a log shorter than one a player was shown), the
rooms unable to continue (not over, and no move seen on both processes within ``--deadline`` seconds of
the service's return), and the seconds from the service's return until every room has moved again on
both processes. The clients reconnect by themselves with backoff, as the browser does. Figures are
printed, never asserted; ``tests/web/test_chaos.py`` runs a short version and asserts the targets.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

GAMES = ("forma", "formfinity", "foldris", "quadefy", "qwirkle-cubes")
FAULTS = ("kill9", "redis", "pg_fast", "pg_crash")
POLYTABLE = [sys.executable, "-c", "from polytable.cli import main; main()"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _tool(name: str) -> str:
    """A PostgreSQL program: on PATH, or in Debian's versioned folder."""
    found = shutil.which(name)
    if found:
        return found
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (folder / name).is_file():
            return str(folder / name)
    raise RuntimeError(f"{name} was not found: the chaos suite starts its own PostgreSQL with it")


def _wait(check: Any, what: str, limit: float = 30.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if check():
                return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not come up within {limit:.0f} s")


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


class Site:
    """PostgreSQL, Redis and two ``serve`` processes in a scratch folder (everything stopped by :meth:`close`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.pg_data = folder / "pg"
        self.pg_port = free_port()
        self.redis_port = free_port()
        self.redis: subprocess.Popen[bytes] | None = None
        self.servers: list[subprocess.Popen[bytes] | None] = [None, None]
        self.ports = [free_port(), free_port()]
        subprocess.run(
            [_tool("initdb"), "-D", str(self.pg_data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            **_as_user(),
        )
        self.db = f"postgresql+psycopg://postgres@127.0.0.1:{self.pg_port}/postgres"
        self.pubsub = f"redis://127.0.0.1:{self.redis_port}/0"

    def start_pg(self) -> None:
        opts = f"-p {self.pg_port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=on"
        subprocess.run(
            [_tool("pg_ctl"), "-D", str(self.pg_data), "-o", opts, "-l", str(self.folder / "pg.log"), "-w", "start"],
            check=True,
            stdout=subprocess.DEVNULL,
            **_as_user(),
        )

    def stop_pg(self, mode: str) -> None:
        subprocess.run(
            [_tool("pg_ctl"), "-D", str(self.pg_data), "-m", mode, "-w", "stop"],
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            **_as_user(),
        )

    def start_redis(self) -> None:
        self.redis = subprocess.Popen(
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=self.folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait(lambda: _listening(self.redis_port), "redis-server")

    def kill_redis(self) -> None:
        if self.redis is not None:
            self.redis.kill()
            self.redis.wait()
            self.redis = None

    def start_server(self, i: int, wait: bool = True) -> None:
        cmd = [*POLYTABLE, "serve", "--local", "--port", str(self.ports[i]), "--db", self.db, "--pubsub", self.pubsub]
        cmd += ["--ai-delay", "0", "--rooms-per-minute", "100000"]
        with (self.folder / f"serve{i}.log").open("ab") as err:
            self.servers[i] = subprocess.Popen(cmd, stdout=err, stderr=err, start_new_session=True)
        if wait:
            self.ready(i)

    def ready(self, i: int) -> None:
        _wait(lambda: httpx.get(self.base(i) + "/readyz", timeout=1).status_code == 200, f"serve process {i + 1}")

    def kill_server(self, i: int) -> None:
        proc = self.servers[i]
        if proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            self.servers[i] = None

    def base(self, i: int) -> str:
        return f"http://127.0.0.1:{self.ports[i]}"

    def close(self) -> None:
        for i in range(2):
            self.kill_server(i)
        self.kill_redis()
        self.stop_pg("immediate")


def _as_user() -> dict[str, Any]:
    """PostgreSQL refuses to run as root: as root, its programs run as the ``postgres`` user (or nobody)."""
    if os.geteuid() != 0:
        return {}
    import pwd

    try:
        entry = pwd.getpwnam("postgres")
    except KeyError:
        entry = pwd.getpwnam("nobody")
    return {"user": entry.pw_uid, "group": entry.pw_gid}


@dataclass
class Client:
    """One seat's scripted player on one process: plays the first legal move after a short think, and
    reconnects with backoff and jitter whenever its socket drops."""

    base: str
    code: str
    token: str
    seat: int
    think: float
    seen: list[tuple[float, int]] = field(default_factory=list)  # (when, version) of every state
    shown: dict[int, tuple[int, str]] = field(default_factory=dict)  # log position -> (seat, move) shown
    moves: int = 0  # the longest log a state showed
    over: bool = False
    stop: bool = False
    errors: dict[str, int] = field(default_factory=dict)

    async def run(self) -> None:
        import websockets

        attempt = 0
        url = self.base.replace("http", "ws") + f"/ws/{self.code}"
        while not self.stop:
            try:
                async with websockets.connect(url, max_size=1 << 22, open_timeout=3) as ws:
                    attempt = 0
                    await ws.send(json.dumps({"type": "hello", "tokens": [self.token], "text": False}))
                    await self._play(ws)
            except Exception:
                pass
            if self.stop or self.over:
                return
            await asyncio.sleep(min(0.1 * 2**attempt, 1.0) * (0.5 + random.random() / 2))
            attempt += 1

    async def _play(self, ws: Any) -> None:
        sent: int | None = None  # the version a move was sent on, until it is answered
        state: dict[str, Any] = {}
        while not self.stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            m = json.loads(raw)
            if m["type"] == "error":
                reason = str(m.get("reason", "?"))
                self.errors[reason] = self.errors.get(reason, 0) + 1
                sent = None  # answered: not made (the player plays again on the board shown)
            elif m["type"] == "state":
                state = {**state, **m}
                self.seen.append((time.monotonic(), state["version"]))
                self.moves = max(self.moves, state["moves"])
                for e in m.get("history") or ():
                    self.shown[e["n"] - 1] = (e["player"], e["action"])
                if sent is not None and state["version"] > sent:
                    sent = None
                if state.get("over"):
                    self.over = True
                    return
            else:
                continue
            part = (state.get("mine") or {}).get(str(self.seat)) or {}
            if sent is None and part.get("to_act") and part.get("legal") and not state.get("paused"):
                await asyncio.sleep(self.think * (0.5 + random.random()))
                sent = state["version"]
                await ws.send(
                    json.dumps({"type": "act", "seat": self.seat, "version": sent, "action": part["legal"][0]})
                )


async def _open_rooms(site: Site, per_game: int, think: float) -> list[tuple[str, Client, Client]]:
    rooms = []
    async with httpx.AsyncClient(base_url=site.base(0), timeout=30) as http:
        for game in GAMES:
            for _ in range(per_game):
                r = await http.post("/api/rooms", json={"game": game, "players": 2})
                r.raise_for_status()
                data = r.json()
                a = Client(site.base(0), data["code"], data["tokens"]["0"], 0, think)
                b = Client(site.base(1), data["code"], data["tokens"]["1"], 1, think)
                rooms.append((data["code"], a, b))
    return rooms


def _stored(site: Site, codes: list[str]) -> dict[str, dict[int, tuple[int, str]]]:
    """Each room's log as the database holds it: position -> (seat, move)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(site.db)
    out: dict[str, dict[int, tuple[int, str]]] = {c: {} for c in codes}
    with engine.connect() as conn:
        for code, pos, player, action in conn.execute(text("SELECT room, pos, player, action FROM pt_actions")):
            if code in out:
                out[code][int(pos)] = (int(player), str(action))
    engine.dispose()
    return out


async def run_fault(
    site: Site, fault: str, per_game: int, outage: float, warmup: float, deadline: float, think: float
) -> dict[str, Any]:
    """One fault on fresh rooms; the figures of that fault."""
    rooms = await _open_rooms(site, per_game, think)
    clients = [c for _, a, b in rooms for c in (a, b)]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    await asyncio.sleep(warmup)
    loop = asyncio.get_running_loop()
    if fault == "kill9":
        site.kill_server(1)
        await asyncio.sleep(outage)
        await loop.run_in_executor(None, site.start_server, 1)
    elif fault == "redis":
        site.kill_redis()
        await asyncio.sleep(outage)
        await loop.run_in_executor(None, site.start_redis)
    else:
        await loop.run_in_executor(None, site.stop_pg, "fast" if fault == "pg_fast" else "immediate")
        await asyncio.sleep(outage)
        await loop.run_in_executor(None, site.start_pg)
    back = time.monotonic()
    versions = {code: max([v for t, v in a.seen + b.seen if t <= back] or [0]) for code, a, b in rooms}
    moving: dict[str, float] = {}
    while time.monotonic() < back + deadline and len(moving) < len(rooms):
        await asyncio.sleep(0.05)
        for code, a, b in rooms:
            if code in moving:
                continue
            if a.over or b.over:
                moving[code] = back  # finished meanwhile: nothing left to play
                continue
            first = [min([t for t, v in c.seen if v > versions[code]] or [float("inf")]) for c in (a, b)]
            if max(first) < float("inf"):
                moving[code] = max(first)
    await asyncio.sleep(0.5)  # the moves in flight are answered
    for c in clients:
        c.stop = True
    await asyncio.gather(*tasks, return_exceptions=True)
    codes = [code for code, _, _ in rooms]
    stored = await loop.run_in_executor(None, _stored, site, codes)
    lost = acked = 0
    for code, a, b in rooms:  # every entry a player was shown must be in the log, where it was shown
        log = stored[code]
        shown = {**a.shown, **b.shown}
        moves = max(a.moves, b.moves)
        acked += moves
        gone = {pos for pos, entry in shown.items() if log.get(pos) != entry}
        gone |= {pos for pos in range(moves) if pos not in log}
        lost += len(gone)
    errors: dict[str, int] = {}
    for c in clients:
        for k, n in c.errors.items():
            errors[k] = errors.get(k, 0) + n
    stuck = [code for code in codes if code not in moving]
    return {
        "fault": fault,
        "rooms": len(rooms),
        "outage_seconds": outage,
        "acknowledged_moves": acked,
        "lost_moves": lost,
        "rooms_unable_to_continue": len(stuck),
        "rooms_finished_meanwhile": sum(1 for _, a, b in rooms if a.over or b.over),
        "seconds_until_every_room_moves_on_both": round(max(moving.values()) - back, 2) if not stuck else None,
        "errors_seen_by_players": errors,
        "stuck": [
            {
                "room": code,
                "versions_seen": [c.seen[-1][1] if c.seen else None for c in (a, b)],
                "at_return": versions[code],
            }
            for code, a, b in rooms
            if code in stuck
        ],
    }


async def chaos(
    faults: list[str], per_game: int, outage: float, warmup: float, deadline: float, think: float
) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="polytable-chaos-") as tmp:
        folder = Path(tmp)
        os.chmod(folder, 0o777)  # PostgreSQL's own user writes its cluster and socket here when run as root
        site = Site(folder)
        try:
            site.start_pg()
            site.start_redis()
            site.start_server(0, wait=False)
            site.start_server(1, wait=False)
            site.ready(0)
            site.ready(1)
            return [await run_fault(site, f, per_game, outage, warmup, deadline, think) for f in faults]
        finally:
            site.close()
            keep = os.environ.get("POLYTABLE_CHAOS_LOGS")
            if keep:  # the servers' and PostgreSQL's logs, to read what happened
                for log in folder.glob("*.log"):
                    shutil.copy(log, Path(keep) / log.name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--fault", action="append", choices=FAULTS, help="faults to inject (default: all four)")
    ap.add_argument("--rooms-per-game", type=int, default=2)
    ap.add_argument("--outage", type=float, default=3.0, help="seconds the service stays down")
    ap.add_argument("--warmup", type=float, default=3.0, help="seconds of play before the fault")
    ap.add_argument("--deadline", type=float, default=30.0, help="seconds after the return a room has to move")
    ap.add_argument("--think", type=float, default=0.15, help="seconds a scripted player waits before a move")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    results = asyncio.run(
        chaos(args.fault or list(FAULTS), args.rooms_per_game, args.outage, args.warmup, args.deadline, args.think)
    )
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for r in results:
        took = r["seconds_until_every_room_moves_on_both"]
        print(
            f"{r['fault']:9} rooms {r['rooms']:3}  acknowledged {r['acknowledged_moves']:5}  lost {r['lost_moves']}  "
            f"unable to continue {r['rooms_unable_to_continue']}  every room moving on both after "
            f"{'-' if took is None else f'{took:.2f} s'}  (finished meanwhile {r['rooms_finished_meanwhile']}; "
            f"players saw {r['errors_seen_by_players'] or 'no error'})"
        )


if __name__ == "__main__":
    main()
