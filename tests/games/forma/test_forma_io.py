"""Rendering, serialisation, views, and the greedy AI against random play."""

from __future__ import annotations

import json

import pytest

from polytable.ai import evaluator, make_bot
from polytable.core import CHANCE, Rng, StateFormatError

from .forma_helpers import GAME, new, put


def test_render_is_readable_without_colour():
    s = put(new(setup="tower j10; obstacles c3"), 1, "a1", markers="b1")
    s = GAME.apply_text(s, "X5 r0 @ e10")
    text = GAME.render(s)
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefghijklmnopqrs")
    assert lines[1].split()[0] == "19" and lines[19].split()[0] == "1"
    assert "\x1b[" not in text
    row1 = lines[19]
    assert " B b" in row1  # player 2's piece on a1 and marker on b1
    assert "*A" in lines[10]  # the last piece placed (e10) is starred
    assert " T" in lines[10] and " #" in lines[17]
    assert "Player 1: 5 points" in text and "<- to play" in text
    assert "Key:" in text


def test_render_with_colour_uses_ansi():
    assert "\x1b[" in GAME.render(GAME.apply_text(new(), "X5 r0 @ e10"), color=True)


def test_state_round_trips_through_json():
    rng = Rng(3)
    s = GAME.new_game({"touch_move": True}, seed=3, players=2)
    for _ in range(41):
        s = GAME.apply(s, GAME.legal_actions(s).sample(rng))
    data = json.loads(json.dumps(GAME.state_to_dict(s)))
    assert GAME.state_from_dict(data) == s
    view = GAME.view(s, 0)
    json.dumps(view)
    assert view["current_player"] == s.turn


@pytest.mark.parametrize(
    "breakage",
    [
        lambda d: d.pop("setup"),
        lambda d: d.update(game="chess"),
        lambda d: d["players"][0].update(pieces=["z99"]),
        lambda d: d["players"][0].update(pieces=["a1", "a1"]),
        lambda d: d["players"][1].update(pieces=d["players"][0]["pieces"][:1]),
        lambda d: d["players"][0].update(stock={"Q7": 1}),
        lambda d: d["players"][0].update(stock={"X5": 9}),
        lambda d: d.update(turn=7),
        lambda d: d.update(closed=["a1"]),
        lambda d: d.update(picked="X9"),
    ],
)
def test_malformed_states_are_refused(breakage):
    s = put(new(), 0, "a1 b1")
    s = GAME.apply_text(s, "X5 r0 @ e10")
    data = json.loads(json.dumps(GAME.state_to_dict(s)))
    breakage(data)
    with pytest.raises(StateFormatError):
        GAME.state_from_dict(data)


def test_describe_action_is_a_sentence():
    a = GAME.parse_action("F5 r3f @ k7")
    assert GAME.describe_action(a, new()).startswith("places F5 (5 cells) turned 3 quarter turns clockwise and flipped")


def test_greedy_beats_random():
    greedy, rnd = make_bot("greedy", "forma"), make_bot("random", "forma")
    assert type(greedy).__name__ == "FormaGreedy"
    for seat in (0, 3):
        rng = Rng(seat)
        s = GAME.new_game(seed=seat, players=4)
        while not GAME.is_terminal(s):
            p = s.turn
            if p == CHANCE:  # the set-up's random fill
                s = GAME.apply_chance(s)
                continue
            s = GAME.apply(s, (greedy if p == seat else rnd).choose(GAME, s, p, rng))
        assert GAME.winners(s) == (seat,)
        assert s.scores[seat] > 1.5 * max(sc for q, sc in enumerate(s.scores) if q != seat)


def test_action_value_prefers_scoring_moves():
    s = put(new(), 1, "d5 f5 e4")
    close = GAME.parse_action("1 r0 @ e6")
    away = GAME.parse_action("1 r0 @ a19")
    assert evaluator(GAME).action_value(GAME, s, close, 0) > evaluator(GAME).action_value(GAME, s, away, 0) + 5


def test_printables_write_pdfs(tmp_path):
    from polytable.printables.forma import PRINTABLES

    for name, fn in PRINTABLES.items():
        out = tmp_path / f"{name}.pdf"
        fn(str(out), "letter", {"seed": "3", "obstacles": "12"} if name == "forma" else {})
        assert out.read_bytes().startswith(b"%PDF")
    with pytest.raises(ValueError, match="is on the border at a1"):
        PRINTABLES["forma"](str(tmp_path / "x.pdf"), "a4", {"setup": "tower a1"})
