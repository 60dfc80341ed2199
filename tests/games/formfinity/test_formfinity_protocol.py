"""Protocol details: serialisation, views, notation inputs, ids, the AI, companion mode and printables."""

from __future__ import annotations

import json
import pathlib

import pytest
from typer.testing import CliRunner

from polytable.ai import make_bot
from polytable.core import CHANCE, IllegalActionError, Rng, StateFormatError
from polytable.games.formfinity import ChooseArea, Claim, Place, parse_card

from ._helpers import GAME, play_random, position


def test_state_round_trips_and_bad_states_are_refused() -> None:
    state, _ = play_random({"variant": "2"}, 3, 5)
    data = json.loads(json.dumps(GAME.state_to_dict(state)))
    assert GAME.state_from_dict(data) == state
    bad = dict(data, owners=["0x1", "0x1", "0x0"])
    with pytest.raises(StateFormatError):
        GAME.state_from_dict(bad)
    with pytest.raises(StateFormatError, match="phase"):
        GAME.state_from_dict(dict(data, phase=9))
    with pytest.raises(StateFormatError, match="configuration"):
        GAME.state_from_dict(dict(data, config={"players": 2, "options": {"variant": "9"}}))


def test_views_are_public_json_and_renders_are_readable() -> None:
    state = position({"variant": "4"}, drawn={0: "e6"}, card="##x2:T:r", numbers=(0,))
    view = GAME.view(state, 1)
    text = json.dumps(view)
    assert "rng" not in text and view["card"] == "##x2:T:r" and view["drawn"][0] == ["e6"]
    plain = GAME.render(state, None)
    assert " 1 " in plain and "next number: 2" in plain and "\x1b[" not in plain
    assert "\x1b[" in GAME.render(state, None, color=True)


def test_notation_inputs_resolve_to_canonical_actions() -> None:
    state = position({"variant": "1"}, card="##/#.x1:-:r")
    a = GAME.parse_action("c5 d5 c6", state)
    assert a == Place(GAME.parse_action("##/#.@c5", state).shape, 2, 4)
    assert GAME.parse_action("c5", state) == a
    assert GAME.format_action(GAME.parse_action("c5/r1", state), state) == "##/.#@c5"
    assert GAME.parse_action("line:d:a1") == Claim(2, 0, 0)
    assert GAME.parse_action("area:3") == ChooseArea(2)
    assert GAME.parse_action("##/#.x2:TR:r") == parse_card("##/#.x2:TR:r")
    for bad in ("", "c5 c5", "z", "T:5", "L:c", "line:q:a1", "#.#@a1", "c5 e7"):
        with pytest.raises(IllegalActionError):
            GAME.apply(state, GAME.parse_action(bad, state))


def test_every_action_kind_has_an_id_that_round_trips() -> None:
    state = position({"variant": "2"}, card="#x1:-:f", area=0)
    for action in [parse_card("#####x3:TRBL:r"), Place(90, 39, 39), Claim(3, 39, 39), ChooseArea(1599)]:
        i = GAME.action_id(action, state)
        assert 0 <= i < GAME.num_distinct_actions(state.config)
        assert GAME.action_from_id(i, state) == action
    with pytest.raises(IllegalActionError):
        GAME.action_from_id(-1, state)


def test_wrong_kind_of_action_is_refused_with_a_reason() -> None:
    state = GAME.new_game({"variant": "2"})
    with pytest.raises(IllegalActionError, match="choose the next area"):
        GAME.apply(state, Place(0, 0, 0))
    state = GAME.apply_text(state, "area:A")
    with pytest.raises(IllegalActionError, match="chance"):
        GAME.apply(state, Place(0, 0, 0), 0)
    with pytest.raises(IllegalActionError, match="never deals"):
        GAME.apply(GAME.new_game({"size_weights": "1,0,0,0,0"}), parse_card("##x1:-:f"), CHANCE)


def test_describe_action_is_a_sentence() -> None:
    state = position({"variant": "1"}, card="##x1:T:f")
    assert GAME.describe_action(GAME.parse_action("T:a", state), state).startswith("Player 1 draws ## on ")
    assert "enter from top" in GAME.describe_action(parse_card("##x1:T:f"), state)


