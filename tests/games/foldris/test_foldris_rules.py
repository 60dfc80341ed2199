"""Scenario tests: one or more per rule of the rulebook and per CLARIFICATIONS choice."""

from __future__ import annotations

from dataclasses import replace

import pytest

from polytable.core import CHANCE, SIMULTANEOUS, TERMINAL, IllegalActionError
from polytable.games.foldris import DEFAULT_DECK, SAMPLE_DECK_CUSTOM, SOLO_TITLES, Drop, Reveal, parse_deck, solo_title

from ._helpers import GAME, drop, make_sheet, make_state, picture

EMPTY = make_sheet()


def test_default_deck_is_24_tetromino_cards_with_all_lanes() -> None:
    deck = parse_deck(None)
    assert len(deck.cards) == 24
    counts = {n: sum(1 for c in deck.cards if c[0] == n) for n in "IOTSZJL"}
    assert counts == {"I": 4, "O": 4, "T": 4, "S": 3, "Z": 3, "J": 3, "L": 3}
    assert {lane for _, lane in deck.cards} == set(range(1, 8))
    assert all(len(deck.shape(n)) == 4 for n in counts)
    assert len(set(deck.cards)) == 24  # every (block, lane) pair is a distinct card
    assert parse_deck(DEFAULT_DECK) == deck


def test_start_card_gives_successive_lanes_wrapping_after_7() -> None:
    state = replace(GAME.new_game(seed=1, players=3), starter=0)
    assert GAME.current_player(state) == CHANCE
    state = GAME.apply(state, Reveal("O", 6), CHANCE)
    assert state.start_lane == 6
    assert picture(state.sheets[0]).endswith(".....##.\n.....##.")  # lane 6 = columns 6-7
    assert picture(state.sheets[1]).endswith("......##\n......##")  # lane 7 = columns 7-8
    assert picture(state.sheets[2]).endswith("##......\n##......")  # lane 1 = columns 1-2
    assert GAME.current_player(state) == CHANCE  # the start card is not a round: a block card comes next
    assert len(state.deck) == 23
    assert all(s.bonus == 2 for s in state.sheets)  # bonus storage starts with 2 circles


def test_start_lanes_count_from_the_starting_player_to_their_left() -> None:
    # "the starting player fills in 4 squares on lane 6, the player to their left ... lane 7, the player
    # after that on lane 1": here the third seat starts, so the first seat is two to their left.
    state = replace(GAME.new_game(seed=1, players=3), starter=2)
    state = GAME.apply(state, Reveal("O", 6), CHANCE)
    assert picture(state.sheets[2]).endswith(".....##.\n.....##.")  # the starting player: lane 6
    assert picture(state.sheets[0]).endswith("......##\n......##")  # to their left: lane 7
    assert picture(state.sheets[1]).endswith("##......\n##......")  # then lane 1


def test_the_starting_player_is_drawn_at_random_from_the_seed() -> None:
    starters = [GAME.new_game(seed=s, players=4).starter for s in range(200)]
    assert set(starters) == {0, 1, 2, 3}  # every seat starts in some games
    assert all(n > 30 for n in (starters.count(p) for p in range(4)))  # about 50 each
    assert starters == [GAME.new_game(seed=s, players=4).starter for s in range(200)]  # the seed decides
    assert {GAME.new_game(seed=s, players=1).starter for s in range(50)} == {0}  # solo: trivially player 1
    # The draw uses its own stream of the seed: the deck order is the same whoever starts.
    for seed in range(20):
        firsts = {GAME.chance_outcome(GAME.new_game(seed=seed, players=n)) for n in (1, 2, 3, 4, 7)}
        assert len(firsts) == 1


def test_block_falls_straight_and_cannot_pass_an_occupied_square() -> None:
    sheet = make_sheet(
        """
        ........
        #.......
        ........
        ........
        """
    )
    state = drop(make_state([sheet, sheet], card=("I", 1)), "I r1 c1")
    # Player 1's choice is pending; resolve with player 2.
    state = drop(state, "I r1 c2", 1)
    rows = picture(state.sheets[0]).splitlines()
    assert rows[-3] == "#......."  # the original square, still with empty squares under it
    assert rows[-7:-3] == ["#......."] * 4  # the I came to rest on top of it
    assert rows[-1] == "........"


