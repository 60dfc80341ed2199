"""The vector API's training example runs end to end at a tiny size and writes its curve."""

from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_vector_pg.py"


@pytest.mark.slow  # a training run (matplotlib, 1.5 CPU seconds): make test, not make check
def test_training_example_writes_its_learning_curve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "curve"
    argv = [str(EXAMPLE), "--seconds", "1.5", "--envs", "8", "--block", "20", "--out", str(out)]
    monkeypatch.setattr(sys, "argv", argv)
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    data = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert data["run"]["envs"] == 8 and data["curve"]
    assert all(0.0 <= point["win_rate"] <= 1.0 for point in data["curve"])
    assert out.with_suffix(".png").stat().st_size > 1000