@pytest.mark.parametrize("variant", ["1", "2", "3", "4"])
def test_greedy_plays_every_variant_to_the_end(variant: str) -> None:
    bot = make_bot("greedy", "formfinity")
    rng = Rng(1)
    state = GAME.new_game({"variant": variant}, seed=2)
    steps = 0
    while not GAME.is_terminal(state) and steps < 400:
        if GAME.current_player(state) == CHANCE:
            state = GAME.apply_chance(state)
        else:
            state = GAME.apply(state, bot.choose(GAME, state, GAME.current_player(state), rng))
        steps += 1
    assert GAME.is_terminal(state) or variant in ("1", "4")


def test_greedy_prefers_completing_a_line() -> None:
    state = position({"variant": "1"}, drawn={1: "a2 b2 c2 d2 e2 f2 g2"}, card="#x1:-:f")
    best = make_bot("greedy", "formfinity").choose(GAME, state, 0, Rng(0))
    assert GAME.format_action(best, state) == "#@h2"


def test_greedy_v3_races_towards_the_other_black_square() -> None:
    # Sealing f12 (f13, e12, g12) is illegal: it would leave player 2 no way. The greedy heads up.
    state = position({"variant": "3"}, drawn={0: "f11"}, card="#x1:-:f")
    best = make_bot("greedy", "formfinity").choose(GAME, state, 0, Rng(0))
    assert GAME.format_action(best, state) == "#@f10"


def test_companion_deal_matches_the_digital_deal() -> None:
    import typer

    from polytable.cli.cmd_formfinity import register

    app = typer.Typer()
    register(app)
    result = CliRunner().invoke(app, ["deal", "formfinity", "--seed", "5", "--count", "3", "--ascii"])
    assert result.exit_code == 0, result.output
    assert result.output.count("Card ") == 3 and "round 2, Player 1" in result.output
    state = GAME.new_game({}, seed=5)
    first = GAME.chance_outcome(state).notation()
    assert f"notation: {first}" in result.output
    # Without --count and with input ending, it deals one card per line of input, q quits.
    result = CliRunner().invoke(app, ["deal", "formfinity", "--seed", "5"], input="\n\nq\n")
    assert result.exit_code == 0 and result.output.count("Card ") == 3
    bad = CliRunner().invoke(app, ["deal", "formfinity", "--option", "size_weights=1"])
    assert bad.exit_code == 2


def test_printables_write_pdfs(tmp_path: pathlib.Path) -> None:
    from polytable.printables.formfinity import PRINTABLES

    for variant in ("1", "2", "3", "4", "blank"):
        out = tmp_path / f"t{variant}.pdf"
        PRINTABLES["formfinity"](str(out), "a4", {"variant": variant})
        assert out.read_bytes().startswith(b"%PDF")
    tpl = tmp_path / "mine.txt"
    tpl.write_text(". . 1\n2 # .\n", encoding="utf-8")
    PRINTABLES["formfinity"](str(tmp_path / "mine.pdf"), "letter", {"variant": str(tpl)})
    variant_file = tmp_path / "race.toml"
    variant_file.write_text('name = "Race"\ntemplate = "3"\n[goal]\ntype = "connection"\n', encoding="utf-8")
    PRINTABLES["formfinity"](str(tmp_path / "race.pdf"), "a4", {"variant": str(variant_file)})
    assert (tmp_path / "race.pdf").stat().st_size > 1000
    PRINTABLES["formfinity-cards"](str(tmp_path / "cards.pdf"), "a4", {"count": "14", "seed": "3"})
    assert (tmp_path / "cards.pdf").read_bytes().startswith(b"%PDF")
    with pytest.raises(ValueError):
        PRINTABLES["formfinity"](str(tmp_path / "x.pdf"), "a4", {"variant": "@nope.txt"})


def test_chance_outcomes_are_a_distribution_and_determinize_hides_the_future() -> None:
    state = GAME.new_game({"deck": '{"cards": ["#x1:-:f", "#x1:-:f", "##x2:TB:r"]}'}, seed=4)
    outcomes = GAME.chance_outcomes(state)
    assert [(c.notation(), p) for c, p in outcomes] == [("#x1:-:f", 2 / 3), ("##x2:TB:r", 1 / 3)]
    gen = GAME.new_game({"size_weights": "1,1,0,0,0", "arrow_weights": "1,0,0,0,0"}, seed=4)
    probs = GAME.chance_outcomes(gen)
    assert len(probs) == 3 * 3 * 2 and abs(sum(p for _, p in probs) - 1.0) < 1e-12
    other = GAME.determinize(gen, 0, Rng(9))
    assert other.rng != gen.rng and other.owners == gen.owners
