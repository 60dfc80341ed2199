"""``polytable serve`` starts the app on the address it prints."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")

from ._proc import POLYTABLE, free_port  # noqa: E402


def test_serve_prints_the_address_and_serves_the_app(tmp_path: Path) -> None:
    port = free_port()
    db = f"sqlite:///{tmp_path / 'serve.db'}"
    cmd = [*POLYTABLE, "serve", "--local", "--port", str(port), "--db", db]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        deadline = time.monotonic() + 20
        while True:
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        assert page.status_code == 200 and "polytable" in page.text
        assert (tmp_path / "serve.db").exists()
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(10)
        if proc.stdout is not None:
            proc.stdout.close()


def test_serve_never_prints_a_database_password() -> None:
    url = "postgresql+psycopg://app:s3cret-pw@127.0.0.1:1/nowhere"  # nothing listens on port 1
    cmd = [*POLYTABLE, "serve", "--local", "--port", "1", "--db", url]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "s3cret-pw" not in done.stdout + done.stderr
    assert "app:***@127.0.0.1:1" in done.stderr
