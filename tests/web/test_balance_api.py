"""The designer's balance check: start, progress, result with the analyse figures; bad input and busy."""

from __future__ import annotations

import time

import pytest
from starlette.testclient import TestClient

pytest.importorskip("matplotlib")

VARIANT = """name = "Tiny lines"
players = 2
template = \"\"\"
. . . . . .
. . # . . .
. . . . . .
. . . . . .
\"\"\"

[goal]
type = "lines"
length = 4
target = 1
"""


def _wait(client: TestClient, job: str) -> dict[str, object]:
    for _ in range(600):
        st = client.get(f"/api/formfinity/balance/{job}").json()
        if st["state"] != "running":
            return st
        time.sleep(0.05)
    raise AssertionError("the balance check did not finish")


def test_balance_check_runs_and_returns_the_figures(client: TestClient) -> None:
    r = client.post("/api/formfinity/balance", json={"variant_file": VARIANT, "games": 4})
    assert r.status_code == 200, r.text
    job = r.json()["job"]
    assert r.json()["total"] == 4
    st = _wait(client, job)
    assert st["state"] == "done" and st["done"] == 4
    result = st["result"]
    assert isinstance(result, dict)
    assert set(result["figures"]) == {"win_rate", "game_length", "branching", "scores"}
    assert all("<svg" in svg for svg in result["figures"].values())
    assert 0.0 <= result["metrics"]["Balance"] <= 1.0 and len(result["seats"]) == 2


def test_balance_check_refuses_bad_input(client: TestClient) -> None:
    r = client.post("/api/formfinity/balance", json={"variant_file": VARIANT, "games": 1000})
    assert r.status_code == 400 and r.json()["reason"] == "balance_games"
    r = client.post("/api/formfinity/balance", json={"variant_file": "name = 'x'"})
    assert r.status_code == 400 and r.json()["reason"] == "variant_goal"
    r = client.get("/api/formfinity/balance/nothing")
    assert r.status_code == 404 and r.json()["reason"] == "balance_unknown"
