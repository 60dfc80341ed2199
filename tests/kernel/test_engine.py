"""The engine switch: compiled accelerators when built, the pure-Python engine otherwise (said once)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from polytable.core import _engine, native_module, pure_engine_forced


def test_missing_extension_falls_back_and_says_so_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("POLYTABLE_PURE", raising=False)
    monkeypatch.setattr(_engine, "_WARNED", [False])
    assert native_module("polytable._no_such_extension_a") is None
    assert native_module("polytable._no_such_extension_b") is None
    err = capsys.readouterr().err
    assert err.count("running the pure-Python engine") == 1


def test_polytable_pure_forces_the_pure_engine_silently() -> None:
    code = (
        "from polytable.core import native_module\n"
        "from polytable.games.forma._native import EXT\n"
        "from polytable.games.quadefy._native import EXT as Q\n"
        "from polytable.games.foldris._native import EXT as F\n"
        "from polytable.ai._native import available\n"
        "print(native_module('polytable.games.forma._cforma'), EXT, Q, F, available())"
    )
    env = {**os.environ, "POLYTABLE_PURE": "1"}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert res.stdout.split() == ["None", "None", "None", "None", "False"]
    assert res.stderr == ""


def test_the_extensions_are_built() -> None:
    """A normal install compiles them (setup.py); only POLYTABLE_PURE=1 turns them off."""
    if pure_engine_forced():
        pytest.skip("POLYTABLE_PURE=1 asks for the pure engine")
    assert native_module("polytable.ai._native._qsolve") is not None
    assert native_module("polytable.games.forma._cforma") is not None
    assert native_module("polytable.games.quadefy._cquadefy") is not None
    assert native_module("polytable.games.foldris._cfoldris") is not None


def test_engine_benchmark_reports_every_target_quickly() -> None:
    from polytable.bench import benchmarks

    out = benchmarks()["engine"](True)
    assert out["forma random 4p games per CPU second (playout)"] > 0  # type: ignore[operator]
    assert out["foldris random 4p drops per CPU second, playout"] > 0  # type: ignore[operator]
    assert out["forma default rules: random 4p games per CPU second (playout, compiled)"] > 0  # type: ignore[operator]
    assert out["simulate --workers 2 / --workers 1, games per wall second (target 1.8)"] > 0  # type: ignore[operator]
    assert 0 < out["simulate --workers 2: the parent's share of the CPU (serial part)"] < 1  # type: ignore[operator]
    if not pure_engine_forced():
        assert out["quadefy solver: nodes per CPU second"] > 0  # type: ignore[operator]