def test_completed_line_folds_away_with_a_hole_above_moving_down_rigidly() -> None:
    sheet = make_sheet(
        """
        #.#.....
        ####.###
        """
    )
    state = make_state([sheet, sheet], card=("I", 4))
    state = drop(state, "I r1 c5", 0)
    state = drop(state, "I r0 c5", 1)
    s = state.sheets[0]
    assert s.lines == 1 and s.height == 11 and s.bonus == 3
    assert picture(s).splitlines()[-3:] == ["....#...", "....#...", "#.#.#..."]  # hole in column 2 kept
    assert state.sheets[1].lines == 0 and state.sheets[1].height == 12


def test_two_lines_at_once_fold_and_score_two() -> None:
    sheet = make_sheet(
        """
        ###.####
        ###.####
        """
    )
    state = make_state([sheet], card=("I", 4))
    state = drop(state, "I r1 c4")
    s = state.sheets[0]
    assert (s.lines, s.height, s.bonus) == (2, 10, 4)
    assert s.ink == 1 << 3 | 1 << 11  # the top two squares of the I, now on rows 1-2


def test_barrier_falls_in_the_cards_lane_for_players_who_scored_nothing() -> None:
    scorer = make_sheet("####.###")
    other = make_sheet("........")
    state = make_state([scorer, other, other], card=("I", 3))
    state = drop(state, "I r1 c5", 0)
    state = drop(state, "I r1 c8", 1)
    state = drop(state, "I r0 c1", 2)
    assert state.sheets[0].barrier == 0  # scored: no barrier
    # Player 2: lane 3 is barrier-free, so the barrier falls to the bottom of columns 3-4.
    assert picture(state.sheets[1]).splitlines()[-1] == "..==...#"
    # Player 3: the I lies on row 1 under lane 3, so the barrier rests on it.
    assert picture(state.sheets[2]).splitlines()[-2:] == ["..==....", "####...."]
    assert GAME.current_player(state) == CHANCE


def test_no_barrier_when_nobody_completes_a_line() -> None:
    state = make_state([EMPTY, EMPTY], card=("O", 5))
    state = drop(state, "O r0 c1", 0)
    state = drop(state, "O r0 c3", 1)
    assert all(s.barrier == 0 for s in state.sheets)


def test_barrier_rests_on_the_higher_column_of_its_lane() -> None:
    scorer = make_sheet("####.###")
    other = make_sheet(
        """
        ...#....
        ...#....
        """
    )
    state = make_state([scorer, other], card=("I", 3))
    state = drop(state, "I r1 c5", 0)
    state = drop(state, "I r0 c5", 1)
    assert picture(state.sheets[1]).splitlines()[-3:] == ["..==....", "...#....", "...#####"]


def test_barrier_blocks_one_round_then_lifts_and_its_squares_stay_empty() -> None:
    sheet = make_sheet(
        """
        ==......
        ........
        """
    )
    state = make_state([sheet], card=("O", 1), deck_left=[("I", 1), ("T", 2)])
    # The O dropped in lane 1 rests on the barrier.
    state = drop(state, "O r0 c1")
    s = state.sheets[0]
    assert picture(s).splitlines()[-4:] == ["##......", "##......", "........", "........"]
    # The old barrier is gone (its squares stay empty under the O); the new one fell in lane 1 on the O.
    assert picture(s).splitlines()[-5] == "==......"
    state = GAME.apply(state, Reveal("T", 2), CHANCE)
    state = drop(state, "T r2 c1")  # solo: the barrier of this round is lifted after it
    assert s.barrier != state.sheets[0].barrier


