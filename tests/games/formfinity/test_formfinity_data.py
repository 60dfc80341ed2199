"""Cards, the generator, deck files, templates and variant files: formats, round trips and errors."""

from __future__ import annotations

import pathlib

import pytest

from polytable.core import ConfigError
from polytable.games.formfinity import (
    NUM_CARDS,
    NUM_SHAPES,
    ROTATIONS,
    SHAPES,
    TEMPLATES,
    Card,
    CardGenerator,
    TemplateError,
    card_art,
    parse_card,
    parse_deck,
    parse_template,
    parse_variant_file,
    template_text,
)

from ._helpers import GAME

TEMPLATE_DIR = pathlib.Path(__file__).parents[3] / "src/polytable/games/formfinity/templates"


def test_every_card_round_trips_through_notation_and_id() -> None:
    assert NUM_SHAPES == 91 and NUM_CARDS == 91 * 3 * 16 * 2
    for i in range(NUM_CARDS):
        card = Card.from_id(i)
        assert card.id == i
        assert parse_card(card.notation()) == card


def test_rotations_are_distinct_quarter_turns() -> None:
    assert len(ROTATIONS[SHAPES.index(((0, 0),))]) == 1
    square = SHAPES.index(((0, 0), (1, 0), (0, 1), (1, 1)))
    assert len(ROTATIONS[square]) == 1
    assert all(len(set(r)) == len(r) and len(r) in (1, 2, 4) for r in ROTATIONS)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("##x4:T:r", "1, 2 or 3"),
        ("##x1:Q:r", "not an edge"),
        ("#.#x1:T:r", "not one piece"),
        ("######x1:T:r", "1 to 5"),
        ("##x1:T:z", "rotation mark"),
        ("##", "not a card"),
    ],
)
def test_bad_cards_are_explained(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_card(text)


def test_generator_is_seeded_and_follows_its_weights() -> None:
    gen = CardGenerator.from_options("0,0,1,0,0", "0,0,1", "1,0,0,0,0", 100)
    state = 7
    for _ in range(200):
        card, state = gen.draw(state)
        assert card.size == 3 and card.count == 3 and card.edges == 0 and card.rotate
    default = CardGenerator()
    a = [default.draw(s)[0] for s in range(300)]
    assert a == [default.draw(s)[0] for s in range(300)]
    sizes = [c.size for c in a]
    assert sizes.count(5) < sizes.count(2)  # 5-square elements are rare
    assert abs(sum(p for p in (default.probability(Card.from_id(i)) for i in range(NUM_CARDS))) - 1.0) < 1e-9
    with pytest.raises(ConfigError, match="size_weights"):
        CardGenerator.from_options("1,1", "1,1,1", "1,1,1,1,1", 50)


DECK_JSON = (
    '{"cards": ["#x1:-:f", {"shape": "##/#.", "count": 2, "arrows": ["top", "left"], "rotate": true, "copies": 3}]}'
)
DECK_TOML = '''
cards = ["#x1:-:f"]

[[card]]
shape = """
##
#.
"""
count = 2
arrows = "TL"
rotate = true
copies = 3
'''


def test_deck_files_in_json_and_toml_say_the_same() -> None:
    assert parse_deck(DECK_JSON) == parse_deck(DECK_TOML)
    deck = parse_deck(DECK_JSON)
    assert len(deck) == 4 and deck[1].notation() == "##/#.x2:TL:r"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("{", "not valid JSON"),
        ("cards = [", "not valid TOML"),
        ('{"cards": []}', "no cards"),
        ('{"cards": [{"shape": "##", "count": 5}]}', "deck card 1: count"),
        ('{"cards": ["#x1:-:f", {"shape": "#", "colour": 1}]}', "deck card 2: unknown keys colour"),
        ('{"deck": []}', "unknown keys"),
    ],
)
def test_bad_deck_files_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_deck(text)


def test_a_deck_replaces_the_generator_and_reshuffles_when_empty() -> None:
    state = GAME.new_game({"deck": '{"cards": ["#x1:-:f", "##x1:-:f"]}', "deck_shuffle": False})
    seen = []
    for _ in range(5):
        while GAME.current_player(state) != -1:
            state = GAME.apply(state, next(iter(GAME.legal_actions(state))))
        card = GAME.chance_outcome(state)
        assert GAME.chance_outcomes(state) == [(card, 1.0)]
        seen.append(card.notation())
        state = GAME.apply(state, card)
    assert seen == ["#x1:-:f", "##x1:-:f", "#x1:-:f", "##x1:-:f", "#x1:-:f"]


def test_card_art_shows_arrows_count_and_rotation() -> None:
    art = "\n".join(card_art(parse_card("##/#.x2:TL:r"), unicode=False))
    assert " v " in art and ">" in art and "<" not in art and "^" not in art
    assert "x2" in art and "(rotate)" in art
    big = card_art(parse_card("#x1:-:f"), unicode=True, big=True)
    assert any("████" in line for line in big) and "fixed" in big[-1]


