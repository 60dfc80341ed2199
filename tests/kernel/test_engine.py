"""The engine switch: compiled accelerators when built, the pure-Python engine otherwise (said once)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from polytable.core import _engine, get_game, native_module, pure_engine_forced


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
    """``POLYTABLE_PURE=1``: "auto" means the pure rules for every game, and the AI's own kernel is off."""
    code = (
        "from polytable.core import all_games, native_module\n"
        "from polytable.ai._native import available\n"
        "print(native_module('polytable.games.forma._cforma'), available(), *{g.engine for g in all_games()})"
    )
    env = {**os.environ, "POLYTABLE_PURE": "1"}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert res.stdout.split() == ["None", "False", "pure"]
    assert res.stderr == ""


def test_the_extensions_are_built() -> None:
    """A normal install compiles them (setup.py); only POLYTABLE_PURE=1 turns them off."""
    if pure_engine_forced():
        pytest.skip("POLYTABLE_PURE=1 asks for the pure engine")
    assert native_module("polytable.ai._native._qsolve") is not None
    assert native_module("polytable.games.forma._cforma") is not None
    compiled = ("forma", "quadefy", "foldris", "qwirkle-cubes", "formfinity")
    assert {g: get_game(g).engine for g in compiled} == dict.fromkeys(compiled, "compiled")
    assert native_module("polytable.games.quadefy._cquadefy") is not None
    assert native_module("polytable.games.foldris._cfoldris") is not None
    # the environments' batches and sampler: their differential tests skip without them
    batches = ("games.forma._cforma_vec", "games.quadefy._cquadefy_vec", "games.qwirkle_cubes._cqwirkle_vec")
    for name in (*batches, "interop._csample"):
        assert native_module(f"polytable.{name}") is not None, name


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


def test_the_engine_is_chosen_with_the_game_object() -> None:
    """``get_game(id, engine)``: pure and compiled are two objects, each keeps its engine; "auto" is the
    registered one; an unknown engine, or "compiled" for a game without a kernel, is refused."""
    pure = get_game("forma", "pure")
    assert pure.engine == "pure" and get_game("forma", "pure") is pure
    assert get_game("forma", "auto") is get_game("forma")
    if not pure_engine_forced():
        compiled = get_game("forma", "compiled")
        assert compiled.engine == "compiled" and compiled is not pure
    with pytest.raises(ValueError, match="unknown engine"):
        get_game("forma", "fast")
    from kernel.toy import ToyGame  # a game with no compiled kernel

    toy = ToyGame()
    assert toy.engine == "pure" and toy.with_engine("pure") is toy and toy.with_engine("auto") is toy
    with pytest.raises(ValueError, match="no compiled engine"):
        toy.with_engine("compiled")
