"""The chaos suite's short version (``benchmarks/chaos.py``): each of the four faults, injected in the
middle of play on two server processes with a PostgreSQL and a Redis of the test's own, loses no
acknowledged move, leaves no room unable to continue, and every room moves again on both processes
within 2 s of the service's return. The machine's own PostgreSQL and Redis are never touched."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets")
pytestmark = pytest.mark.slow

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))


def test_faults_lose_no_acknowledged_move_and_stop_no_room() -> None:
    import chaos

    for tool in ("initdb", "pg_ctl"):
        try:
            chaos._tool(tool)
        except RuntimeError:
            pytest.skip(f"{tool} is not installed: the chaos suite starts its own PostgreSQL")
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed: the chaos suite starts its own Redis")
    results = asyncio.run(chaos.chaos(list(chaos.FAULTS), per_game=1, outage=1.0, warmup=1.0, deadline=10.0, think=0.1))
    for r in results:
        assert r["acknowledged_moves"] > 0, r
        assert r["lost_moves"] == 0, r
        assert r["rooms_unable_to_continue"] == 0, r
        assert r["seconds_until_every_room_moves_on_both"] <= 2.0, r
