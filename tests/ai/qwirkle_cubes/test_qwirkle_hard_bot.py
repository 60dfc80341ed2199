"""The ``hard`` Qwirkle Cubes bot: legal and replayable whole games, its memoised values agree with the
greedy evaluation, and hand-made positions where the right reroll or placement is plain.

Fixed budgets (``rounds``, ``samples``, ``top``) keep these fast and make the choices depend on the
seeds only: a time budget would make them depend on the machine.
"""

from __future__ import annotations

from games.qwirkle_cubes.qc_helpers import GAME, build, cubes
from polytable.ai import make_bot
from polytable.ai.qwirkle_cubes import best_placement, values_of
from polytable.ai.qwirkle_cubes._player import _Candidate, _Scenario, _Values
from polytable.core import CHANCE, Rng
from polytable.games.qwirkle_cubes import PLACE, REROLL, Place, QState, Reroll, kernel_of

SMALL = "hard:rounds=2,samples=2,top=3"


def _play(name: str, seed: int, decisions: int) -> tuple[QState, list[object]]:
    """Play ``name`` against greedy from ``seed`` (every action goes through the checked ``apply``)."""
    bots = [make_bot(name, "qwirkle-cubes"), make_bot("greedy", "qwirkle-cubes")]
    s = GAME.new_game(players=2, seed=seed)
    rng = Rng(seed, stream=5)
    chosen: list[object] = []
    while not GAME.is_terminal(s) and len(chosen) < decisions:
        cp = GAME.current_player(s)
        if cp == CHANCE:
            s = GAME.apply(s, GAME.chance_outcome(s), CHANCE)
            continue
        a = bots[cp].choose(GAME, s, cp, rng)
        assert a in list(GAME.legal_actions(s, cp)) or s.phase == PLACE  # placements: checked by apply
        if cp == 0:
            chosen.append(a)
        s = GAME.apply(s, a, cp)
    return s, chosen


def test_hard_plays_legal_moves_and_replays_from_its_seed() -> None:
    first, moves = _play(SMALL, 21, 16)
    again, moves_again = _play(SMALL, 21, 16)
    assert len(moves) == 16
    assert moves == moves_again
    assert first.points == again.points and first.placed == again.placed
    assert any(isinstance(m, Place) for m in moves) and any(isinstance(m, Reroll) for m in moves)


def test_hard_finishes_a_game() -> None:
    s, _ = _play("hard:rounds=1,samples=1,top=2", 4, 10_000)
    assert GAME.is_terminal(s)
    assert sum(s.points) > 100


def test_memoised_values_agree_with_the_greedy_evaluation() -> None:
    # The bot values placements through a per-board memo keyed by the set of distinct faces; it must
    # find the same best value as the rules package's own greedy evaluation.
    checked = 0
    s = GAME.new_game(players=2, seed=2)
    greedy = make_bot("greedy", "qwirkle-cubes")
    rng = Rng(2)
    while not GAME.is_terminal(s):
        cp = GAME.current_player(s)
        if cp == CHANCE:
            s = GAME.apply(s, GAME.chance_outcome(s), CHANCE)
            continue
        if s.phase in (PLACE, REROLL) and s.board.cells:
            values = _Values(values_of(kernel_of(GAME)), s.board, cp, s.hands, s.bag_size == 0, True)
            got, placed = values.best(s.hands[cp])
            want, _ = best_placement(s, cp)
            assert placed or want == float("-inf")
            assert abs(got - want) < 1e-9
            checked += 1
        s = GAME.apply(s, greedy.choose(GAME, s, cp, rng), cp)
    assert checked > 20


def test_keeps_a_hand_that_is_a_qwirkle() -> None:
    # Six blue cubes of six shapes fit beside the blue cube on the table: 12 points now, going nowhere
    # better by any reroll. Greedy's reroll is empty, and every reroll of a used cube can only lose.
    s = build("B●@0,0 O●@1,0", ("B■ B◆ B♣ B✦ B✸ R●", "Y● Y■ Y◆ Y♣ Y✦ Y✸"), phase=REROLL)
    choice = make_bot("hard:rounds=8,samples=2", "qwirkle-cubes").choose(GAME, s, 0, Rng(2))
    assert isinstance(choice, Reroll)
    red = s.hands[0].index(0)  # R● (a red circle) fits only on a red or circle line: the only cube left over
    assert choice.mask & ~(1 << red) == 0


def test_completes_the_qwirkle_on_the_table() -> None:
    s = build("G●@0,0 G■@1,0 G◆@2,0 G♣@3,0 G✦@4,0", ("G✸ P● P● Y♣ Y♣ R■", "O● O■ O◆ O♣ O✦ O✸"))
    choice = make_bot(SMALL, "qwirkle-cubes").choose(GAME, s, 0, Rng(4))
    assert choice == Place(cubes("G✸@5,0")) or choice == Place(cubes("G✸@-1,0"))


def test_the_sampled_reply_charges_a_line_of_five_the_opponent_can_reroll_into_a_qwirkle() -> None:
    # Playing R♣ R✦ makes a red line of 5 (5 points); the next player holds four red cubes whose shapes
    # are already in the line, so their reroll finds R✸ with probability 1 - (5/6)^4 (about 0.52) for
    # 12 points. Playing G♣ G■ on both sides of G● scores as much (3 + 2) and opens nothing like it.
    s = build("R●@0,0 R■@1,0 R◆@2,0 G●@0,1", ("R♣ R✦ G■ G♣ P♣ P✦", "R● R● R■ R■ O✦ O✸"))
    five = cubes("R♣@3,0 R✦@4,0")
    rng = Rng(9)
    scenarios = [_Scenario(s, rng) for _ in range(100)]
    cand = _Candidate(values_of(kernel_of(GAME)), s, 0, five)
    for sc in scenarios:
        cand.add(sc)
    mean_reply = sum(cand.replies) / len(cand.replies)
    assert 4.0 < mean_reply < 14.0  # about 0.52 x 12 plus what the rest of their hand scores
    choice = make_bot("hard:rounds=2,samples=12", "qwirkle-cubes").choose(GAME, s, 0, Rng(9))
    assert choice != Place(five)
