"""Shared test set-up: the kernel's toy game is registered for the whole test session, and the tests that
drive a real browser, Node, OpenSpiel or several server processes are marked ``slow`` in one place (``make
check`` leaves them out; ``make test`` and CI run everything)."""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from kernel.toy import ToyGame
from polytable.core import register

register(ToyGame())

SLOW_FILES = (
    "test_openspiel.py",
    "test_pyodide.py",
    "test_multiprocess.py",
    "test_services.py",
    "test_pubsub_outage.py",
)


def pytest_collection_modifyitems(config: object, items: list[Any]) -> None:
    for item in items:
        name = os.path.basename(str(item.fspath))
        if name.startswith("test_browser") or name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)
