"""The players' set-up (``placement=players``, the default) and touch-move as the default.

The rulebook: "een gekozen aantal grijze hindernisfiches wordt op het spelbord geplaatst: niet langs de
randen en niet grenzend aan elkaar. Ook de witte hindernistoren wordt op een veld gezet." CLARIFICATIONS:
"placed by the starting player or at random".
"""

from __future__ import annotations

import json

import pytest

from polytable.core import CHANCE, IllegalActionError, Rng, StateFormatError
from polytable.games.forma import Fill, Obstacle, Pick, Tower

from .forma_helpers import GAME, names_of


def _new(obstacles: int = 3, players: int = 2, **options: object):
    return GAME.new_game({"obstacles": obstacles, **options}, seed=7, players=players)


def _play(state, *texts: str):
    for text in texts:
        state = GAME.apply_text(state, text)
    return state


def test_the_starting_player_places_obstacles_and_tower_in_any_order_then_moves_first() -> None:
    s = _new(3, players=4)
    assert s.placing == 4 and GAME.current_player(s) == 0
    s = _play(s, "obstacle c3", "tower j10", "obstacle e5")
    assert GAME.current_player(s) == 0 and s.placing == 1
    assert names_of(s, s.obstacles) == {"c3", "e5"} and names_of(s, s.tower) == {"j10"}
    s = _play(s, "obstacle q17")
    assert s.placing == 0 and GAME.current_player(s) == 0  # player 1 makes the first move
    assert GAME.view(s, 1)["setup"] == "tower j10; obstacles q17 e5 c3"
    assert all(isinstance(a, Pick) for a in GAME.legal_actions(s))  # touch-move: a turn starts with a pick


@pytest.mark.parametrize(
    ("moves", "text", "message"),
    [
        ((), "obstacle a5", "a5 is on the border"),
        ((), "tower s10", "s10 is on the border"),
        ((), "obstacle e19", "e19 is on the border"),
        (("obstacle e5",), "obstacle e6", "e6 is next to the obstacle on e5"),
        (("tower e5",), "obstacle f5", "f5 is next to the tower on e5"),
        (("obstacle e5",), "tower e5", "e5 already holds an obstacle"),
        (("tower e5",), "obstacle e5", "e5 already holds the tower"),
        (("tower e5",), "tower k10", "the tower is already on e5"),
        (("obstacle c5", "obstacle e5", "obstacle d4"), "tower d6", "would wall in the empty cell d5"),
        (("obstacle c5", "obstacle e5", "obstacle d4"), "obstacle d6", "every grey obstacle is on the board"),
        ((), "F5 r0 @ k10", "first the board is set up: Player 1 places the obstacles"),
        ((), "pick F5", "'fill' to place the rest at random"),
        (("obstacle c3", "obstacle e5", "obstacle g7"), "X5 r0 @ k10", "places the tower"),
    ],
)
def test_refused_set_up_actions_say_why_and_change_nothing(moves: tuple[str, ...], text: str, message: str) -> None:
    s = _play(_new(3), *moves)
    before = GAME.state_to_dict(s)
    with pytest.raises(IllegalActionError, match=message):
        GAME.apply_text(s, text)
    assert GAME.state_to_dict(s) == before
    assert GAME.parse_action(text, s) not in GAME.legal_actions(s)


def test_an_obstacle_walls_in_a_cell_only_with_obstacles_so_it_is_refused() -> None:
    s = _play(_new(5), "obstacle c5", "obstacle e5", "obstacle d4")
    with pytest.raises(IllegalActionError, match="an obstacle on d6 would wall in the empty cell d5"):
        GAME.apply_text(s, "obstacle d6")
    assert Obstacle(3, 5) not in set(GAME.legal_actions(s))  # d6


def test_set_up_actions_after_the_set_up_are_refused() -> None:
    s = _play(_new(0), "tower j10")
    for text in ("obstacle c3", "tower k12", "fill"):
        with pytest.raises(IllegalActionError, match="the set-up is over"):
            GAME.apply_text(s, text)


def test_legal_set_up_actions_are_every_allowed_cell_twice_and_the_fill() -> None:
    s = _new(3)
    legal = GAME.legal_actions(s)
    actions = list(legal)
    assert len(actions) == len(set(actions)) == legal.count() == 17 * 17 * 2 + 1
    assert Fill() in actions and Tower(1, 1) in actions and Obstacle(1, 1) in actions
    s = _play(s, "obstacle c3", "obstacle e5", "obstacle g7")  # only the tower is left
    actions = list(GAME.legal_actions(s))
    assert all(isinstance(a, (Tower, Fill)) for a in actions) and len(actions) == GAME.legal_actions(s).count()
    rng = Rng(3)
    for _ in range(50):
        assert GAME.legal_actions(s).sample(rng) in actions


