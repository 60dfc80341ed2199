"""The web client's unit tests (``tests/js/*.test.mjs``, Node's built-in runner) pass: the pure logic of
``static/lib/`` and ``cardcode.js``. Without Node they skip, unless POLYTABLE_REQUIRE_NPM=1 (CI)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1] / "js"


def test_the_client_unit_tests_pass() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("POLYTABLE_REQUIRE_NPM") == "1":
            pytest.fail("POLYTABLE_REQUIRE_NPM=1 but there is no node to run tests/js")
        pytest.skip("node is not installed: the client's unit tests (tests/js) do not run")
    files = sorted(str(p) for p in TESTS.glob("*.test.mjs"))
    assert files, "no tests in tests/js"
    run = subprocess.run([node, "--test", *files], capture_output=True, text=True, timeout=120, cwd=TESTS)
    summary = [line for line in run.stdout.splitlines() if line.startswith(("# pass", "# fail", "not ok"))]
    assert run.returncode == 0, "\n".join(summary) + "\n" + run.stdout[-4000:] + run.stderr[-2000:]
    passed = next(int(line.split()[-1]) for line in summary if line.startswith("# pass"))
    assert passed >= 20, summary
