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
    total = r.json()["total"]
    st = _wait(client, job)
    assert st["state"] == "done" and st["done"] == total == 4 * 2  # the design and its ladder
    result = st["result"]
    assert isinstance(result, dict)
    assert {"win_rate", "rounds", "branching", "scores", "skill"} <= set(result["figures"])
    assert all("<svg" in svg for svg in result["figures"].values())
    (own,) = result["configurations"]
    assert own["label"] == "Tiny lines (lines)"
    assert 0.0 <= own["metrics"]["Balance"]["value"] <= 1.0 and len(own["seats"]) == 2
    # The rulebook variants need lines of 8, areas, start squares or numbers this template does not have:
    # left out, each with why.
    assert [x["variant"] for x in result["left_out"]] == ["1", "2", "3", "4"]
    assert "areas" in result["left_out"][1]["message"]
    data = client.get(f"/api/formfinity/balance/{job}/report.json")
    assert data.status_code == 200 and "attachment" in data.headers["content-disposition"]
    assert data.json()["ladder"]["ladder"] == ["random", "greedy"] and len(data.json()["configurations"]) == 1
    page = client.get(f"/api/formfinity/balance/{job}/report.html")
    assert page.status_code == 200 and "Balance of your design" in page.text and "<svg" in page.text


def test_balance_check_refuses_bad_input(client: TestClient) -> None:
    r = client.post("/api/formfinity/balance", json={"variant_file": VARIANT, "games": 1000})
    assert r.status_code == 400 and r.json()["reason"] == "balance_games"
    r = client.post("/api/formfinity/balance", json={"variant_file": "name = 'x'"})
    assert r.status_code == 400 and r.json()["reason"] == "variant_goal"
    r = client.get("/api/formfinity/balance/nothing")
    assert r.status_code == 404 and r.json()["reason"] == "balance_unknown"
    r = client.get("/api/formfinity/balance/nothing/report.json")
    assert r.status_code == 404 and r.json()["reason"] == "balance_unknown"


def test_the_grid_plays_the_design_under_every_variant_its_template_carries() -> None:
    from polytable.web.extras.formfinity import BalanceJobs

    design = 'name = "Mine"\nplayers = 2\ntemplate = "1"\n[goal]\ntype = "lines"\nlength = 5\n'
    jobs, left_out = BalanceJobs.configurations(design)
    assert [label for label, _ in jobs] == ["Mine (lines)", "variant 1"]
    assert [x["variant"] for x in left_out] == ["2", "3", "4"]
