"""Undo as players expect it (``Match.undo_span``): one's own last decision, with the AIs' replies to it,
while nothing hidden was revealed since; binding decisions (Forma's touch-move pick) stay; the terminal's
``undo`` follows the same policy, the previous person's move included at a hot-seat prompt."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from polytable.cli import app
from polytable.core import CHANCE, IllegalActionError
from polytable.match import Match


def _quadefy() -> Match:
    return Match("quadefy", {}, 2, seed=3)


def _first(m: Match, player: int) -> str:
    return m.game.format_action(next(iter(m.game.legal_actions(m.state, player))), m.state)


def test_against_an_ai_the_reply_is_taken_back_with_the_move() -> None:
    m = _quadefy()
    m.play(_first(m, 0), 0)
    m.play(_first(m, 1), 1)  # the AI's reply
    assert not m.can_undo(0)  # against a person the reply stands ...
    with pytest.raises(IllegalActionError, match="Player 1 cannot undo: Player 2 has moved since"):
        m.undo_span(0)
    assert m.can_undo(0, ai={1}) and m.undo_span(0, ai={1}) == 2  # ... against an AI it goes back with it
    back = m.undo(0, ai={1})
    assert m.version == 0 and back == m.state_at(0) and m.current_player() == 0
    with pytest.raises(IllegalActionError, match="Player 1 has no move to take back"):
        m.undo(0, ai={1})


def test_a_chance_event_after_the_move_makes_it_stand() -> None:
    m = Match("toy", {"rounds": 3}, players=2, seed=5)
    m.resolve_chance()
    m.play("2", 0)
    m.play("1", 1)  # the round resolves; the next roll is revealed
    m.resolve_chance()
    assert m.log[-1].player == CHANCE
    for ai in ((), (1,)):
        with pytest.raises(IllegalActionError, match="a card, a roll or a draw was revealed since"):
            m.undo(0, ai=ai)
    assert m.version == len(m.log)


def test_nobody_is_blamed_before_anyone_moved() -> None:
    m = Match("foldris", {}, 3, seed=1)
    m.resolve_chance()  # the first card
    for p in range(3):
        with pytest.raises(IllegalActionError) as exc:
            m.undo(p)
        assert str(exc.value) == f"Player {p + 1} has no move to take back"


def test_forma_touch_move_a_pick_is_binding_its_placement_is_not() -> None:
    m = Match("forma", {"placement": "random"}, 2, seed=4)
    m.resolve_chance()
    m.play("pick L4", 0)
    with pytest.raises(IllegalActionError, match="a piece once picked up must be placed") as exc:
        m.undo(0)
    assert exc.value.code == "forma.pick_binding" and m.version == 1
    place = _first(m, 0)
    m.play(place, 0)
    m.play("pick 1", 1)
    m.play(_first(m, 1), 1)
    assert m.undo_span(0, ai={1}) == 3  # the AI's pick and placement go back with the placement ...
    m.undo(0, ai={1})
    assert m.state.picked >= 0 and m.current_player() == 0  # ... and the piece is still in hand
    assert not m.can_undo(0, ai={1})


def test_forma_house_rule_moves_are_taken_back_freely() -> None:
    m = Match("forma", {"placement": "random", "touch_move": False}, 2, seed=4)
    m.play(_first(m, 0), 0)
    assert m.can_undo(0)
    m.undo(0)
    assert m.version == 0


def test_terminal_undo_against_an_ai_and_at_a_hot_seat_prompt() -> None:
    runner = CliRunner()
    m = _quadefy()
    first = _first(m, 0)
    r = runner.invoke(
        app,
        ["play", "quadefy", "--ai", "2=greedy", "--seed", "3", "--no-color"],
        input=f"undo\n{first}\nundo\nundo\nquit\n",
    )
    assert r.exit_code == 0, r.output
    assert "Player 1 has no move to take back" in r.output
    assert "Took back Player 1's last move and 1 AI reply." in r.output
    # Two people at one terminal: at Player 2's prompt, before Player 2 acts, undo takes back Player 1's move.
    r = runner.invoke(app, ["play", "quadefy", "--seed", "3", "--no-color"], input=f"{first}\nundo\nquit\n")
    assert r.exit_code == 0, r.output
    assert "Took back Player 1's last move." in r.output
    assert r.output.rstrip().splitlines()[-1] == "Player 1> Game abandoned."  # Player 1 is to move again


def test_once_the_game_is_over_its_result_stands() -> None:
    m = _quadefy()
    while not m.is_over():
        p = m.current_player()
        m.play(_first(m, p), p)
    for p in (0, 1):
        with pytest.raises(IllegalActionError) as exc:
            m.undo(p, ai={1 - p})
        assert exc.value.code == "match.undo_over"
