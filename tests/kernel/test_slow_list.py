"""The lists of long tests in ``tests/conftest.py`` name tests that exist: a renamed or deleted test would
otherwise leave a stale entry behind, and its renamed self would quietly join ``make check``."""

from __future__ import annotations

import pathlib

import conftest

TESTS = pathlib.Path(__file__).resolve().parents[1]


def test_every_listed_long_test_exists() -> None:
    files = {p.name: p.read_text(encoding="utf-8") for p in TESTS.rglob("test_*.py")}
    stale = []
    for entry in sorted(conftest.SLOW_TESTS | conftest.NIGHTLY_TESTS):
        name, _, test = entry.partition("::")
        function = test.partition("[")[0]
        if f"def {function}(" not in files.get(name, ""):
            stale.append(entry)
    for name in conftest.SLOW_FILES:
        if name not in files:
            stale.append(name)
    assert stale == [], "listed as long in tests/conftest.py but not found:\n" + "\n".join(stale)
