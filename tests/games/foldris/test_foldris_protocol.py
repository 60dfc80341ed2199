"""Notation, ids, options, deck files, serialisation, views, chance and rendering."""

from __future__ import annotations

import json

import pytest

from polytable.core import CHANCE, ConfigError, IllegalActionError, Rng, StateFormatError
from polytable.games.foldris import SAMPLE_DECK_CUSTOM, Drop, Reveal, parse_deck

from ._helpers import GAME, drop, make_sheet, make_state


def test_notation_reads_the_issue_examples_and_round_trips() -> None:
    assert GAME.parse_action("T r1 c3") == Drop("T", 0, 0, 1, 2)
    assert GAME.parse_action("L m t2 r0 c5") == Drop("L", 1, 2, 0, 4)
    assert GAME.format_action(Drop("L", 1, 2, 0, 4)) == "L m t2 r0 c5"
    assert GAME.parse_action("reveal S 6") == Reveal("S", 6)
    assert GAME.format_action(Reveal("S", 6)) == "reveal S 6"
    # Any order, any case, r0 may be left out, the name may be left out when the state is known.
    assert GAME.parse_action("l c5 M") == GAME.parse_action("L m r0 c5")
    state = make_state([make_sheet(), make_sheet()], card=("J", 5))
    assert GAME.parse_action("r2 c4", state) == Drop("J", 0, 0, 2, 3)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("T r1", "column"),
        ("T r4 c1", "0 to 3"),
        ("T r1 c9", "1 to 8"),
        ("T t0 c1", "numbered from 1"),
        ("T x1 c1", "cannot read"),
        ("r1 c3", "block's name"),
        ("reveal T 9", "lane from 1 to 7"),
    ],
)
def test_malformed_actions_get_a_sentence(text: str, message: str) -> None:
    with pytest.raises(IllegalActionError, match=message):
        GAME.parse_action(text)


def test_wrong_block_and_wrong_phase_are_refused() -> None:
    state = make_state([make_sheet(), make_sheet()], card=("J", 5))
    with pytest.raises(IllegalActionError, match="the card this round is J, not T"):
        drop(state, "T r0 c1")
    with pytest.raises(IllegalActionError, match="chance"):
        GAME.apply(state, Reveal("T", 2), 0)
    between = make_state([make_sheet(), make_sheet()], card=None)
    with pytest.raises(IllegalActionError, match="chance event"):
        GAME.apply(between, Drop("T", 0, 0, 0, 0), 0)
    with pytest.raises(IllegalActionError, match="not in the deck"):
        GAME.apply(between, Reveal("T", 7), CHANCE)
    with pytest.raises(IllegalActionError, match="nothing to drop"):
        GAME.action_from_id(0, between)


def test_action_ids_are_dense_and_round_trip() -> None:
    state = make_state([make_sheet(bonus=9), make_sheet()], card=("L", 2))
    size = GAME.num_distinct_actions(state.config)
    assert size == 2 * 9 * 4 * 8 + 7 * 7
    ids = [GAME.action_id(a, state) for a in GAME.legal_actions(state, 0)]
    assert len(ids) == len(set(ids)) and all(0 <= i < size for i in ids)
    for a in GAME.legal_actions(state, 0):
        assert GAME.action_from_id(GAME.action_id(a, state), state) == a
    assert GAME.action_from_id(GAME.action_id(Reveal("Z", 3)), state) == Reveal("Z", 3)
    with pytest.raises(IllegalActionError, match="out of range"):
        GAME.action_from_id(size, state)


def test_options_height_and_deck() -> None:
    state = GAME.new_game({"height": 8}, seed=0, players=2)
    assert all(s.height == 8 for s in state.sheets)
    with pytest.raises(ConfigError):
        GAME.new_game({"height": 3}, players=2)
    deck = parse_deck(SAMPLE_DECK_CUSTOM)
    assert len(deck.cards) == 12 and deck.shape("P") == ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2))
    assert deck.names[:7] == ("I", "O", "T", "S", "Z", "J", "L")
    state = GAME.new_game({"deck": SAMPLE_DECK_CUSTOM}, seed=0, players=2)
    assert len(state.deck) == 12


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("T 1", "at least 2 cards"),
        ("T 1\nT 8", "line 2: the lane must be from 1 to 7"),
        ("T 1\nQ 2", "line 2: Q is not a standard block"),
        ("T 1\nQ 2 #./.#", "not in one piece"),
        ("T 1\nT 2 ###", "give a new name"),
        ("T 1\nr2 2 ##", "notation"),
        ("T 1\nT x", "number"),
        ("T 1\nW 2 #########", "at most 8 squares"),
    ],
)
def test_deck_file_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_deck(text)


def test_deck_comments_and_custom_shapes_play() -> None:
    text = "# my deck\n\nP 3 ##/##/#.\nP 4\nmono 5 #\nI 1\n"
    state = GAME.new_game({"deck": text}, seed=4, players=1)
    while not GAME.is_terminal(state):
        if GAME.current_player(state) == CHANCE:
            state = GAME.apply_chance(state)
        else:
            state = GAME.apply(state, GAME.legal_actions(state, 0).sample(Rng(1)), 0)
    assert state.round == 3