def test_barrier_squares_never_complete_a_line_and_cannot_be_drawn_over() -> None:
    sheet = make_sheet(
        """
        ........
        ###==###
        ##....##
        """
    )
    state = make_state([sheet, EMPTY], card=("O", 1))
    # The barrier row has 6 inked squares: not complete; the O cannot enter the barrier squares.
    legal = {GAME.format_action(a) for a in GAME.legal_actions(state, 0)}
    assert "O r0 c4" in legal
    state = drop(drop(state, "O r0 c4"), "O r0 c1", 1)
    s = state.sheets[0]
    assert s.lines == 0
    assert picture(s).splitlines()[-4:] == ["...##...", "...##...", "###..###", "##....##"]


def test_barrier_that_does_not_fit_is_not_placed_and_does_not_eliminate() -> None:
    full_lane = make_sheet(
        """
        .#......
        .#......
        .#......
        .#......
        """,
        height=4,
    )
    scorer = make_sheet("####.###")
    state = make_state([scorer, full_lane], card=("I", 1), options={"height": 12})
    state = drop(state, "I r1 c5", 0)
    state = drop(state, "I r0 c4", 1)
    assert state.sheets[1].barrier == 0 and state.sheets[1].out == 0


def test_a_player_who_cannot_draw_the_block_is_eliminated_and_the_last_survivor_wins() -> None:
    tall = make_sheet(
        """
        #.#.#.#.
        #.#.#.#.
        #.#.#.#.
        """,
        height=3,
        bonus=0,
    )
    state = make_state([EMPTY, tall], card=("S", 1))
    assert GAME.legal_actions(state, 1).count() == 0
    state = make_state([EMPTY, tall], card=None, deck_left=[("S", 6)])
    state = GAME.apply(state, Reveal("S", 6), CHANCE)
    assert state.sheets[1].out == 2
    assert GAME.current_player(state) == TERMINAL
    assert GAME.winners(state) == (0,)
    assert GAME.returns(state) == (1.0, -1.0)


def test_elimination_takes_affordable_effects_into_account() -> None:
    # Only a trimmed block (3 squares, one column wide) fits: with 2 points the player survives.
    narrow = make_sheet(
        """
        ........
        ........
        ........
        ##.#####
        """,
        height=4,
    )
    state = make_state([narrow, EMPTY], card=("I", 2))
    assert GAME.legal_actions(state, 0).count() > 0
    poor = make_sheet(
        """
        #.######
        #.######
        #.######
        #.######
        """,
        height=4,
        bonus=1,
    )
    state = make_state([poor, EMPTY], card=("T", 2))
    assert list(GAME.legal_actions(state, 0)) == []  # a T fits only as a trimmed I3, which costs 2
    rich = make_state([make_sheet(picture(poor), height=4, bonus=2), EMPTY], card=("T", 2))
    assert [GAME.format_action(a) for a in GAME.legal_actions(rich, 0)] == ["T t4 r1 c2"]
    state = make_state([poor, EMPTY], card=None, deck_left=[("T", 2), ("O", 5)])
    state = GAME.apply(state, Reveal("T", 2), CHANCE)
    assert state.sheets[0].out == 2 and GAME.is_terminal(state) and GAME.winners(state) == (1,)


def test_simultaneous_elimination_is_decided_by_lines_then_unused_bonus() -> None:
    def stuck(lines: int, bonus: int) -> object:
        return make_sheet("#.#.#.#.\n#.#.#.#.", height=2, lines=lines, bonus=bonus)

    for sheets, winners in (
        ([stuck(3, 0), stuck(2, 9), make_sheet(out=1)], (0,)),
        ([stuck(3, 1), stuck(3, 4), make_sheet(out=1)], (1,)),
        ([stuck(3, 2), stuck(3, 2), make_sheet(out=1)], (0, 1)),
    ):
        state = make_state(sheets, card=None, deck_left=[("O", 5)])  # type: ignore[arg-type]
        state = GAME.apply(state, Reveal("O", 5), CHANCE)
        assert GAME.is_terminal(state)
        assert [s.out for s in state.sheets] == [2, 2, 1]
        assert GAME.winners(state) == winners


def test_deck_running_out_ends_the_game_with_the_tie_break() -> None:
    a = make_sheet(lines=2, bonus=1)
    b = make_sheet(lines=2, bonus=3)
    state = make_state([a, b], card=("O", 5), deck_left=[])
    state = drop(state, "O r0 c1", 0)
    state = drop(state, "O r0 c1", 1)
    assert GAME.is_terminal(state)
    assert GAME.winners(state) == (1,)


