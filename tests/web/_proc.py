"""A real server process for the web tests (restart recovery, browser tests)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

SERVER = Path(__file__).with_name("_server.py")
POLYTABLE = [sys.executable, "-c", "from polytable.cli import main; main()"]
"""The ``polytable`` command of this interpreter (a test may run before the script is on PATH)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``python _server.py`` on a free loopback port; ``kill()`` sends SIGKILL (no clean shutdown)."""

    def __init__(
        self, db: str, delay: float, log: Path, pubsub: tuple[str, str] | None = None, port: int | None = None
    ) -> None:
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        with log.open("ab") as err:
            self.proc = subprocess.Popen(
                [sys.executable, str(SERVER), str(self.port), db, str(delay), *(pubsub or ())], stdout=err, stderr=err
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
            if self.proc.poll() is not None:
                raise RuntimeError(log.read_text())
        self.kill()
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
