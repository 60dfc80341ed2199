"""The offline engine is the server's engine: seeded games under Pyodide (Node) equal CPython's, record by record.

Pyodide comes from npm at set-up (scripts/npm-assets.sh). Where it or Node is missing the test skips and
says why; in CI (``CI`` set) it fails instead, so the comparison is never silently skipped there.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from polytable.core import get_game
from polytable.match import Match, game_catalogue
from polytable.web._offline import PYODIDE_DIR, pyodide_available, rules_wheel, wheel_name

from ._records import play

HERE = Path(__file__).resolve().parent
SEEDS = (1, 2)
AIS = ["easy", "random", "easy", "random"]
"""easy is the greedy move 70% of the time, so this exercises the greedy players too."""


def _require(ok: bool, why: str) -> None:
    if ok:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{why} (CI must run the offline engine's comparison)")
    pytest.skip(why)


def _last_lines(text: str) -> str:
    """The end of Node's error output, without the minified source line it prints first."""
    return "\n".join(line[:300] for line in text.splitlines()[-25:])


def _cases() -> list[list[object]]:
    cases: list[list[object]] = []
    for entry in game_catalogue():  # the listed games: the tests' toy game is not in the wheel
        for options, players in get_game(entry["id"]).sample_configs():
            for seed in SEEDS:
                cases.append([entry["id"], options, players, seed, None])
        # and one game of the AIs a phone offers offline, in every seat
        spec = get_game(entry["id"]).spec
        cases.append([entry["id"], {}, spec.min_players, 5, AIS[: spec.min_players] or AIS[:1]])
    return cases


def test_wheel_is_reproducible_and_holds_only_the_rules() -> None:
    import io
    import zipfile

    data = rules_wheel()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    tops = {n.split("/")[1] for n in names if n.startswith("polytable/") and n.count("/") >= 2}
    assert tops == {"core", "geometry", "games", "match", "ai"}
    assert "polytable/__init__.py" in names
    assert not any("/web/" in n or "/storage/" in n or "__pycache__" in n for n in names)
    assert any(n.endswith(".dist-info/RECORD") for n in names)
    assert rules_wheel.__wrapped__() == data  # the same files give the same bytes


def test_the_wheels_sources_hold_only_unicode_text() -> None:
    """A string constant that is no Unicode text (a lone surrogate written as an escape in a docstring) stops
    the offline engine from starting in the browser: none is in the wheel's sources."""
    import ast
    import io
    import zipfile

    bad = []
    with zipfile.ZipFile(io.BytesIO(rules_wheel())) as zf:
        for name in (n for n in zf.namelist() if n.endswith(".py")):
            for node in ast.walk(ast.parse(zf.read(name))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    try:
                        node.value.encode("utf-8")
                    except UnicodeEncodeError:
                        bad.append(f"{name}:{node.lineno}")
    assert bad == []


def test_pyodide_plays_every_game_as_cpython(tmp_path: Path) -> None:
    node = shutil.which("node")
    _require(node is not None, "no node: the Pyodide comparison needs Node.js")
    _require(pyodide_available(), f"Pyodide is not installed at {PYODIDE_DIR} (run scripts/npm-assets.sh)")
    cases = _cases()
    assert {c[0] for c in cases} >= {"formfinity", "foldris", "forma", "qwirkle-cubes", "quadefy"}
    wheel = tmp_path / wheel_name()
    wheel.write_bytes(rules_wheel())
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    run = subprocess.run(
        [str(node), str(HERE / "pyodide_records.mjs"), str(PYODIDE_DIR), str(wheel), str(tmp_path / "cases.json")],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, _last_lines(run.stderr)
    out = json.loads(run.stdout)
    expected = [play(case) for case in cases]
    got = out["records"]
    assert len(got) == len(expected)
    for case, mine, theirs in zip(cases, expected, got, strict=True):
        assert theirs == json.loads(json.dumps(mine)), f"Pyodide {out['python']} differs from CPython on {case}"
    # and a record made under Pyodide replays on this Python, as `polytable replay` does
    for record in got:
        Match.replay(record)


def test_the_service_worker_caches_the_pinned_pyodide() -> None:
    root = HERE.parents[1]
    pinned = re.search(r"^PYODIDE=(\S+)$", (root / "scripts" / "npm-assets.sh").read_text(), re.M)
    sw = re.search(r'const PYODIDE = "([^"]+)"', (root / "src" / "polytable" / "web" / "static" / "sw.js").read_text())
    assert pinned and sw and pinned.group(1) == sw.group(1), "sw.js must name the Pyodide version npm-assets.sh pins"