def test_solo_always_gets_the_barrier_and_trimming_costs_one() -> None:
    sheet = make_sheet("####.###")
    state = make_state([sheet], card=("T", 5))
    state = drop(state, "T t4 r0 c1")  # trim the stem: a straight 3-square block
    s = state.sheets[0]
    assert s.bonus == 1  # 2 - 1 for the solo trim
    state = make_state([sheet], card=("I", 4))
    state = drop(state, "I r1 c5")
    assert state.sheets[0].lines == 1 and state.sheets[0].barrier != 0  # barrier even after a line


def test_effect_costs_in_a_multiplayer_game() -> None:
    # With tetrominoes mirror + trim is never needed (every tromino is symmetric); a pentomino deck shows it.
    deck = {"deck": SAMPLE_DECK_CUSTOM}
    state = make_state([make_sheet(bonus=3), EMPTY], card=("P", 3), options=deck)
    after = drop(drop(state, "P m t2 r0 c1", 0), "P r0 c1", 1)
    assert after.sheets[0].bonus == 0  # mirror 1 + trim 2
    with pytest.raises(IllegalActionError, match="costs 3 bonus points and you have 2"):
        drop(make_state([EMPTY, EMPTY], card=("P", 3), options=deck), "P m t2 r0 c1")
    poor = make_state([make_sheet(bonus=1), EMPTY], card=("L", 1))
    with pytest.raises(IllegalActionError, match="costs 2 bonus points and you have 1"):
        drop(poor, "L t1 r0 c1")
    drop(poor, "L m r0 c1")  # a mirror is affordable


def test_trim_can_never_split_the_block() -> None:
    state = make_state([EMPTY, EMPTY], card=("T", 3))
    with pytest.raises(IllegalActionError, match="split"):
        drop(state, "T t2 r0 c1")  # the T's middle square
    state = make_state([EMPTY, EMPTY], card=("I", 1))
    for square in (2, 3):
        with pytest.raises(IllegalActionError, match="split"):
            drop(state, f"I t{square} r0 c1")


def test_each_effect_at_most_once_a_round() -> None:
    state = make_state([EMPTY, EMPTY], card=("S", 6))
    with pytest.raises(IllegalActionError, match="twice"):
        GAME.parse_action("S m m r0 c1", state)
    with pytest.raises(IllegalActionError, match="twice"):
        GAME.parse_action("S t1 t4 r0 c1", state)


def test_equivalent_actions_map_to_the_cheapest_canonical_one() -> None:
    state = make_state([EMPTY, EMPTY], card=("O", 5))
    # Typed with the state, an equivalent form reads as the canonical action...
    assert GAME.parse_action("O r2 c3", state) == Drop("O", 0, 0, 0, 2)
    # ...but the non-canonical value itself (from an id, say) is refused with the canonical form named.
    with pytest.raises(IllegalActionError, match="'O r0 c3'"):
        GAME.apply(state, Drop("O", 0, 0, 2, 2), 0)
    state = make_state([EMPTY, EMPTY], card=("T", 3))
    assert GAME.parse_action("T m r0 c1", state) == Drop("T", 0, 0, 0, 0)  # a mirrored T is free
    with pytest.raises(IllegalActionError, match="'T r0 c1'"):
        GAME.apply(state, Drop("T", 1, 0, 0, 0), 0)
    assert GAME.parse_action("T m r0 c1") == Drop("T", 1, 0, 0, 0)  # without a state: as written


def test_block_must_stay_inside_the_sheet() -> None:
    state = make_state([EMPTY, EMPTY], card=("I", 3))
    with pytest.raises(IllegalActionError, match="stick out on the right"):
        drop(state, "I r0 c6")
    low = make_sheet("#.......\n#.......", height=4)
    state = make_state([low, EMPTY], card=("I", 3))
    with pytest.raises(IllegalActionError, match="above the top"):
        drop(state, "I r1 c1")


