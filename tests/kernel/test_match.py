"""Matches: versions, undo rules, records, replay checks, simulation summary."""

from __future__ import annotations

import json

import pytest

from polytable.ai import make_bot
from polytable.core import CHANCE, IllegalActionError, StateFormatError
from polytable.match import Match, play_game, simulate


def _started() -> Match:
    m = Match("toy", {"rounds": 2}, players=2, seed=5)
    m.resolve_chance()
    return m


def test_stale_version_is_refused_and_changes_nothing() -> None:
    m = _started()
    v = m.version
    m.play("2", 0, expected_version=v)
    with pytest.raises(IllegalActionError, match="version"):
        m.play("1", 1, expected_version=v)
    assert m.version == v + 1


def test_undo_only_own_last_action_never_across_chance() -> None:
    m = _started()
    assert not m.can_undo(0)  # nobody has moved: the opening roll is nobody's to take back
    with pytest.raises(IllegalActionError, match="Player 1 has no move to take back"):
        m.undo(0)
    m.play("2", 0)
    assert m.can_undo(0) and not m.can_undo(1)
    with pytest.raises(IllegalActionError, match="Player 2 has no move to take back"):
        m.undo(1)
    state = m.undo(0)
    assert state == m.state_at(m.version)
    assert m.game.acting_players(state) == (0, 1)


def test_record_replays_exactly_and_detects_tampering() -> None:
    m = play_game(Match("toy").game, [make_bot("random", "toy"), make_bot("greedy", "toy")], {"rounds": 3}, seed=11)
    record = json.loads(json.dumps(m.record()))
    assert record["game"] == "toy" and record["seed"] == 11 and record["result"]["terminal"]
    again = Match.replay(record)
    assert again.state == m.state
    chance = next(i for i, (p, _) in enumerate(record["actions"]) if p == CHANCE)
    bad = json.loads(json.dumps(record))
    roll = int(bad["actions"][chance][1])
    bad["actions"][chance][1] = str(roll % 3 + 1)
    with pytest.raises(StateFormatError, match="not what the seed gives"):
        Match.replay(bad)
    bad = dict(record, rules_version="0")
    with pytest.raises(StateFormatError, match="rules version"):
        Match.replay(bad)
    bad = dict(record, result={"scores": [0, 0], "winners": [], "returns": [0, 0], "terminal": True})
    with pytest.raises(StateFormatError, match="differs"):
        Match.replay(bad)
    with pytest.raises(StateFormatError, match="must be \\[player, text\\]"):
        Match.replay(dict(record, actions=[["x"]]))
    with pytest.raises(StateFormatError, match="no 'seed'"):
        Match.replay({k: v for k, v in record.items() if k != "seed"})
    with pytest.raises(StateFormatError, match="is not a move"):
        Match.replay(dict(record, actions=[record["actions"][0], [0, "9"]]))


def test_simulate_summary_shape() -> None:
    out = simulate("toy", 2, 5, ["greedy", "random"], {"rounds": 2}, seed=1, make_player=make_bot)
    assert out["games"] == 5 and out["players"] == ["greedy", "random"]
    s = out["summary"]
    assert set(s) >= {"mean_turns", "mean_score_by_seat", "win_rate_by_seat", "games_per_second"}
    assert abs(sum(s["win_rate_by_seat"]) - 1.0) < 1e-9
    assert [g["seed"] for g in out["per_game"]] == [1, 2, 3, 4, 5]
    # greedy always picks 3 and never loses to random in this game
    assert s["win_rate_by_seat"][0] >= s["win_rate_by_seat"][1]
    with pytest.raises(ValueError, match="one AI for every seat"):
        simulate("toy", 3, 1, ["greedy", "random"], make_player=make_bot)


def test_rewind_forgets_later_actions() -> None:
    m = _started()
    v = m.version
    m.play("2", 0)
    m.play("1", 1)
    m.resolve_chance()
    state = m.rewind(v)
    assert m.version == v and state == m.state_at(v) == m.state
    with pytest.raises(IndexError):
        m.rewind(v + 5)
