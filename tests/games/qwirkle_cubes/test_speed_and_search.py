"""The fast paths agree with the slow ones, and the ``hard``/``medium`` bots make sound, replayable choices.

* A board built from its parent inherits memo tables and forgets only the entries the new cubes can
  change; a board built from scratch has none. Both must count and place the same for any hand.
* ``Board.scratch`` (the AI's cheap board for scoring) scores like the full ``with_cubes`` board.
"""

from __future__ import annotations

from games.qwirkle_cubes.qc_helpers import GAME, build, cubes
from polytable.ai import make_bot
from polytable.core import CHANCE, Rng
from polytable.games.qwirkle_cubes import PLACE, REROLL, Board, Place, Reroll, hand_mask


def _random_states(seeds: range, players: int = 2) -> list[object]:
    out = []
    for seed in seeds:
        s = GAME.new_game(players=players, seed=seed)
        rng = Rng(seed, stream=7)
        while not GAME.is_terminal(s):
            if GAME.current_player(s) == CHANCE:
                s = GAME.apply(s, GAME.chance_outcome(s), CHANCE)
            else:
                if s.phase == PLACE and s.board.cells:
                    out.append(s)
                s = GAME.apply(s, GAME.legal_actions(s).sample(rng))
    return out


def test_inherited_memo_tables_agree_with_a_fresh_board() -> None:
    rng = Rng(99)
    checked = 0
    for s in _random_states(range(3), players=3):
        fresh = Board(s.placed)  # type: ignore[attr-defined]
        board = s.board  # type: ignore[attr-defined]
        assert fresh.placeable() == board.placeable()
        hands = [hand_mask(s.hand)]  # type: ignore[attr-defined]
        hands.append(hand_mask(tuple(rng.below(36) for _ in range(6))))
        for h in hands:
            assert fresh.count(h) == board.count(h)
            checked += 1
        if checked % 10 == 0:
            h = hands[0]
            assert list(fresh.placements(h)) == list(board.placements(h))
    assert checked > 100


def test_scratch_board_scores_like_the_full_board() -> None:
    rng = Rng(5)
    for s in _random_states(range(3)):
        board = s.board  # type: ignore[attr-defined]
        options = list(board.placements(hand_mask(s.hand)))  # type: ignore[attr-defined]
        placed = options[rng.below(len(options))]
        assert board.scratch(placed).score_placed(placed) == board.with_cubes(placed).score_placed(placed)


def test_hard_rerolls_for_the_qwirkle_greedy_would_not_chase() -> None:
    # Five reds wait for R✸. Greedy plays Y♣ Y◆ (2 points) and rerolls only the purple cubes; the search
    # sees that rerolling the red cube too (1 in 6 for R✸: 12 points) is worth more on average.
    s = build(
        "R●@0,0 R■@1,0 R◆@2,0 R♣@3,0 R✦@4,0 Y●@0,1",
        ("R● Y♣ P✸ P✸ P✸ P✸", "O● O■ O◆ O♣ O✦ O✸"),
        phase=REROLL,
    )
    hard = make_bot("hard:seconds=0.5", "qwirkle-cubes")
    choice = hard.choose(GAME, s, 0, Rng(3))
    assert isinstance(choice, Reroll)
    red_slot = s.hands[0].index(0)
    assert choice.mask >> red_slot & 1


def test_hard_and_medium_play_whole_games_and_replay() -> None:
    # One sample per reroll mask and few candidates keep this fast; the code paths are those of the
    # timed bots. With ``rounds`` fixed the choices depend on the seeds only, so a game replays.
    for name, players, steps in (("medium:rounds=1,top=3", 2, 10_000), ("hard:rounds=1,top=2", 3, 150)):
        finals = []
        for _ in range(2):
            bots = [make_bot(name, "qwirkle-cubes") for _ in range(players)]
            s = GAME.new_game(players=players, seed=11)
            rng = Rng(11, stream=2)
            for _ in range(steps):
                if GAME.is_terminal(s):
                    break
                cp = GAME.current_player(s)
                a = GAME.chance_outcome(s) if cp == CHANCE else bots[cp].choose(GAME, s, cp, rng)
                s = GAME.apply(s, a, cp)  # checks legality
            finals.append((s.points, s.placed))
        assert finals[0] == finals[1]
        assert players == 3 or GAME.is_terminal(s)


def test_hard_avoids_the_reply_it_hands_over() -> None:
    s = build("R●@0,0 R■@1,0 R◆@2,0", ("R♣ R✦ G● G■ G◆ G♣", "R✸ O■ O◆ O♣ O✦ O✸"))
    hard = make_bot("hard:seconds=0.1", "qwirkle-cubes")
    choice = hard.choose(GAME, s, 0, Rng(1))
    assert isinstance(choice, Place)
    assert choice.cubes != cubes("R♣@3,0 R✦@4,0")
