"""Balance reports: metrics on hand-made records, seeds and workers, Dask, the comparison and the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from typer.testing import CliRunner

from polytable.ai import make_bot
from polytable.analysis import GameRecord, Job, hypotheses, run_games, summarise, wilson
from polytable.cli import app
from polytable.core import ConfigError
from polytable.match import simulate


def _rec(seed: int, winners: list[int], turns: int = 10, scores: list[float] | None = None) -> GameRecord:
    return GameRecord(seed, scores or [1.0, 0.0], winners, turns, [3] * turns, ["move"] * turns, [1] * turns, 1, 2)


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_ludii_metrics_on_known_records() -> None:
    # 10 games of 2 players: seat 1 wins 6, seat 2 wins 2, 2 shared wins (each half to both seats).
    recs = [_rec(i, [0]) for i in range(6)] + [_rec(6, [1]), _rec(7, [1]), _rec(8, [0, 1]), _rec(9, [0, 1])]
    s = summarise(recs, 2)
    m = {k: v["value"] for k, v in s["metrics"].items()}
    assert m["AdvantageP1"] == pytest.approx(0.7)
    assert m["Balance"] == pytest.approx(1 - (0.7 - 0.3))
    assert m["Completion"] == pytest.approx(0.8) and m["Drawishness"] == pytest.approx(0.2)
    assert m["Actions"] == 10 and m["BranchingFactor"] == 3 and m["Rounds"] == 1
    assert s["seats"][0]["ci95"] == list(wilson(7, 10)) and s["metrics"]["Drawishness"]["ci95"] == list(wilson(2, 10))
    lo, hi = s["metrics"]["Balance"]["ci95"]  # bootstrap: around the value, inside [0, 1]
    assert 0 <= lo < m["Balance"] < hi <= 1


def test_comparison_finds_a_real_difference_and_not_a_false_one() -> None:
    a = [_rec(i, [i % 2], turns=10 + i % 3) for i in range(200)]
    b = [_rec(i, [0] if i % 5 else [1], turns=20 + i % 3) for i in range(200)]
    for r in b:
        r.rounds = 2
    sa, sb = summarise(a, 2), summarise(b, 2)
    tests = {t["what"]: t for t in hypotheses([("A", sa, a), ("B", sb, b)])}
    assert tests["B vs A: seat 1 win share"]["significant"] and tests["B vs A: rounds"]["significant"]
    assert tests["B: seat 1 win share = 1/2"]["significant"] and not tests["A: seat 1 win share = 1/2"]["significant"]
    same = hypotheses([("A", sa, a), ("B", sa, a)])
    assert not any(t["significant"] for t in same)


def test_seeds_workers_and_simulate_agree() -> None:
    job = Job.make("quadefy", None, ["random"], {})
    one = run_games(job, 6, seed=40)
    two = run_games(job, 6, seed=40, workers=2)
    assert [r.to_dict() for r in one] == [r.to_dict() for r in two]
    assert [r.seed for r in one] == list(range(40, 46))
    sim = simulate("quadefy", 2, 6, ["random"], {}, seed=40, make_player=make_bot)["per_game"]
    assert [(r.scores, r.winners, r.actions) for r in one] == [(g["scores"], g["winners"], g["turns"]) for g in sim]
    assert all(len(r.branching) == r.actions and r.branching[0] > r.branching[-1] for r in one)
    # the turn of the player who could not move began too
    assert all(r.game_turns == r.actions + 1 and r.rounds == (r.actions + 2) // 2 for r in one)


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::ResourceWarning", "ignore::UserWarning")
def test_dask_local_cluster_gives_the_local_results() -> None:
    distributed = pytest.importorskip("distributed")
    job = Job.make("foldris", 2, ["greedy"], {"height": 6})
    local = run_games(job, 6, seed=3)
    with (
        distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = run_games(job, 6, seed=3, cluster=client)
    assert [r.to_dict() for r in remote] == [r.to_dict() for r in local]


def test_bad_jobs_are_refused() -> None:
    with pytest.raises(ConfigError, match="no AI named"):
        Job.make("quadefy", None, ["nobody"], {})
    with pytest.raises(ConfigError, match="one per seat"):
        Job.make("forma", 4, ["random", "greedy"], {})
    with pytest.raises(ConfigError, match="obstacles"):
        Job.make("forma", 4, ["random"], {"obstacles": 99})
    with pytest.raises(ConfigError, match="at least 1"):
        run_games(Job.make("quadefy", None, [], {}), 0)


def test_analyse_command_writes_the_report(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("I 1\nO 2\nT 3\nS 4\nZ 5\nL 6\nJ 7\n", encoding="utf-8")
    out = tmp_path / "report"
    args = ["analyse", "foldris", "--players", "2", "--games", "4", "--option", "height=6", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--compare", f"deck=@{deck}"])
    assert result.exit_code == 0, result.output
    assert "report:" in result.output
    for name in ("win_rate", "rounds", "branching", "scores", "drama", "skill"):
        assert (out / f"{name}.png").read_bytes()[:4] == b"\x89PNG"
        assert "<svg" in (out / f"{name}.svg").read_text(encoding="utf-8")
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "name=viewport" in page and page.count("<svg") == 6 and "<script" not in page
    assert "AdvantageP1" in page and "Holm" in page and "rules version <b>2</b>" in page
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    a, b = data["configurations"]
    assert a["config"]["options"] == {"height": 6} and b["config"]["options"]["deck"].startswith("I 1")
    assert len(a["per_game"]) == 4 and data["tests"] and data["ladder"]["ladder"] == ["random", "greedy"]


def test_analyse_command_reports_bad_input(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["analyse", "forma", "--option", "obstacles=99", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and "obstacles" in result.output
    assert not (tmp_path / "x").exists()


def test_one_player_games_have_no_win_metrics() -> None:
    recs = [
        GameRecord(i, [float(i)], [0] if i > 2 else [], 5 + i, [2] * (5 + i), ["drop"] * (5 + i), [1] * (5 + i))
        for i in range(5)
    ]
    s = summarise(recs, 1)
    assert not {"Balance", "Completion", "Drawishness", "AdvantageP1"} & set(s["metrics"])
    assert s["metrics"]["Actions"]["value"] == 7 and s["seats"][0]["scores"]["mean"] == 2.0
    assert hypotheses([("solo", s, recs)]) == []


def test_analyse_from_a_command_file_with_a_grid(tmp_path: Path) -> None:
    (tmp_path / "deck.txt").write_text("I 1\nO 2\nT 3\nS 4\nZ 5\nL 6\nJ 7\n", encoding="utf-8")
    command = tmp_path / "command.toml"
    command.write_text(
        'title = "Decks"\ngame = "foldris"\nai = ["greedy"]\ngames = 3\nladder = []\n'
        '[options]\nheight = 6\n[grid]\nplayers = [2, 3]\ndeck = ["@deck.txt"]\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["analyse", "--from", str(command), "--games", "2"])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert [c["label"] for c in data["configurations"]] == ["players=2, deck=@deck.txt", "players=3, deck=@deck.txt"]
    assert data["games"] == 2 and data["configurations"][1]["config"]["options"]["deck"].startswith("I 1")
    # Two player counts: rounds are compared, seat shares are not; each count has its own fairness test.
    whats = [t["what"] for t in data["tests"]]
    assert "players=3, deck=@deck.txt: seat 3 win share = 1/3" in whats
    assert not any("win share" in w and " vs " in w for w in whats)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Made by" in page and 'title = "Decks"' in page
    bad = CliRunner().invoke(app, ["analyse", "--from", str(tmp_path / "missing.toml")])
    assert bad.exit_code == 2 and "cannot read" in bad.output