def test_shipped_templates_parse_and_match_their_text_files() -> None:
    for name, text in TEMPLATES.items():
        t = parse_template(text)
        assert parse_template(template_text(t)).kinds == t.kinds
        path = TEMPLATE_DIR / f"{'variant' + name if name != 'blank' else 'blank'}.txt"
        assert path.read_text(encoding="utf-8") == text, f"{path.name} differs from the embedded template"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"template": ". . %\n"}, "line 1, column 5: '%' is not a template square"),
        ({"template": ". . .\n\n; c\n. 0 .\n"}, "line 4, column 3: numbers start at 1"),
        ({"template": "-  -\n- -\n"}, "no free square"),
        ({"variant": "2", "template": "A A\nB .\n"}, "line 2, column 3: in this variant every free square belongs"),
        ({"variant": "2", "template": "A B A\n"}, "line 1, column 5: this square of area A does not touch"),
        ({"variant": "2", "template": ". . .\n"}, "needs areas"),
        ({"variant": "1", "template": ". . 3 . . . . . .\n"}, "line 1, column 5: the number 3"),
        ({"variant": "1", "template": "A A A A A A A A\n"}, "line 1, column 1: area names"),
        ({"variant": "1", "template": ". . . .\n"}, "no line of 8"),
        ({"variant": "3", "template": "* . .\n. . *\n. * .\n"}, "line 3, column 3: this variant needs exactly two"),
        ({"variant": "3", "template": "* . *\n"}, "line 1, column 5: the two start squares"),
        ({"variant": "1", "template": "* . . . . . . . .\n"}, "line 1, column 1: start squares"),
        ({"variant": "4", "template": "1 . 3\n"}, "line 1, column 5: the numbers must run 1, 2, 3"),
        ({"variant": "4", "template": "1 . 1\n"}, "line 1, column 5: the number 1 is already at line 1, column 1"),
    ],
)
def test_bad_templates_name_line_and_column(options: dict[str, object], message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        GAME.new_game(options)


def test_template_format_features() -> None:
    t = parse_template("; comment\n. # - *\n\nA Bb 12 .  ; trailing comment\n. .\n")
    assert (t.width, t.height) == (4, 3)
    assert t.kinds[0] == ("free", "black", "outside", "star")
    assert t.kinds[2] == ("free", "free", "outside", "outside")  # short rows end with outside squares
    assert dict(t.areas) == {"A": ((0, 1),), "Bb": ((1, 1),)} and t.numbers == ((12, (2, 1)),)
    assert t.at((2, 1)) == "line 4, column 6"


RACE = """
name = "Corner race"
template = "3"
players = 2
arrows = false
rotation = "always"
[goal]
type = "connection"
corner_touch = true
"""


def test_variant_files() -> None:
    rules = parse_variant_file(RACE)
    assert (rules.goal, rules.arrows, rules.rotation, rules.corner_touch) == ("connection", False, "always", True)
    state = GAME.new_game({"variant": "custom", "variant_file": RACE})
    assert GAME.view(state, None)["variant"] == "Corner race"
    with pytest.raises(ConfigError, match="exactly 2 players"):
        parse_variant_file('players = 3\n[goal]\ntype = "connection"\n')
    with pytest.raises(ConfigError, match="goal type must be one of"):
        parse_variant_file('[goal]\ntype = "points"\n')
    with pytest.raises(ConfigError, match="unknown keys colour"):
        parse_variant_file('colour = 1\n[goal]\ntype = "areas"\n')
    with pytest.raises(ConfigError, match="length is not a parameter of the areas goal"):
        parse_variant_file('[goal]\ntype = "areas"\nlength = 3\n')
    with pytest.raises(ConfigError, match="needs a variant file"):
        GAME.new_game({"variant": "custom"})
    with pytest.raises(ConfigError, match="played by 2 to 3 players, not 4"):
        GAME.new_game({"variant_file": 'players = [2, 3]\n[goal]\ntype = "lines"\nlength = 4\n'}, players=4)
    with pytest.raises(ConfigError, match="played by 2 players, not 3"):
        GAME.new_game({"variant": "3"}, players=3)


def test_rotation_never_and_always_override_the_card() -> None:
    base = 'template = "blank"\n[goal]\ntype = "lines"\n'
    never = GAME.new_game({"variant_file": 'rotation = "never"\n' + base})
    always = GAME.new_game({"variant_file": 'rotation = "always"\n' + base})
    from polytable.games.formfinity import setup_for

    card = parse_card("##/#.x1:-:r")
    assert setup_for(never.config).rotation(card) == (card.shape,)
    assert len(setup_for(always.config).rotation(parse_card("##/#.x1:-:f"))) == 4


def _doc_examples() -> list[str]:
    doc = (pathlib.Path(__file__).parents[3] / "docs/games/formfinity.md").read_text(encoding="utf-8")
    blocks = [b.split("```")[0] for b in doc.split("```toml\n")[1:]]
    return [b for b in blocks if "[goal]" in b]


def test_the_documented_variant_files_parse_and_play() -> None:
    from ._helpers import play_random

    examples = _doc_examples()
    assert len(examples) == 2
    for i, text in enumerate(examples):
        rules = parse_variant_file(text)
        state, log = play_random({"variant": "custom", "variant_file": text}, rules.max_players, 3 + i)
        assert GAME.is_terminal(state) and log
