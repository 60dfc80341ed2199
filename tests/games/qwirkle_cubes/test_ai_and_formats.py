"""The greedy bot's choices, notation fuzzing and saved-state validation."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.qwirkle_cubes.qc_helpers import GAME, build, cubes
from polytable.ai import evaluator, make_bot
from polytable.ai.qwirkle_cubes import placement_value
from polytable.core import CHANCE, IllegalActionError, Rng, StateFormatError
from polytable.games.qwirkle_cubes import PASS, REROLL, Pass, Place, Reroll, cell, format_action


def test_greedy_takes_the_qwirkle() -> None:
    s = build("R●@0,0 R■@1,0 R◆@2,0 R♣@3,0 R✦@4,0", ("R✸ Y♣ Y♣ Y♣ P♣ P♣", "O● O■ O◆ O♣ O✦ O✸"))
    bot = make_bot("greedy", "qwirkle-cubes")
    assert bot.choose(GAME, s, 0, Rng(1)) == Place(cubes("R✸@5,0"))


def test_greedy_weighs_the_qwirkle_it_would_hand_over() -> None:
    # Making the red line 5 long gives the next player, who holds R✸, a Qwirkle.
    s = build("R●@0,0 R■@1,0 R◆@2,0", ("R♣ R✦ G● G■ G◆ G♣", "R✸ O■ O◆ O♣ O✦ O✸"))
    five = cubes("R♣@3,0 R✦@4,0")
    assert placement_value(s, five, 0) == 5 - 12
    assert placement_value(s, five, 0, look=False) == 5
    bot = make_bot("greedy", "qwirkle-cubes")
    assert bot.choose(GAME, s, 0, Rng(1)).cubes != five


def test_greedy_rerolls_exactly_the_unused_cubes() -> None:
    s = build("R●@0,0 R■@1,0 R◆@2,0 R♣@3,0 R✦@4,0", ("R✸ Y♣ Y♣ Y♣ P♣ P♣", "O● O■ O◆ O♣ O✦ O✸"), phase=REROLL)
    greedy = make_bot("greedy", "qwirkle-cubes")
    keep = make_bot("greedy-keep", "qwirkle-cubes")
    # R✸ (slot 1, reds sort first) completes the Qwirkle; the five clovers are rerolled.
    assert greedy.choose(GAME, s, 0, Rng(1)) == Reroll(0b111110)
    assert keep.choose(GAME, s, 0, Rng(1)) == Reroll(0)
    # the generic hook agrees
    assert evaluator(GAME).action_value(GAME, s, Reroll(0b111110), 0) > evaluator(GAME).action_value(
        GAME, s, Reroll(0), 0
    )


def test_greedy_passes_when_it_must() -> None:
    square = " ".join(f"{'ROYGBP'[r]}{'●■◆♣✦✸'[c]}@{c},{r}" for r in range(6) for c in range(6))
    s = build(square, ("R●", "G♣"), bag_empty=True, phase=PASS)
    assert make_bot("greedy", "qwirkle-cubes").choose(GAME, s, 0, Rng(0)) == Pass()


def test_greedy_plays_whole_games_for_3_and_4_players() -> None:
    for players in (3, 4):
        s = GAME.new_game(players=players, seed=players)
        bots = [make_bot("greedy", "qwirkle-cubes") for _ in range(players)]
        rng = Rng(players)
        while not GAME.is_terminal(s):
            cp = GAME.current_player(s)
            s = GAME.apply(s, GAME.chance_outcome(s) if cp == CHANCE else bots[cp].choose(GAME, s, cp, rng), cp)
        assert GAME.winners(s)


faces = st.integers(0, 35)
coords = st.integers(-89, 89)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(faces, coords, coords), min_size=1, max_size=6, unique_by=lambda t: (t[1], t[2])))
def test_placement_notation_round_trips(items: list[tuple[int, int, int]]) -> None:
    action = Place(tuple(sorted(((t, cell(x, y)) for t, x, y in items), key=lambda tc: tc[1])))
    for ascii_only in (False, True):
        assert GAME.parse_action(format_action(action, ascii_only)) == action


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_garbage_is_refused_with_a_message(text: str) -> None:
    try:
        action = GAME.parse_action(text)
    except IllegalActionError as e:
        assert str(e)
        return
    assert GAME.parse_action(GAME.format_action(action)) == action


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2_000_000_000))
def test_any_id_decodes_or_is_refused(i: int) -> None:
    empty = build()  # nothing on the table: ids decode with no occupied cells
    assert not empty.board.cells
    try:
        action = GAME.action_from_id(i, empty)
    except IllegalActionError:
        return
    assert GAME.action_id(action) == i or (isinstance(action, Place) and len(action.cubes) > 1)


def test_saved_states_are_validated() -> None:
    s = GAME.new_game(players=2, seed=5)
    while GAME.current_player(s) == CHANCE:
        s = GAME.apply_chance(s)
    data = json.loads(json.dumps(GAME.state_to_dict(s)))
    assert GAME.state_from_dict(data) == s
    bad = dict(data, hands=[["Bd"] * 7, data["hands"][1]])
    with pytest.raises(StateFormatError, match="at most 6"):
        GAME.state_from_dict(bad)
    with pytest.raises(StateFormatError, match="there are 15"):
        GAME.state_from_dict(dict(data, bag=[15] * 6))
    with pytest.raises(StateFormatError, match="not a cube"):
        GAME.state_from_dict(dict(data, table=[[0, 0, "Zz"]]))
    with pytest.raises(StateFormatError, match="phase"):
        GAME.state_from_dict(dict(data, phase="lunch"))
    with pytest.raises(StateFormatError):
        GAME.state_from_dict(dict(data, config="x"))


def test_score_pad_prints(tmp_path: object) -> None:
    from pathlib import Path

    from polytable.core import ConfigError
    from polytable.printables.qwirkle_cubes import PRINTABLES

    out = Path(str(tmp_path)) / "pad.pdf"
    PRINTABLES["qwirkle-cubes"](str(out), "letter", {"players": "3", "turns": "30"})
    assert out.read_bytes().startswith(b"%PDF")
    with pytest.raises(ConfigError, match="players"):
        PRINTABLES["qwirkle-cubes"](str(out), "a4", {"players": "5"})
