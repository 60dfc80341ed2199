"""The server side of the second round of board features, without a browser: the Quadefy bonus puzzle's
engine check (``POST /api/puzzle/quadefy/check``) and Forma's bridge geometry in a preview's view."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient

from polytable.core import ConfigError, get_game

from .conftest import hello, make_room, until


def _need(game: str) -> None:
    try:
        get_game(game)
    except ConfigError:
        pytest.skip(f"{game} is not installed yet")


def _after(version: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "state" and m["version"] > version


def _solution(client: TestClient, pattern: str) -> list[dict[str, Any]]:
    answer = client.get("/api/puzzle/quadefy", params={"pattern": pattern}).json()
    groups: dict[tuple[int, str], list[int]] = {}
    for i, c in enumerate(answer["cells"]):
        groups.setdefault((c["owner"], c["block"]), []).append(i)
    return [{"colour": o, "block": b, "cells": cs} for (o, b), cs in groups.items()]


def test_puzzle_check_accepts_a_solution_and_says_what_is_wrong(client: TestClient) -> None:
    _need("quadefy")
    right = _solution(client, "halves")
    check = "/api/puzzle/quadefy/check"
    ok = client.post(check, json={"pattern": "halves", "blocks": right}).json()
    assert ok == {"valid": True, "reasons": [], "problems": []}
    short = client.post(check, json={"pattern": "halves", "blocks": right[:-1]}).json()
    assert short["valid"] is False
    assert {"reason": "uncovered", "n": 4} in short["problems"]
    assert "4 cells are not covered" in short["reasons"]
    swapped = [{**b, "colour": 1 - b["colour"]} for b in right]
    bad = client.post(check, json={"pattern": "halves", "blocks": swapped}).json()
    assert bad["valid"] is False and {p["reason"] for p in bad["problems"]} == {"colour"}
    twice = [*right[:-1], {**right[0], "cells": right[-1]["cells"]}]  # one block used twice, shapes aside
    assert client.post(check, json={"pattern": "halves", "blocks": twice}).json()["valid"] is False
    shape = client.post(
        check, json={"pattern": "halves", "blocks": [{"colour": 0, "block": "I", "cells": [0, 1, 2, 4]}]}
    )
    assert shape.json()["problems"] == [{"reason": "shape", "colour": 0, "block": "I", "cells": "a1.1 b1.1 c1.1 a2.1"}]
    for body, reason in (
        ({"pattern": "halves", "blocks": "x"}, "puzzle_blocks"),
        ({"pattern": "halves", "blocks": [{"colour": 2, "block": "I", "cells": [0]}]}, "puzzle_block"),
        ({"pattern": "halves", "blocks": [{"colour": 0, "block": "I", "cells": [64]}]}, "puzzle_block"),
        ({"pattern": "", "blocks": []}, "no_pattern"),
        ({"pattern": "no such pattern", "blocks": []}, "engine.quadefy.pattern_char"),
        ({"pattern": "spirals", "blocks": []}, "no_pattern_name"),
    ):
        r = client.post(check, json=body)
        assert r.status_code == 400, body
        assert r.json()["reason"] == reason, r.json()  # each problem has a reason the client translates


def test_forma_preview_view_carries_the_bridge_it_would_make(client: TestClient) -> None:
    _need("forma")
    room = make_room(client, game="forma", seed=1, options={"setup": "tower p15", "touch_move": False}, seats=[{}, {}])
    moves = ["I5 r0 @ c19", "I5 r0 @ r19", "I5 r0 @ c14", "I5 r0 @ r14", "I4 r0 @ c9", "I4 r0 @ r9"]
    moves += ["I4 r0 @ c5", "I4 r0 @ r5"]
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, *room["tokens"].values())
        msg = until(ws, lambda m: m["type"] == "state")
        for action in moves:
            ws.send_json({"type": "act", "seat": msg["acting"][0], "version": msg["version"], "action": action})
            msg = until(ws, _after(msg["version"]))
        assert msg["mine"]["0"]["view"]["players"][0]["bridge_paths"] == []
        ws.send_json({"type": "preview", "seat": 0, "action": "1 @ c1", "ask": 1})
        pv = until(ws, lambda m: m["type"] == "preview")
    assert pv["ok"] and pv["delta"] == 51
    mine = pv["view"]["players"][0]
    assert mine["bridges"] == 1
    assert mine["bridge_paths"] == [[f"c{r}" for r in range(19, 0, -1)]]
    assert pv["view"]["players"][1]["bridge_paths"] == []