def test_fill_hands_the_rest_to_chance_which_replays_from_the_seed() -> None:
    s = _play(_new(6), "obstacle c3", "fill")
    assert GAME.current_player(s) == CHANCE and GAME.is_chance(s)
    assert isinstance(GAME.chance_outcome(s), Tower)  # the tower first, as the all-random set-up does
    outcomes = GAME.chance_outcomes(s)
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9 and len(outcomes) == GAME.legal_actions(s).count()
    log = []
    while GAME.is_chance(s):
        a = GAME.chance_outcome(s)
        assert a == GAME.chance_outcome(s)  # drawn from the state, not from outside
        log.append(GAME.format_action(a, s))
        s = GAME.apply(s, a, CHANCE)
    assert len(log) == 6 and log[0].startswith("tower ") and all(t.startswith("obstacle ") for t in log[1:])
    assert s.placing == 0 and s.obstacles.bit_count() == 6 and GAME.current_player(s) == 0
    again = _play(_new(6), "obstacle c3", "fill")
    while GAME.is_chance(again):
        again = GAME.apply_chance(again)
    assert again == s  # same seed, same actions: the same board
    other = _play(GAME.new_game({"obstacles": 6}, seed=8, players=2), "obstacle c3", "fill")
    while GAME.is_chance(other):
        other = GAME.apply_chance(other)
    assert other.obstacles != s.obstacles


def test_a_forced_chance_outcome_advances_the_generator_and_wrong_ones_are_refused() -> None:
    s = _play(_new(3), "fill")
    natural = GAME.apply(s, GAME.chance_outcome(s), CHANCE)
    forced = GAME.apply(s, Tower(9, 9), CHANCE)
    assert natural.rng == forced.rng != s.rng
    with pytest.raises(IllegalActionError, match="chance places the tower now"):
        GAME.apply(s, Obstacle(9, 9), CHANCE)
    with pytest.raises(IllegalActionError):
        GAME.apply(s, Fill(), 0)  # not the player's turn any more
    assert GAME.determinize(s, 0, Rng(1)).rng != s.rng  # the fill to come is unknown to everyone


def test_placement_random_and_an_explicit_setup_skip_the_set_up() -> None:
    s = GAME.new_game({"placement": "random"}, seed=7, players=2)
    assert s.placing == 0 and s.obstacles.bit_count() == 10 and s.tower
    s = GAME.new_game({"setup": "tower j10; obstacles c3"}, seed=7, players=2)
    assert s.placing == 0 and names_of(s, s.obstacles) == {"c3"}


def test_a_state_in_the_set_up_round_trips_and_its_view_hides_the_generator() -> None:
    for s in (_play(_new(4), "obstacle c3"), _play(_new(4), "obstacle c3", "fill"), _new(4)):
        data = json.loads(json.dumps(GAME.state_to_dict(s)))
        assert GAME.state_from_dict(data) == s
        view = GAME.view(s, 1)
        assert "rng" not in view and view["placing"] == s.placing
        assert view["obstacles_left"] == s.placing - (0 if s.tower else 1) and not view["tower_placed"]
    data = GAME.state_to_dict(_play(_new(4), "obstacle c3"))
    with pytest.raises(StateFormatError, match="placing"):
        GAME.state_from_dict(dict(data, placing=2))
    with pytest.raises(StateFormatError, match="set-up"):
        GAME.state_from_dict(dict(data, turn=1))


def test_ids_and_notation_of_set_up_actions_round_trip() -> None:
    s = _new(3)
    for a in (Obstacle(1, 1), Tower(17, 17), Fill()):
        text = GAME.format_action(a, s)
        assert GAME.parse_action(text, s) == a
        assert GAME.action_from_id(GAME.action_id(a, s), s) == a
    assert GAME.format_action(Obstacle(2, 6), s) == "obstacle c7" and GAME.parse_action("TOWER j10", s) == Tower(9, 9)
    assert GAME.describe_action(Tower(9, 9), s) == "places the white tower on j10"


def test_the_text_view_says_who_sets_up_and_what_is_left() -> None:
    s = _play(_new(3), "obstacle c3")
    text = GAME.render(s)
    assert "Set-up: Player 1 places 2 more obstacle(s) and the tower" in text and "'fill'" in text
    assert "Set-up: the rest is placed at random" in GAME.render(_play(s, "fill"))


def test_touch_move_is_on_by_default_and_a_lost_pick_is_told() -> None:
    # A full board but for a1-b1 and s19: F5 fits nowhere, the domino does.
    from .forma_helpers import new, put, with_stock

    s = new(touch_move=True)
    assert GAME.new_game(seed=1).config["touch_move"] is True
    cells = " ".join(f"{c}{r}" for c in "abcdefghijklmnopqrs" for r in range(1, 20))
    free = {"a1", "b1", "s19"}
    s = put(s, 1, " ".join(c for c in cells.split() if c not in free and c != "p15"), turn=0)
    s = with_stock(s, 0, {"F5": 1, "2": 1})
    assert (
        GAME.describe_action(Pick(17), s) == "picks up F5, which fits nowhere: it leaves the game and picks once more"
    )
    s = GAME.apply_text(s, "pick F5")
    assert GAME.current_player(s) == 0 and s.misses == 1 and not s.stock[0][17]
    assert "the piece just picked fits nowhere and has left the game; pick once more" in GAME.render(s)
    s = GAME.apply_text(s, "pick 2")
    assert s.picked == 1 and "In hand: 2" in GAME.render(s)