def test_state_json_round_trip_and_validation() -> None:
    state = make_state([make_sheet("..==....\n###.....", bonus=5), make_sheet(out=1), make_sheet()], card=("T", 3))
    state = drop(state, "T r0 c4", 0)
    data = json.loads(json.dumps(GAME.state_to_dict(state)))
    assert GAME.state_from_dict(data) == state
    for field, value, message in [
        ("game", "chess", "not a Foldris"),
        ("deck", [3, 1], "increasing"),
        ("round", -1, "out of range"),
        ("pending", ["T r0 c9", None, None], "pending choice"),
        ("pending", ["T r0 c4", None, "T r0 c1"], "every player has chosen"),
    ]:
        bad = dict(data, **{field: value})
        with pytest.raises(StateFormatError, match=message):
            GAME.state_from_dict(bad)
    bad_sheet = json.loads(json.dumps(data))
    bad_sheet["sheets"][0]["lines"] = 3
    with pytest.raises(StateFormatError, match="lines plus visible rows"):
        GAME.state_from_dict(bad_sheet)


def test_views_hide_the_generator_and_show_public_deck_counts() -> None:
    state = GAME.apply_chance(GAME.apply_chance(GAME.new_game(seed=9, players=2)))
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        text = json.dumps(view)
        assert str(state.rng) not in text and "rng" not in text
        assert view["deck_left"] == 22 and sum(view["deck_cards_left"].values()) == 22
        assert view["card"]["name"] in "IOTSZJL"


def test_a_views_sheet_rows_are_as_wide_as_it_says() -> None:
    """The board reads a sheet's width from the view: each row's bits are that many squares of the sheet."""
    sheet = make_sheet("#......#\n=##.....\n.......#")
    view = GAME.view(make_state([sheet, make_sheet()]), 0)
    mine = view["players"][0]
    width = mine["width"]
    mask = (1 << width) - 1
    assert [(sheet.ink >> (width * y)) & mask for y in range(3)] == mine["ink"][:3] == [0b10000000, 0b110, 0b10000001]
    assert [(sheet.barrier >> (width * y)) & mask for y in range(3)] == mine["barrier"][:3] == [0, 1, 0]


def test_the_starting_player_is_kept_shown_and_checked() -> None:
    seed = next(s for s in range(100) if GAME.new_game(seed=s, players=3).starter == 2)
    state = GAME.apply_chance(GAME.new_game(seed=seed, players=3))
    data = json.loads(json.dumps(GAME.state_to_dict(state)))
    assert data["starter"] == 2 and GAME.state_from_dict(data) == state
    with pytest.raises(StateFormatError, match="starter"):
        GAME.state_from_dict(dict(data, starter=3))
    assert all(GAME.view(state, v)["starter"] == 2 for v in (None, 0, 1, 2))
    assert f"Starting player: Player 3 (start card lane {state.start_lane})" in GAME.render(state, 0)
    solo = GAME.render(GAME.new_game(seed=seed, players=1))
    assert "Starting player" not in solo  # solo: nobody to pick


def test_chance_draws_from_the_remaining_deck_and_determinize_reseeds() -> None:
    state = GAME.new_game(seed=5, players=2)
    outcomes = GAME.chance_outcomes(state)
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12 and len(outcomes) == 24
    seen = set()
    while state.deck:
        card = GAME.chance_outcome(state)
        assert card in {a for a, _ in GAME.chance_outcomes(state)}
        seen.add(card)
        state = GAME.apply(state, card, CHANCE)
        if GAME.is_terminal(state):
            break
        if GAME.current_player(state) != CHANCE:
            for p in GAME.acting_players(state):
                state = GAME.apply(state, GAME.legal_actions(state, p).sample(Rng(p)), p)
    other = GAME.determinize(GAME.new_game(seed=5, players=2), 0, Rng(77))
    assert other.deck == GAME.new_game(seed=5, players=2).deck and other.rng != GAME.new_game(seed=5, players=2).rng


def test_forcing_a_different_chance_outcome_still_advances_the_generator() -> None:
    state = GAME.new_game(seed=5, players=2)
    natural = GAME.apply(state, GAME.chance_outcome(state), CHANCE)
    forced = GAME.apply(state, Reveal("O", 7), CHANCE)
    assert natural.rng == forced.rng


def test_render_shows_every_sheet_side_by_side() -> None:
    sheets = [make_sheet("..==....\n###.....", bonus=3, lines=2, height=10) for _ in range(5)]
    state = make_state(sheets, card=("Z", 4))
    text = GAME.render(state, 2)
    lines = text.splitlines()
    assert "Player 3 (you)" in text and "Player 5" in text
    header = next(line for line in lines if line.startswith("Player 1"))
    assert "Player 4" in header and "Player 5" not in header  # four sheets to a band
    assert "= =" in text and "# # #" in text and "lane 1 2 3 4 5 6 7" in text
    assert "lines 2" in text and "bonus 3" in text
    assert " ~ ~" in text  # two folded lines
    assert "\x1b[" in GAME.render(state, 2, color=True) and "\x1b[" not in text
