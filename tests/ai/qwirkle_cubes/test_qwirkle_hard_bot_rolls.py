"""The tabulated reroll search of ``hard``: the table of every placement a roll could give finds the same
best placement as walking each hand, and every reroll choice is considered."""

from __future__ import annotations

from games.qwirkle_cubes.qc_helpers import GAME, build
from polytable.ai import make_bot
from polytable.ai.qwirkle_cubes import RollTable, reachable_placements, values_of
from polytable.ai.qwirkle_cubes._player import _rolled, _Values
from polytable.core import CHANCE, Rng
from polytable.games.qwirkle_cubes import REROLL, Reroll, hand_mask, kernel_of, reroll_masks


def test_the_table_agrees_with_walking_every_rolled_hand() -> None:
    # Positions from a greedy game; for each, random rerolls of the hand: the table's best value must be
    # the walk's best value (going-out bonus included once the bag is empty).
    greedy = make_bot("greedy", "qwirkle-cubes")
    rng = Rng(7)
    s = GAME.new_game(players=2, seed=7)
    checked = 0
    decisions = 0
    while not GAME.is_terminal(s) and checked < 60:
        cp = GAME.current_player(s)
        if cp == CHANCE:
            s = GAME.apply(s, GAME.chance_outcome(s), CHANCE)
            continue
        if s.phase == REROLL and s.board.cells and decisions % 3 == 0:
            hand = s.hands[cp]
            values = _Values(values_of(kernel_of(GAME)), s.board, cp, s.hands, s.bag_size == 0, True)
            table = RollTable(s.board, hand, s.hands, cp, 0.0, 6.0 if s.bag_size == 0 else 0.0)
            for _ in range(6):
                rolled = _rolled(hand, rng.below(1 << len(hand)), [rng.below(6) for _ in hand])
                want, placed = values.best(rolled)
                got, found = table.best(hand_mask(rolled))
                assert bool(placed) == bool(found)
                if placed:
                    assert abs(got - want) < 1e-9
                    checked += 1
        decisions += s.phase == REROLL
        s = GAME.apply(s, greedy.choose(GAME, s, cp, rng), cp)
    assert checked >= 60


def test_reachable_placements_respect_colour_counts() -> None:
    # One red cube and one blue: a roll can show any red and any blue face, never two reds.
    s = build("R●@0,0 B●@0,1", ("R■ B■", "O● O■ O◆ O♣ O✦ O✸"))
    found = list(reachable_placements(s.board, s.hands[0]))
    assert found
    for placed in found:
        colours = [t // 6 for t, _ in placed]
        assert colours.count(0) <= 1 and colours.count(4) <= 1
    # R◆ beside R● (a red line) is reachable though the hand shows R■ now.
    assert any(len(p) == 1 and p[0][0] == 2 for p in found)


def test_every_reroll_is_a_candidate() -> None:
    hand = (0, 0, 7, 7, 7, 20)
    masks = reroll_masks(hand)
    assert len(masks) == 3 * 4 * 2  # 0-2 of the first pair, 0-3 of the triple, 0-1 of the last
    assert Reroll(masks[-1]).mask == 0b111111
    assert masks == sorted(set(masks))  # the rules' own list (the AI's candidates): distinct, in id order


def test_hard_rerolls_a_used_cube_for_a_likely_qwirkle() -> None:
    # A green line of 5 lacks only G✸ (a Qwirkle: 12 points). Our one cube, G■, scores 3 now in the green
    # column G● G✸ at x = 0; greedy places it and rerolls nothing. Rerolled, it shows G✸ one time in six
    # (12 points) and another shape that fits the column four times in six (3 points): about 4 on
    # average against 3, so hard rerolls it.
    s = build("G●@0,0 G■@1,0 G◆@2,0 G♣@3,0 G✦@4,0 G✸@0,-1", ("G■", "R● R■ O◆ O♣ Y✦ Y✸"), phase=REROLL)
    greedy = make_bot("greedy", "qwirkle-cubes").choose(GAME, s, 0, Rng(3))
    assert greedy == Reroll(0)
    choice = make_bot("hard:rounds=64,samples=2", "qwirkle-cubes").choose(GAME, s, 0, Rng(3))
    assert choice == Reroll(1)
