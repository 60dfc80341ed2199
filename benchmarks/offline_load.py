"""How long a phone waits for the offline engine: first load over a throttled network, then from the cache.

``python benchmarks/offline_load.py [--game foldris] [--profile fast3g|none]``

A fresh server (``polytable serve`` on 127.0.0.1, its own SQLite file) and Debian's Chromium at phone size.
1. First load: the network is throttled to Chrome DevTools' "Fast 3G" profile (562.5 ms latency, 1.44 Mbit/s
   down, 675 kbit/s up) by a small proxy on loopback between the browser and the server, so the page, the
   service worker and the engine's worker are all throttled alike (Chromium's own emulation throttles only
   the page); the home page opens, a hot-seat game on this device is started, and the clock
   stops when its board offers a move (and again when the service worker has cached the whole engine).
   Bytes: what the page fetched (CDP, encoded sizes) and what the device holds for offline use (the
   service worker's cache, decoded sizes).
2. Cached loads: once the engine has kept its memory snapshot (see static/offline/worker.js), the network
   is cut (offline); the game page is reloaded ``--reloads`` times and each time is measured to the board
   offering a move again, everything coming from this device; how the engine started is reported too.
Figures are printed as JSON with the machine's load average, never asserted. Only loopback is contacted;
the run stops by itself.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx

FAST_3G = {"offline": False, "latency": 562.5, "downloadThroughput": 1.44e6 / 8, "uploadThroughput": 675e3 / 8}
READY = "#moves button, #pass-ok, #fd-sheet rect"
CACHED = """async () => { for (const k of await caches.keys()) { const c = await caches.open(k);
  if (await c.match('/static/vendor/pyodide/pyodide.asm.wasm')) return true; } return false; }"""
SNAPSHOT_KEPT = "caches.open('polytable-engine-snapshot').then((c) => c.keys()).then((k) => k.length > 0)"
ENGINE = "import('/static/offline/engine.js').then((m) => m.call('engine'))"
CACHE_BYTES = """async () => { let n = 0; for (const k of await caches.keys()) { const c = await caches.open(k);
  for (const r of await c.keys()) { const res = await c.match(r); n += (await res.blob()).size; } } return n; }"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _server(folder: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    db = f"sqlite:///{os.path.join(folder, 'rooms.db')}"
    cmd = [sys.executable, "-c", "from polytable.cli import main; main()", "serve", "--local", "--port", str(port)]
    cmd += ["--db", db]
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


class Throttle:
    """A loopback TCP proxy that delays each connection's first bytes by the latency and then passes at most
    ``down`` bytes a second to the browser and ``up`` bytes a second to the server (one shared link)."""

    def __init__(self, target_port: int, latency: float, down: float, up: float) -> None:
        self.target_port, self.latency, self.down, self.up = target_port, latency, down, up
        self.port = _free_port()
        self.bytes_down = 0
        self._budget = {"down": 0.0, "up": 0.0}

    async def _pipe(self, reader: Any, writer: Any, rate: float, way: str) -> None:
        import asyncio

        try:
            while data := await reader.read(16384):
                # a shared link: every connection draws from one clock per direction
                now = asyncio.get_running_loop().time()
                start = max(now, self._budget[way])
                self._budget[way] = start + len(data) / rate
                await asyncio.sleep(self._budget[way] - now)
                if way == "down":
                    self.bytes_down += len(data)
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def _handle(self, reader: Any, writer: Any) -> None:
        import asyncio

        await asyncio.sleep(self.latency)
        try:
            up_r, up_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, up_w, self.up, "up"), self._pipe(up_r, writer, self.down, "down"))

    def start(self) -> None:
        import asyncio
        import threading

        loop = asyncio.new_event_loop()
        ready = threading.Event()

        async def main() -> None:
            await asyncio.start_server(self._handle, "127.0.0.1", self.port)
            ready.set()
            await asyncio.Event().wait()

        threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True).start()
        ready.wait(10)


def _ready(page: Any) -> None:
    page.locator(READY).first.wait_for(timeout=300_000)


def run(game: str, profile: str, reloads: int = 3) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    out: dict[str, Any] = {"game": game, "profile": profile}
    with tempfile.TemporaryDirectory() as folder:
        proc, base = _server(folder)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
                )
                ctx = browser.new_context(
                    viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-GB"
                )
                page = ctx.new_page()
                cdp = ctx.new_cdp_session(page)
                cdp.send("Network.enable")
                sizes: list[float] = []
                cdp.on("Network.loadingFinished", lambda e: sizes.append(float(e.get("encodedDataLength", 0))))
                url = base
                throttle = None
                if profile == "fast3g":
                    port = int(base.rsplit(":", 1)[1])
                    throttle = Throttle(
                        port, FAST_3G["latency"] / 1000, FAST_3G["downloadThroughput"], FAST_3G["uploadThroughput"]
                    )
                    throttle.start()
                    url = f"http://127.0.0.1:{throttle.port}"
                start = time.perf_counter()
                page.goto(url + "/")
                page.select_option("#game", game)
                page.locator("#create-local").click()
                _ready(page)
                out["first_load_s"] = round(time.perf_counter() - start, 2)
                # The service worker precaches the engine in the background: wait for it to finish too.
                deadline = time.monotonic() + 600
                while not page.evaluate(CACHED) and time.monotonic() < deadline:
                    time.sleep(0.5)
                out["first_load_cached_all_s"] = round(time.perf_counter() - start, 2)
                out["page_bytes_first_load"] = int(sum(sizes))
                if throttle is not None:
                    out["bytes_through_the_throttled_link"] = throttle.bytes_down
                while not page.evaluate(SNAPSHOT_KEPT) and time.monotonic() < deadline:
                    time.sleep(0.5)
                out["cache_bytes"] = int(page.evaluate(CACHE_BYTES))
                ctx.set_offline(True)
                cached, started = [], []
                for _ in range(reloads):
                    t0 = time.perf_counter()
                    page.reload()
                    _ready(page)
                    cached.append(round(time.perf_counter() - t0, 2))
                    started.append(page.evaluate(ENGINE)["started"])
                out["cached_loads_s"] = cached
                out["cached_loads_engine_started_from"] = started
                browser.close()
        finally:
            proc.kill()
            proc.wait(10)
    vendor = os.path.join(os.path.dirname(__file__), "..", "src", "polytable", "web", "static", "vendor", "pyodide")
    out["engine_bytes_on_disk"] = sum(os.path.getsize(os.path.join(vendor, f)) for f in os.listdir(vendor))
    out["load_average"] = [round(x, 1) for x in os.getloadavg()]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="foldris")
    parser.add_argument("--profile", choices=["fast3g", "none"], default="fast3g")
    parser.add_argument("--reloads", type=int, default=3, help="cached loads to measure (at least 1)")
    args = parser.parse_args()
    if args.reloads < 1:
        parser.error("--reloads must be at least 1")
    print(json.dumps(run(args.game, args.profile, args.reloads), indent=1))


if __name__ == "__main__":
    main()