def test_solo_titles_follow_the_table() -> None:
    assert SOLO_TITLES[0] == (12, "Foldris world champion")
    expect = {12: "champion", 11: "genius", 10: "pro", 9: "maniac", 8: "maniac", 7: "enthusiast", 6: "enthusiast"}
    for lines, word in expect.items():
        assert word in solo_title(lines)
    assert solo_title(3) == solo_title(5) == "Foldris amateur"
    assert solo_title(2) == ""


def test_solo_ends_on_empty_deck_with_a_title() -> None:
    sheet = make_sheet("####.###", lines=7, height=5)
    state = make_state([sheet], card=("I", 4), deck_left=[])
    state = drop(state, "I r1 c5")
    assert GAME.is_terminal(state)
    assert GAME.scores(state) == (8.0,)
    assert GAME.winners(state) == (0,)
    assert GAME.returns(state) == (8 / 12,)
    assert "Foldris maniac" in GAME.render(state)


def test_solo_elimination_ends_the_game_and_under_3_lines_there_is_no_title() -> None:
    stuck = make_sheet("#.#.#.#.\n#.#.#.#.", height=2, lines=2, bonus=0)
    state = make_state([stuck], card=None, deck_left=[("O", 5), ("I", 1)])
    state = GAME.apply(state, Reveal("O", 5), CHANCE)
    assert GAME.is_terminal(state) and state.sheets[0].out == 2
    assert GAME.winners(state) == () and GAME.returns(state) == (2 / 12,)
    assert "No title" in GAME.render(state)
    assert GAME.view(state, 0)["title"] == ""
    assert GAME.view(state, 0)["title_lines"] == 3  # the board tells the lines the first title needs from this


def test_rounds_are_simultaneous_and_pending_choices_stay_hidden() -> None:
    state = make_state([EMPTY, EMPTY, EMPTY], card=("T", 3))
    assert GAME.current_player(state) == SIMULTANEOUS
    assert GAME.acting_players(state) == (0, 1, 2)
    after = drop(state, "T r1 c2", 1)
    assert GAME.acting_players(after) == (0, 2)
    for viewer in (None, 0, 2):
        view = GAME.view(after, viewer)
        assert "T r1 c2" not in str(view)
        assert view["players"][1]["chosen"] is True
    assert GAME.view(after, 1)["players"][1]["choice"] == "T r1 c2"
    assert "T r1 c2" not in GAME.render(after, 0)
    assert "T r1 c2" in GAME.render(after, 1)
    with pytest.raises(IllegalActionError, match="already chosen"):
        drop(after, "T r0 c1", 1)
    assert after.sheets == state.sheets  # nothing is drawn until everyone has chosen


def test_eliminated_players_do_not_act() -> None:
    state = make_state([EMPTY, make_sheet(out=1), EMPTY], card=("T", 3))
    assert GAME.acting_players(state) == (0, 2)
    with pytest.raises(IllegalActionError):
        drop(state, "T r0 c1", 1)


def test_drops_resolve_every_placement_as_the_rules_do() -> None:
    # The searches' one drop-and-fold loop: the same (variant, column) pairs as the legal placements, in the
    # same order, each landing where rest_row puts it and folding as the rules fold.
    from polytable.core import Rng
    from polytable.games.foldris import WIDTH, drops, heights, placements, tables_of

    from ._helpers import rules_drop

    rng = Rng(5)
    tables = tables_of(GAME.new_game(players=1, seed=0).config)
    checked = 0
    for _ in range(40):
        height = 4 + rng.below(8)
        ink = 0
        for c in range(WIDTH):
            for r in range(rng.below(height)):
                if rng.below(4):
                    ink |= 1 << (WIDTH * r + c)
        for table in tables[:6]:
            budget = rng.below(3)
            hts = heights(ink)
            got = [(i, col, y, new, n) for i, _, col, y, new, n in drops(table, ink, hts, height, budget)]
            want = [
                (i, col, *rules_drop(table.variants[i], ink, hts, col))
                for i, col in placements(table, hts, height, budget)
            ]
            assert got == want
            checked += len(got)
    assert checked > 1000
